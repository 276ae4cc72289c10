// Malformed bodies, query strings and path parameters on every route, which must change no
// money; headers, methods and past failures are in `malformedInput.headers.test.ts`.
import { describe, expect, it } from 'vitest';
import { signRequest } from '../domains/apiKeys/signature.js';
import { signedInClient, TestClient } from '../domains/auth/testClient.js';
import { casesForRoute, fillPath, type MalformedCase, type RouteShape } from './malformedCases.js';
import { fault, useMalformedInputApp, usualPath } from './malformedInputFixture.js';

const fixture = useMalformedInputApp();

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

/** Body fields and query parameters of each documented route, keyed `METHOD /path`. */
async function documentedShapes(): Promise<Map<string, Omit<RouteShape, 'method' | 'url'>>> {
  const document = (await fixture.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
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
  const client = await signedInClient(fixture.app, fixture.trader.user.id);
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
    const timestamp = String(fixture.app.accounts.now());
    headers['x-api-key'] = fixture.apiKey.key;
    headers['x-api-timestamp'] = timestamp;
    headers['x-api-signature'] = signRequest(fixture.apiKey.secret, {
      timestamp,
      method: route.method,
      pathAndQuery: url,
      body: testCase.body ?? '',
    });
    return fixture.app.inject({
      method: route.method as 'GET',
      url,
      headers,
      ...(testCase.body === undefined ? {} : { payload: testCase.body }),
    });
  }
  const client = identity === 'session' ? session : signedOut;
  return client.request(route.method as 'GET', url, testCase.body, headers);
}

describe('malformed requests to every route', () => {
  it('get a 4xx in the error shape, never a 5xx, and change no money', async () => {
    const shapes = await documentedShapes();
    const routes: RouteShape[] = fixture.registered.map(({ method, url }) => {
      const documented = shapes.get(`${method} ${url.replace(/:([A-Za-z_]\w*)/g, '{$1}')}`);
      const baseline = baselines[`${method} ${url}`];
      return { method, url, bodyFields: [], queryParams: [], ...documented, baseline };
    });
    expect(routes.length).toBeGreaterThan(50);
    const signedOut = new TestClient(fixture.app);
    await signedOut.bootstrap();
    const faults: string[] = [];
    let sent = 0;
    let moneyRoutes = 0;
    for (const [index, route] of routes.entries()) {
      // A fresh session per route: a route that signs out (on input it accepts) ends only its own.
      const session = await signedInClient(fixture.app, fixture.trader.user.id);
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
