import { amountFromDb } from '../../db/amount.js';
import type { Db } from '../../db/database.js';
import type { TradesTable } from '../../db/tables/engineHost.js';
import type { TradeTick } from './candles.js';

export function tickFromRow(row: TradesTable): TradeTick {
  return {
    id: Number(row.id),
    market: row.market,
    time: Number(row.time),
    price: amountFromDb(row.price),
    amount: amountFromDb(row.amount),
    total: amountFromDb(row.total),
    takerSide: row.taker_side,
  };
}

/** Trades with an id above `afterId`, oldest first, at most `limit`. */
export async function tradesAfter(db: Db, afterId: number, limit: number): Promise<TradeTick[]> {
  const rows = await db
    .selectFrom('trades')
    .selectAll()
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(tickFromRow);
}

/** A market's trades, newest first; with `afterId`, only those above it. */
export async function marketTrades(
  db: Db,
  market: string,
  page: { offset: number; limit: number; afterId?: number },
): Promise<TradeTick[]> {
  let query = db.selectFrom('trades').selectAll().where('market', '=', market);
  if (page.afterId !== undefined) query = query.where('id', '>', page.afterId);
  const rows = await query.orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute();
  return rows.map(tickFromRow);
}

/** How many trades a market has had. */
export async function marketTradeCount(db: Db, market: string): Promise<number> {
  const row = await db
    .selectFrom('trades')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('market', '=', market)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
