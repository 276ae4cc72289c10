// An order's life after placement: resting, finishing, cancelling, OCO siblings, stop lists.
import { ceilDiv } from './bigmath.js';
import { assert } from './errors.js';
import { buyFreezeN, mulSafe, toSafe } from './fastmath.js';
import { moveLeg } from './ledger.js';
import type { Market } from './market.js';
import type { Order } from './order.js';
import type { State } from './state.js';
import type { FinishReason } from './types.js';

/** What a buy needs frozen to pay for `amount` at `price` at the worst fee rate. */
export function buyFreezeFor(m: Market, amount: bigint, price: bigint): bigint {
  const r = m.ratios;
  const priceN = toSafe(price);
  if (r !== null && m.tickSizeN > 0 && priceN >= 0 && priceN % m.tickSizeN === 0) {
    const need = buyFreezeN(r, mulSafe(toSafe(amount), priceN / m.tickSizeN));
    if (need >= 0) return BigInt(need);
  }
  const num = amount * price;
  return (num + m.scaleUp) / m.scale + (num * m.maxFee + m.feeScaleUp) / m.feeScale;
}

/**
 * What an open order may still have to pay from its frozen funds: its stock for a sell; for a
 * buy, the worst-case cumulative payment for the rest, less what it already paid.
 */
export function remainingNeed(o: Order): bigint {
  if (o.side === 1) return o.left;
  const m = o.market;
  const num = o.left * o.price;
  return (
    ceilDiv(o.moneyNum + num, m.scale) +
    ceilDiv(o.feeNum + num * m.maxFee, m.feeScale) -
    o.dealMoney -
    o.dealFee
  );
}

/** Freeze funds on the order's trade balance (available -> frozen). */
export function freezeForOrder(s: State, o: Order, amount: bigint): void {
  o.fundsFrozen = true;
  if (amount === 0n) return;
  const leg = moveLeg(o.fundingBalance, -amount, amount);
  o.frozen = o.frozen === 0n ? amount : o.frozen + amount;
  s.emitBalance('order_freeze', null, o.id, 0, [leg]);
}

/** Return whatever is still frozen for the order to available. */
function releaseOrderFunds(s: State, o: Order): void {
  const amount = o.frozen;
  if (amount === 0n) return;
  const leg = moveLeg(o.fundingBalance, amount, -amount);
  o.frozen = 0n;
  s.emitBalance('order_release', null, o.id, 0, [leg]);
}

/** Close an order that is already off the book and out of the stop lists (and its sibling). */
export function finishOrder(s: State, o: Order, reason: FinishReason): void {
  // An OCO leg that ends for any reason takes the other leg with it.
  if (o.sibling !== null) cancelSibling(s, o, false);
  releaseOrderFunds(s, o);
  o.finishReason = reason;
  o.ftime = s.time;
  o.mtime = s.time;
  s.orders.delete(o.id);
  o.user.removeOpen(o);
  s.emitOrder('order.finish', o);
}

/** Register an order as open (in the engine's and its user's indexes). */
export function registerOrder(s: State, o: Order): void {
  s.orders.set(o);
  o.user.addOpen(o);
}

/** Put a (possibly partly filled) limit order on its side of the book. */
export function restOnBook(o: Order): void {
  const m = o.market;
  (o.side === 1 ? m.asks : m.bids).add(o);
}

/** Insert a waiting stop into its market's list for its trigger direction. */
export function addStop(o: Order): void {
  (o.direction > 0 ? o.market.stopsUp : o.market.stopsDown).add(o);
}

export function removeStop(o: Order): void {
  const list = o.direction > 0 ? o.market.stopsUp : o.market.stopsDown;
  assert(list.remove(o), `stop order ${o.id} missing from its list`);
}

/** Take an open order out of the book or the stop lists, wherever it is. */
export function detach(o: Order): void {
  if (o.isStopWaiting) removeStop(o);
  else if (o.level !== null) (o.side === 1 ? o.market.asks : o.market.bids).remove(o);
}

/** Cancel the OCO sibling of an order that executed, triggered or was cancelled. */
export function cancelSibling(s: State, o: Order, handOverFunds: boolean): void {
  const sibling = o.sibling;
  if (sibling === null) return;
  o.sibling = null;
  sibling.sibling = null;
  if (handOverFunds) {
    // The triggered stop leg takes over the funds frozen for the pair by the limit leg.
    o.frozen += sibling.frozen;
    o.fundsFrozen = true;
    sibling.frozen = 0n;
  }
  detach(sibling);
  finishOrder(s, sibling, 2);
}

/** Cancel an open order at the user's request (its OCO sibling goes too). */
export function cancelOrder(s: State, o: Order): void {
  detach(o);
  cancelSibling(s, o, false);
  finishOrder(s, o, 1);
}
