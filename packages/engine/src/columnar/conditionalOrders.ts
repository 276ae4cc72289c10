// The columnar core's stop-limit and OCO orders (conditional.ts): checked as the bigint core
// checks them, their funds frozen at once, the stop waiting in the market's stop lists until a
// trade crosses it (Matching.runTriggers fires it). A layer of the core (recordedState.ts).

import { checkOcoPrices, checkStopLimit } from '../conditional.js';
import { SAFE_MAX, SAFE_MAX_BIG } from '../fastmath.js';
import type { OrderOcoCommand, OrderStopLimitCommand } from '../types.js';
import type { ColumnarMarket } from './columnarMarket.js';
import { type CoreResult, DECLINED } from './orderBounds.js';
import { TIF_GTC } from './orderCodes.js';
import { OrderPlacement } from './orderPlacement.js';
import {
  O_ALGORITHM,
  O_DIRECTION,
  O_FUNDS_FROZEN,
  O_ID,
  O_LIMIT_TICKS,
  O_OCO_ID,
  O_SIBLING,
  O_STOP_TICKS,
  ORDER_WIDTH,
} from './orderRow.js';
import { EV_PUT, RESULT_ORDER, RESULT_ORDERS } from './recordLayout.js';

/** The core with the placing of stop-limit and OCO orders. */
export abstract class ConditionalOrders extends OrderPlacement {
  protected placeStopLimit(cmd: OrderStopLimitCommand): CoreResult {
    const unplaced = this.checkPlacement(cmd);
    if (unplaced !== null) return unplaced;
    const h = this.placedHolder;
    if (this.meta.openOrdersPerUserMax !== 0) {
      const tooMany = this.capOpenOrders(h, 1);
      if (tooMany !== null) return tooMany;
    }
    const cm = this.placedMarket!;
    const m = cm.market;
    this.syncLast(cm);
    const bad = checkStopLimit(m, cmd);
    if (bad !== null) return bad;
    const side = cmd.side;
    if (cmd.amount > SAFE_MAX_BIG) return this.unfitting(h, cm, side, cmd.amount, cmd.price);
    const amount = Number(cmd.amount);
    const ticks = m.ticksOf(cmd.price);
    const funds = side === 1 ? cm.stock : cm.money;
    const need = side === 1 ? amount : this.buyFreeze(cm, amount, ticks);
    if (need > SAFE_MAX) return this.unfitting(h, cm, side, cmd.amount, cmd.price);
    // The funds before the ranges (declineIfPaid).
    if (!this.hasAvailable(h, funds, need)) return this.insufficientOf(h, funds, 'amount');
    // Its fills once triggered are checked by the command that triggers it (triggersFit); what
    // it freezes now, and the waiting stops' sum of amounts, must fit already.
    if (
      !this.fillsFit(cm, amount, ticks) ||
      cm.stops.amountUnits > SAFE_MAX - amount / cm.amountUnit
    ) {
      return DECLINED;
    }
    this.ensureTrade(h, funds);
    const stp = this.placedSelfTrade;
    const o = this.newOrder(h, cm, side, 1, TIF_GTC, cmd.source, amount, 0, ticks, stp);
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    const stopTicks = m.ticksOf(cmd.stopPrice);
    ord[row + O_ALGORITHM] = 1;
    ord[row + O_STOP_TICKS] = stopTicks;
    ord[row + O_DIRECTION] = stopTicks > cm.lastTicks ? 1 : -1;
    this.resultId = ord[row + O_ID]!;
    this.freezeForOrder(o, need);
    this.parkStop(cm, o);
    return this.accepted(RESULT_ORDER);
  }

  protected placeOco(cmd: OrderOcoCommand): CoreResult {
    const unplaced = this.checkPlacement(cmd);
    if (unplaced !== null) return unplaced;
    const h = this.placedHolder;
    if (this.meta.openOrdersPerUserMax !== 0) {
      const tooMany = this.capOpenOrders(h, 2);
      if (tooMany !== null) return tooMany;
    }
    const cm = this.placedMarket!;
    const m = cm.market;
    const side = cmd.side;
    this.syncLast(cm);
    const bad = checkOcoPrices(m, side, cmd);
    if (bad !== null) return bad;
    const { price, limitPrice } = cmd;
    if (cmd.amount > SAFE_MAX_BIG)
      return this.unfitting(h, cm, side, cmd.amount, price, limitPrice);
    const amount = Number(cmd.amount);
    const ticks = m.ticksOf(price);
    const limitTicks = m.ticksOf(limitPrice);
    // One freeze covers both legs: enough for whichever of the two prices costs more.
    const need =
      side === 1
        ? amount
        : Math.max(this.buyFreeze(cm, amount, ticks), this.buyFreeze(cm, amount, limitTicks));
    if (need > SAFE_MAX) return this.unfitting(h, cm, side, cmd.amount, price, limitPrice);
    // The funds before the ranges (declineIfPaid).
    const funds = side === 1 ? cm.stock : cm.money;
    if (!this.hasAvailable(h, funds, need)) return this.insufficientOf(h, funds, 'amount');
    if (!this.ocoFits(cm, side, amount, ticks, limitTicks)) return DECLINED;
    this.ensureTrade(h, funds);
    const source = cmd.source;
    const stp = this.placedSelfTrade;
    const limitLeg = this.newOrder(h, cm, side, 1, TIF_GTC, source, amount, 0, ticks, stp);
    const stopLeg = this.newOrder(h, cm, side, 1, TIF_GTC, source, amount, 0, limitTicks, stp);
    this.pairOcoLegs(side, limitLeg, stopLeg, m.ticksOf(cmd.stopPrice), limitTicks);
    this.freezeForOrder(limitLeg, need);
    this.parkStop(cm, stopLeg);
    this.executeLimit(cm, limitLeg, true, -1);
    this.runTriggers(cm);
    return this.accepted(RESULT_ORDERS);
  }

  /**
   * Whether an OCO's legs stay within the ranges: the limit leg trades now or rests; the stop leg
   * waits, and cannot fire in this command (a trade of the limit leg cancels it).
   */
  private ocoFits(
    cm: ColumnarMarket,
    side: number,
    amount: number,
    ticks: number,
    limitTicks: number,
  ): boolean {
    return (
      this.limitFillsFit(cm, side, amount, ticks) &&
      this.fillsFit(cm, amount, limitTicks) &&
      cm.ownSide(side).units <= SAFE_MAX - amount / cm.amountUnit &&
      cm.stops.amountUnits <= SAFE_MAX - amount / cm.amountUnit &&
      this.tradesFit(cm, side, ticks, amount)
    );
  }

  /**
   * Two new orders made an OCO's legs: each other's sibling under the limit leg's id, the stop
   * leg waiting in the direction the price must move to fire it, its funds the pair's one freeze.
   */
  private pairOcoLegs(
    side: number,
    limitLeg: number,
    stopLeg: number,
    stopTicks: number,
    limitTicks: number,
  ): void {
    // Read after both were made: a new order may have grown the table.
    const ord = this.table.rows;
    const ocoId = ord[limitLeg * ORDER_WIDTH + O_ID]!;
    for (const [o, sibling] of [
      [limitLeg, stopLeg],
      [stopLeg, limitLeg],
    ] as const) {
      const row = o * ORDER_WIDTH;
      ord[row + O_ALGORITHM] = 2;
      ord[row + O_STOP_TICKS] = stopTicks;
      ord[row + O_LIMIT_TICKS] = limitTicks;
      ord[row + O_OCO_ID] = ocoId;
      ord[row + O_SIBLING] = sibling;
    }
    const stopRow = stopLeg * ORDER_WIDTH;
    ord[stopRow + O_DIRECTION] = side === 1 ? -1 : 1;
    ord[stopRow + O_FUNDS_FROZEN] = 1;
    this.resultId = ocoId;
    this.resultId2 = ord[stopRow + O_ID]!;
  }

  /** Wait for the trigger (the funds are already frozen), announced with a put. */
  private parkStop(cm: ColumnarMarket, o: number): void {
    cm.stops.add(o);
    this.emitOrder(EV_PUT, o);
  }
}
