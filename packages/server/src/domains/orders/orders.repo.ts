import type { OrderView } from '@lattice/engine';
import { amountFromDb } from '../../db/amount.js';
import type { Db } from '../../db/database.js';
import type { OrdersTable } from '../../db/tables/engineHost.js';

/** A user's active orders (including untriggered stops), newest first, one page. */
export async function openOrdersPage(
  db: Db,
  userId: number,
  market: string | null,
  page: { offset: number; limit: number },
): Promise<{ rows: OrdersTable[]; total: number }> {
  let query = db.selectFrom('orders').where('user_id', '=', userId).where('ftime', '=', 0);
  if (market !== null) query = query.where('market', '=', market);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** The engine's order view of a stored row. */
export function orderViewFromRow(row: OrdersTable): OrderView {
  return {
    id: row.id,
    userId: row.user_id,
    platform: row.platform as OrderView['platform'],
    algorithm: row.algorithm as OrderView['algorithm'],
    market: row.market,
    account: row.account as OrderView['account'],
    side: row.side as OrderView['side'],
    type: row.type as OrderView['type'],
    timeInForce: row.time_in_force as OrderView['timeInForce'],
    amount: amountFromDb(row.amount),
    total: amountFromDb(row.total),
    price: amountFromDb(row.price),
    stop_price: amountFromDb(row.stop_price),
    limit_price: amountFromDb(row.limit_price),
    left: amountFromDb(row.left),
    deal_stock: amountFromDb(row.deal_stock),
    deal_money: amountFromDb(row.deal_money),
    deal_fee: amountFromDb(row.deal_fee),
    deal_fee_ltt: amountFromDb(row.deal_fee_ltt),
    triggered: row.triggered === 1,
    oco_id: row.oco_id,
    ctime: row.ctime,
    mtime: row.mtime,
    ftime: row.ftime,
    finish_reason: row.finish_reason as OrderView['finish_reason'],
  };
}
