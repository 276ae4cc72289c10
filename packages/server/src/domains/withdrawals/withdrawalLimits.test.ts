import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { testClock } from '../auth/authTestApp.js';
import { createSignedInUser, signedInClient, type TestUser } from '../auth/testClient.js';
import { fundTrade, placeLimit } from '../orders/tradingTestKit.js';
import { buildWithdrawalApp, fundMain, nextCode } from './withdrawalTestKit.js';

const testDb = useTestDb();
const clock = testClock(Date.now());
const outside = `bc1q${'q'.repeat(38)}`;
let app: FastifyInstance;

async function userWithBtc(options: { kyc?: boolean; btc?: string } = {}): Promise<TestUser> {
  const user = await createSignedInUser(app, { twoFactor: true, kyc: options.kyc ?? false });
  await fundMain(app, user.user.id, 'BTC', options.btc ?? '1', 8);
  return user;
}

function withdrawBtc(user: TestUser, amount: string) {
  return user.client.post('/api/v3/balance/withdrawal-BTC/CRYPTOMEMO', {
    amount,
    address: outside,
    code: nextCode(clock, user.totpSecret),
  });
}

beforeAll(async () => {
  app = await buildWithdrawalApp(testDb.current, clock);
  // One trade sets the BTC_USDT last price the limits value withdrawals at: 50,000 USDT.
  const seller = await createSignedInUser(app);
  const buyer = await createSignedInUser(app);
  await fundTrade(app, seller.user.id, 'BTC', '0.02');
  await fundTrade(app, buyer.user.id, 'USDT', '1000');
  await placeLimit(seller.client, 'BTC_USDT', 'sell', '50000', '0.01');
  await placeLimit(buyer.client, 'BTC_USDT', 'buy', '50000', '0.01');
  expect(app.engineHost.engine.lastPrice('BTC_USDT')).toBe(50_000_000_000n);
});

afterAll(async () => {
  await app.close();
});

describe('withdrawal limits valued at the last prices', () => {
  it('holds a 2FA user without KYC to 500 USD per 24 h, counting earlier withdrawals', async () => {
    const user = await userWithBtc();
    const over = await withdrawBtc(user, '0.011');
    expect(over.statusCode).toBe(422);
    expect(over.json().errors.amount).toEqual(['Withdrawal limit exceeded: 500 USD per 24 h']);
    expect((await withdrawBtc(user, '0.009')).statusCode).toBe(200);
    const second = await withdrawBtc(user, '0.002');
    expect(second.statusCode).toBe(422);
    // A day later the first withdrawal no longer counts toward the 24 h window.
    clock.advance(24 * 3600_000);
    const later = { ...user, client: await signedInClient(app, user.user.id) };
    expect((await withdrawBtc(later, '0.002')).statusCode).toBe(200);
  });

  it('lets a 2FA user with approved KYC withdraw up to 100,000 USD per 24 h', async () => {
    const user = await userWithBtc({ kyc: true, btc: '3' });
    expect((await withdrawBtc(user, '1.5')).statusCode).toBe(200);
    const over = await withdrawBtc(user, '0.6');
    expect(over.statusCode).toBe(422);
    expect(over.json().errors.amount).toEqual(['Withdrawal limit exceeded: 100000 USD per 24 h']);
  });
});

describe('what the limits leave', () => {
  async function balanceOf(user: TestUser, ticker: string) {
    const response = await user.client.get(`/api/v3/profile/balance/${ticker}`);
    expect(response.statusCode).toBe(200);
    return response.json();
  }

  it('answers the level and the USD and BTC left, and each balance its amount left', async () => {
    const user = await userWithBtc();
    const limit = async () => (await user.client.get('/api/v3/profile/withdraw_kyc_limit')).json();
    expect(await limit()).toEqual({
      level: 'basic',
      twoFactorEnabled: true,
      kycVerified: false,
      usdPerDay: '500',
      usdLeftToday: '500',
      btcPerWeek: '1',
      btcLeftThisWeek: '1',
      reviewAboveUsd: '10000',
    });
    // 500 USD at 50,000 is 0.01 BTC, below the weekly 1 BTC.
    expect((await balanceOf(user, 'BTC')).withdrawalLimit).toBe('0.01');
    expect((await withdrawBtc(user, '0.004')).statusCode).toBe(200);
    expect(await limit()).toMatchObject({ usdLeftToday: '300', btcLeftThisWeek: '0.996' });
    const btc = await balanceOf(user, 'BTC');
    expect(btc).toMatchObject({ withdrawalLimit: '0.006', mainBalance: '0.9958' });
    expect(btc.fullBalanceBtc).toBe('0.9958');
    expect((await balanceOf(user, 'USDT')).withdrawalLimit).toBe('300');
    // No market prices ETH here: the limits cannot bind it.
    expect((await balanceOf(user, 'ETH')).withdrawalLimit).toBeNull();
    const list = (await user.client.get('/api/v3/profile/balance')).json();
    expect(list.find((row: { ticker: string }) => row.ticker === 'BTC').withdrawalLimit).toBe(
      '0.006',
    );
    expect((await user.client.get('/api/v3/profile/balance/NOPE')).statusCode).toBe(404);
  });

  it('leaves nothing without 2FA and has no weekly limit with KYC', async () => {
    const plain = await createSignedInUser(app);
    const none = (await plain.client.get('/api/v3/profile/withdraw_kyc_limit')).json();
    expect(none).toMatchObject({ level: 'none', usdLeftToday: '0', btcLeftThisWeek: '0' });
    expect((await balanceOf(plain, 'BTC')).withdrawalLimit).toBe('0');
    const verified = await userWithBtc({ kyc: true });
    const summary = (await verified.client.get('/api/v3/profile/withdraw_kyc_limit')).json();
    expect(summary).toMatchObject({
      level: 'verified',
      usdPerDay: '100000',
      usdLeftToday: '100000',
      btcPerWeek: null,
      btcLeftThisWeek: null,
    });
    expect((await balanceOf(verified, 'BTC')).withdrawalLimit).toBe('2');
  });
});
