import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { seedReferenceData } from '../../reference/reference.seed.js';
import { testConfig } from '../../testing/testConfig.js';
import { useTestDb } from '../../testing/testDb.js';
import { createSignedInUser, type TestUser } from '../auth/testClient.js';

const testDb = useTestDb();
let app: FastifyInstance;
let seller: TestUser;
let buyer: TestUser;

/** Credits `amount` (minor units) to the user's trade account, as a deposit would. */
async function fund(user: TestUser, asset: string, amount: bigint): Promise<void> {
  const userId = user.user.id;
  await app.engineHost.ensureUser(userId);
  for (const command of [
    { type: 'balance.deposit' as const, userId, asset, amount, businessId: `t:${userId}:${asset}` },
    {
      type: 'balance.transfer' as const,
      userId,
      asset,
      amount,
      from: 'main' as const,
      to: 'trade' as const,
      businessId: `t:${userId}:${asset}:trade`,
    },
  ]) {
    expect((await app.engineHost.submit(command)).ok).toBe(true);
  }
}

beforeAll(async () => {
  const { db, dialect } = testDb.current;
  await seedReferenceData(db, { demoUsers: false, hashPassword: async () => 'x' });
  app = await buildApp(testConfig(), { db, dialect });
  seller = await createSignedInUser(app);
  buyer = await createSignedInUser(app);
  await fund(seller, 'BTC', 100_000_000n);
  await fund(buyer, 'USDT', 100_000_000_000n);
});

afterAll(async () => {
  await app.close();
});

describe('POST /api/v2/order', () => {
  it('places a limit order and answers 201 with the order object of API.md', async () => {
    const response = await seller.client.post('/api/v2/order', {
      pair: 'BTC_USDT',
      direction: 'sell',
      price: '30000.5',
      amount: '0.015',
    });
    expect(response.statusCode).toBe(201);
    const { order } = response.json();
    expect(order).toMatchObject({
      platform: 'web',
      algorithm: 0,
      market: 'BTC_USDT',
      account: 0,
      side: 1,
      type: 1,
      amount: '0.015',
      total: '0',
      price: '30000.5',
      left: '0.015',
      deal_stock: '0',
      triggered: false,
      ftime: 0,
    });
    expect(order.finish_reason).toBeUndefined();
    expect(typeof order.ctime).toBe('number');
  });

  it('refuses bad input with 422 on the field, never rounding', async () => {
    const cases = [
      [{ pair: 'BTC_USDT', direction: 'sell', price: '1e3', amount: '1' }, 'price'],
      [{ pair: 'BTC_USDT', direction: 'sell', price: '100', amount: '0.000000001' }, 'amount'],
      [{ pair: 'NOPE_USDT', direction: 'sell', price: '100', amount: '1' }, 'pair'],
      [{ pair: 'BTC_USDT', direction: 'hold', price: '100', amount: '1' }, 'direction'],
      [{ pair: 'BTC_USDT', direction: 'sell', price: '100.001', amount: '0.01' }, 'price'],
    ] as const;
    for (const [body, field] of cases) {
      const response = await seller.client.post('/api/v2/order', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual([field]);
    }
  });

  it('answers 422 "Not enough on balance" on amount when the trade balance is short', async () => {
    const response = await seller.client.post('/api/v2/order', {
      pair: 'BTC_USDT',
      direction: 'sell',
      price: '30000',
      amount: '5',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ amount: ['Not enough on balance'] });
  });

  it('repeats the first answer for a repeated Idempotency-Key, and 409 for another body', async () => {
    const body = { pair: 'BTC_USDT', direction: 'sell', price: '31000', amount: '0.01' };
    const headers = { 'idempotency-key': 'sell-31000' };
    const first = await seller.client.post('/api/v2/order', body, headers);
    const again = await seller.client.post('/api/v2/order', body, headers);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const other = await seller.client.post('/api/v2/order', { ...body, amount: '0.02' }, headers);
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('idempotency_key_reused');
  });
});

describe('market orders, listing and cancelling', () => {
  it('fills a market buy against resting orders and lists what stays open', async () => {
    const response = await buyer.client.post('/api/v2/order/put_market', {
      pair: 'BTC_USDT',
      direction: 'buy',
      amount: '0.005',
    });
    expect(response.statusCode).toBe(201);
    const { order } = response.json();
    expect(order).toMatchObject({ type: 2, side: 2, deal_stock: '0.005', left: '0' });
    expect(order.finish_reason).toBe(0);

    const open = await seller.client.get('/api/v2/order?pairName=BTC_USDT');
    expect(open.statusCode).toBe(200);
    const list = open.json();
    expect(list).toMatchObject({ total: 2, offset: 0, limit: 50 });
    expect(list.records.map((o: { left: string }) => o.left).sort()).toEqual(['0.01', '0.01']);
  });

  it('answers "Not enough liquidity" for a market order larger than the book', async () => {
    const response = await buyer.client.post('/api/v2/order/put_market', {
      pair: 'ETH_USDT',
      direction: 'buy',
      amount: '1',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('Not enough liquidity');
  });

  it("cancels one's own order; another user's order is 404", async () => {
    const open = (await seller.client.get('/api/v2/order')).json();
    const id = open.records[0].id as number;
    expect((await buyer.client.delete(`/api/v2/order/${id}`)).statusCode).toBe(404);
    const headers = { 'idempotency-key': `cancel-${id}` };
    const cancelled = await seller.client.delete(`/api/v2/order/${id}`, headers);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().order).toMatchObject({ id, finish_reason: 1 });
    // The order is gone, yet the repeated key answers as the first time.
    const repeated = await seller.client.delete(`/api/v2/order/${id}`, headers);
    expect(repeated.statusCode).toBe(200);
    expect(repeated.json()).toEqual(cancelled.json());
    expect((await seller.client.delete(`/api/v2/order/${id}`)).statusCode).toBe(404);
    expect((await seller.client.get('/api/v2/order')).json().total).toBe(1);
  });

  it('needs a signed-in user', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v2/order' });
    expect(response.statusCode).toBe(401);
  });
});
