import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { testClock } from '../auth/authTestApp.js';
import { createSignedInUser, signedInClient, type TestUser } from '../auth/testClient.js';
import { buildWithdrawalApp, fundMain, nextCode } from './withdrawalTestKit.js';

const testDb = useTestDb();
const clock = testClock(Date.now());
const outside = `0x${'cd'.repeat(20)}`;
let app: FastifyInstance;

async function fundedUser(): Promise<TestUser> {
  const user = await createSignedInUser(app, { twoFactor: true });
  // 0.5 plus the 0.002 fee: exactly one withdrawal of 0.5 fits.
  await fundMain(app, user.user.id, 'ETH', '0.502', 8);
  return user;
}

function ethTotal() {
  return app.engineHost.engine.assetTotals().find((row) => row.asset === 'ETH');
}

beforeAll(async () => {
  app = await buildWithdrawalApp(testDb.current, clock);
});

afterAll(async () => {
  await app.close();
});

describe('concurrent withdrawals of a whole balance', () => {
  it('accepts exactly one of 50 holds of the whole balance; totals move by the amount sent', async () => {
    const user = await fundedUser();
    const service = app.withdrawals;
    const before = ethTotal();
    const body = { amount: '0.5', address: outside, code: '000000' };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, async () =>
        service.execute(user.user, await service.plan('ETH', body)),
      ),
    );
    const accepted = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    expect(accepted).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') {
        expect(outcome.reason.errors).toEqual({
          amount: ['Amount should not be greater than your balance!'],
        });
      }
    }
    const rows = await app.db
      .selectFrom('withdrawals')
      .select('status')
      .where('user_id', '=', user.user.id)
      .execute();
    // Sent, in process until its confirmations.
    expect(rows.map((row) => Number(row.status))).toEqual([11]);
    const after = ethTotal();
    // Everything but the 0.5 sent stays inside; the 0.002 fee moved to the fee account.
    expect(after?.total).toBe((before?.total ?? 0n) - 50_000_000n);
  });

  it('accepts exactly one of 50 HTTP requests from two sessions sharing one 2FA code', async () => {
    const user = await fundedUser();
    const clients = [user.client, await signedInClient(app, user.user.id)];
    const code = nextCode(clock, user.totpSecret);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        clients[index % 2]!.post('/api/v3/balance/withdrawal-ETH/CRYPTOMEMO', {
          amount: '0.5',
          address: outside,
          code,
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.every((status) => status === 200 || status === 422 || status === 429)).toBe(
      true,
    );
    const history = (await user.client.get('/api/v2/withdraw_history')).json();
    expect(history.total).toBe(1);
  });
});
