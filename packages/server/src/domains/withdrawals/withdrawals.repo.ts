import { amountToDb } from '../../db/amount.js';
import type { Db } from '../../db/database.js';
import type { WithdrawalsTable } from '../../db/tables/withdrawals.js';

export type WithdrawalRow = Omit<WithdrawalsTable, 'id'> & { id: number };

export interface NewWithdrawal {
  userId: number;
  asset: string;
  network: string;
  address: string;
  memo: string;
  amount: bigint;
  fee: bigint;
  status: number;
  now: number;
}

/** Records a withdrawal before its funds are held; returns its id. */
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

export async function updateWithdrawal(
  db: Db,
  id: number,
  change: { status: number; txHash?: string; reason?: string },
  now: number,
): Promise<void> {
  await db
    .updateTable('withdrawals')
    .set({
      status: change.status,
      updated_at: now,
      ...(change.txHash === undefined ? {} : { tx_hash: change.txHash }),
      ...(change.reason === undefined ? {} : { reason: change.reason }),
    })
    .where('id', '=', id)
    .execute();
}

export function findWithdrawal(db: Db, id: number) {
  return db
    .selectFrom('withdrawals')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst() as Promise<WithdrawalRow | undefined>;
}

/** One page of a user's withdrawals, newest first, with the count of all that match. */
export async function userWithdrawals(
  db: Db,
  userId: number,
  filter: {
    ticker?: string | undefined;
    status?: number | undefined;
    offset: number;
    limit: number;
  },
): Promise<{ rows: WithdrawalRow[]; total: number }> {
  let base = db.selectFrom('withdrawals').where('user_id', '=', userId);
  if (filter.ticker !== undefined) base = base.where('asset', '=', filter.ticker);
  if (filter.status !== undefined) base = base.where('status', '=', filter.status);
  const rows = (await base
    .selectAll()
    .orderBy('id', 'desc')
    .offset(filter.offset)
    .limit(filter.limit)
    .execute()) as WithdrawalRow[];
  const counted = await base
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  return { rows, total: Number(counted?.n ?? 0) };
}
