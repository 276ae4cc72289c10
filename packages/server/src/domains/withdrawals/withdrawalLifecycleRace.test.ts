import { amountFromDecimal, withdrawalStatus } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { testClock } from '../auth/authTestApp.js';
import { createSignedInUser, signedInClient, type TestUser } from '../auth/testClient.js';
import { buildWithdrawalApp, fundMain, mainOf, nextCode } from './withdrawalTestKit.js';

const testDb = useTestDb();
const clock = testClock(Date.now());
const tronOutside = `T${'b'.repeat(33)}`;
const usdt = (text: string) => amountFromDecimal(text, 6);
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildWithdrawalApp(testDb.current, clock);
});

afterAll(async () => {
  await app.close();
});

/** A KYC user with 20,000 USDT and a withdrawal of 12,000 waiting for review (status 6). */
async function waitingForReview(): Promise<{ user: TestUser; id: number }> {
  const user = await createSignedInUser(app, { twoFactor: true, kyc: true });
  await fundMain(app, user.user.id, 'USDT', '20000', 6);
  const response = await user.client.post('/api/v3/balance/withdrawal-USDT/CRYPTOMEMO', {
    amount: '12000',
    address: tronOutside,
    network: 'tron',
    code: nextCode(clock, user.totpSecret),
  });
  expect(response.json().status).toBe(withdrawalStatus.unconfirmedByAdmin);
  return { user, id: response.json().id };
}

async function outcome(id: number) {
  const row = await app.db
    .selectFrom('withdrawals')
    .select(['status', 'tx_hash', 'address'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const sent = row.tx_hash === null ? [] : await txOutputs(row.tx_hash);
  return { status: Number(row.status), sent: sent.length };
}

function txOutputs(txHash: string) {
  return app.db
    .selectFrom('sim_chain_transfers')
    .select('amount')
    .where('tx_hash', '=', txHash)
    .execute();
}

describe('concurrent actions on one withdrawal', () => {
  it('releases once for 50 concurrent cancels from two sessions', async () => {
    const { user, id } = await waitingForReview();
    const clients = [user.client, await signedInClient(app, user.user.id)];
    const usdtBefore = app.engineHost.engine.assetTotals().find((t) => t.asset === 'USDT');
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        clients[index % 2]!.post(`/api/v2/withdrawals/${id}/cancel`, {}),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 422)).toHaveLength(49);
    expect(mainOf(app, user.user.id, 'USDT')).toEqual({ available: usdt('20000'), frozen: 0n });
    expect(await outcome(id)).toEqual({ status: withdrawalStatus.unsuccessful, sent: 0 });
    const usdtAfter = app.engineHost.engine.assetTotals().find((t) => t.asset === 'USDT');
    expect(usdtAfter).toEqual(usdtBefore);
  });

  it('sends or releases once for 25 cancels against 25 approvals, never both', async () => {
    const { user, id } = await waitingForReview();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        index % 2 === 0
          ? user.client.post(`/api/v2/withdrawals/${id}/cancel`, {})
          : user.client.post(`/api/dev/withdrawals/${id}/approve`, {}),
      ),
    );
    const won = (from: number) =>
      responses.filter((response, index) => index % 2 === from && response.statusCode === 200);
    expect(responses.every((response) => [200, 422].includes(response.statusCode))).toBe(true);
    // At most one approval and one cancel succeed: a cancel may still win after an approval,
    // before the send starts (10 is cancellable); then the approval sends nothing.
    expect(won(1).length).toBeLessThanOrEqual(1);
    expect(won(0).length).toBeLessThanOrEqual(1);
    const final = await outcome(id);
    const balance = mainOf(app, user.user.id, 'USDT');
    if (final.status === withdrawalStatus.inProcess) {
      expect(won(0)).toHaveLength(0);
      expect(final.sent).toBe(1);
      expect(balance).toEqual({ available: usdt('20000') - usdt('12001'), frozen: 0n });
    } else {
      expect(won(0)).toHaveLength(1);
      expect(final).toEqual({ status: withdrawalStatus.unsuccessful, sent: 0 });
      expect(balance).toEqual({ available: usdt('20000'), frozen: 0n });
    }
  });

  it('sends once for 50 concurrent approvals', async () => {
    const { user, id } = await waitingForReview();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => user.client.post(`/api/dev/withdrawals/${id}/approve`, {})),
    );
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(1);
    expect(await outcome(id)).toEqual({ status: withdrawalStatus.inProcess, sent: 1 });
    expect(mainOf(app, user.user.id, 'USDT')).toEqual({
      available: usdt('20000') - usdt('12001'),
      frozen: 0n,
    });
  });
});
