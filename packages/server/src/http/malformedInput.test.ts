import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorBody, isErrorCode } from '@lattice/contracts';
import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appPlugins, buildApp } from '../app.js';
import { insertApiKey } from '../domains/apiKeys/apiKeys.repo.js';
import { signRequest } from '../domains/apiKeys/signature.js';
import { SESSION_COOKIE } from '../domains/auth/sessions.js';
import {
  createSignedInUser,
  signedInClient,
  TestClient,
  type TestUser,
} from '../domains/auth/testClient.js';
import { fundTrade, placeLimit } from '../domains/orders/tradingTestKit.js';
import { seedReferenceData } from '../reference/reference.seed.js';
import { testConfig } from '../testing/testConfig.js';
import { useTestDb } from '../testing/testDb.js';
import { casesForRoute, fillPath, type MalformedCase, type RouteShape } from './malformedCases.js';

const testDb = useTestDb();
let app: FastifyInstance;
let trader: TestUser;
let apiKey: { key: string; secret: string };
const registered: { method: string; url: string }[] = [];

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

/** More than the trader holds: a body refused only by the balance check, at the very end. */
const tooMuch = '100000';
const wrongCode = '000000';
const order = { pair: 'BTC_USDT', direction: 'buy', price: '30000', amount: tooMuch };

/** Bodies each route would refuse late; see `RouteShape.baseline`. */
const baselines: Record<string, Record<string, unknown>> = {
  'POST /api/v2/order': order,
  'POST /api/v2/order/put_market': { pair: 'BTC_USDT', direction: 'sell', amount: tooMuch },
  'POST /api/v2/stop-limit-order': { ...order, stop_price: '31000' },
  'POST /api/v2/oco-order': { ...order, price: '29000', stop_price: '31000', limit_price: '31500' },
  'POST /api/v2/margin-order/put_limit': order,
  'POST /api/v2/profile/transfer': { ticker: 'BTC', amount: tooMuch, from: 'main', to: 'trade' },
  'POST /api/v2/profile/code/create': { ticker: 'BTC', amount: tooMuch },
  'POST /api/v2/profile/code/apply': { code: `LTC${'A'.repeat(29)}` },
  'POST /api/v2/profile/code/delete': { code: `LTC${'A'.repeat(29)}` },
  'POST /api/v3/balance/calcfee-:ticker/:paymentKey': {
    amount: '0.5',
    network: 'bitcoin',
    action: 'withdraw',
  },
  'POST /api/v3/balance/withdrawal-:ticker/:paymentKey': {
    amount: tooMuch,
    address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    memo: '',
    network: 'bitcoin',
    code: wrongCode,
  },
  'POST /api/v2/withdrawals/confirm': { token: 'f'.repeat(64) },
  'POST /api/v2/profile/address': { ticker: 'BTC', network: 'bitcoin' },
  'POST /api/v2/whitelist-address': {
    name: 'cold',
    coin: 'BTC',
    address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    code: wrongCode,
  },
  'POST /api/v2/2fa-confirm-whitelist': { enabled: true, code: wrongCode },
  'POST /api/v2/login': { email: 'nobody@example.com', password: 'Str0ng!password' },
  'POST /api/v2/2fa/validate': { code: wrongCode },
  'POST /api/v2/password/reset': {
    token: 'f'.repeat(64),
    password: 'N3w!password',
    password_confirmation: 'N3w!password',
  },
  'POST /api/v2/api_key': { totp: wrongCode, name: 'bot', scopes: ['read'], ipAllowList: [] },
  'POST /api/v2/settings/anti_phishing/add': { code: 'phish_1', totp: wrongCode },
  'POST /api/v2/settings/customfee': { customfee: 1 },
  'POST /api/v2/favorites': { pair: 'BTC_USDT' },
  'POST /api/v2/delete-whitelisted-address': { id: 999999 },
  'POST /api/v2/register': {
    email: 'newcomer@example.com',
    password: 'Str0ng!password',
    password_confirmation: 'Other!passw0rd',
    country: 'DE',
    privacy_policy: true,
    not_restricted_resident: true,
  },
  'POST /api/v2/password/email': { email: 'nobody@example.com' },
  'POST /api/v2/settings/password': {
    old_password: 'Wr0ng!password',
    password: 'N3w!password1',
    password_confirmation: 'N3w!password1',
    totp: wrongCode,
  },
  'POST /api/v2/settings/general': { nickname: 'trader_1', language: 'en', logoutTime: 30 },
  'POST /api/v2/settings/2fa/toggle': { code: wrongCode },
  'POST /api/v2/settings/anti_phishing': { totp: wrongCode },
  'POST /api/dev/users/verify': { email: 'nobody@example.com' },
  'POST /api/dev/chain/deposit': {
    ticker: 'BTC',
    network: 'bitcoin',
    address: 'bc1qnobodysaddress',
    amount: '1',
  },
  'POST /api/dev/chain/mine': { network: 'bitcoin', blocks: 1 },
};

/**
 * Routes that move or lock money: the trader's money must read the same before and after
 * each one's malformed requests. Cancelling all orders with no pair is left out: it needs no
 * input, so every request to it is well-formed.
 */
function movesMoney(route: RouteShape): boolean {
  if (route.url === '/api/v2/order/deleteall') return false;
  return (
    route.method !== 'GET' &&
    /order|transfer|\/code\/|withdraw|calcfee|whitelist|api_key/.test(route.url)
  );
}

function usualPath(url: string): string {
  return url
    .replace(/:([A-Za-z_]\w*)/g, (_all, name: string) => usualParams[name] ?? '1')
    .replace(/\*/g, 'trade');
}

// A web app of its own, so the answers do not depend on whether the real one is built.
const webDistDir = mkdtempSync(join(tmpdir(), 'lattice-web-'));

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
  trader = await createSignedInUser(app, { twoFactor: true, kyc: true });
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
  apiKey = { key: row.api_key, secret };
}, 60_000);

afterAll(async () => {
  await app.close();
  rmSync(webDistDir, { recursive: true, force: true });
});

/** Body fields and query parameters of each documented route, keyed `METHOD /path`. */
async function documentedShapes(): Promise<Map<string, Omit<RouteShape, 'method' | 'url'>>> {
  const document = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
  const shapes = new Map<string, Omit<RouteShape, 'method' | 'url'>>();
  for (const [path, operations] of Object.entries<Record<string, OpenApiOperation>>(
    document.paths,
  )) {
    for (const [method, operation] of Object.entries(operations)) {
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      shapes.set(`${method.toUpperCase()} ${path}`, {
        bodyFields: Object.keys(schema?.properties ?? {}),
        queryParams: (operation.parameters ?? [])
          .filter((p) => p.in === 'query')
          .map((p) => p.name),
      });
    }
  }
  return shapes;
}

interface OpenApiOperation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: object } }> };
}

type Identity = 'signed out' | 'session' | 'api key';

/** What the trader's money looks like: must be the same after every refused request. */
async function moneyState() {
  const client = await signedInClient(app, trader.user.id);
  const [balances, open, withdrawals, codes] = await Promise.all([
    client.get('/api/v3/profile/balance'),
    client.get('/api/v2/order?pairName=all'),
    client.get('/api/v2/withdraw_history'),
    client.get('/api/v2/profile/codes/my'),
  ]);
  return {
    balances: balances.json(),
    open: open.json(),
    withdrawals: withdrawals.json(),
    codes: codes.json(),
  };
}

function urlOf(route: RouteShape, testCase: MalformedCase): string {
  const path =
    testCase.pathValue === undefined
      ? usualPath(route.url)
      : fillPath(route.url, testCase.pathValue);
  return testCase.query === undefined ? path : `${path}?${testCase.query}`;
}

async function send(
  identity: Identity,
  route: RouteShape,
  testCase: MalformedCase,
  session: Awaited<ReturnType<typeof signedInClient>>,
  signedOut: Awaited<ReturnType<typeof signedInClient>>,
) {
  const url = urlOf(route, testCase);
  const headers: Record<string, string> = {};
  if (testCase.contentType !== undefined) headers['content-type'] = testCase.contentType;
  if (identity === 'api key') {
    const timestamp = String(app.accounts.now());
    headers['x-api-key'] = apiKey.key;
    headers['x-api-timestamp'] = timestamp;
    headers['x-api-signature'] = signRequest(apiKey.secret, {
      timestamp,
      method: route.method,
      pathAndQuery: url,
      body: testCase.body ?? '',
    });
    return app.inject({
      method: route.method as 'GET',
      url,
      headers,
      ...(testCase.body === undefined ? {} : { payload: testCase.body }),
    });
  }
  const client = identity === 'session' ? session : signedOut;
  return client.request(route.method as 'GET', url, testCase.body, headers);
}

/** Why an answer breaks the rule, or null when it keeps it. */
function fault(response: { statusCode: number; body: string }): string | null {
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

describe('malformed requests to every route', () => {
  it('get a 4xx in the error shape, never a 5xx, and change no money', async () => {
    const shapes = await documentedShapes();
    const routes: RouteShape[] = registered.map(({ method, url }) => {
      const documented = shapes.get(`${method} ${url.replace(/:([A-Za-z_]\w*)/g, '{$1}')}`);
      const baseline = baselines[`${method} ${url}`];
      return { method, url, bodyFields: [], queryParams: [], ...documented, baseline };
    });
    expect(routes.length).toBeGreaterThan(50);
    const signedOut = new TestClient(app);
    await signedOut.bootstrap();
    const faults: string[] = [];
    let sent = 0;
    let moneyRoutes = 0;
    for (const [index, route] of routes.entries()) {
      // A fresh session per route: a route that signs out (on input it accepts) ends only its own.
      const session = await signedInClient(app, trader.user.id);
      const before = movesMoney(route) ? await moneyState() : null;
      for (const testCase of casesForRoute(route, index + 1)) {
        for (const identity of ['signed out', 'session', 'api key'] as const) {
          const response = await send(identity, route, testCase, session, signedOut);
          sent += 1;
          const problem = fault(response);
          if (problem !== null) {
            faults.push(`${route.method} ${route.url} [${testCase.name}, ${identity}] ${problem}`);
          }
        }
      }
      if (before !== null) {
        moneyRoutes += 1;
        const after = await moneyState();
        if (JSON.stringify(after) !== JSON.stringify(before)) {
          faults.push(`${route.method} ${route.url} changed the trader's money`);
        }
      }
    }
    expect(moneyRoutes).toBeGreaterThan(15);
    expect(faults.slice(0, 40), `${faults.length} of ${sent} requests`).toEqual([]);
  }, 300_000);
});

describe('malformed headers and methods on every route', () => {
  it('get a 4xx in the error shape or a normal answer, never a 5xx', async () => {
    const cookie = (value: string) => ({ cookie: `${SESSION_COOKIE}=${value}` });
    const apiHeaders = (key: string, timestamp: string, signature: string) => ({
      'x-api-key': key,
      'x-api-timestamp': timestamp,
      'x-api-signature': signature,
    });
    const now = () => String(app.accounts.now());
    const headerCases: [string, () => Record<string, string>][] = [
      ['garbage session cookie', () => cookie('not-a-session')],
      ['empty session cookie', () => cookie('')],
      ['huge session cookie', () => cookie('s'.repeat(8_000))],
      ['unicode session cookie', () => cookie('%C3%BC%F0%9D%84%9E')],
      ['two session cookies', () => ({ cookie: `${SESSION_COOKIE}=a; ${SESSION_COOKIE}=b` })],
      ['garbage CSRF token', () => ({ 'x-csrf-token': 'x'.repeat(500) })],
      ['unknown API key', () => apiHeaders('f'.repeat(32), now(), 'ab'.repeat(32))],
      ['API key over 64 characters', () => apiHeaders('k'.repeat(5_000), now(), 'ab')],
      ['NaN API timestamp', () => apiHeaders(apiKey.key, 'NaN', 'ab'.repeat(32))],
      ['40-digit API timestamp', () => apiHeaders(apiKey.key, '9'.repeat(40), 'ab'.repeat(32))],
      ['negative API timestamp', () => apiHeaders(apiKey.key, '-1', 'ab'.repeat(32))],
      ['API signature not hex', () => apiHeaders(apiKey.key, now(), 'zz'.repeat(400))],
      ['empty API headers', () => apiHeaders('', '', '')],
      ['unsafe request id', () => ({ 'x-request-id': '\u00fc'.repeat(100) })],
    ];
    const faults: string[] = [];
    let sent = 0;
    for (const route of registered) {
      const session = await signedInClient(app, trader.user.id);
      const url = usualPath(route.url);
      for (const [name, headers] of headerCases) {
        const response = await session.request(route.method as 'GET', url, undefined, headers());
        sent += 1;
        const problem = fault(response);
        if (problem !== null) faults.push(`${route.method} ${route.url} [${name}] ${problem}`);
      }
      // Methods the route does not have: the API's 404 (or 405), not an empty answer.
      for (const method of ['PUT', 'PATCH', 'OPTIONS'] as const) {
        const response = await session.request(method, url, '{}', {
          'content-type': 'application/json',
        });
        sent += 1;
        const problem = fault(response);
        if (problem !== null) faults.push(`${method} ${route.url} ${problem}`);
      }
    }
    expect(faults.slice(0, 40), `${faults.length} of ${sent} requests`).toEqual([]);
  }, 120_000);
});

describe('the malformed requests that once failed', () => {
  it('keep the API error body and a 4xx', async () => {
    const session = await signedInClient(app, trader.user.id);
    const cases: [string, () => Promise<{ statusCode: number; body: string }>][] = [
      // Fastify answered these before any hook, in its own `{ error, code: FST_ERR_* }` body.
      ['broken percent-encoding', () => session.get('/api/v2/depth/%E0%A4%A')],
      [
        'path parameter over the length limit',
        () => session.delete(`/api/v2/order/${'9'.repeat(3_000)}`),
      ],
      [
        'two path parameters over the length limit',
        () => session.get(`/api/chain/${'n'.repeat(3_000)}/tx/${'t'.repeat(3_000)}`),
      ],
      // A 40-digit date filter overflowed the time column on PostgreSQL.
      [
        'finished orders from a 40-digit second',
        () => session.get(`/api/v2/order/finished?from=${'9'.repeat(40)}`),
      ],
      [
        'own trades to a 40-digit second',
        () => session.get(`/api/v2/history?to=${'9'.repeat(40)}`),
      ],
      // A plain GET of the socket's path answered an empty 404.
      ['GET /ws without an upgrade', () => session.get('/ws')],
    ];
    for (const [name, send] of cases) {
      const response = await send();
      expect(fault(response), name).toBeNull();
      expect(response.statusCode, name).toBeGreaterThanOrEqual(400);
    }
    // A NUL character answered 500 on PostgreSQL, which cannot store it.
    for (const send of [
      () => session.post('/api/v2/settings/session/%00/terminate'),
      () => session.get('/api/v2/profile/codes/my/%00'),
      () => session.get('/api/v2/profile/codes/history/%00'),
      () => session.post('/api/v2/profile/code/apply', { code: '\u0000' }),
      () => session.post('/api/v2/profile/code/delete', { code: '\u0000' }),
    ]) {
      // SQLite stores the text and may answer 200 (an empty list); PostgreSQL must refuse it.
      const response = await send();
      expect(fault(response)).toBeNull();
    }
  });
});
