import * as oidc from 'openid-client';
import type { Config } from '../../config.js';

/** What we keep of a Google sign-in: the stable subject and a verified address. */
export interface GoogleIdentity {
  subject: string;
  email: string;
}

/** The state of one authorization round trip, kept in a signed cookie until the callback. */
export interface GoogleFlow {
  state: string;
  nonce: string;
  verifier: string;
}

/**
 * Google sign-in over OpenID Connect (authorization code with PKCE, state and nonce), through
 * openid-client. Discovery runs once, on first use; the issuer comes from the configuration,
 * so any OIDC provider works (tests run a local one).
 */
export class GoogleSignIn {
  private discovered: Promise<oidc.Configuration> | null = null;

  constructor(
    private readonly settings: NonNullable<Config['oidc']>,
    private readonly redirectUri: string,
  ) {}

  private configuration(): Promise<oidc.Configuration> {
    if (this.discovered === null) {
      const issuer = new URL(this.settings.issuer);
      // NOTE: plain HTTP only for an issuer on this machine (development, tests).
      const local =
        issuer.protocol === 'http:' && ['127.0.0.1', 'localhost'].includes(issuer.hostname);
      this.discovered = oidc
        .discovery(issuer, this.settings.clientId, this.settings.clientSecret, undefined, {
          ...(local ? { execute: [oidc.allowInsecureRequests] } : {}),
        })
        .catch((error: unknown) => {
          this.discovered = null;
          throw error;
        });
    }
    return this.discovered;
  }

  /** Where to send the browser, and the flow state to keep until it comes back. */
  async start(): Promise<{ url: string; flow: GoogleFlow }> {
    const config = await this.configuration();
    const flow: GoogleFlow = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    return { url: url.href, flow };
  }

  /**
   * Exchanges the callback's code and checks the ID token (signature, issuer, audience, expiry,
   * nonce, state, PKCE). Null when the address is not verified by the provider.
   */
  async finish(callbackUrl: URL, flow: GoogleFlow): Promise<GoogleIdentity | null> {
    const config = await this.configuration();
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (
      claims === undefined ||
      typeof claims.email !== 'string' ||
      claims.email_verified !== true
    ) {
      return null;
    }
    return { subject: claims.sub, email: claims.email.toLowerCase() };
  }
}
