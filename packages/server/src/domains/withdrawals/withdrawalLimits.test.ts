import { amountFromDecimal } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { testClock } from '../auth/authTestApp.js';
import { createSignedInUser, signedInClient, type TestUser } from '../auth/testClient.js';
import { fundTrade, placeLimit } from '../orders/tradingTestKit.js';
import { buildWithdrawalApp, nextCode } from './withdrawalTestKit.js';

const testDb = useTestDb();
const clock = testClock(Date.now());
const outside = `bc1q${'q'.repeat(38)}`;
let app: FastifyInstance;
let funding = 0;

async function userWithBtc(options: { kyc?: boolean; btc?: string } = {}): Promise<TestUser> {
  const user = await createSignedInUser(app, { twoFactor: true, kyc: options.kyc ?? false });
  await app.engineHost.ensureUser(user.user.id);
  funding += 1;
  const deposited = await app.engineHost.submit({
    type: 'balance.deposit',
    userId: user.user.id,
    asset: 'BTC',
    amount: amountFromDecimal(options.btc ?? '1', 8),
    businessId: `withdrawal-limit:${funding}`,
  });
  expect(deposited.ok).toBe(true);
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
