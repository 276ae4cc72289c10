import { amountFromDecimal, withdrawalStatus } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { testClock } from '../auth/authTestApp.js';
import { createSignedInUser } from '../auth/testClient.js';
import { holdIdOf } from './withdrawalProcessor.js';
import { insertWithdrawal, transitionWithdrawal } from './withdrawals.repo.js';
import { buildWithdrawalApp, fundMain, mainOf, mineBlocks } from './withdrawalTestKit.js';

const testDb = useTestDb();
const clock = testClock(Date.now());
const eth = (text: string) => amountFromDecimal(text, 8);
const fee = eth('0.002');
const s = withdrawalStatus;
const open: FastifyInstance[] = [];

afterAll(async () => {
  for (const app of open) await app.close();
});

async function start(seed: boolean): Promise<FastifyInstance> {
  const app = await buildWithdrawalApp(testDb.current, clock, { seed });
  await app.ready();
  open.push(app);
  return app;
}

async function stop(app: FastifyInstance): Promise<void> {
  await app.close();
  open.splice(open.indexOf(app), 1);
}

/** A withdrawal row of `amount` ETH to its own address, left in `status` as a stop would. */
async function leftBehind(app: FastifyInstance, userId: number, status: number, amount: string) {
  const address = `0x${String(status).padStart(2, '0').repeat(20)}`;
  const id = await insertWithdrawal(app.db, {
    userId,
    asset: 'ETH',
    network: 'ethereum',
    address,
    memo: '',
    amount: eth(amount),
    fee,
    status: s.freezed,
    needsReview: false,
    now: clock.now(),
  });
  return { id, address, amount: eth(amount) };
}

async function hold(app: FastifyInstance, userId: number, id: number, amount: bigint) {
  const result = await app.engineHost.submit({
    type: 'balance.withdrawHold',
    userId,
    asset: 'ETH',
    amount: amount + fee,
    businessId: holdIdOf(id),
  });
  expect(result.ok).toBe(true);
}

async function moveTo(app: FastifyInstance, id: number, status: number, txHash?: string) {
  const change = txHash === undefined ? { status } : { status, txHash };
  expect(await transitionWithdrawal(app.db, id, [s.freezed], change, clock.now())).toBe(true);
}

async function rowOf(app: FastifyInstance, id: number) {
  return app.db
    .selectFrom('withdrawals')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function chainTransfersTo(app: FastifyInstance, address: string) {
  return app.db
    .selectFrom('sim_chain_transfers')
    .select(['tx_hash', 'amount'])
    .where('address', '=', address)
    .execute();
}

describe('a restart finishes interrupted withdrawals once', () => {
  it('sends or releases each, never both, never twice, across two more restarts', async () => {
    const first = await start(true);
    const user = await createSignedInUser(first, { twoFactor: true });
    const userId = user.user.id;
    await fundMain(first, userId, 'ETH', '10', 8);
    const withdrawnBefore = first.engineHost.engine.assetTotals().find((t) => t.asset === 'ETH');

    // Held, not sent: the stop came between the hold and the send.
    const heldOnly = await leftBehind(first, userId, s.inProcess, '1');
    await hold(first, userId, heldOnly.id, heldOnly.amount);
    await moveTo(first, heldOnly.id, s.inProcess);
    // Held and sent on the chain, but the stop came before the outcome was recorded.
    const sentUnrecorded = await leftBehind(first, userId, 12, '2');
    await hold(first, userId, sentUnrecorded.id, sentUnrecorded.amount);
    await moveTo(first, sentUnrecorded.id, s.inProcess);
    const { txHash: firstHash } = await first.chains.adapter('ethereum')!.send({
      asset: 'ETH',
      address: sentUnrecorded.address,
      memo: null,
      amount: sentUnrecorded.amount,
      reference: holdIdOf(sentUnrecorded.id),
    });
    // Recorded, the hold never reached the engine.
    const neverHeld = await leftBehind(first, userId, 1, '0.5');
    // A restart marked it stopped, then stopped itself before settling it (it was never held).
    const stoppedUnheld = await leftBehind(first, userId, 99, '0.3');
    await moveTo(first, stoppedUnheld.id, s.canceledByValidation);
    // Recorded and held, the request never answered.
    const heldUnanswered = await leftBehind(first, userId, 13, '0.25');
    await hold(first, userId, heldUnanswered.id, heldUnanswered.amount);
    // The send failed and was recorded; the release did not happen.
    const failedOpen = await leftBehind(first, userId, s.failed, '0.125');
    await hold(first, userId, failedOpen.id, failedOpen.amount);
    await moveTo(first, failedOpen.id, s.failed);
    // The send succeeded and was recorded; the completion did not happen.
    const sentOpen = await leftBehind(first, userId, s.successful, '0.0625');
    await hold(first, userId, sentOpen.id, sentOpen.amount);
    await moveTo(first, sentOpen.id, s.successful, '0xabc');
    const total = eth('1') + eth('2') + eth('0.25') + eth('0.125') + eth('0.0625') + fee * 5n;
    expect(mainOf(first, userId, 'ETH').frozen).toBe(total);
    await stop(first);

    const second = await start(false);
    const after = async (app: FastifyInstance) => ({
      statuses: await Promise.all(
        [
          heldOnly,
          sentUnrecorded,
          neverHeld,
          heldUnanswered,
          failedOpen,
          sentOpen,
          stoppedUnheld,
        ].map(async (w) => Number((await rowOf(app, w.id)).status)),
      ),
      balance: mainOf(app, userId, 'ETH'),
      heldOnlyTransfers: await chainTransfersTo(app, heldOnly.address),
      sentUnrecordedTransfers: await chainTransfersTo(app, sentUnrecorded.address),
      neverHeldTransfers: await chainTransfersTo(app, neverHeld.address),
      totals: app.engineHost.engine.assetTotals().find((t) => t.asset === 'ETH'),
    });
    const recovered = await after(second);
    // Both sends are out; they are successful once confirmed on the chain.
    expect(recovered.statuses).toEqual([
      s.inProcess,
      s.inProcess,
      s.canceledByValidation,
      s.canceledByValidation,
      s.failed,
      s.successful,
      s.canceledByValidation,
    ]);
    expect(recovered.heldOnlyTransfers).toHaveLength(1);
    // The send that had happened is found again, not repeated.
    expect(recovered.sentUnrecordedTransfers).toEqual([
      { tx_hash: firstHash, amount: eth('2').toString() },
    ]);
    expect((await rowOf(second, sentUnrecorded.id)).tx_hash).toBe(firstHash);
    expect(recovered.neverHeldTransfers).toHaveLength(0);
    // 1 + 2 + 0.0625 and their fees were taken; 0.25 and 0.125 and their fees came back.
    const taken = eth('1') + eth('2') + eth('0.0625') + fee * 3n;
    expect(recovered.balance).toEqual({ available: eth('10') - taken, frozen: 0n });
    const sent = eth('1') + eth('2') + eth('0.0625');
    expect(recovered.totals?.withdrawn).toBe((withdrawnBefore?.withdrawn ?? 0n) + sent);
    const all = [heldOnly, sentUnrecorded, neverHeld, heldUnanswered, failedOpen, sentOpen];
    for (const w of [...all, stoppedUnheld]) {
      expect((await rowOf(second, w.id)).hold_settled_at, String(w.id)).not.toBeNull();
    }
    await stop(second);

    const third = await start(false);
    expect(await after(third)).toEqual(recovered);
    await mineBlocks(third, 'ethereum', 12);
    const confirmed = await after(third);
    expect(confirmed.statuses.slice(0, 2)).toEqual([s.successful, s.successful]);
    expect({ ...confirmed, statuses: recovered.statuses }).toEqual(recovered);
  });
});
