import { amountToDecimal, type OrderJson } from '@lattice/contracts';
import type { OrderView } from '@lattice/engine';
import type { MarketInfo } from './markets.js';

/** Presents an order: amounts as decimal strings, times in Unix seconds. */
export function presentOrder(order: OrderView, info: MarketInfo): OrderJson {
  const stock = (value: bigint) => amountToDecimal(value, info.stockDecimals);
  const money = (value: bigint) => amountToDecimal(value, info.moneyDecimals);
  // A market buy placed by total counts what is left in money, not in stock.
  const leftInMoney = order.type === 2 && order.side === 2 && order.total > 0n;
  const json: OrderJson = {
    id: order.id,
    platform: order.platform,
    algorithm: order.algorithm,
    market: order.market,
    account: order.account,
    side: order.side,
    type: order.type,
    amount: stock(order.amount),
    total: money(order.total),
    price: money(order.price),
    stop_price: money(order.stop_price),
    limit_price: money(order.limit_price),
    left: leftInMoney ? money(order.left) : stock(order.left),
    deal_stock: stock(order.deal_stock),
    deal_money: money(order.deal_money),
    deal_fee: money(order.deal_fee),
    deal_fee_ltt: amountToDecimal(order.deal_fee_ltt, info.feeTokenDecimals),
    triggered: order.triggered,
    oco_id: order.oco_id,
    ctime: order.ctime / 1000,
    mtime: order.mtime / 1000,
    ftime: order.ftime / 1000,
  };
  if (order.finish_reason !== null) json.finish_reason = order.finish_reason;
  return json;
}
