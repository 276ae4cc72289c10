import { withdrawalStatus } from '@lattice/contracts';
import { amountFromDb } from '../../db/amount.js';
import type { Db } from '../../db/database.js';
import type { EngineHost } from '../../engineHost/engineHost.js';
import type { HostLogger } from '../../engineHost/hostLogger.js';
import type { ChainRegistry } from '../chains/chainRegistry.js';
import { cachedReferenceData } from '../markets/referenceCache.js';
import {
  expiredConfirmations,
  findWithdrawal,
  markHoldSettled,
  recordSent,
  sentUnconfirmed,
  transitionWithdrawal,
  unfinishedWithdrawals,
  type WithdrawalRow,
} from './withdrawals.repo.js';

/** The engine business id of a withdrawal's hold, and the chain reference of its send. */
export function holdIdOf(id: number): string {
  return `withdrawal:${id}`;
}

const s = withdrawalStatus;
/** Statuses whose hold ends in a release. */
const releasing: readonly number[] = [s.failed, s.unsuccessful, s.canceledByValidation];

/**
 * Sends confirmed withdrawals, ends their holds, marks them successful once their transaction
 * has the network's confirmations, and on start-up finishes what a stop interrupted. Each step is recorded before the next one runs and every step can be repeated:
 * the status moves by conditional updates, the chain send is idempotent by the business id,
 * and the engine answers a repeated complete or release with its first result. So a
 * withdrawal held but not sent is sent once or released, never both, never twice.
 */
export class WithdrawalProcessor {
  constructor(
    private readonly host: EngineHost,
    private readonly db: Db,
    private readonly chains: ChainRegistry,
    private readonly logger: HostLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Sends a confirmed withdrawal (status 10); a caller that did not move it to 11 does nothing. */
  async process(id: number): Promise<void> {
    const moved = await transitionWithdrawal(
      this.db,
      id,
      [s.confirmedByUser],
      { status: s.inProcess },
      this.now(),
    );
    if (moved) await this.sendHeld(id);
  }

  /** Releases the hold of a withdrawal already moved to a releasing status. */
  async release(id: number): Promise<void> {
    await this.endHold(id, { type: 'balance.withdrawRelease', businessId: holdIdOf(id) });
  }

  /**
   * On start-up, before requests: every withdrawal a stop left between two steps is taken to
   * its end. 1: the hold may or may not have been placed, the request never answered: release
   * whatever exists (13). 5 past its link's expiry: 13 and release. 10: send. 11 without a
   * transaction: send again (the chain answers the first transaction if there was one); 11
   * with one: complete the hold if that did not happen. 3, 4, 12, 13 with an open hold:
   * complete or release it.
   */
  async recover(): Promise<number> {
    const open = [s.freezed, s.unconfirmedByUser, s.confirmedByUser, s.inProcess];
    const rows = await unfinishedWithdrawals(this.db, open);
    let finished = 0;
    for (const row of rows) {
      try {
        if (await this.recoverOne(row)) finished += 1;
      } catch (error) {
        this.logger.error({ err: error, withdrawal: row.id }, 'withdrawal recovery failed');
      }
    }
    return finished;
  }

  private async recoverOne(row: WithdrawalRow): Promise<boolean> {
    const id = Number(row.id);
    const status = Number(row.status);
    const now = this.now();
    if (status === s.freezed) {
      const reason = 'Interrupted before the funds were held';
      const change = { status: s.canceledByValidation, reason };
      if (!(await transitionWithdrawal(this.db, id, [s.freezed], change, now))) return false;
      await this.releaseIfHeld(id);
      return true;
    }
    if (status === s.unconfirmedByUser) {
      if (Number(row.confirm_expires_at ?? 0) > now) return false;
      return this.expire(id);
    }
    if (status === s.confirmedByUser) {
      await this.process(id);
      return true;
    }
    if (status === s.inProcess) {
      await this.sendHeld(id);
      return true;
    }
    if (row.hold_settled_at !== null) return false;
    if (status === s.successful) {
      await this.endHold(id, {
        type: 'balance.withdrawComplete',
        businessId: holdIdOf(id),
        fee: amountFromDb(row.fee),
      });
      return true;
    }
    // A 13 may come from a 1 whose hold the engine never applied; 4 and 12 were always held.
    if (status === s.canceledByValidation) {
      await this.releaseIfHeld(id);
      return true;
    }
    if (releasing.includes(status)) {
      await this.release(id);
      return true;
    }
    return false;
  }

  /** Stops every withdrawal whose e-mail link expired unopened, releasing its funds. */
  async expireDue(): Promise<number> {
    let expired = 0;
    for (const id of await expiredConfirmations(this.db, this.now())) {
      if (await this.expire(id)) expired += 1;
    }
    return expired;
  }

  /** A confirmation link that expired: the withdrawal stops and its funds are released. */
  async expire(id: number): Promise<boolean> {
    const change = {
      status: s.canceledByValidation,
      reason: 'The confirmation link expired',
      confirm: null,
    };
    if (!(await transitionWithdrawal(this.db, id, [s.unconfirmedByUser], change, this.now()))) {
      return false;
    }
    await this.release(id);
    return true;
  }

  /** Releases the hold if the engine has it; either way nothing is held afterwards. */
  private async releaseIfHeld(id: number): Promise<void> {
    const result = await this.host.submit({
      type: 'balance.withdrawRelease',
      businessId: holdIdOf(id),
    });
    if (!result.ok && result.code !== 'withdraw_not_found') {
      throw new Error(`balance.withdrawRelease ${holdIdOf(id)}: ${result.code}`);
    }
    await markHoldSettled(this.db, id, this.now());
  }

  /**
   * Sends a withdrawal in status 11 unless its transaction is recorded, then completes the
   * hold (the funds have left) and looks at its confirmations. A failed send is 4, released.
   */
  private async sendHeld(id: number): Promise<void> {
    const row = await findWithdrawal(this.db, id);
    if (row === undefined || Number(row.status) !== s.inProcess) return;
    if (row.tx_hash === null) {
      const adapter = this.chains.adapter(row.network);
      let txHash: string;
      try {
        if (adapter === undefined) throw new Error('no adapter for the network');
        ({ txHash } = await adapter.send({
          asset: row.asset,
          address: row.address,
          memo: row.memo === '' ? null : row.memo,
          amount: amountFromDb(row.amount),
          reference: holdIdOf(id),
        }));
      } catch (error) {
        const reason = error instanceof Error ? error.message.slice(0, 200) : 'send failed';
        const change = { status: s.failed, reason };
        if (await transitionWithdrawal(this.db, id, [s.inProcess], change, this.now())) {
          await this.release(id);
        }
        return;
      }
      if (!(await recordSent(this.db, id, txHash, this.now()))) return;
    }
    if (row.hold_settled_at === null) {
      await this.endHold(id, {
        type: 'balance.withdrawComplete',
        businessId: holdIdOf(id),
        fee: amountFromDb(row.fee),
      });
    }
    await this.confirmSent([id]);
  }

  /**
   * Sent withdrawals (11 with a transaction, hold completed) whose transaction has the
   * network's confirmations become successful (3); all of them, or those of `ids`.
   */
  async confirmSent(ids?: readonly number[]): Promise<number> {
    const rows = await sentUnconfirmed(this.db, ids);
    if (rows.length === 0) return 0;
    const reference = await cachedReferenceData(this.db);
    let confirmed = 0;
    for (const row of rows) {
      const adapter = this.chains.adapter(row.network);
      const required = reference.networks.find((n) => n.code === row.network)?.confirmations;
      if (adapter === undefined || required === undefined || row.tx_hash === null) continue;
      if ((await adapter.confirmations(row.tx_hash)) < required) continue;
      const change = { status: s.successful };
      if (await transitionWithdrawal(this.db, Number(row.id), [s.inProcess], change, this.now())) {
        confirmed += 1;
      }
    }
    return confirmed;
  }

  private async endHold(
    id: number,
    command:
      | { type: 'balance.withdrawComplete'; businessId: string; fee: bigint }
      | { type: 'balance.withdrawRelease'; businessId: string },
  ): Promise<void> {
    const result = await this.host.submit(command);
    // NOTE: a hold this service placed must exist; a refusal here is a bug, not bad input.
    if (!result.ok) throw new Error(`${command.type} ${command.businessId}: ${result.code}`);
    await markHoldSettled(this.db, id, this.now());
  }
}
