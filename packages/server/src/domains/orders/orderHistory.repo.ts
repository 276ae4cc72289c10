import type { FinishedOrdersQuery, OwnTradesQuery } from '@lattice/contracts';
import type { SelectQueryBuilder } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import type { OrdersTable, TradesTable } from '../../db/tables/engineHost.js';

/** A page of rows and how many match in all. */
export interface RowPage<T> {
  rows: T[];
  total: number;
}

type Window = { offset: number; limit: number };
type OrdersQuery = SelectQueryBuilder<Database, 'orders', object>;

/** The query's type label (SPEC.md §3) as columns: algorithm, then the order type. */
function filterType(query: OrdersQuery, type: FinishedOrdersQuery['type']): OrdersQuery {
  switch (type) {
    case 'limit':
      return query.where('algorithm', '=', 0).where('type', '=', 1);
    case 'market':
      return query.where('type', '=', 2);
    case 'stop_limit':
      return query.where('algorithm', '=', 1);
    case 'oco':
      return query.where('algorithm', '=', 2);
    default:
      return query;
  }
}

/** A user's finished orders, newest finished first; `from`/`to` bound the creation time. */
export async function finishedOrdersPage(
  db: Db,
  userId: number,
  filter: Omit<FinishedOrdersQuery, 'offset' | 'limit' | 'format'>,
  window: Window,
): Promise<RowPage<OrdersTable>> {
  let query: OrdersQuery = db
    .selectFrom('orders')
    .where('user_id', '=', userId)
    .where('ftime', '>', 0);
  if (filter.pair) query = query.where('market', '=', filter.pair);
  if (filter.side) query = query.where('side', '=', filter.side === 'sell' ? 1 : 2);
  query = filterType(query, filter.type);
  if (filter.from !== undefined) query = query.where('ctime', '>=', filter.from * 1000);
  if (filter.to !== undefined) query = query.where('ctime', '<', filter.to * 1000);
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('ftime', 'desc')
      .orderBy('id', 'desc')
      .offset(window.offset)
      .limit(window.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** A trade of the user's, with the role they had in it. */
export interface OwnTradeRow {
  trade: TradesTable;
  role: 1 | 2;
}

/**
 * A user's trades, newest first. The user is the maker or the taker of a trade, never both
 * (self-trades are prevented), so the two indexed lists are merged.
 */
export async function ownTradesPage(
  db: Db,
  userId: number,
  filter: Omit<OwnTradesQuery, 'offset' | 'limit' | 'format'>,
  window: Window,
): Promise<RowPage<OwnTradeRow>> {
  const side = filter.side === undefined ? undefined : filter.side === 'sell' ? 1 : 2;
  const one = (role: 1 | 2) => {
    let query = db
      .selectFrom('trades')
      .where(role === 1 ? 'maker_user_id' : 'taker_user_id', '=', userId);
    if (filter.pair) query = query.where('market', '=', filter.pair);
    // The taker's side is stored; a maker was on the other side.
    if (side !== undefined) query = query.where('taker_side', '=', role === 2 ? side : 3 - side);
    if (filter.from !== undefined) query = query.where('time', '>=', filter.from * 1000);
    if (filter.to !== undefined) query = query.where('time', '<', filter.to * 1000);
    return query;
  };
  const needed = window.offset + window.limit;
  const [makerRows, takerRows, makerCount, takerCount] = await Promise.all([
    one(1).selectAll().orderBy('id', 'desc').limit(needed).execute(),
    one(2).selectAll().orderBy('id', 'desc').limit(needed).execute(),
    one(1)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    one(2)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const merged: OwnTradeRow[] = [
    ...makerRows.map((trade) => ({ trade, role: 1 as const })),
    ...takerRows.map((trade) => ({ trade, role: 2 as const })),
  ].sort((a, b) => Number(b.trade.id) - Number(a.trade.id));
  return {
    rows: merged.slice(window.offset, needed),
    total: Number(makerCount.n) + Number(takerCount.n),
  };
}
