// The app the malformed-input tests attack: every route it registers, a signed-in trader with
// money and an API key, and the rule each answer must keep.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorBody, isErrorCode } from '@lattice/contracts';
import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { afterAll, beforeAll } from 'vitest';
import { appPlugins, buildApp } from '../app.js';
import { insertApiKey } from '../domains/apiKeys/apiKeys.repo.js';
import { createSignedInUser, type TestUser } from '../domains/auth/testClient.js';
import { fundTrade, placeLimit } from '../domains/orders/tradingTestKit.js';
import { seedReferenceData } from '../reference/reference.seed.js';
import { testConfig } from '../testing/testConfig.js';
import { useTestDb } from '../testing/testDb.js';

export interface MalformedInputApp {
  readonly app: FastifyInstance;
  readonly trader: TestUser;
  /** The trader's API key, with every scope. */
  readonly apiKey: { key: string; secret: string };
  /** Every route the app registered, but HEAD and OPTIONS. */
  readonly registered: readonly { method: string; url: string }[];
}

/**
 * Well-formed parameter values for the cases that attack the body or the query, so those reach
 * the route's own checks. None names a record the trader owns, so nothing is cancelled.
 */
const usualParams: Record<string, string> = {
  pair: 'BTC_USDT',
  coin: 'BTC',
  ticker: 'BTC',
  paymentKey: 'CRYPTOMEMO',
  network: 'bitcoin',
  txHash: 'ab'.repeat(32),
  file: 'btc.svg',
  token: 'f'.repeat(64),
  id: '999999',
};

export function usualPath(url: string): string {
  return url
    .replace(/:([A-Za-z_]\w*)/g, (_all, name: string) => usualParams[name] ?? '1')
    .replace(/\*/g, 'trade');
}

/** Why an answer breaks the rule, or null when it keeps it. */
export function fault(response: { statusCode: number; body: string }): string | null {
  if (response.statusCode >= 500) return `status ${response.statusCode}: ${response.body}`;
  if (response.statusCode < 400) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    return `status ${response.statusCode} without a JSON body: ${response.body.slice(0, 200)}`;
  }
  const shaped = errorBody.safeParse(parsed);
  return shaped.success && isErrorCode(shaped.data.code)
    ? null
    : `status ${response.statusCode}, not the error shape: ${response.body.slice(0, 200)}`;
}

/**
 * Gives the calling test file the app, built before its tests on a database of its own and
 * closed after them. Read its members inside tests and hooks.
 */
export function useMalformedInputApp(): MalformedInputApp {
  const testDb = useTestDb();
  const registered: { method: string; url: string }[] = [];
  let state: Omit<MalformedInputApp, 'registered'> | undefined;

  // Registered first, so its hook sees every route the product's plugins add.
  const routeCollector: FastifyPluginAsync = fp(async (instance) => {
    instance.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        registered.push({ method, url: route.url });
      }
    });
  });

  // A web app of its own, so the answers do not depend on whether the real one is built.
  const webDistDir = mkdtempSync(join(tmpdir(), 'lattice-web-'));
  let app: FastifyInstance | undefined;

  beforeAll(async () => {
    writeFileSync(join(webDistDir, 'index.html'), '<!doctype html><title>Lattice</title>');
    const { db, dialect } = testDb.current;
    await seedReferenceData(db, { demoUsers: false, hashPassword: async () => 'x' });
    app = await buildApp(testConfig({ demoMaker: false, rateLimitScale: 1_000_000 }), {
      db,
      dialect,
      plugins: [routeCollector, ...appPlugins],
      webDistDir,
    });
    await app.ready();
    const trader = await createSignedInUser(app, { twoFactor: true, kyc: true });
    await fundTrade(app, trader.user.id, 'BTC', '2');
    await fundTrade(app, trader.user.id, 'USDT', '50000');
    // An open order: a request that wrongly cancelled or filled it would show in the state.
    await placeLimit(trader.client, 'ETH_USDT', 'buy', '1000', '0.5');
    const secret = randomBytes(32).toString('hex');
    const row = await insertApiKey(db, {
      userId: trader.user.id,
      name: 'malformed input',
      apiKey: randomBytes(16).toString('hex'),
      secretSealed: app.accounts.apiKeyBox.seal(secret),
      scopes: ['read', 'trade', 'withdraw'],
      ipAllowList: [],
      now: app.accounts.now(),
    });
    state = { app, trader, apiKey: { key: row.api_key, secret } };
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    rmSync(webDistDir, { recursive: true, force: true });
  });

  const current = () => {
    if (!state) throw new Error('useMalformedInputApp: the app exists only inside tests and hooks');
    return state;
  };
  return {
    get app() {
      return current().app;
    },
    get trader() {
      return current().trader;
    },
    get apiKey() {
      return current().apiKey;
    },
    registered,
  };
}
