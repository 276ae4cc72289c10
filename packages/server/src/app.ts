import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, LogController } from 'fastify';
import type { Config } from './config.js';
import type { Db, SqlDialect } from './db/database.js';
import { apiDocsRoutes } from './domains/apiDocs/apiDocs.routes.js';
import { accountsPlugin } from './domains/auth/accounts.plugin.js';
import { chainsPlugin } from './domains/chains/chains.plugin.js';
import { chainExplorerRoutes, devChainRoutes } from './domains/chains/chains.routes.js';
import { demoMakerPlugin } from './domains/demoMaker/demoMaker.plugin.js';
import { depositsRoutes } from './domains/deposits/deposits.routes.js';
import { healthRoutes } from './domains/health/health.routes.js';
import { marketDataPlugin } from './domains/marketData/marketData.plugin.js';
import { marketDataRoutes } from './domains/marketData/marketData.routes.js';
import { marketStatsRoutes } from './domains/markets/marketStats.routes.js';
import { marketsRoutes } from './domains/markets/markets.routes.js';
import { ordersRoutes } from './domains/orders/orders.routes.js';
import { tradingRoutes } from './domains/orders/trading.routes.js';
import { vouchersRoutes } from './domains/vouchers/vouchers.routes.js';
import { paymentDataRoutes } from './domains/wallet/paymentData.routes.js';
import { walletRoutes } from './domains/wallet/wallet.routes.js';
import { whitelistRoutes } from './domains/whitelist/whitelist.routes.js';
import { withdrawalsRoutes } from './domains/withdrawals/withdrawals.routes.js';
import { engineHostPlugin } from './engineHost/engineHost.plugin.js';
import { AppError, handleError } from './http/errors.js';
import { registerWebApp } from './http/webApp.js';
import { realtimePlugin } from './realtime/realtime.plugin.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    dialect: SqlDialect;
  }
}

export interface AppDeps {
  /** An open, migrated database. The caller owns it and closes it after the app. */
  db: Db;
  dialect: SqlDialect;
  /**
   * Feature plugins, registered in order after the core (config, db, errors, health) and
   * before the web app's catch-all. Each sees `app.config`, `app.db` and `app.dialect`; a
   * plugin whose decorations others need is wrapped in `fastify-plugin`. Defaults to
   * `appPlugins`, the product's list.
   */
  plugins?: readonly FastifyPluginAsync[];
  /** The built web app; defaults to `packages/web/dist`. */
  webDistDir?: string;
}

/**
 * Where `vite build` puts the web app: `packages/web/dist`, two levels up from this file both
 * as source (`packages/server/src`) and bundled (`packages/server/dist`).
 */
export const defaultWebDistDir = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** The product's feature plugins, in registration order. */
// The accounts plugin comes first: its hooks (session, CSRF, API keys) apply to the routes
// registered after it.
export const appPlugins: readonly FastifyPluginAsync[] = [
  accountsPlugin,
  healthRoutes,
  engineHostPlugin,
  marketDataPlugin,
  ordersRoutes,
  tradingRoutes,
  walletRoutes,
  paymentDataRoutes,
  vouchersRoutes,
  marketDataRoutes,
  marketsRoutes,
  marketStatsRoutes,
  chainsPlugin,
  depositsRoutes,
  withdrawalsRoutes,
  whitelistRoutes,
  apiDocsRoutes,
  chainExplorerRoutes,
  devChainRoutes,
  realtimePlugin,
  demoMakerPlugin,
];

/** Requests larger than this are refused with 413 before they are read further. */
export const requestBodyBytesMax = 256 * 1024;
const requestIdLengthMax = 64;

/** A hop count as the function proxy-addr compiles one to (Fastify's types take no number). */
function trustProxyOption(trust: Config['trustProxy']) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

/** Builds the whole server without listening; tests call `inject()` on it. */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: requestBodyBytesMax,
    // No limit on a plugin's start (Fastify's default is 10 s): the engine host's recovers the
    // engine before the server listens, and a long history's snapshot, or a journal replayed
    // after snapshots failed, takes longer than that. The server must start however long it
    // takes; recovery logs what it reads meanwhile.
    pluginTimeout: 0,
    // Behind a reverse proxy every request would come from the proxy's address: rate limits,
    // socket connection limits and session records need the client's, from X-Forwarded-For.
    trustProxy: trustProxyOption(config.trustProxy),
    // A URL the router cannot read (bad percent-encoding, a parameter over the length limit)
    // fails before any hook: without this it would get Fastify's own body, not the API's.
    frameworkErrors: handleError,
    // One log line per request, written by the onResponse hook below.
    logController: new LogController({
      disableRequestLogging: true,
      requestIdLogLabel: 'requestId',
    }),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && isSafeRequestId(given) ? given : randomUUID();
    },
  });
  app.decorate('config', config);
  app.decorate('db', deps.db);
  app.decorate('dialect', deps.dialect);

  // JSON is the only body the API reads; text/plain would reach routes as a string.
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler(handleError);
  const logsRequests = ['trace', 'debug', 'info'].includes(config.logLevel);
  // NOTE: these hooks run on every request; callback style (no promise per hook) keeps them cheap.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body !== undefined && !isPlainObject(request.body)) {
      done(new AppError('request_body_not_object'));
      return;
    }
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (logsRequests) {
      request.log.info(
        {
          method: request.method,
          url: request.url,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
        },
        'request',
      );
    }
    done();
  });

  for (const plugin of deps.plugins ?? appPlugins) {
    await app.register(plugin);
  }
  await registerWebApp(app, deps.webDistDir ?? defaultWebDistDir);
  return app;
}

function isSafeRequestId(id: string): boolean {
  return id.length > 0 && id.length <= requestIdLengthMax && /^[\w.:-]+$/.test(id);
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
