import type { AccountKind, DealEvent, EngineEvent, OrderView, SystemOwner } from '@lattice/engine';
import { amountToDb } from '../db/amount.js';
import type {
  BalanceHistoryTable,
  BalancesTable,
  OrdersTable,
  SystemBalancesTable,
  TradesTable,
} from '../db/tables/engineHost.js';

/** The rows a batch's events produce, reduced so each key is written once per batch. */
export interface ProjectionRows {
  readonly orders: OrdersTable[];
  readonly trades: TradesTable[];
  readonly balances: BalancesTable[];
  readonly systemBalances: SystemBalancesTable[];
  readonly history: Omit<BalanceHistoryTable, 'id'>[];
}

/**
 * Turns engine events into projection rows. An order or balance touched several times in one
 * batch keeps only its last state: events carry full resulting values, so the last one is the
 * row (and one statement may not update the same row twice on PostgreSQL).
 */
export function projectionRowsFrom(events: readonly EngineEvent[]): ProjectionRows {
  const orders = new Map<number, OrdersTable>();
  const balances = new Map<string, BalancesTable>();
  const systemBalances = new Map<string, SystemBalancesTable>();
  const trades: TradesTable[] = [];
  const history: Omit<BalanceHistoryTable, 'id'>[] = [];
  for (const event of events) {
    switch (event.type) {
      case 'order.put':
      case 'order.update':
      case 'order.finish':
      case 'order.triggered':
        orders.set(event.order.id, orderRowFrom(event.order));
        break;
      case 'deal':
        trades.push(tradeRowFrom(event));
        break;
      case 'balance':
        for (const leg of event.legs) {
          const values = {
            asset: leg.asset,
            account: leg.account,
            available: amountToDb(leg.available),
            frozen: amountToDb(leg.frozen),
            updated_at: event.time,
          };
          if (typeof leg.owner === 'number') {
            balances.set(`${leg.owner}|${leg.asset}|${leg.account}`, {
              user_id: leg.owner,
              ...values,
            });
            history.push({
              event_seq: event.seq,
              time: event.time,
              user_id: leg.owner,
              asset: leg.asset,
              account: leg.account,
              business: event.business,
              business_id: event.businessId,
              order_id: event.orderId,
              deal_id: event.dealId,
              available_delta: amountToDb(leg.availableDelta),
              frozen_delta: amountToDb(leg.frozenDelta),
              available: values.available,
              frozen: values.frozen,
            });
          } else {
            systemBalances.set(`${leg.owner}|${leg.asset}|${leg.account}`, {
              owner: leg.owner,
              ...values,
            });
          }
        }
        break;
    }
  }
  return {
    orders: [...orders.values()],
    trades,
    balances: [...balances.values()],
    systemBalances: [...systemBalances.values()],
    history,
  };
}

/** The `orders` row of an order view. */
export function orderRowFrom(order: OrderView): OrdersTable {
  return {
    id: order.id,
    user_id: order.userId,
    market: order.market,
    platform: order.platform,
    algorithm: order.algorithm,
    account: order.account,
    side: order.side,
    type: order.type,
    time_in_force: order.timeInForce,
    amount: amountToDb(order.amount),
    total: amountToDb(order.total),
    price: amountToDb(order.price),
    stop_price: amountToDb(order.stop_price),
    limit_price: amountToDb(order.limit_price),
    left: amountToDb(order.left),
    deal_stock: amountToDb(order.deal_stock),
    deal_money: amountToDb(order.deal_money),
    deal_fee: amountToDb(order.deal_fee),
    deal_fee_ltt: amountToDb(order.deal_fee_ltt),
    triggered: order.triggered ? 1 : 0,
    oco_id: order.oco_id,
    ctime: order.ctime,
    mtime: order.mtime,
    ftime: order.ftime,
    finish_reason: order.finish_reason,
  };
}

function tradeRowFrom(deal: DealEvent): TradesTable {
  return {
    id: deal.id,
    time: deal.time,
    market: deal.market,
    price: amountToDb(deal.price),
    amount: amountToDb(deal.amount),
    total: amountToDb(deal.total),
    taker_side: deal.takerSide,
    maker_order_id: deal.makerOrderId,
    taker_order_id: deal.takerOrderId,
    maker_user_id: deal.makerUserId,
    taker_user_id: deal.takerUserId,
    maker_fee: amountToDb(deal.makerFee),
    maker_fee_asset: deal.makerFeeAsset,
    taker_fee: amountToDb(deal.takerFee),
    taker_fee_asset: deal.takerFeeAsset,
  };
}

/** Narrows a stored account name. */
export function accountKindFrom(value: string): AccountKind {
  if (value === 'main' || value === 'trade' || value === 'margin') return value;
  throw new Error(`unknown account kind in the balances table: ${value}`);
}

export const systemOwners: readonly SystemOwner[] = ['fees', 'rounding', 'external'];
