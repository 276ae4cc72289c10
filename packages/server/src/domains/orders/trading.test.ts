import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { TestClient, type TestUser } from '../auth/testClient.js';
import { buildTradingApp, fundedTrader, placeLimit } from './tradingTestKit.js';

const testDb = useTestDb();
let app: FastifyInstance;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  app = await buildTradingApp(testDb.current);
  const holdings = { BTC: '10', ETH: '100', USDT: '1000000' };
  alice = await fundedTrader(app, holdings);
  bob = await fundedTrader(app, holdings);
  // A last price of 30000 on BTC_USDT.
  await placeLimit(alice.client, 'BTC_USDT', 'sell', '30000', '0.01');
  await placeLimit(bob.client, 'BTC_USDT', 'buy', '30000', '0.01');
});

afterAll(async () => {
  await app.close();
});

async function tradeBalance(user: TestUser, ticker: string) {
  const rows = (await user.client.get('/api/v3/profile/balance')).json() as {
    ticker: string;
    tradeAvailable: string;
    tradeFreeze: string;
  }[];
  const row = rows.find((candidate) => candidate.ticker === ticker);
  return { available: row?.tradeAvailable, freeze: row?.tradeFreeze };
}

describe('stop-limit orders', () => {
  it('waits untriggered in the active orders, then triggers when the last price reaches it', async () => {
    const placed = await alice.client.post('/api/v2/stop-limit-order', {
      pair: 'BTC_USDT',
      direction: 'buy',
      stop_price: '30100',
      price: '30200',
      amount: '0.02',
    });
    expect(placed.statusCode).toBe(201);
    const { order } = placed.json();
    expect(order).toMatchObject({ algorithm: 1, triggered: false, stop_price: '30100' });
    const active = (await alice.client.get('/api/v2/order?pairName=BTC_USDT')).json();
    expect(active.records.map((o: { id: number }) => o.id)).toContain(order.id);
    const book = (await app.inject({ url: '/api/v2/depth/BTC_USDT' })).json();
    expect(book.bids).toEqual([]);

    await placeLimit(bob.client, 'BTC_USDT', 'sell', '30150', '0.01');
    await placeLimit(alice.client, 'BTC_USDT', 'buy', '30150', '0.01');
    const after = (await alice.client.get('/api/v2/order?pairName=BTC_USDT')).json();
    const triggered = after.records.find((o: { id: number }) => o.id === order.id);
    expect(triggered).toMatchObject({ triggered: true, left: '0.02' });
    expect((await app.inject({ url: '/api/v2/depth/BTC_USDT' })).json().bids).toEqual([
      ['30200', '0.02'],
    ]);
  });

  it('refuses a stop at the last price and bad amounts, changing nothing', async () => {
    const before = await tradeBalance(alice, 'USDT');
    const cases = [
      [{ stop_price: '30150', price: '30000', amount: '0.01' }, 'stop_price'],
      [{ stop_price: '29000', price: '29000.001', amount: '0.01' }, 'price'],
      [{ stop_price: '29000', price: '29000', amount: '0.00001' }, 'amount'],
      [{ stop_price: '29000', price: '29000', amount: '1000' }, 'amount'],
      [{ stop_price: 'abc', price: '29000', amount: '0.01' }, 'stop_price'],
    ] as const;
    for (const [fields, field] of cases) {
      const response = await alice.client.post('/api/v2/stop-limit-order', {
        pair: 'BTC_USDT',
        direction: 'buy',
        ...fields,
      });
      expect(response.statusCode, JSON.stringify(fields)).toBe(422);
      expect(Object.keys(response.json().errors), JSON.stringify(fields)).toEqual([field]);
    }
    const noLast = await alice.client.post('/api/v2/stop-limit-order', {
      pair: 'LTT_BTC',
      direction: 'sell',
      stop_price: '0.00001',
      price: '0.00001',
      amount: '10',
    });
    expect(noLast.json().errors).toEqual({ stop_price: ['The market has no last price yet'] });
    expect(await tradeBalance(alice, 'USDT')).toEqual(before);
  });
});

describe('OCO orders', () => {
  it('places both legs and cancels the stop leg when the limit leg trades', async () => {
    // Last is 30150: a sell OCO needs stop < last < price.
    const placed = await alice.client.post('/api/v2/oco-order', {
      pair: 'BTC_USDT',
      direction: 'sell',
      price: '31000',
      stop_price: '29500',
      limit_price: '29400',
      amount: '0.05',
    });
    expect(placed.statusCode).toBe(201);
    const [limitLeg, stopLeg] = placed.json().orders;
    expect(limitLeg).toMatchObject({ algorithm: 2, price: '31000', oco_id: limitLeg.id });
    expect(stopLeg).toMatchObject({ algorithm: 2, limit_price: '29400', oco_id: limitLeg.id });
    expect(await tradeBalance(alice, 'BTC')).toMatchObject({ freeze: '0.05' });

    await placeLimit(bob.client, 'BTC_USDT', 'buy', '31000', '0.01');
    const finished = (await alice.client.get('/api/v2/order/finished?type=oco')).json();
    expect(finished.records).toHaveLength(1);
    expect(finished.records[0]).toMatchObject({ id: stopLeg.id, finish_reason: 2 });
  });

  it('reports each price on the wrong side of the last price on its field', async () => {
    const response = await alice.client.post('/api/v2/oco-order', {
      pair: 'BTC_USDT',
      direction: 'buy',
      price: '31500',
      stop_price: '30000',
      limit_price: '30100',
      amount: '0.01',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      price: ['Must be less than last market price'],
      stop_price: ['Must be greater than last market price'],
    });
  });
});

describe('margin order paths', () => {
  it('answer margin_not_available to a user and 401 to a visitor', async () => {
    for (const path of ['put_limit', 'put_market', 'stop-limit-order', 'oco-order']) {
      const response = await alice.client.post(`/api/v2/margin-order/${path}`, {});
      expect(response.statusCode).toBe(422);
      expect(response.json().code).toBe('margin_not_available');
    }
    const visitor = new TestClient(app);
    await visitor.bootstrap();
    expect((await visitor.post('/api/v2/margin-order/put_limit', {})).statusCode).toBe(401);
  });
});

describe('deleting many orders', () => {
  it('deletes all of one pair, then by coin, then all, with the notices', async () => {
    await placeLimit(bob.client, 'ETH_USDT', 'sell', '3000', '1');
    await placeLimit(bob.client, 'ETH_BTC', 'sell', '0.1', '1');
    await placeLimit(bob.client, 'BTC_USDT', 'sell', '40000', '0.01');
    const byPair = await bob.client.delete('/api/v2/order/deleteall/ETH_USDT');
    expect(byPair.statusCode).toBe(200);
    expect(byPair.json().message).toBe('All ETH_USDT orders were successfully deleted');
    expect(byPair.json().orders).toHaveLength(1);
    const byCoin = await bob.client.delete('/api/v2/order/deleteallbycoin/ETH');
    expect(byCoin.json()).toMatchObject({ message: 'All ETH orders were successfully deleted' });
    expect(byCoin.json().orders.map((o: { market: string }) => o.market)).toEqual(['ETH_BTC']);
    const all = await bob.client.delete('/api/v2/order/deleteall');
    expect(all.json().message).toBe('All orders were successfully deleted');
    expect((await bob.client.get('/api/v2/order?pairName=all')).json().total).toBe(0);
  });

  it('deletes one order with its notice', async () => {
    const order = await placeLimit(bob.client, 'BTC_USDT', 'sell', '41000', '0.01');
    const response = await bob.client.delete(`/api/v2/order/${order.id}`);
    expect(response.json().message).toBe('BTC_USDT order was successfully deleted');
    expect((await bob.client.delete(`/api/v2/order/${order.id}`)).statusCode).toBe(404);
  });

  it('refuses an unknown pair or coin', async () => {
    expect((await bob.client.delete('/api/v2/order/deleteall/NOPE_X')).statusCode).toBe(422);
    expect((await bob.client.delete('/api/v2/order/deleteallbycoin/NOPE')).statusCode).toBe(422);
  });
});

describe('history', () => {
  it('lists finished orders with filters and paging', async () => {
    const all = (await alice.client.get('/api/v2/order/finished?limit=2')).json();
    expect(all.records).toHaveLength(2);
    expect(all.total).toBeGreaterThanOrEqual(3);
    const buys = (await alice.client.get('/api/v2/order/finished?side=buy&type=limit')).json();
    expect(buys.records.every((o: { side: number }) => o.side === 2)).toBe(true);
    const future = Math.floor(Date.now() / 1000) + 3600;
    const none = (await alice.client.get(`/api/v2/order/finished?from=${future}`)).json();
    expect(none).toEqual({ records: [], total: 0, offset: 0, limit: 50 });
    const eth = (await alice.client.get('/api/v2/order/finished?pair=ETH_USDT')).json();
    expect(eth.total).toBe(0);
  });

  it('lists own trades with the role, side and fee', async () => {
    const page = (await bob.client.get('/api/v2/history?pair=BTC_USDT')).json();
    expect(page.total).toBe(3);
    const first = page.records[page.records.length - 1];
    expect(first).toMatchObject({
      market: 'BTC_USDT',
      side: 2,
      role: 2,
      price: '30000',
      amount: '0.01',
      deal: '300',
      fee: '0.6',
      fee_asset: 'USDT',
    });
    const sells = (await bob.client.get('/api/v2/history?side=sell')).json();
    expect(sells.records.map((t: { role: number; price: string }) => [t.role, t.price])).toEqual([
      [1, '30150'],
    ]);
  });

  it('exports the same rows as CSV', async () => {
    const response = await bob.client.get('/api/v2/history?format=csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'time,market,side,role,price,amount,total,fee,fee_asset,order_id,trade_id',
    );
    expect(lines).toHaveLength(4);
    const orders = await alice.client.get('/api/v2/order/finished?format=csv&type=oco');
    expect(orders.body.split('\r\n')[1]).toContain(',BTC_USDT,OCO,sell,');
  });

  it('needs a signed-in user and valid filters', async () => {
    expect((await app.inject({ url: '/api/v2/history' })).statusCode).toBe(401);
    expect((await alice.client.get('/api/v2/order/finished?side=up')).statusCode).toBe(422);
    expect((await alice.client.get('/api/v2/history?limit=1000')).statusCode).toBe(422);
  });
});
