import type { Db } from '../../db/database.js';

/** The filters and page of a deposit or withdrawal history (`transactionHistoryQuery`). */
export interface HistoryFilter {
  ticker?: string | undefined;
  status?: number | undefined;
  /** Unix seconds: `from` inclusive, `to` exclusive. */
  from?: number | undefined;
  to?: number | undefined;
  offset: number;
  limit: number;
}

/**
 * One page of a user's deposits or withdrawals, newest first, with the count of all that match.
 * Both tables keep the same columns for what the histories filter on.
 */
export async function userHistoryPage<Row>(
  db: Db,
  table: 'deposits' | 'withdrawals',
  userId: number,
  filter: HistoryFilter,
): Promise<{ rows: Row[]; total: number }> {
  let query = db.selectFrom(table).where('user_id', '=', userId);
  if (filter.ticker !== undefined) query = query.where('asset', '=', filter.ticker);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from * 1000);
  if (filter.to !== undefined) query = query.where('created_at', '<', filter.to * 1000);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id', 'desc').offset(filter.offset).limit(filter.limit).execute(),
    query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as Row[], total: Number(count.n) };
}
