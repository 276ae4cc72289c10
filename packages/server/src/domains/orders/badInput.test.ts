import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { createSignedInUser, type TestUser } from '../auth/testClient.js';
import { buildTradingApp, fundTrade, placeLimit } from './tradingTestKit.js';

const testDb = useTestDb();
let app: FastifyInstance;
let trader: TestUser;
let other: TestUser;

beforeAll(async () => {
  app = await buildTradingApp(testDb.current);
  trader = await createSignedInUser(app);
  other = await createSignedInUser(app);
  await fundTrade(app, trader.user.id, 'BTC', '1');
  await fundTrade(app, trader.user.id, 'USDT', '50000');
});

afterAll(async () => {
  await app.close();
});

/** What a refused request must leave untouched. */
async function state(user: TestUser) {
  const [balances, open] = await Promise.all([
    user.client.get('/api/v3/profile/balance'),
    user.client.get('/api/v2/order?pairName=all'),
  ]);
  return { balances: balances.json(), open: open.json() };
}

describe('bad order input', () => {
  it('answers 4xx with a message on the field, never 5xx, and changes nothing', async () => {
    const before = await state(trader);
    const base = { pair: 'BTC_USDT', direction: 'buy', price: '30000', amount: '0.01' };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ pair: 'BTC-USDT' }, 'pair', 'Market not found'],
      [{ pair: '' }, 'pair', 'Field is required'],
      [{ price: '30000.001' }, 'price', 'Too many decimals in price'],
      [{ price: '0' }, 'price', 'Must be greater than zero'],
      [{ price: '1e4' }, 'price', 'Must be a plain decimal number, like 0.015'],
      [{ price: '-5' }, 'price', 'Must be a plain decimal number, like 0.015'],
      [{ price: 30000 }, 'price', 'Field is required'],
      [{ amount: '0.00005' }, 'amount', 'Amount is below the minimum'],
      [{ amount: '0.000001' }, 'amount', 'Too many decimals in amount'],
      [{ amount: '0.000000001' }, 'amount', 'At most 8 decimal places'],
      [{ amount: 'NaN' }, 'amount', 'Must be a plain decimal number, like 0.015'],
      [{ amount: '2' }, 'amount', 'Not enough on balance'],
      [{ direction: 'up' }, 'direction', 'Must be buy or sell'],
    ];
    for (const [change, field, message] of cases) {
      const response = await trader.client.post('/api/v2/order', { ...base, ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(422);
      expect(response.json().errors?.[field], JSON.stringify(change)).toEqual([message]);
    }
    const market = await trader.client.post('/api/v2/order/put_market', {
      pair: 'BTC_USDT',
      direction: 'sell',
      amount: '0.5',
    });
    expect(market.statusCode).toBe(422);
    expect(market.json().message).toBe('Not enough liquidity');
    const stop = await trader.client.post('/api/v2/stop-limit-order', { ...base, stop_price: 'x' });
    expect(stop.statusCode).toBe(422);
    const notObject = await trader.client.request('POST', '/api/v2/order', [1, 2]);
    expect(notObject.statusCode).toBe(400);
    expect(await state(trader)).toEqual(before);
  });

  it('answers 404 for an unknown order id and for another user\u2019s, changing nothing', async () => {
    const order = await placeLimit(trader.client, 'BTC_USDT', 'sell', '40000', '0.01');
    const before = await state(trader);
    expect((await trader.client.delete('/api/v2/order/999999')).statusCode).toBe(404);
    expect((await trader.client.delete('/api/v2/order/abc')).statusCode).toBe(422);
    const stolen = await other.client.delete(`/api/v2/order/${order.id}`);
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().code).toBe('order_not_found');
    expect(await state(trader)).toEqual(before);
  });
});

describe('active orders', () => {
  it('pages over one pair or every pair', async () => {
    await placeLimit(trader.client, 'BTC_USDT', 'sell', '41000', '0.01');
    await placeLimit(trader.client, 'BTC_USDT', 'buy', '20000', '0.01');
    const first = (await trader.client.get('/api/v2/order?pairName=all&limit=2')).json();
    expect(first).toMatchObject({ total: 3, offset: 0, limit: 2 });
    expect(first.records).toHaveLength(2);
    const rest = (await trader.client.get('/api/v2/order?pairName=all&limit=2&offset=2')).json();
    expect(rest.records).toHaveLength(1);
    const ids = [...first.records, ...rest.records].map((o: { id: number }) => o.id);
    expect(new Set(ids).size).toBe(3);
    expect((await trader.client.get('/api/v2/order?pairName=ETH_USDT')).json().total).toBe(0);
  });
});

describe('wallet balance rows', () => {
  it('carry every field of SPEC.md §3', async () => {
    const rows = (await trader.client.get('/api/v3/profile/balance')).json();
    const fields = [
      'currencyId',
      'label',
      'image',
      'ticker',
      'action',
      'isDefi',
      'isErc20',
      'isFiat',
      'isInt',
      'isMemo',
      'isTop',
      'isDepositOn',
      'isWithdrawOn',
      'fullBalance',
      'fullBalanceBtc',
      'mainBalance',
      'tradeAvailable',
      'tradeBalance',
      'tradeFreeze',
      'withdrawalLimit',
      'isUnverifiedAbleWithdraw',
      'tradePairs',
    ];
    for (const row of rows) expect(Object.keys(row).sort()).toEqual([...fields].sort());
    const btc = rows.find((row: { ticker: string }) => row.ticker === 'BTC');
    expect(btc).toMatchObject({ image: '/api/currencies/BTC.svg', tradeFreeze: '0.02' });
    expect(rows.find((row: { ticker: string }) => row.ticker === 'BNB').isMemo).toBe(true);
  });
});
