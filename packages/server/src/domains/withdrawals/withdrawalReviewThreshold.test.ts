import { withdrawalStatus } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { testClock } from '../auth/authTestApp.js';
import { createSignedInUser } from '../auth/testClient.js';
import { buildWithdrawalApp, fundMain, nextCode } from './withdrawalTestKit.js';

const testDb = useTestDb();
const clock = testClock(Date.now());
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildWithdrawalApp(testDb.current, clock, { config: { withdrawalReviewUsd: 500 } });
});

afterAll(async () => {
  await app.close();
});

describe('WITHDRAWAL_REVIEW_USD', () => {
  it('sends withdrawals up to the configured value and holds larger ones for an operator', async () => {
    const user = await createSignedInUser(app, { twoFactor: true, kyc: true });
    await fundMain(app, user.user.id, 'USDT', '2000', 6);
    const limits = (await user.client.get('/api/v3/profile/withdraw_kyc_limit')).json();
    expect(limits.reviewAboveUsd).toBe('500');
    const withdraw = (amount: string) =>
      user.client.post('/api/v3/balance/withdrawal-USDT/CRYPTOMEMO', {
        amount,
        address: `T${'a'.repeat(33)}`,
        network: 'tron',
        code: nextCode(clock, user.totpSecret),
      });
    const small = await withdraw('400');
    expect(small.statusCode).toBe(200);
    expect(small.json().status).toBe(withdrawalStatus.inProcess);
    const large = await withdraw('600');
    expect(large.statusCode).toBe(200);
    expect(large.json().status).toBe(withdrawalStatus.unconfirmedByAdmin);
  });
});
