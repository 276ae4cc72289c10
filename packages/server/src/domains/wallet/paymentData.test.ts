import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { createSignedInUser, type TestUser } from '../auth/testClient.js';
import { buildTradingApp } from '../orders/tradingTestKit.js';

const testDb = useTestDb();
let app: FastifyInstance;
let user: TestUser;

beforeAll(async () => {
  app = await buildTradingApp(testDb.current);
  user = await createSignedInUser(app);
});

afterAll(async () => {
  await app.close();
});

describe('deposit and withdrawal data', () => {
  it('lists the networks of an asset with the fee, minimum and memo rule', async () => {
    const response = await user.client.get('/api/v3/profile/withdrawaldata/BNB');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.action).toBe(2);
    expect(body.paymentList.map((method: { key: string }) => method.key)).toEqual([
      'bsc',
      'bnb_beacon',
    ]);
    expect(body.paymentList[1]).toMatchObject({
      name: 'BNB Beacon Chain',
      memo: true,
      fee: { fixed: '0.0005' },
      minAmount: '0.01',
    });
  });

  it('answers no fee for deposits, 404 for an unknown asset, 401 signed out', async () => {
    const deposit = await user.client.get('/api/v3/profile/depositdata/BTC');
    expect(deposit.json().paymentList[0]).toMatchObject({ key: 'bitcoin', fee: { fixed: '0' } });
    expect((await user.client.get('/api/v3/profile/depositdata/NOPE')).statusCode).toBe(404);
    const anonymous = await app.inject({ method: 'GET', url: '/api/v3/profile/depositdata/BTC' });
    expect(anonymous.statusCode).toBe(401);
  });
});
