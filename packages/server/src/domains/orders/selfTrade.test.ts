import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import type { TestUser } from '../auth/testClient.js';
import { buildTradingApp, fundedTrader, placeLimit } from './tradingTestKit.js';

const testDb = useTestDb();
let app: FastifyInstance;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  app = await buildTradingApp(testDb.current);
  alice = await fundedTrader(app);
  bob = await fundedTrader(app);
});

afterAll(async () => {
  await app.close();
});

async function openIds(user: TestUser): Promise<number[]> {
  const page = (await user.client.get('/api/v2/order?pairName=BTC_USDT')).json() as {
    records: { id: number }[];
  };
  return page.records.map((order) => order.id);
}

describe('self_trade_prevention on order bodies', () => {
  it('cancel_oldest cancels the resting order of the same user and trades past it', async () => {
    const own = await placeLimit(alice.client, 'BTC_USDT', 'sell', '30000', '0.01');
    await placeLimit(bob.client, 'BTC_USDT', 'sell', '30100', '0.01');
    const response = await alice.client.post('/api/v2/order', {
      pair: 'BTC_USDT',
      direction: 'buy',
      price: '30100',
      amount: '0.01',
      self_trade_prevention: 'cancel_oldest',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().order).toMatchObject({ deal_stock: '0.01', left: '0' });
    expect(await openIds(alice)).not.toContain(own.id);
  });

  it('without it, the newer order stops at the resting one; a market order takes it too', async () => {
    const own = await placeLimit(alice.client, 'BTC_USDT', 'sell', '31000', '0.01');
    const buy = { pair: 'BTC_USDT', direction: 'buy', amount: '0.01' };
    const response = await alice.client.post('/api/v2/order/put_market', buy);
    expect(response.statusCode).toBe(201);
    expect(response.json().order).toMatchObject({ deal_stock: '0', finish_reason: 1 });
    expect(await openIds(alice)).toContain(own.id);
    // cancel_oldest: the own ask is cancelled, and with no other ask the buy finds no liquidity.
    const passing = await alice.client.post('/api/v2/order/put_market', {
      ...buy,
      self_trade_prevention: 'cancel_oldest',
    });
    expect(passing.statusCode).toBe(201);
    expect(passing.json().order).toMatchObject({ deal_stock: '0', finish_reason: 3 });
    expect(await openIds(alice)).not.toContain(own.id);
  });

  it('is refused with a message when unknown, on every kind of order', async () => {
    const bodies: [string, Record<string, string>][] = [
      ['/api/v2/order', { price: '29000', amount: '0.01' }],
      ['/api/v2/order/put_market', { amount: '0.01' }],
      ['/api/v2/stop-limit-order', { stop_price: '32000', price: '32100', amount: '0.01' }],
      [
        '/api/v2/oco-order',
        { price: '29000', stop_price: '32000', limit_price: '32100', amount: '0.01' },
      ],
    ];
    const before = await openIds(alice);
    for (const [path, body] of bodies) {
      const response = await alice.client.post(path, {
        pair: 'BTC_USDT',
        direction: 'buy',
        ...body,
        self_trade_prevention: 'decrement',
      });
      expect(response.statusCode, path).toBe(422);
      expect(response.json().errors).toEqual({
        self_trade_prevention: ['Must be cancel_newest, cancel_oldest or cancel_both'],
      });
    }
    expect(await openIds(alice)).toEqual(before);
  });

  it('is kept by a stop-limit order for when it fires, and taken by an OCO', async () => {
    const carol = await fundedTrader(app, { USDT: '1000000' });
    const stop = await alice.client.post('/api/v2/stop-limit-order', {
      pair: 'BTC_USDT',
      direction: 'buy',
      stop_price: '32000',
      price: '32100',
      amount: '0.02',
      self_trade_prevention: 'cancel_oldest',
    });
    expect(stop.statusCode).toBe(201);
    const own = await placeLimit(alice.client, 'BTC_USDT', 'sell', '32050', '0.01');
    await placeLimit(bob.client, 'BTC_USDT', 'sell', '32000', '0.01');
    await placeLimit(bob.client, 'BTC_USDT', 'sell', '32100', '0.01');
    // Carol's buy trades up to 32000 and fires the stop, which passes Alice's own ask.
    await placeLimit(carol.client, 'BTC_USDT', 'buy', '32000', '0.015');
    const open = await openIds(alice);
    expect(open).not.toContain(own.id);
    expect(open).toContain(stop.json().order.id);
    const oco = await alice.client.post('/api/v2/oco-order', {
      pair: 'BTC_USDT',
      direction: 'buy',
      price: '29000',
      stop_price: '40000',
      limit_price: '40100',
      amount: '0.01',
      self_trade_prevention: 'cancel_both',
    });
    expect(oco.statusCode).toBe(201);
    // The engine got the OCO's mode: its journaled command carries it.
    const journaled = await app.db
      .selectFrom('engine_journal')
      .select('command')
      .where('type', '=', 'order.oco')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(journaled.command)).toMatchObject({ selfTradePrevention: 'cancelBoth' });
  });
});
