import { amountToDecimal } from '@lattice/contracts';
import { sql } from 'kysely';
import { amountFromDb } from '../db/amount.js';
import type { Db } from '../db/database.js';

export interface AssetHistoryFilter {
  userId: number;
  /** null: every asset. */
  asset: string | null;
  /** null: every business. */
  business: string | null;
  /** Unix milliseconds, [from, to); null: unbounded. */
  fromMs: number | null;
  toMs: number | null;
  offset: number;
  limit: number;
}

/** A balance change as `asset.history` shows it (protocol-ws.md §6.5). */
export interface AssetHistoryRecord {
  time: number;
  asset: string;
  business: string;
  change: string;
  balance: string;
  detail: Record<string, number | string>;
}

/**
 * The trade account's balance changes (the account `asset.*` reports), newest first. As
 * upstream, a record is a change of the balance (available + frozen): a freeze or a release
 * only moves funds between the two and is not one.
 */
export async function assetHistoryPage(
  db: Db,
  filter: AssetHistoryFilter,
  decimalsOf: (asset: string) => number,
): Promise<AssetHistoryRecord[]> {
  let query = db
    .selectFrom('balance_history')
    .where('user_id', '=', filter.userId)
    .where('account', '=', 'trade')
    // Both dialects add amount columns as numbers (SQLite converts the text).
    .where(sql<boolean>`available_delta + frozen_delta <> 0`);
  if (filter.asset !== null) query = query.where('asset', '=', filter.asset);
  if (filter.business !== null) query = query.where('business', '=', filter.business);
  if (filter.fromMs !== null) query = query.where('time', '>=', filter.fromMs);
  if (filter.toMs !== null) query = query.where('time', '<', filter.toMs);
  const rows = await query
    .selectAll()
    .orderBy('id', 'desc')
    .offset(filter.offset)
    .limit(filter.limit)
    .execute();
  return rows.map((row) => {
    const decimals = decimalsOf(row.asset);
    const change = amountFromDb(row.available_delta) + amountFromDb(row.frozen_delta);
    const balance = amountFromDb(row.available) + amountFromDb(row.frozen);
    const detail: Record<string, number | string> = {};
    if (Number(row.order_id) !== 0) detail.order_id = Number(row.order_id);
    if (Number(row.deal_id) !== 0) detail.deal_id = Number(row.deal_id);
    if (row.business_id !== null) detail.business_id = row.business_id;
    return {
      time: Number(row.time) / 1000,
      asset: row.asset,
      business: row.business,
      change: amountToDecimal(change, decimals),
      balance: amountToDecimal(balance, decimals),
      detail,
    };
  });
}
