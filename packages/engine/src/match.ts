// Matching: a taker against the opposite side in price-time order, then what becomes of it.
import { ceilDiv, minBig } from './bigmath.js';
import {
  STOP_FILLED,
  STOP_NO_LIQUIDITY,
  STOP_PRICE,
  STOP_SELF_TRADE,
} from './columnar/orderCodes.js';
import { InvariantViolation } from './errors.js';
import {
  addStop,
  cancelOrder,
  cancelSibling,
  finishOrder,
  freezeForOrder,
  remainingNeed,
  removeStop,
  restOnBook,
} from './lifecycle.js';
import { type Market, PPM } from './market.js';
import type { Order } from './order.js';
import { lttFeeDue, settleFill } from './settle.js';
import { LTT, type State } from './state.js';

/**
 * The largest amount (whole lots) a buy by total can still take at `price` without its
 * cumulative payment plus fee exceeding its budget: a fee in money at `feeRate` (ppm; the
 * taker's, or 0 for a fill whose fee is paid in LTT).
 */
export function affordable(
  m: Market,
  total: bigint,
  moneyNum: bigint,
  feeNum: bigint,
  price: bigint,
  feeRate: bigint,
): bigint {
  // In units of 1 / feeScale of a minor unit: what the budget leaves, and what one more unit of
  // amount costs with its fee before either is rounded up.
  const room = total * m.feeScale - moneyNum * PPM - feeNum;
  if (room <= 0n) return 0n;
  const denom = price * (PPM + feeRate);
  const lot = m.lotSize;
  const fits = (lots: bigint) =>
    ceilDiv(moneyNum + lots * lot * price, m.scale) +
      ceilDiv(feeNum + lots * lot * price * feeRate, m.feeScale) <=
    total;
  // No amount above `hi` lots fits even before rounding. The two round-ups add less than two
  // minor units, so an amount that leaves one unit of the budget before them fits: `lo` lots.
  let hi = room / denom / lot;
  if (hi === 0n || fits(hi)) return hi * lot;
  let lo = room > m.feeScale ? (room - m.feeScale) / denom / lot : 0n;
  // Between them (about a minor unit's worth of lots), the cost grows with the amount.
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo * lot;
}

/**
 * What a buy by total has spent of its budget on fees, as affordable counts it (in 1 / feeScale
 * of a minor unit): its fees in money (their numerators), and on a market priced in LTT its fees
 * in LTT too, which come out of the balance its total does. Without them such a buy, its fees
 * taken in LTT, spent its whole total and its fees besides, past what it had.
 * NOTE: there, its fees in money count whole, as charged (deal_fee): a fee in LTT rounds up on
 * its own fill, so the fraction of a unit the order's fees in money have not yet used does not
 * cover it (affordable.test.ts).
 */
export function budgetFeeNum(m: Market, feeNum: bigint, dealFeeLtt: bigint): bigint {
  if (m.money !== LTT) return feeNum;
  return (ceilDiv(feeNum, m.feeScale) + dealFeeLtt) * m.feeScale;
}

/**
 * What a buy by total `t`, whose user pays fees in LTT, takes at `price` (up to the maker's
 * `makerLeft`): all its budget buys when this fill's fee would be taken in LTT, nothing of the
 * budget kept back for a fee in money; else `withFee`, the amount that keeps room for one. A
 * trader who asks to spend a total, with fees in LTT, spends that total. The rule is settle.ts's
 * (lttFeeDue), asked on the state the fill then settles on, so the fill pays its fee in LTT.
 * NOTE: not on a market priced in LTT (the caller's check): there the fee in LTT and the total
 * come out of the one balance, and spending the whole total could leave too little for the fee.
 */
export function amountPayingLtt(
  s: State,
  t: Order,
  price: bigint,
  withFee: bigint,
  makerLeft: bigint,
): bigint {
  const m = t.market;
  let whole = affordable(m, t.total, t.moneyNum, t.feeNum, price, 0n);
  if (whole > makerLeft) whole = makerLeft;
  return lttFeeDue(s, t, whole * price * m.takerFee) >= 0n ? whole : withFee;
}

function noteTrade(m: Market, price: bigint): void {
  m.last = price;
  if (m.runLo < 0n || price < m.runLo) m.runLo = price;
  if (price > m.runHi) m.runHi = price;
}

/**
 * Match a taker until it is filled, the book runs out or stops crossing, or its self-trade
 * prevention stops it at its user's own resting order.
 */
export function matchTaker(s: State, t: Order): number {
  const m = t.market;
  const isBuy = t.side === 2;
  const opposite = isBuy ? m.asks : m.bids;
  const isLimit = t.type === 1;
  const byTotal = t.total > 0n;
  for (;;) {
    // All of its amount, or for a buy by total all of its total (left counts money then).
    if (t.left === 0n) return STOP_FILLED;
    const level = opposite.best();
    if (level === undefined) return STOP_NO_LIQUIDITY;
    const price = level.price;
    if (isLimit && (isBuy ? price > t.price : price < t.price)) return STOP_PRICE;
    const maker = level.head!;
    let amount = minBig(maker.left, t.left);
    if (byTotal) {
      // Before self-trade prevention: a buy whose total buys nothing more at this price is
      // filled, and leaves its user's resting order here alone.
      const feeNum = budgetFeeNum(m, t.feeNum, t.dealFeeLtt);
      amount = affordable(m, t.total, t.moneyNum, feeNum, price, m.takerFee);
      if (amount < maker.left && t.user.customFee && m.money !== LTT) {
        amount = amountPayingLtt(s, t, price, amount, maker.left);
      }
      if (amount > maker.left) amount = maker.left;
      if (amount === 0n) return STOP_FILLED;
    }
    if (maker.user === t.user) {
      // Self-trade prevention, by the taker's mode: its rest is cancelled (cancelNewest), the
      // resting order is (cancelOldest, and the taker goes on), or both are.
      if (t.selfTrade === 'cancelNewest') return STOP_SELF_TRADE;
      cancelOrder(s, maker);
      if (t.selfTrade === 'cancelBoth') return STOP_SELF_TRADE;
      continue;
    }
    settleFill(s, t, maker, price, amount);
    level.total -= amount;
    noteTrade(m, price);
    if (maker.left === 0n) {
      opposite.remove(maker);
      cancelSibling(s, maker, false);
      finishOrder(s, maker, 0);
    } else {
      cancelSibling(s, maker, false);
      s.emitOrder('order.update', maker);
    }
  }
}

/**
 * Run a limit order as taker, then rest it, cancel its rest (IOC, self-trade) or finish it.
 * A new order that rests is announced with 'order.put'; a triggered stop was announced by
 * its trigger event, so it only reports an update when it traded.
 */
export function executeLimit(s: State, o: Order, isNew: boolean, need: bigint): void {
  const why = matchTaker(s, o);
  if (o.dealStock > 0n) cancelSibling(s, o, false);
  if (o.left === 0n) {
    finishOrder(s, o, 0);
  } else if (why === STOP_SELF_TRADE || o.timeInForce === 'IOC' || o.timeInForce === 'FOK') {
    finishOrder(s, o, 1);
  } else {
    // What a new order must have had available is what it freezes, unless it traded first.
    if (!o.fundsFrozen) freezeForOrder(s, o, o.dealStock === 0n ? need : remainingNeed(o));
    restOnBook(o);
    if (isNew) s.emitOrder('order.put', o);
    else if (o.dealStock > 0n) s.emitOrder('order.update', o);
  }
}

/** Run a market order to its end: filled, out of book, or stopped by self-trade. */
export function executeMarket(s: State, o: Order): void {
  const why = matchTaker(s, o);
  const reason = why === STOP_FILLED ? 0 : why === STOP_SELF_TRADE ? 1 : 3;
  finishOrder(s, o, reason);
}

/** The next waiting stop that trades since the last check have crossed, if any. */
function nextTriggered(m: Market): Order | undefined {
  const up = m.stopsUp.first();
  if (up !== undefined && m.runHi >= up.stopPrice) return up;
  const down = m.stopsDown.first();
  if (down !== undefined && m.runLo >= 0n && m.runLo <= down.stopPrice) return down;
  return undefined;
}

/**
 * Fire the stops crossed by the trades of the command, one at a time (rising stops first,
 * lowest stop first, then oldest), each running as a limit taker whose trades may fire more.
 * Ends because every stop fires at most once.
 */
export function runTriggers(s: State, m: Market): void {
  for (let o = nextTriggered(m); o !== undefined; o = nextTriggered(m)) {
    removeStop(o);
    o.triggered = true;
    o.mtime = s.time;
    cancelSibling(s, o, true);
    s.emitOrder('order.triggered', o);
    executeLimit(s, o, false, -1n);
  }
  m.runLo = -1n;
  m.runHi = -1n;
  // The cheap per-command check; the full one is in invariants.ts.
  const ask = m.asks.best();
  const bid = m.bids.best();
  if (ask !== undefined && bid !== undefined && bid.price >= ask.price) {
    throw new InvariantViolation(`crossed book ${m.name}`);
  }
}

/** Wait for the trigger: the funds are already frozen. */
export function parkStop(s: State, o: Order): void {
  addStop(o);
  s.emitOrder('order.put', o);
}
