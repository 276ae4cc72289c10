import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appPlugins, buildApp } from '../../app.js';
import { seedReferenceData } from '../../reference/reference.seed.js';
import { testConfig } from '../../testing/testConfig.js';
import { useTestDb } from '../../testing/testDb.js';

const testDb = useTestDb();
let app: FastifyInstance;
/** Every route the app registered, as `METHOD /openapi/{path}`. */
const registered: string[] = [];

// Registered first, so its hook sees every route the product's plugins add.
const routeCollector: FastifyPluginAsync = fp(async (instance) => {
  instance.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      registered.push(`${method} ${route.url.replace(/:([A-Za-z_]\w*)/g, '{$1}')}`);
    }
  });
});

/** The wallet's calls: balances, transfers, deposits, withdrawals, fees, whitelist, codes. */
const walletCall =
  /\/(balance|profile\/(address|transfer|code|depositdata|withdrawaldata|withdraw_kyc_limit)|deposit_history|withdraw_history|withdrawals|blockHeight|whitelist|whitelisted|delete-whitelisted|2fa-confirm-whitelist|dev\/(withdrawals|currencies))/;

beforeAll(async () => {
  const { db, dialect } = testDb.current;
  await seedReferenceData(db, { demoUsers: false, hashPassword: async () => 'x' });
  app = await buildApp(testConfig({ demoMaker: false }), {
    db,
    dialect,
    plugins: [routeCollector, ...appPlugins],
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

async function openApi() {
  const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe('the OpenAPI document', () => {
  it('lists every withdrawal, fee and code call with its body schema', async () => {
    const document = await openApi();
    expect(document.openapi).toBe('3.1.0');
    const withdraw = document.paths['/api/v3/balance/withdrawal-{ticker}/{paymentKey}'].post;
    const schema = withdraw.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['amount', 'address', 'code']));
    for (const path of [
      '/api/v3/balance/calcfee-{ticker}/{paymentKey}',
      '/api/v2/withdrawals/confirm',
      '/api/v2/profile/code/create',
      '/api/v2/profile/code/apply',
      '/api/v2/profile/code/delete',
      '/api/v2/profile/address',
      '/api/v2/profile/transfer',
      '/api/dev/currencies/fee',
    ]) {
      const body = document.paths[path].post.requestBody;
      expect(body, path).toBeDefined();
      expect(body.content['application/json'].schema.properties, path).toBeDefined();
    }
    const history = document.paths['/api/v2/withdraw_history'].get;
    expect(history.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['ticker', 'status', 'from', 'to', 'offset', 'limit', 'format']),
    );
    const deposits = document.paths['/api/v2/deposit_history'].get;
    expect(deposits.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['status', 'from', 'to', 'format']),
    );
    const page = await app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.body).toContain('/api/v2/profile/code/create');
  });

  it('misses none of the wallet calls the app serves, and lists none it does not serve', async () => {
    const document = await openApi();
    const documented = Object.entries(
      document.paths as Record<string, Record<string, unknown>>,
    ).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const served = registered.filter((route) => walletCall.test(route));
    // The filter must find the calls it is meant for, or this test would prove nothing.
    expect(served).toEqual(
      expect.arrayContaining([
        'POST /api/v3/balance/withdrawal-{ticker}/{paymentKey}',
        'POST /api/v2/withdrawals/{id}/cancel',
        'GET /api/v2/profile/codes/history/{ticker}',
        'GET /api/v2/deposit_history',
        'GET /api/v3/profile/balance/{ticker}',
      ]),
    );
    expect(served.filter((route) => !documented.includes(route))).toEqual([]);
    expect(documented.filter((route) => !registered.includes(route))).toEqual([]);
  });
});
