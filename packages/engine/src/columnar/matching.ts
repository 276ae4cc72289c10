// The columnar core's matching and an order's life on the book (match.ts, lifecycle.ts): a new
// order's row, a taker matched in price-time order with self-trade prevention, its rest put on
// the book or finished, OCO siblings cancelled, stops fired by the trades, and the check that
// the book is not crossed. A layer of the core (recordedState.ts).

import { InvariantViolation } from '../errors.js';
import { affordable, budgetFeeNum } from '../match.js';
import { LTT } from '../state.js';
import { KIND_TRADE } from './balanceCell.js';
import type { ColumnarMarket } from './columnarMarket.js';
import {
  STOP_FILLED,
  STOP_NO_LIQUIDITY,
  STOP_PRICE,
  STOP_SELF_TRADE,
  STP_CANCEL_BOTH,
  STP_CANCEL_NEWEST,
  TIF_FOK,
  TIF_IOC,
} from './orderCodes.js';
import {
  NONE,
  O_AMOUNT,
  O_CTIME,
  O_DEAL_FEE_LTT,
  O_DEAL_STOCK,
  O_FINISH_REASON,
  O_FROZEN,
  O_FTIME,
  O_FUNDS_FROZEN,
  O_ID,
  O_LEFT,
  O_LEVEL,
  O_MARKET,
  O_MTIME,
  O_SELF_TRADE,
  O_SIBLING,
  O_SIDE,
  O_SOURCE,
  O_TICKS,
  O_TIME_IN_FORCE,
  O_TOTAL,
  O_TRIGGERED,
  O_TYPE,
  O_USER,
  ORDER_WIDTH,
} from './orderRow.js';
import {
  BUSINESS_ORDER_RELEASE,
  EV_FINISH,
  EV_PUT,
  EV_TRIGGERED,
  EV_UPDATE,
} from './recordLayout.js';

import { Settlement } from './settlement.js';

/** The core with matching and an order's life on the book. */
export abstract class Matching extends Settlement {
  protected newOrder(
    holder: number,
    cm: ColumnarMarket,
    side: number,
    type: number,
    tif: number,
    source: unknown,
    amount: number,
    total: number,
    ticks: number,
    selfTrade: number,
  ): number {
    const id = this.meta.nextOrderId++;
    // As the Order constructor does: both of the market's trade balances exist from now on.
    this.ensureTrade(holder, cm.stock);
    this.ensureTrade(holder, cm.money);
    const o = this.table.allocate(id);
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    ord[row + O_USER] = holder;
    ord[row + O_SIDE] = side;
    ord[row + O_TICKS] = ticks;
    ord[row + O_LEFT] = total > 0 ? total : amount;
    ord[row + O_MARKET] = cm.index;
    ord[row + O_TYPE] = type;
    ord[row + O_TIME_IN_FORCE] = tif;
    ord[row + O_SOURCE] = source === 'web' ? 0 : 1;
    ord[row + O_AMOUNT] = amount;
    ord[row + O_TOTAL] = total;
    ord[row + O_CTIME] = this.time;
    ord[row + O_MTIME] = this.time;
    ord[row + O_SELF_TRADE] = selfTrade;
    this.table.linkUser(o);
    return o;
  }

  /**
   * Match a taker until it is filled, the book runs out or stops crossing, or its self-trade
   * prevention stops it at its user's own resting order.
   */
  protected matchTaker(cm: ColumnarMarket, t: number): number {
    const ord = this.table.rows;
    const row = t * ORDER_WIDTH;
    const isBuy = ord[row + O_SIDE] === 2;
    const opposite = isBuy ? cm.asks : cm.bids;
    const isLimit = ord[row + O_TYPE] === 1;
    const total = ord[row + O_TOTAL]!;
    const byTotal = total > 0;
    const tTicks = ord[row + O_TICKS]!;
    const tUser = ord[row + O_USER]!;
    for (;;) {
      if (ord[row + O_LEFT] === 0) return STOP_FILLED;
      const level = opposite.best();
      if (level === NONE) return STOP_NO_LIQUIDITY;
      const ticks = opposite.ticksOf(level);
      if (isLimit && (isBuy ? ticks > tTicks : ticks < tTicks)) return STOP_PRICE;
      const maker = opposite.headOf(level);
      const makerLeft = ord[maker * ORDER_WIDTH + O_LEFT]!;
      let amount = Math.min(makerLeft, ord[row + O_LEFT]!);
      if (byTotal) {
        // Before self-trade prevention, as in match.ts.
        amount = this.affordableTo(cm, t, total, ticks, makerLeft);
        if (amount > makerLeft) amount = makerLeft;
        if (amount === 0) return STOP_FILLED;
      }
      if (ord[maker * ORDER_WIDTH + O_USER] === tUser) {
        // Self-trade prevention, by the taker's mode: its rest is cancelled (cancelNewest), the
        // resting order is (cancelOldest, and the taker goes on), or both are.
        const mode = ord[row + O_SELF_TRADE];
        if (mode === STP_CANCEL_NEWEST) return STOP_SELF_TRADE;
        this.cancelOpen(cm, maker, null);
        if (mode === STP_CANCEL_BOTH) return STOP_SELF_TRADE;
        continue;
      }
      this.settleFill(cm, t, maker, ticks, amount);
      opposite.reduceTotal(level, amount);
      cm.noteTrade(ticks);
      if (ord[maker * ORDER_WIDTH + O_LEFT] === 0) {
        opposite.remove(maker);
        // Its OCO sibling, if any, goes first (finishOrder).
        this.finishOrder(cm, maker, 0);
      } else {
        if (ord[maker * ORDER_WIDTH + O_SIBLING] !== NONE) this.cancelSibling(cm, maker, false);
        this.emitOrder(EV_UPDATE, maker);
      }
    }
  }

  /**
   * affordable (match.ts) for a buy by total with the given numerators and fee rate (ppm), in
   * bigint: rare.
   */
  protected affordableAt(
    cm: ColumnarMarket,
    total: number,
    moneyNum: bigint,
    feeNum: bigint,
    ticks: number,
    feeRate: bigint,
  ): number {
    const price = BigInt(ticks) * cm.tickSize;
    return Number(affordable(cm.market, BigInt(total), moneyNum, feeNum, price, feeRate));
  }

  /**
   * What buy by total `t` takes at `ticks` from a maker with `makerLeft` (match.ts matchTaker):
   * room kept for the taker's fee in money, or its whole budget when its user pays this fill's
   * fee in LTT (amountPayingLtt, and its NOTE on markets priced in LTT).
   */
  private affordableTo(
    cm: ColumnarMarket,
    t: number,
    total: number,
    ticks: number,
    makerLeft: number,
  ): number {
    const m = cm.market;
    const moneyNum = this.moneyNumOf(cm, t);
    const ltt = this.table.rows[t * ORDER_WIDTH + O_DEAL_FEE_LTT]!;
    const feeNum = budgetFeeNum(m, this.feeNumOf(cm, t), BigInt(ltt));
    const withFee = this.affordableAt(cm, total, moneyNum, feeNum, ticks, m.takerFee);
    const user = this.table.rows[t * ORDER_WIDTH + O_USER]!;
    if (withFee >= makerLeft || !this.holders.paysLtt(user) || m.money === LTT) return withFee;
    const whole = Math.min(this.affordableAt(cm, total, moneyNum, feeNum, ticks, 0n), makerLeft);
    const fillFeeNum = BigInt(whole) * BigInt(ticks) * cm.tickSize * m.takerFee;
    return this.lttFeeDue(cm, t, fillFeeNum) >= 0 ? whole : withFee;
  }

  /**
   * Run a limit order as taker, then rest it, cancel its rest (IOC, FOK, self-trade) or finish
   * it (match.ts executeLimit). A new order that rests is announced with a put; a triggered stop
   * was announced by its trigger, so it reports an update only when it traded.
   */
  protected executeLimit(cm: ColumnarMarket, o: number, isNew: boolean, need: number): void {
    const why = this.matchTaker(cm, o);
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    const traded = ord[row + O_DEAL_STOCK]! > 0;
    if (traded && ord[row + O_SIBLING] !== NONE) this.cancelSibling(cm, o, false);
    const tif = ord[row + O_TIME_IN_FORCE];
    if (ord[row + O_LEFT] === 0) {
      this.finishOrder(cm, o, 0);
    } else if (why === STOP_SELF_TRADE || tif === TIF_IOC || tif === TIF_FOK) {
      this.finishOrder(cm, o, 1);
    } else {
      // What a new order must have had available is what it freezes, unless it traded first.
      if (ord[row + O_FUNDS_FROZEN] === 0) {
        this.freezeForOrder(o, traded ? this.remainingNeed(cm, o) : need);
      }
      cm.ownSide(ord[row + O_SIDE]!).add(o);
      if (isNew) this.emitOrder(EV_PUT, o);
      else if (traded) this.emitOrder(EV_UPDATE, o);
    }
  }

  /**
   * Close an order already off the book and out of the stop lists (and its OCO sibling): release
   * its funds, announce it, free its slot. The offset of its finish record from logStart.
   */
  protected finishOrder(cm: ColumnarMarket, o: number, reason: number): number {
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    // An OCO leg that ends for any reason takes the other leg with it.
    if (ord[row + O_SIBLING] !== NONE) this.cancelSibling(cm, o, false);
    const frozen = ord[row + O_FROZEN]!;
    if (frozen !== 0) {
      const asset = ord[row + O_SIDE] === 1 ? cm.stock : cm.money;
      this.beginBalance(BUSINESS_ORDER_RELEASE, ord[row + O_ID]!, 0);
      this.move(ord[row + O_USER]!, asset, KIND_TRADE, frozen, -frozen);
      this.endBalance();
      ord[row + O_FROZEN] = 0;
    }
    ord[row + O_FINISH_REASON] = reason;
    ord[row + O_FTIME] = this.time;
    ord[row + O_MTIME] = this.time;
    this.table.unlinkUser(o);
    const at = this.emitOrder(EV_FINISH, o);
    // Its record holds all its event needs: the slot is free at once.
    this.table.release(o);
    return at;
  }

  /**
   * Cancel the OCO sibling of an order that traded, triggered or was cancelled (lifecycle.ts);
   * a triggered stop leg takes over the funds frozen for the pair. The offset of the sibling's
   * finish record from logStart, -1 when it had none.
   */
  protected cancelSibling(cm: ColumnarMarket, o: number, handOverFunds: boolean): number {
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    const sibling = ord[row + O_SIBLING]! | 0;
    if (sibling === NONE) return -1;
    const sib = sibling * ORDER_WIDTH;
    ord[row + O_SIBLING] = NONE;
    ord[sib + O_SIBLING] = NONE;
    if (handOverFunds) {
      ord[row + O_FROZEN]! += ord[sib + O_FROZEN]!;
      ord[row + O_FUNDS_FROZEN] = 1;
      ord[sib + O_FROZEN] = 0;
    }
    this.detach(cm, sibling);
    return this.finishOrder(cm, sibling, 2);
  }

  /**
   * Cancel an open order (lifecycle.ts cancelOrder): take it off the book or out of the stop
   * lists and finish it as cancelled, with its OCO sibling. With `listed`, the offsets (from
   * logStart) of the order's finish record and its sibling's go there, in that order.
   */
  protected cancelOpen(cm: ColumnarMarket, o: number, listed: number[] | null): void {
    this.detach(cm, o);
    const siblingAt = this.cancelSibling(cm, o, false);
    const at = this.finishOrder(cm, o, 1);
    if (listed === null) return;
    listed.push(at);
    if (siblingAt >= 0) listed.push(siblingAt);
  }

  /** Take an open order off the book or out of the stop lists, wherever it is. */
  protected detach(cm: ColumnarMarket, o: number): void {
    if (cm.stops.isWaiting(o)) cm.stops.remove(o);
    else if (this.table.rows[o * ORDER_WIDTH + O_LEVEL] !== NONE) {
      cm.ownSide(this.table.rows[o * ORDER_WIDTH + O_SIDE]!).remove(o);
    }
  }

  /**
   * Fire the stops the command's trades crossed, one at a time (rising ones first, lowest stop
   * first, then oldest), each running as a limit taker whose trades may fire more (match.ts
   * runTriggers); then check that the book is not crossed.
   */
  protected runTriggers(cm: ColumnarMarket): void {
    const stops = cm.stops;
    if (stops.count > 0) {
      let o = stops.nextCrossed(cm.runLo, cm.runHi);
      while (o !== NONE) {
        stops.remove(o);
        const row = o * ORDER_WIDTH;
        this.table.rows[row + O_TRIGGERED] = 1;
        this.table.rows[row + O_MTIME] = this.time;
        if (this.table.rows[row + O_SIBLING] !== NONE) this.cancelSibling(cm, o, true);
        this.emitOrder(EV_TRIGGERED, o);
        this.executeLimit(cm, o, false, -1);
        o = stops.nextCrossed(cm.runLo, cm.runHi);
      }
    }
    cm.runLo = -1;
    cm.runHi = -1;
    this.checkNotCrossed(cm);
  }

  private checkNotCrossed(cm: ColumnarMarket): void {
    const asks = cm.asks;
    const bids = cm.bids;
    if (asks.isEmpty || bids.isEmpty) return;
    if (bids.ticksOf(bids.best()) >= asks.ticksOf(asks.best())) {
      throw new InvariantViolation(`crossed book ${cm.name}`);
    }
  }
}
