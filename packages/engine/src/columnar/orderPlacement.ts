// The columnar core's limit and market orders (placement.ts, place.ts): every check of the
// bigint core, in the same order and with the same rejections, then the ranges the core keeps
// within (orderBounds.ts), declining what would leave them, before anything changes. A layer of
// the core (recordedState.ts).

import { reject } from '../errors.js';
import { SAFE_MAX, SAFE_MAX_BIG, toSafe } from '../fastmath.js';
import { checkOpenOrderCap, mayRest } from '../placement.js';
import { LTT } from '../state.js';
import type { OrderLimitCommand, OrderMarketCommand, Rejection } from '../types.js';
import {
  checkAmount,
  checkOrderAmount,
  checkOrderValue,
  checkPositive,
  checkPrice,
  checkSelfTrade,
  checkSide,
  checkSource,
  knownMarket,
  knownUser,
  selfTradeCode,
} from '../validate.js';
import { ColumnarMarket } from './columnarMarket.js';
import { type CoreResult, DECLINED, OrderBounds } from './orderBounds.js';
import {
  STOP_FILLED,
  STOP_SELF_TRADE,
  STP_CANCEL_OLDEST,
  TIF_FOK,
  TIF_GTC,
  TIF_IOC,
  TIF_POST_ONLY,
} from './orderCodes.js';
import { NONE, O_ID, O_LEFT, O_USER, ORDER_WIDTH } from './orderRow.js';
import { RESULT_ORDER } from './recordLayout.js';

function timeInForceCode(value: unknown): number {
  return value === 'GTC'
    ? TIF_GTC
    : value === 'IOC'
      ? TIF_IOC
      : value === 'FOK'
        ? TIF_FOK
        : value === 'POST_ONLY'
          ? TIF_POST_ONLY
          : NONE;
}

/** The core with the placing of limit and market orders. */
export abstract class OrderPlacement extends OrderBounds {
  /** The market of the last order command (marketOf): orders in a row mostly share one. */
  private lastMarket: ColumnarMarket | null = null;

  /** The market of an order command, or the bigint core's rejection for its name. */
  protected marketOf(name: unknown): ColumnarMarket | Rejection {
    const last = this.lastMarket;
    if (last !== null && name === last.name) return last;
    const cm = typeof name === 'string' ? this.marketsByName.get(name) : undefined;
    if (cm === undefined) return knownMarket(this.meta, name) as Rejection;
    this.lastMarket = cm;
    return cm;
  }

  /**
   * What every order command checks first (placement.ts checkPlacement): its user, its market,
   * its side, source and self-trade prevention; then DECLINED for a market the core does not
   * trade in. The user's holder, the market and the self-trade code are left in placedHolder,
   * placedMarket and placedSelfTrade for the command (no object made per order).
   */
  protected checkPlacement(cmd: {
    userId: unknown;
    market: unknown;
    side: unknown;
    source: unknown;
    selfTradePrevention?: unknown;
  }): Rejection | typeof DECLINED | null {
    const h = this.holders.findUser(cmd.userId);
    if (h < 0) return knownUser(this.meta, cmd.userId) as Rejection;
    const cm = this.marketOf(cmd.market);
    if (!(cm instanceof ColumnarMarket)) return cm;
    const badSide = checkSide(cmd.side) ?? checkSource(cmd.source);
    if (badSide !== null) return badSide;
    const stp = selfTradeCode(cmd.selfTradePrevention);
    if (stp < 0) return checkSelfTrade(cmd.selfTradePrevention);
    this.placedHolder = h;
    this.placedMarket = cm;
    this.placedSelfTrade = stp;
    return cm.fits ? null : DECLINED;
  }

  /**
   * The cap of limits.set on the placing holder's open orders, for an order that opens
   * `adding` of them (placement.ts checkOpenOrderCap). NOTE: callers test for a cap first, so
   * that an exchange without one runs none of this.
   */
  protected capOpenOrders(h: number, adding: number): Rejection | null {
    return checkOpenOrderCap(this.meta.openOrdersPerUserMax, this.table.openOfUser(h), adding);
  }

  protected placeLimit(cmd: OrderLimitCommand): CoreResult {
    const unplaced = this.checkPlacement(cmd);
    if (unplaced !== null) return unplaced;
    const h = this.placedHolder;
    if (this.meta.openOrdersPerUserMax !== 0 && mayRest(cmd.timeInForce)) {
      const tooMany = this.capOpenOrders(h, 1);
      if (tooMany !== null) return tooMany;
    }
    const cm = this.placedMarket!;
    const m = cm.market;
    // The common case in numbers; anything else through the bigint core's checks.
    let ticks = cm.ticksOfPrice(cmd.price);
    let amount = ticks < 0 ? -1 : cm.amountOf(cmd.amount);
    if (amount < 0) {
      const bad =
        checkPrice(m, cmd.price) ??
        checkAmount(m, cmd.amount) ??
        checkOrderAmount(m, cmd.amount) ??
        checkOrderValue(m, cmd.amount, cmd.price);
      if (bad !== null) return bad;
      if (cmd.amount > SAFE_MAX_BIG) return this.unfitting(h, cm, cmd.side, cmd.amount, cmd.price);
      amount = Number(cmd.amount);
      ticks = m.ticksOf(cmd.price);
    } else if (amount > cm.amountMax) {
      return checkOrderAmount(m, cmd.amount)!;
    } else if (cm.valueCapLotsTicks >= 0 && cm.lotsTicks(amount, ticks) > cm.valueCapLotsTicks) {
      const bad = checkOrderValue(m, cmd.amount, cmd.price);
      if (bad !== null) return bad;
    }
    const side = cmd.side;
    const funds = side === 1 ? cm.stock : cm.money;
    const need = side === 1 ? amount : this.buyFreeze(cm, amount, ticks);
    if (need > SAFE_MAX) return this.unfitting(h, cm, side, cmd.amount, cmd.price);
    // The funds before the ranges: an order its user cannot pay for is refused, however large.
    if (!this.hasAvailable(h, funds, need)) return this.insufficientOf(h, funds, 'amount');
    if (!this.limitFillsFit(cm, side, amount, ticks)) return DECLINED;
    // Its rest may join its side of the book, whose total in lots stays a safe integer.
    if (cm.ownSide(side).units > SAFE_MAX - amount / cm.amountUnit) return DECLINED;
    if (!this.tradesFit(cm, side, ticks, amount)) return DECLINED;
    // As Placement.available does: the balance exists from here on.
    this.ensureTrade(h, funds);
    const tif = timeInForceCode(cmd.timeInForce);
    const badTif = this.checkTimeInForce(cm, side, h, tif, ticks, amount);
    if (badTif !== null) return badTif;
    const stp = this.placedSelfTrade;
    const o = this.newOrder(h, cm, side, 1, tif, cmd.source, amount, 0, ticks, stp);
    this.resultId = this.table.rows[o * ORDER_WIDTH + O_ID]!;
    // No call at all on the common path, where no user pays fees in LTT.
    if (this.holders.lttFeeUsers > 0 && this.freezesFirst(cm, h, side)) {
      this.freezeForOrder(o, need);
    }
    this.executeLimit(cm, o, true, need);
    this.runTriggers(cm);
    return this.accepted(RESULT_ORDER);
  }

  private checkTimeInForce(
    cm: ColumnarMarket,
    side: number,
    holder: number,
    tif: number,
    ticks: number,
    amount: number,
  ): Rejection | null {
    switch (tif) {
      case TIF_GTC:
      case TIF_IOC:
        return null;
      case TIF_POST_ONLY:
        return this.crossesBook(cm, side, ticks)
          ? reject('post_only_would_take', 'A post-only order must not trade on arrival', 'price')
          : null;
      case TIF_FOK:
        return this.canFillCompletely(cm, side, holder, ticks, amount)
          ? null
          : reject('fok_not_filled', 'The order cannot be filled completely now', 'amount');
      default:
        return reject('invalid_command', 'Unknown time in force', 'timeInForce');
    }
  }

  /**
   * Whether a fill-or-kill order can fill completely right now: an own order stops it, unless
   * its self-trade prevention cancels own orders and goes on (cancelOldest).
   */
  private canFillCompletely(
    cm: ColumnarMarket,
    side: number,
    holder: number,
    ticks: number,
    amount: number,
  ): boolean {
    const isBuy = side === 2;
    const opposite = cm.oppositeSide(side);
    const ord = this.table.rows;
    const skipsOwn = this.placedSelfTrade === STP_CANCEL_OLDEST;
    let rest = amount;
    for (let i = 0; i < opposite.levelCount && rest > 0; i++) {
      const level = opposite.levelAt(i);
      const price = opposite.ticksOf(level);
      if (isBuy ? price > ticks : price < ticks) return false;
      for (let o = opposite.headOf(level); o !== NONE && rest > 0; o = this.nextInLevel(o)) {
        if (ord[o * ORDER_WIDTH + O_USER] !== holder) {
          rest -= Math.min(ord[o * ORDER_WIDTH + O_LEFT]!, rest);
        } else if (!skipsOwn) {
          return false;
        }
      }
    }
    return rest === 0;
  }

  protected placeMarket(cmd: OrderMarketCommand): CoreResult {
    // A market that does not fit declines below, after the checks that reject.
    const unplaced = this.checkPlacement(cmd);
    if (unplaced !== null && unplaced !== DECLINED) return unplaced;
    const h = this.placedHolder;
    const cm = this.placedMarket!;
    if ((cmd.amount === undefined) === (cmd.total === undefined)) {
      return reject('invalid_command', 'Give exactly one of amount and total', 'amount');
    }
    const side = cmd.side;
    const opposite = cm.oppositeSide(side);
    if (opposite.isEmpty) return reject('not_enough_liquidity', 'Not enough liquidity');
    if (!cm.fits) return DECLINED;
    let amount = 0;
    let total = 0;
    let need = 0;
    if (cmd.total !== undefined) {
      const bad = this.checkMarketTotal(cm, h, side, cmd.total);
      if (bad !== null) return bad;
      total = Number(cmd.total);
    } else {
      // The common case in numbers, as for a limit order; anything else through the checks.
      const funds = side === 1 ? cm.stock : cm.money;
      amount = cm.amountOf(cmd.amount);
      if (amount < 0) {
        const bad = checkAmount(cm.market, cmd.amount) ?? checkOrderAmount(cm.market, cmd.amount!);
        if (bad !== null) return bad;
        if (cmd.amount! > SAFE_MAX_BIG) {
          const need = side === 1 ? cmd.amount! : this.marketBuyCostBig(cm, cmd.amount!);
          return this.declineIfPaid(h, funds, need, 'amount');
        }
        amount = Number(cmd.amount);
      } else if (amount > cm.amountMax) {
        return checkOrderAmount(cm.market, cmd.amount!)!;
      }
      need = side === 1 ? amount : this.marketBuyCost(cm, amount);
      if (need < 0) {
        // A buy whose cost passes what numbers hold exactly: its cost in bigint, once.
        const cost = this.marketBuyCostBig(cm, BigInt(amount));
        need = toSafe(cost);
        if (need < 0) return this.declineIfPaid(h, funds, cost, 'amount');
      }
      // The funds before the ranges, as for a limit order.
      if (!this.hasAvailable(h, funds, need)) return this.insufficientOf(h, funds, 'amount');
      // The highest price it can trade at: bounded first by the far end of the book (a sell's
      // is its best bid). One that fails that is bounded by what it can take from the levels its
      // amount reaches, so that one small order far from the market does not decline every
      // market order.
      const worst = opposite.ticksOf(opposite.levelAt(opposite.levelCount - 1));
      const best = opposite.ticksOf(opposite.best());
      if (
        !this.fillsFit(cm, amount, Math.max(worst, best)) &&
        !this.productsFit(cm, this.takerProducts(cm, side, amount, -1))
      ) {
        return DECLINED;
      }
      if (!this.triggersFit(cm, 0, 0)) return DECLINED;
      this.ensureTrade(h, funds);
    }
    const stp = this.placedSelfTrade;
    const o = this.newOrder(h, cm, side, 2, TIF_IOC, cmd.source, amount, total, 0, stp);
    this.resultId = this.table.rows[o * ORDER_WIDTH + O_ID]!;
    if (this.holders.lttFeeUsers > 0 && amount > 0 && this.freezesFirst(cm, h, side)) {
      this.freezeForOrder(o, need);
    }
    const why = this.matchTaker(cm, o);
    this.finishOrder(cm, o, why === STOP_FILLED ? 0 : why === STOP_SELF_TRADE ? 1 : 3);
    this.runTriggers(cm);
    return this.accepted(RESULT_ORDER);
  }

  /** Whether an order's funds are LTT and its user pays fees in LTT (Placement.freezesFirst). */
  private freezesFirst(cm: ColumnarMarket, holder: number, side: number): boolean {
    const m = cm.market;
    return this.holders.paysLtt(holder) && (side === 1 ? m.stock : m.money) === LTT;
  }

  /**
   * The checks of a market buy by total (place.ts), the funds first; a total beyond the ranges
   * declines.
   */
  private checkMarketTotal(
    cm: ColumnarMarket,
    holder: number,
    side: number,
    total: unknown,
  ): Rejection | typeof DECLINED | null {
    if (side !== 2) return reject('invalid_command', 'Only a buy can be placed by total', 'total');
    const bad = checkPositive(total, 'total');
    if (bad !== null) return bad;
    const big = total as bigint;
    if (big > SAFE_MAX_BIG) return this.declineIfPaid(holder, cm.money, big, 'total');
    const n = Number(total);
    if (!this.hasAvailable(holder, cm.money, n))
      return this.insufficientOf(holder, cm.money, 'total');
    // What it pays stays within the total, so the sum of its fills' lots × ticks (lotsTicks)
    // stays within total × valueQ / valueP.
    if (!this.productsFit(cm, (n * cm.valueQ) / cm.valueP)) return DECLINED;
    if (!this.totalBuyStockFits(cm, n)) return DECLINED;
    if (!this.triggersFit(cm, 0, 0)) return DECLINED;
    this.ensureTrade(holder, cm.money);
    const asks = cm.asks;
    if (this.affordableAt(cm, n, 0n, 0n, asks.ticksOf(asks.best()), cm.market.takerFee) === 0) {
      return reject('amount_too_small', 'The total buys less than one lot', 'total');
    }
    return null;
  }
}
