import { createHmac } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../http/errors.js';
import { apiKeyHooks } from '../apiKeys/apiKeyAuth.js';
import { apiKeyRoutes } from '../apiKeys/apiKeys.routes.js';
import { devRoutes } from '../dev/dev.routes.js';
import { createMailer, type Mailer } from '../mail/mailer.js';
import { settingsRoutes } from '../settings/settings.routes.js';
import type { AccountsDeps } from './accountsDeps.js';
import { authRoutes } from './auth.routes.js';
import { CSRF_HEADER, csrfTokenMatches, originAllowed, SAFE_METHODS } from './csrf.js';
import { fail } from './fail.js';
import { googleRoutes } from './google.routes.js';
import { takeOrFail } from './guards.js';
import { createAuthLimiters } from './limits.js';
import { schedulePruning } from './maintenance.js';
import { withCsrfToken } from './requestAuth.js';
import { createSecretBox } from './secretBox.js';

/** A route that changes state, as recorded from the router (the CSRF test walks these). */
export interface StateChangingRoute {
  method: string;
  url: string;
  csrfExempt: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every non-GET route registered after the accounts plugin. */
    stateChangingRoutes: StateChangingRoute[];
  }
}

export interface AccountsOptions {
  /** The clock; tests move it. */
  now?: () => number;
  /** Replaces the mailer built from the config (tests). */
  mailer?: Mailer;
}

/**
 * Accounts and security: cookie sessions, the CSRF check on every state-changing request,
 * API-key signatures, the global per-IP limit, and the routes of sign-up, sign-in, settings,
 * sessions, API keys and the development mailbox. Register it before every other feature
 * plugin: its hooks apply to routes registered after it.
 */
export function accountsPluginWith(options: AccountsOptions): FastifyPluginAsync {
  return fp(async (app) => registerAccounts(app, options), { name: 'accounts' });
}

/** The accounts plugin with the real clock and the mailer of the configuration. */
export const accountsPlugin = accountsPluginWith({});

async function registerAccounts(app: FastifyInstance, options: AccountsOptions): Promise<void> {
  const { config } = app;
  const now = options.now ?? Date.now;
  await app.register(fastifyCookie, { secret: derivedKey(config.secretKey, 'cookie') });
  const mailer =
    options.mailer ??
    createMailer({
      db: app.db,
      smtpUrl: config.smtpUrl,
      mailFrom: config.mailFrom,
      log: app.log,
      now,
    });
  const deps: AccountsDeps = {
    db: app.db,
    mailer,
    limiters: createAuthLimiters(config.rateLimitScale, now),
    now,
    secretKey: derivedKey(config.secretKey, 'csrf'),
    publicUrl: config.publicUrl,
    allowedOrigins: [new URL(config.publicUrl).origin],
    totpBox: createSecretBox(config.secretKey, 'totp'),
    apiKeyBox: createSecretBox(config.secretKey, 'api-key'),
  };
  app.decorate('accounts', deps);
  app.decorateRequest('auth', null);
  app.decorateRequest('authState', null);
  app.addHook('onClose', async () => mailer.close());
  recordStateChangingRoutes(app);
  schedulePruning(app, now);
  // NOTE: callback style, not async: every request passes these hooks, and an async hook costs
  // a promise and a turn of the microtask queue each even when it has nothing to wait for.
  app.addHook('onRequest', limitRequestsPerIp);
  app.addHook('onRequest', checkCsrf);
  app.addHook('onSend', sendCsrfToken);
  apiKeyHooks(app);

  await app.register(authRoutes);
  await app.register(googleRoutes);
  await app.register(settingsRoutes);
  await app.register(apiKeyRoutes);
  if (config.devTools) await app.register(devRoutes);
}

function recordStateChangingRoutes(app: FastifyInstance): void {
  app.decorate('stateChangingRoutes', [] as StateChangingRoute[]);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (SAFE_METHODS.has(method)) continue;
      app.stateChangingRoutes.push({
        method,
        url: route.url,
        csrfExempt: route.config?.csrf === false,
      });
    }
  });
}

/** A key for one purpose, so the cookie signatures and CSRF tokens never share SECRET_KEY. */
function derivedKey(secretKey: string, purpose: string): string {
  return createHmac('sha256', secretKey).update(`lattice:${purpose}`).digest('base64url');
}

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?') || url === '/ws';
}

function limitRequestsPerIp(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  // A refusal throws: Fastify answers a hook's throw as it answers a rejection.
  if (isApiPath(request.url)) {
    takeOrFail(request.server.accounts.limiters.requestsPerIp, request.ip);
  }
  done();
}

/**
 * Every request other than GET/HEAD/OPTIONS carries the session's token in `X-CSRF-Token`, and
 * a browser's `Origin`, when sent, names this site. Requests signed with an API key are exempt:
 * their signature (checked before validation) proves them, and no browser adds that header
 * cross-site without a CORS preflight we never grant.
 */
function checkCsrf(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  if (
    SAFE_METHODS.has(request.method) ||
    request.routeOptions.config?.csrf === false ||
    request.headers['x-api-key'] !== undefined
  ) {
    done();
    return;
  }
  const { allowedOrigins } = request.server.accounts;
  if (!originAllowed(request.headers.origin, request.headers.host, allowedOrigins)) {
    fail('auth_csrf_invalid');
  }
  const sent = request.headers[CSRF_HEADER];
  withCsrfToken(
    request,
    (expected) => {
      const matches =
        expected !== null &&
        csrfTokenMatches(expected, typeof sent === 'string' ? sent : undefined);
      done(matches ? undefined : new AppError('auth_csrf_invalid'));
    },
    done,
  );
}

/** Responses to POST carry the current token; after sign-in or sign-out, the new one. */
function sendCsrfToken(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: Error | null, payload?: unknown) => void,
): void {
  if (request.method !== 'POST' || request.headers['x-api-key'] !== undefined) {
    done(null, payload);
    return;
  }
  withCsrfToken(
    request,
    (token) => {
      if (token !== null) reply.header(CSRF_HEADER, token);
      done(null, payload);
    },
    done,
  );
}
