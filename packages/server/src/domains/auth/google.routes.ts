import { authMessages, googleRegisterRequest } from '@lattice/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail, failField, parseWith } from './fail.js';
import { type GoogleFlow, type GoogleIdentity, GoogleSignIn } from './google.js';
import { accountForGoogle, createGoogleAccount } from './google.service.js';
import { presentSessionUser } from './present.js';
import { startSession } from './signIn.js';

const FLOW_COOKIE = 'lattice_oidc';
const SIGN_UP_COOKIE = 'lattice_google_signup';
const FLOW_TTL_S = 600;

function setSignedJson(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: object,
  path: string,
) {
  reply.setCookie(name, JSON.stringify(value), {
    path,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    signed: true,
    maxAge: FLOW_TTL_S,
  });
}

function readSignedJson<T>(request: FastifyRequest, name: string): T | null {
  const raw = request.cookies[name];
  if (raw === undefined) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return null;
  try {
    return JSON.parse(unsigned.value) as T;
  } catch {
    return null;
  }
}

/**
 * Google sign-in and sign-up (OpenID Connect), on only when OIDC_* is configured. The browser
 * goes to Google and back to the callback; a known account is signed in (2FA still asked), an
 * unknown one goes to the register page to accept the terms, then `register/google`.
 */
export async function googleRoutes(app: FastifyInstance): Promise<void> {
  const deps = app.accounts;
  const settings = app.config.oidc;
  const google =
    settings === null
      ? null
      : new GoogleSignIn(settings, `${deps.publicUrl}/api/auth/google/callback`);

  app.get('/api/check-google-auth', async (request) => {
    const pending = readSignedJson<GoogleIdentity>(request, SIGN_UP_COOKIE);
    return { enabled: google !== null, signUp: pending === null ? null : { email: pending.email } };
  });

  app.get('/api/auth/google', async (request, reply) => {
    if (google === null) fail('auth_google_unavailable');
    const { url, flow } = await google.start();
    setSignedJson(request, reply, FLOW_COOKIE, flow, '/api/auth/google');
    return reply.redirect(url);
  });

  app.get('/api/auth/google/callback', async (request, reply) => {
    if (google === null) fail('auth_google_unavailable');
    const flow = readSignedJson<GoogleFlow>(request, FLOW_COOKIE);
    reply.clearCookie(FLOW_COOKIE, { path: '/api/auth/google' });
    if (flow === null) return reply.redirect('/login?error=google');
    let identity: GoogleIdentity | null;
    try {
      identity = await google.finish(new URL(request.url, deps.publicUrl), flow);
    } catch (error) {
      request.log.info({ err: error }, 'Google sign-in refused');
      return reply.redirect('/login?error=google');
    }
    if (identity === null) return reply.redirect('/login?error=google_email');
    const user = await accountForGoogle(deps, identity);
    if (user === null) {
      setSignedJson(request, reply, SIGN_UP_COOKIE, identity, '/api');
      return reply.redirect('/register?google=1');
    }
    const needsCode = user.totp_secret !== null;
    await startSession(request, reply, user.id, needsCode ? '2fa' : 'active');
    return reply.redirect(needsCode ? '/2fa' : '/');
  });

  app.post('/api/v2/register/google', async (request, reply) => {
    const body = parseWith(googleRegisterRequest, request.body);
    const identity = readSignedJson<GoogleIdentity>(request, SIGN_UP_COOKIE);
    if (identity === null) fail('auth_google_failed');
    const language = request.headers['accept-language']?.slice(0, 2) ?? 'en';
    const user = await createGoogleAccount(
      deps,
      identity,
      body.country,
      ['ru', 'es'].includes(language) ? language : 'en',
    );
    if (user === null) failField('email', authMessages.emailInUse);
    reply.clearCookie(SIGN_UP_COOKIE, { path: '/api' });
    await startSession(request, reply, user.id, 'active');
    return { status: 'ok', user: presentSessionUser(user) };
  });
}
