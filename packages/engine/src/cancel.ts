// Cancel commands: one order, all of a user's orders (optionally in one market), or by coin.
import { reject } from './errors.js';
import { UserState } from './ledger.js';
import { cancelOrder } from './lifecycle.js';
import { Market } from './market.js';
import { orderView } from './order.js';
import type { State } from './state.js';
import type {
  ApplyResult,
  OrderCancelAllByCoinCommand,
  OrderCancelAllCommand,
  OrderCancelCommand,
  OrderView,
} from './types.js';
import { knownAsset, knownMarket, knownUser } from './validate.js';

export function cancelOne(s: State, cmd: OrderCancelCommand): ApplyResult {
  const user = knownUser(s, cmd.userId);
  if (!(user instanceof UserState)) return user;
  const o = typeof cmd.orderId === 'number' ? s.orders.get(cmd.orderId) : undefined;
  // Another user's order is reported as not found, like a missing one.
  if (o === undefined || o.user !== user) {
    return reject('order_not_found', 'Order does not exist', 'orderId');
  }
  cancelOrder(s, o);
  // The finish event's view is the order's current one: the result shares it.
  return { ok: true, events: s.events, result: { kind: 'order', order: s.viewOf(o) } };
}

/** Cancel the user's open orders that match, oldest first, and list what was cancelled. */
function cancelMatching(s: State, user: UserState, matches: (m: Market) => boolean): OrderView[] {
  const targets = user.openOrders();
  targets.sort((a, b) => a.id - b.id);
  const cancelled: OrderView[] = [];
  for (const o of targets) {
    // An OCO sibling cancelled earlier in this loop is already closed.
    if (o.finishReason !== null || !matches(o.market)) continue;
    const sibling = o.sibling;
    cancelOrder(s, o);
    cancelled.push(orderView(o));
    if (sibling !== null) cancelled.push(orderView(sibling));
  }
  return cancelled;
}

export function cancelAll(s: State, cmd: OrderCancelAllCommand): ApplyResult {
  const user = knownUser(s, cmd.userId);
  if (!(user instanceof UserState)) return user;
  let market: Market | undefined;
  if (cmd.market !== undefined) {
    const found = knownMarket(s, cmd.market);
    if (!(found instanceof Market)) return found;
    market = found;
  }
  const orders = cancelMatching(s, user, (m) => market === undefined || m === market);
  return { ok: true, events: s.events, result: { kind: 'orders', orders } };
}

export function cancelAllByCoin(s: State, cmd: OrderCancelAllByCoinCommand): ApplyResult {
  const user = knownUser(s, cmd.userId);
  if (!(user instanceof UserState)) return user;
  const bad = knownAsset(s, cmd.asset);
  if (bad !== null) return bad;
  const asset = cmd.asset;
  const orders = cancelMatching(s, user, (m) => m.stock === asset || m.money === asset);
  return { ok: true, events: s.events, result: { kind: 'orders', orders } };
}
