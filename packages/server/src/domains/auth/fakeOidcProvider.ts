import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Who the provider says the person is. */
export interface FakeIdentity {
  sub: string;
  email: string;
  email_verified: boolean;
}

interface PendingCode {
  nonce: string;
  challenge: string;
  redirectUri: string;
  identity: FakeIdentity;
}

/**
 * A minimal OpenID Connect provider on the loopback for tests: discovery, JWKS, and a token
 * endpoint that checks the client secret and PKCE and returns an RS256-signed ID token. The
 * "login at the provider" is `authorize()`, called by the test with the redirect's query.
 */
export class FakeOidcProvider {
  readonly clientId = 'lattice-test-client';
  readonly clientSecret = 'lattice-test-secret';
  private readonly keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  private readonly kid = randomBytes(8).toString('hex');
  private readonly codes = new Map<string, PendingCode>();
  private server: Server | null = null;
  issuer = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      request.on('end', () => {
        const [status, json] = this.route(request.url ?? '/', body, request.headers.authorization);
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(json));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.issuer = `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** Plays the person signing in at the provider: returns the code for the callback. */
  authorize(authorizationUrl: string, identity: FakeIdentity): { code: string; state: string } {
    const query = new URL(authorizationUrl).searchParams;
    const code = randomBytes(16).toString('hex');
    this.codes.set(code, {
      nonce: query.get('nonce') ?? '',
      challenge: query.get('code_challenge') ?? '',
      redirectUri: query.get('redirect_uri') ?? '',
      identity,
    });
    return { code, state: query.get('state') ?? '' };
  }

  private route(url: string, body: string, authorization: string | undefined): [number, unknown] {
    const path = url.split('?')[0];
    if (path === '/.well-known/openid-configuration') return [200, this.discovery()];
    if (path === '/jwks') {
      const jwk = this.keys.publicKey.export({ format: 'jwk' });
      return [200, { keys: [{ ...jwk, kid: this.kid, alg: 'RS256', use: 'sig' }] }];
    }
    if (path === '/token') return this.token(new URLSearchParams(body), authorization);
    return [404, { error: 'not_found' }];
  }

  private discovery() {
    return {
      issuer: this.issuer,
      authorization_endpoint: `${this.issuer}/authorize`,
      token_endpoint: `${this.issuer}/token`,
      jwks_uri: `${this.issuer}/jwks`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      code_challenge_methods_supported: ['S256'],
    };
  }

  private token(form: URLSearchParams, authorization: string | undefined): [number, unknown] {
    const basic = authorization?.startsWith('Basic ')
      ? Buffer.from(authorization.slice(6), 'base64')
          .toString('utf8')
          .split(':')
          .map(decodeURIComponent)
      : [];
    const clientId = form.get('client_id') ?? basic[0];
    const clientSecret = form.get('client_secret') ?? basic[1];
    if (clientId !== this.clientId || clientSecret !== this.clientSecret) {
      return [401, { error: 'invalid_client' }];
    }
    const pending = this.codes.get(form.get('code') ?? '');
    this.codes.delete(form.get('code') ?? '');
    const verifier = form.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (
      pending === undefined ||
      pending.challenge !== challenge ||
      pending.redirectUri !== form.get('redirect_uri')
    ) {
      return [400, { error: 'invalid_grant' }];
    }
    return [
      200,
      {
        access_token: randomBytes(16).toString('hex'),
        token_type: 'Bearer',
        expires_in: 3600,
        id_token: this.idToken(pending),
      },
    ];
  }

  private idToken(pending: PendingCode): string {
    const now = Math.floor(Date.now() / 1000);
    const header = { alg: 'RS256', kid: this.kid, typ: 'JWT' };
    const payload = {
      iss: this.issuer,
      aud: this.clientId,
      iat: now,
      exp: now + 300,
      nonce: pending.nonce,
      ...pending.identity,
    };
    const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
    const signingInput = `${encode(header)}.${encode(payload)}`;
    const signature = sign('sha256', Buffer.from(signingInput), this.keys.privateKey);
    return `${signingInput}.${signature.toString('base64url')}`;
  }
}
