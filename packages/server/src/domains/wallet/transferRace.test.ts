import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { createSignedInUser, type TestUser } from '../auth/testClient.js';
import { buildTradingApp } from '../orders/tradingTestKit.js';
import { creditMain } from './walletTestKit.js';

const testDb = useTestDb();
let app: FastifyInstance;
let user: TestUser;

beforeAll(async () => {
  app = await buildTradingApp(testDb.current);
  user = await createSignedInUser(app);
  await creditMain(app, user.user.id, 'ETH', 123_456_789n);
});

afterAll(async () => {
  await app.close();
});

describe('concurrent transfers', () => {
  it('moves a whole balance exactly once when 20 transfers of it race', async () => {
    const body = { ticker: 'ETH', amount: '1.23456789', from: 'main', to: 'trade' };
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => user.client.post('/api/v2/profile/transfer', body)),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, ...Array.from({ length: 19 }, () => 422)]);
    for (const refused of responses.filter((response) => response.statusCode === 422)) {
      expect(refused.json().errors).toEqual({ amount: ['Not enough on balance'] });
    }
    const rows = (await user.client.get('/api/v3/profile/balance')).json() as {
      ticker: string;
      mainBalance: string;
      tradeAvailable: string;
    }[];
    expect(rows.find((row) => row.ticker === 'ETH')).toMatchObject({
      mainBalance: '0',
      tradeAvailable: '1.23456789',
    });
    const history = await testDb.current.db
      .selectFrom('balance_history')
      .select('business')
      .where('user_id', '=', user.user.id)
      .where('asset', '=', 'ETH')
      .execute();
    // One deposit and one transfer (its main and trade legs); nothing from the 19 refusals.
    expect(history.map((row) => row.business).sort()).toEqual(['deposit', 'transfer', 'transfer']);
  });
});
