import {
  loginRequest,
  passwordEmailRequest,
  passwordResetRequest,
  passwordTokenQuery,
  registerRequest,
  twoFactorCodeRequest,
} from '@lattice/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { confirmDevice, ensureDeviceId } from './devices.js';
import { fail, parseWith } from './fail.js';
import { logIn, sendDeviceCode } from './login.service.js';
import { requestPasswordReset, resetPassword, validateResetToken } from './password.service.js';
import { presentSessionUser } from './present.js';
import { confirmEmail, register } from './registration.service.js';
import { cookieSession, optionalUser } from './requestAuth.js';
import { clientInfo } from './sessions.js';
import { endSession, startSession } from './signIn.js';
import { systemParams } from './systemParams.js';
import { verifyUserTotp } from './twoFactor.js';

/** The language a new account's mail is written in, from the browser's preference. */
function preferredLanguage(request: FastifyRequest): string {
  const first = request.headers['accept-language']?.split(',')[0]?.trim().slice(0, 2);
  return first === 'ru' || first === 'es' ? first : 'en';
}

/** Sign-up, sign-in (device and 2FA steps), sign-out, password reset and the page globals. */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const deps = app.accounts;

  app.get('/api/systemParams', { preHandler: optionalUser }, (request, reply) =>
    systemParams(request, reply),
  );

  app.post('/api/v2/register', async (request, reply) => {
    const body = parseWith(registerRequest, request.body);
    await register(deps, body, request.ip, preferredLanguage(request));
    return reply.status(201).send({ status: 'confirmation_sent' });
  });

  app.post<{ Params: { token: string } }>(
    '/api/v2/register/confirmation/:token',
    async (request, reply) => {
      const user = await confirmEmail(deps, request.params.token);
      if (user === null) fail('auth_link_invalid', { errors: { token: ['Token is required'] } });
      // Opening the link proves the mailbox from this browser: it becomes a confirmed device.
      const deviceId = ensureDeviceId(request, reply);
      await confirmDevice(deps.db, user.id, deviceId, clientInfo(request), deps.now());
      await startSession(request, reply, user.id, 'active');
      return { status: 'ok', user: presentSessionUser(user) };
    },
  );

  app.post('/api/v2/login', async (request, reply) => {
    const body = parseWith(loginRequest, request.body);
    const deviceId = ensureDeviceId(request, reply);
    const outcome = await logIn(deps, body, clientInfo(request), deviceId);
    if (outcome.next === 'device_confirmation') {
      await startSession(request, reply, outcome.user.id, 'device');
      return { status: 'device_confirmation' };
    }
    if (outcome.next === '2fa') {
      await startSession(request, reply, outcome.user.id, '2fa');
      return { status: '2fa' };
    }
    await startSession(request, reply, outcome.user.id, 'active');
    return { status: 'ok', user: presentSessionUser(outcome.user) };
  });

  app.post('/api/v2/resendDeviceCode', async (request, reply) => {
    const pending = await cookieSession(request);
    if (pending === null || pending.session.stage !== 'device') fail('auth_required');
    const deviceId = ensureDeviceId(request, reply);
    await sendDeviceCode(deps, pending.user, deviceId, clientInfo(request));
    return { status: 'device_confirmation' };
  });

  app.post('/api/v2/2fa/validate', async (request, reply) => {
    const body = parseWith(twoFactorCodeRequest, request.body);
    const pending = await cookieSession(request);
    if (pending === null || pending.session.stage !== '2fa') fail('auth_required');
    await verifyUserTotp(deps, pending.user, body.code, request.ip);
    await startSession(request, reply, pending.user.id, 'active');
    return { status: 'ok', user: presentSessionUser(pending.user) };
  });

  app.post('/api/logout', async (request, reply) => {
    await endSession(request, reply);
    return { status: 'ok' };
  });

  app.post('/api/v2/password/email', async (request) => {
    const body = parseWith(passwordEmailRequest, request.body);
    return requestPasswordReset(deps, body.email, request.ip);
  });

  // The reset page's "send again": the same generic answer as the first request.
  app.post('/api/v2/password/resetcode', async (request) => {
    const body = parseWith(passwordEmailRequest, request.body);
    return requestPasswordReset(deps, body.email, request.ip);
  });

  app.get('/api/v2/password/validate', async (request) => {
    const query = parseWith(passwordTokenQuery, request.query);
    return validateResetToken(deps, query.token);
  });

  app.post('/api/v2/password/reset', async (request) => {
    const body = parseWith(passwordResetRequest, request.body);
    await resetPassword(deps, body, request.ip);
    return { status: 'ok' };
  });
}
