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
  await creditMain(app, user.user.id, 'USDT', 250_000_000n);
});

afterAll(async () => {
  await app.close();
});

async function balanceOf(ticker: string) {
  const response = await user.client.get('/api/v3/profile/balance');
  expect(response.statusCode).toBe(200);
  return (response.json() as { ticker: string }[]).find((row) => row.ticker === ticker);
}

describe('wallet', () => {
  it('lists every asset, zero balances included, with the deposit on main', async () => {
    const response = await user.client.get('/api/v3/profile/balance');
    const rows = response.json() as { ticker: string; fullBalance: string }[];
    expect(rows.map((row) => row.ticker)).toContain('EUR');
    expect(rows.find((row) => row.ticker === 'BTC')?.fullBalance).toBe('0');
    expect(await balanceOf('USDT')).toMatchObject({
      mainBalance: '250',
      tradeAvailable: '0',
      fullBalance: '250',
      isFiat: false,
    });
  });

  it('moves funds from main to trade once per Idempotency-Key', async () => {
    const body = { ticker: 'USDT', amount: '100.5', from: 'main', to: 'trade' };
    const headers = { 'idempotency-key': 'move-1' };
    const first = await user.client.post('/api/v2/profile/transfer', body, headers);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ mainBalance: '149.5', tradeAvailable: '100.5' });
    const again = await user.client.post('/api/v2/profile/transfer', body, headers);
    expect(again.json()).toEqual(first.json());
    expect(await balanceOf('USDT')).toMatchObject({ mainBalance: '149.5', tradeBalance: '100.5' });
  });

  it('answers 422 on amount for more than available, and for a malformed amount', async () => {
    for (const amount of ['1000', '-1', '1.0000001', '']) {
      const response = await user.client.post('/api/v2/profile/transfer', {
        ticker: 'USDT',
        amount,
        from: 'trade',
        to: 'main',
      });
      expect(response.statusCode, amount).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['amount']);
    }
    const same = await user.client.post('/api/v2/profile/transfer', {
      ticker: 'USDT',
      amount: '1',
      from: 'main',
      to: 'main',
    });
    expect(same.statusCode).toBe(422);
  });
});
