import { withdrawalStatus } from '@lattice/contracts';
import type { Selectable } from 'kysely';
import { amountToDb } from '../../db/amount.js';
import type { Db } from '../../db/database.js';
import type { WithdrawalsTable } from '../../db/tables/withdrawals.js';
import { type HistoryFilter, userHistoryPage } from '../wallet/historyPage.js';

export type WithdrawalRow = Selectable<WithdrawalsTable>;

export interface NewWithdrawal {
  userId: number;
  asset: string;
  network: string;
  address: string;
  memo: string;
  amount: bigint;
  fee: bigint;
  status: number;
  needsReview: boolean;
  now: number;
}

/** Records a withdrawal (status 1) before its funds are held; returns its id. */
export async function insertWithdrawal(db: Db, row: NewWithdrawal): Promise<number> {
  const inserted = await db
    .insertInto('withdrawals')
    .values({
      user_id: row.userId,
      asset: row.asset,
      network: row.network,
      address: row.address,
      memo: row.memo,
      amount: amountToDb(row.amount),
      fee: amountToDb(row.fee),
      status: row.status,
      tx_hash: null,
      reason: null,
      needs_review: row.needsReview ? 1 : 0,
      confirm_token_hash: null,
      confirm_expires_at: null,
      hold_settled_at: null,
      created_at: row.now,
      updated_at: row.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** Drops a withdrawal whose hold the engine refused: nothing was held, nothing to show. */
export async function deleteWithdrawal(db: Db, id: number): Promise<void> {
  await db.deleteFrom('withdrawals').where('id', '=', id).execute();
}

export interface WithdrawalChange {
  status: number;
  txHash?: string;
  reason?: string;
  /** The e-mail confirmation: set while status 5 waits, null once used. */
  confirm?: { tokenHash: string; expiresAt: number } | null;
}

/**
 * Moves a withdrawal to a new status only from one of `from` (and of `userId` when given);
 * returns whether this call made the move. Every change of status goes through it, so two
 * actors (a cancel and the sender, two confirmations) never both act on one withdrawal.
 */
export async function transitionWithdrawal(
  db: Db,
  id: number,
  from: readonly number[],
  change: WithdrawalChange,
  now: number,
  userId?: number,
): Promise<boolean> {
  let query = db
    .updateTable('withdrawals')
    .set({
      status: change.status,
      updated_at: now,
      ...(change.txHash === undefined ? {} : { tx_hash: change.txHash }),
      ...(change.reason === undefined ? {} : { reason: change.reason }),
      ...(change.confirm === undefined
        ? {}
        : {
            confirm_token_hash: change.confirm?.tokenHash ?? null,
            confirm_expires_at: change.confirm?.expiresAt ?? null,
          }),
    })
    .where('id', '=', id)
    .where('status', 'in', [...from]);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Records that the engine completed or released the withdrawal's hold. */
export async function markHoldSettled(db: Db, id: number, now: number): Promise<void> {
  await db
    .updateTable('withdrawals')
    .set({ hold_settled_at: now })
    .where('id', '=', id)
    .where('hold_settled_at', 'is', null)
    .execute();
}

/** The withdrawal waiting for the e-mail link whose token hashes to `tokenHash`. */
export function withdrawalByConfirmToken(db: Db, tokenHash: string) {
  return db
    .selectFrom('withdrawals')
    .selectAll()
    .where('confirm_token_hash', '=', tokenHash)
    .executeTakeFirst() as Promise<WithdrawalRow | undefined>;
}

/**
 * What a restart must look at: withdrawals not yet finished, and finished ones whose hold
 * the engine may not have completed or released yet.
 */
export function unfinishedWithdrawals(db: Db, openStatuses: readonly number[]) {
  return db
    .selectFrom('withdrawals')
    .selectAll()
    .where((eb) =>
      eb.or([eb('status', 'in', [...openStatuses]), eb('hold_settled_at', 'is', null)]),
    )
    .orderBy('id')
    .execute() as Promise<WithdrawalRow[]>;
}

export function findWithdrawal(db: Db, id: number) {
  return db
    .selectFrom('withdrawals')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst() as Promise<WithdrawalRow | undefined>;
}

/** One page of a user's withdrawals, newest first, with the count of all that match. */
export function userWithdrawals(db: Db, userId: number, filter: HistoryFilter) {
  return userHistoryPage<WithdrawalRow>(db, 'withdrawals', userId, filter);
}

/** Withdrawals waiting for an e-mail link that expired at or before `now`. */
export async function expiredConfirmations(db: Db, now: number): Promise<number[]> {
  const rows = await db
    .selectFrom('withdrawals')
    .select('id')
    .where('status', '=', withdrawalStatus.unconfirmedByUser)
    .where('confirm_expires_at', '<=', now)
    .orderBy('id')
    .execute();
  return rows.map((row) => Number(row.id));
}

/** Records the transaction of a withdrawal in status 11 (once: only while it has none). */
export async function recordSent(db: Db, id: number, txHash: string, now: number) {
  const result = await db
    .updateTable('withdrawals')
    .set({ tx_hash: txHash, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', withdrawalStatus.inProcess)
    .where('tx_hash', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Withdrawals sent (11, transaction recorded, hold completed) and not yet confirmed. */
export function sentUnconfirmed(db: Db, ids?: readonly number[]) {
  let query = db
    .selectFrom('withdrawals')
    .selectAll()
    .where('status', '=', withdrawalStatus.inProcess)
    .where('tx_hash', 'is not', null)
    .where('hold_settled_at', 'is not', null);
  if (ids !== undefined) query = query.where('id', 'in', [...ids]);
  return query.orderBy('id').execute() as Promise<WithdrawalRow[]>;
}
