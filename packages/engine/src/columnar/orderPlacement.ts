// The columnar core's limit and market orders (placement.ts, place.ts): every check of the
// bigint core, in the same order and with the same rejections, then the ranges the core keeps
// within, declining what would leave them, before anything changes. A layer of the core
// (recordedState.ts).

import { maxBig } from '../bigmath.js';
import { reject } from '../errors.js';
import { ceilDivN, SAFE_MAX, SAFE_MAX_BIG, toSafe } from '../fastmath.js';
import { buyFreezeFor } from '../lifecycle.js';
import { checkOpenOrderCap, insufficient, mayRest } from '../placement.js';
import type { ApplyResult, OrderLimitCommand, OrderMarketCommand, Rejection } from '../types.js';
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
import { KIND_TRADE } from './balanceCell.js';
import type { BookSide } from './bookSide.js';
import { ColumnarMarket } from './columnarMarket.js';
import { Matching } from './matching.js';
import {
  STOP_FILLED,
  STOP_SELF_TRADE,
  STP_CANCEL_NEWEST,
  STP_CANCEL_OLDEST,
  TIF_FOK,
  TIF_GTC,
  TIF_IOC,
  TIF_POST_ONLY,
} from './orderCodes.js';
import { LINK_NEXT, LINK_WIDTH, NONE, O_ID, O_LEFT, O_USER, ORDER_WIDTH } from './orderRow.js';
import { RESULT_ORDER } from './recordLayout.js';

/** What `apply` returns for a command the columnar core leaves to the bigint core. */
export const DECLINED = Symbol('declined');
export type CoreResult = ApplyResult | typeof DECLINED;

/**
 * The most a command's fills may move, in money minor units, by productsFit's estimate: 2^53
 * less room for that estimate's rounding (a relative 2^-20, for sums of up to 2^30 rounded
 * terms) and for two roundings up.
 */
const MONEY_MAX = SAFE_MAX * (1 - 2 ** -20) - 2;

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
export abstract class OrderPlacement extends Matching {
  /** The market of the last order command (marketOf): orders in a row mostly share one. */
  private lastMarket: ColumnarMarket | null = null;
  /** The holder, market and self-trade code of the order command being placed (checkPlacement). */
  protected placedHolder = NONE;
  protected placedMarket: ColumnarMarket | null = null;
  protected placedSelfTrade = STP_CANCEL_NEWEST;

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
   * Whether every fill of up to `amount` at up to `ticks` keeps what it moves below 2^53
   * (productsFit).
   */
  fillsFit(cm: ColumnarMarket, amount: number, ticks: number): boolean {
    if (!(amount >= 0 && ticks >= 0)) return false;
    return this.productsFit(cm, cm.lotsTicks(amount, ticks));
  }

  /**
   * Whether fills whose amounts × ticks (in lots, lotsTicks) sum to at most this keep every
   * quantity they move below 2^53: their value and their fee at the higher rate, each rounded
   * up, bound what a buy freezes and pays and a sell receives. Past 2^53 a fill's numerators
   * are computed in bigint (settlement.ts), so the products themselves need no bound, and
   * `lotsTicks` may be a rounded product or sum: MONEY_MAX leaves room for its error.
   */
  protected productsFit(cm: ColumnarMarket, lotsTicks: number): boolean {
    if (!(lotsTicks >= 0)) return false;
    const value = (lotsTicks * cm.valueP) / cm.valueQ;
    const fee = ((lotsTicks * cm.feeP) / cm.feeQ) * cm.maxRate;
    return value + fee <= MONEY_MAX;
  }

  /**
   * Whether a limit order's fills, on arrival and at rest, move less than 2^53. A buy
   * trades at its price or below. A sell trades at bids at or above its price: at most the best
   * bid's; when that bound is too wide, it is checked at the bids it can reach (takerProducts).
   */
  protected limitFillsFit(
    cm: ColumnarMarket,
    side: number,
    amount: number,
    ticks: number,
  ): boolean {
    let reach = ticks;
    if (side === 1 && !cm.bids.isEmpty) reach = Math.max(ticks, cm.bids.ticksOf(cm.bids.best()));
    if (this.fillsFit(cm, amount, reach)) return true;
    return side === 1 && this.productsFit(cm, this.takerProducts(cm, side, amount, ticks));
  }

  /**
   * What a buy of `amount` at `ticks` freezes: value and fee at the higher rate, rounded up
   * (lifecycle.ts buyFreezeFor); in bigint when a numerator passes 2^53, above SAFE_MAX when
   * the freeze does.
   */
  protected buyFreeze(cm: ColumnarMarket, amount: number, ticks: number): number {
    const lotsTicks = cm.lotsTicks(amount, ticks);
    const value = lotsTicks * cm.valueP;
    const fee = lotsTicks * cm.feeP * cm.maxRate;
    if (value <= SAFE_MAX && fee <= SAFE_MAX) {
      return ceilDivN(value, cm.valueQ) + ceilDivN(fee, cm.feeQ);
    }
    const need = buyFreezeFor(cm.market, BigInt(amount), BigInt(ticks) * cm.tickSize);
    return need > SAFE_MAX_BIG ? Number.POSITIVE_INFINITY : Number(need);
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
    this.executeLimit(cm, o, true, need);
    this.runTriggers(cm);
    return this.accepted(RESULT_ORDER);
  }

  /**
   * Whether a limit order of `amount` at `ticks` keeps within the ranges the stops it may trigger
   * (triggersFit): it triggers none unless it trades on arrival.
   */
  protected tradesFit(cm: ColumnarMarket, side: number, ticks: number, amount: number): boolean {
    if (cm.stops.count === 0 || !this.crossesBook(cm, side, ticks)) return true;
    return this.triggersFit(cm, side === 2 ? ticks : 0, amount);
  }

  /**
   * Whether the stops a command that trades may trigger keep every quantity within the ranges.
   * Each fires as a limit order. A buy trades at its limit price or below, which its placing
   * checked. A sell trades into the bids: those there now, no higher than the best bid, the
   * command's own rest at `buyTicks` (0 for none), and triggered buy stops at their limit
   * prices, each no more than its amount. So a sell's products stay within its amount at the
   * first two, plus the sum of every waiting buy stop's amount × limit (not the largest amount
   * at the highest limit: one small buy stop with a far limit would then decline every trade).
   * When the first bound is too wide (a small bid far above the market, which costs little), a
   * second one takes the bids standing now as far as its amount goes, best first (the most it
   * can take from them, whatever takes some before it), its amount at the command's own rest,
   * and the buy stops as before; either bound fitting is enough. Each may then rest, so both
   * sides' totals must stay safe integers with all of them and the command's own `amount` added.
   */
  private triggersFit(cm: ColumnarMarket, buyTicks: number, amount: number): boolean {
    const stops = cm.stops;
    if (stops.count === 0) return true;
    const bids = cm.bids;
    const bestBid = bids.isEmpty ? 0 : bids.ticksOf(bids.best());
    const most = stops.sellAmountMax;
    if (most > 0) {
      const atBids = cm.lotsTicks(most, Math.max(bestBid, buyTicks));
      if (!this.productsFit(cm, atBids + stops.buyProducts)) {
        const ownRest = buyTicks > 0 ? cm.lotsTicks(Math.min(amount, most), buyTicks) : 0;
        const reach = this.bidsProducts(cm, most) + ownRest + stops.buyProducts;
        if (!this.productsFit(cm, reach)) return false;
      }
    }
    const units = amount / cm.amountUnit + stops.amountUnits;
    return Math.max(cm.asks.units, bids.units) <= SAFE_MAX - units;
  }

  /**
   * The products (lotsTicks) of selling `amount` into the bids standing now, best first, all of
   * them whoever holds them: the most a sell can take from them. Rare: only when a wider bound
   * fails.
   */
  private bidsProducts(cm: ColumnarMarket, amount: number): number {
    const bids = cm.bids;
    let rest = amount;
    let sum = 0;
    for (let i = 0; i < bids.levelCount && rest > 0; i++) {
      const level = bids.levelAt(i);
      const take = bids.leftOf(level, rest);
      sum += cm.lotsTicks(take, bids.ticksOf(level));
      rest -= take;
    }
    return sum;
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

  private crossesBook(cm: ColumnarMarket, side: number, ticks: number): boolean {
    const opposite = cm.oppositeSide(side);
    if (opposite.isEmpty) return false;
    const best = opposite.ticksOf(opposite.best());
    return side === 2 ? best <= ticks : best >= ticks;
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

  private nextInLevel(slot: number): number {
    return this.table.links[slot * LINK_WIDTH + LINK_NEXT]!;
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
      let need = side === 1 ? amount : this.marketBuyCost(cm, amount);
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
    const why = this.matchTaker(cm, o);
    this.finishOrder(cm, o, why === STOP_FILLED ? 0 : why === STOP_SELF_TRADE ? 1 : 3);
    this.runTriggers(cm);
    return this.accepted(RESULT_ORDER);
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
    if (!this.triggersFit(cm, 0, 0)) return DECLINED;
    this.ensureTrade(holder, cm.money);
    const asks = cm.asks;
    if (this.affordableAt(cm, n, 0n, 0n, asks.ticksOf(asks.best())) === 0) {
      return reject('amount_too_small', 'The total buys less than one lot', 'total');
    }
    return null;
  }

  /**
   * An order whose amount or funds needed pass the safe integers: refused for its funds exactly
   * as the bigint core refuses it (what it needs in bigint), otherwise declined. NOTE: every
   * placing checks the funds before the core's ranges, so that an order its user cannot pay for
   * is refused here and never hands the engine over to the bigint core (a pause of the
   * sequencer, then the slower core for a while): one such order costs any user nothing.
   */
  protected declineIfPaid(
    holder: number,
    funds: number,
    need: bigint,
    field: string,
  ): Rejection | typeof DECLINED {
    const b = this.balances;
    if (b.available(b.cell(holder, funds, KIND_TRADE)) >= need) return DECLINED;
    return this.insufficientOf(holder, funds, field);
  }

  /** The rejection for funds short, with the balance made to exist as Placement.available does. */
  protected insufficientOf(holder: number, funds: number, field: string): Rejection {
    this.ensureTrade(holder, funds);
    return insufficient(field);
  }

  /**
   * declineIfPaid for a limit order of `amount` at `price` (and, for an OCO, at `limitPrice`
   * too): a sell's amount, a buy's freeze at the dearer price.
   */
  protected unfitting(
    holder: number,
    cm: ColumnarMarket,
    side: number,
    amount: bigint,
    price: bigint,
    limitPrice = price,
  ): Rejection | typeof DECLINED {
    const m = cm.market;
    const need =
      side === 1
        ? amount
        : maxBig(buyFreezeFor(m, amount, price), buyFreezeFor(m, amount, limitPrice));
    return this.declineIfPaid(holder, side === 1 ? cm.stock : cm.money, need, 'amount');
  }

  /**
   * The sum of lotsTicks over what an order of `amount` can trade: each opposite level its
   * price crosses (every level for a market order, `ticks` -1), from the best, as far as its
   * amount goes, then its rest at its own price (where a limit order rests and trades as a
   * maker; a market order's rest is cancelled). An order that cancels its user's resting orders
   * and goes on (cancelOldest) takes from the others' only. Exact while it is at most 2^53
   * (every term and partial sum is then an integer below it); above, a rounded sum, which
   * productsFit allows for. Rare: only when the best or furthest price of the book does not
   * bound the order.
   */
  private takerProducts(cm: ColumnarMarket, side: number, amount: number, ticks: number): number {
    const opposite = cm.oppositeSide(side);
    const skipped = this.skippedHolder();
    let rest = amount;
    let sum = 0;
    for (let i = 0; i < opposite.levelCount && rest > 0; i++) {
      const level = opposite.levelAt(i);
      const levelTicks = opposite.ticksOf(level);
      if (ticks >= 0 && (side === 1 ? levelTicks < ticks : levelTicks > ticks)) break;
      const take = this.takeableAt(opposite, level, skipped, rest);
      sum += cm.lotsTicks(take, levelTicks);
      rest -= take;
    }
    return ticks < 0 ? sum : sum + cm.lotsTicks(rest, ticks);
  }

  /**
   * The holder whose resting orders the order being placed cancels and passes (cancelOldest),
   * else NONE.
   */
  private skippedHolder(): number {
    return this.placedSelfTrade === STP_CANCEL_OLDEST ? this.placedHolder : NONE;
  }

  /**
   * What a taker can take from a level, up to `most` (a safe integer): all of it, or what
   * holders but `skipped` have left.
   */
  private takeableAt(side: BookSide, level: number, skipped: number, most: number): number {
    if (skipped === NONE) return side.leftOf(level, most);
    const ord = this.table.rows;
    let left = 0;
    for (let o = side.headOf(level); o !== NONE && left < most; o = this.nextInLevel(o)) {
      if (ord[o * ORDER_WIDTH + O_USER] !== skipped) left += ord[o * ORDER_WIDTH + O_LEFT]!;
    }
    return left < most ? left : most;
  }

  /** takeableAt in bigint, all of it: a level's total in minor units may pass 2^53. Rare. */
  private takeableAtBig(side: BookSide, level: number, skipped: number): bigint {
    if (skipped === NONE) return BigInt(side.unitsOf(level)) * BigInt(side.amountUnit);
    const ord = this.table.rows;
    let left = 0n;
    for (let o = side.headOf(level); o !== NONE; o = this.nextInLevel(o)) {
      if (ord[o * ORDER_WIDTH + O_USER] !== skipped) {
        left += BigInt(ord[o * ORDER_WIDTH + O_LEFT]!);
      }
    }
    return left;
  }

  /**
   * What buying `amount` from the asks would cost at the taker rate, own orders included as
   * they stop the buy or are left (takeableAt: without them when it cancels them and goes on),
   * in numbers while the numerators and the cost stay below 2^53 (place.ts marketBuyCost); -1
   * when they do not, for the caller to ask marketBuyCostBig.
   */
  private marketBuyCost(cm: ColumnarMarket, amount: number): number {
    const asks = cm.asks;
    const skipped = this.skippedHolder();
    let rest = amount;
    let value = 0;
    let fee = 0;
    for (let i = 0; i < asks.levelCount && rest > 0; i++) {
      const level = asks.levelAt(i);
      const take = this.takeableAt(asks, level, skipped, rest);
      const lotsTicks = cm.lotsTicks(take, asks.ticksOf(level));
      value += lotsTicks * cm.valueP;
      fee += lotsTicks * cm.feeP * cm.takerRate;
      rest -= take;
    }
    if (value <= SAFE_MAX && fee <= SAFE_MAX) {
      // Two safe integers: a sum past SAFE_MAX may round, but stays past it.
      const cost = ceilDivN(value, cm.valueQ) + ceilDivN(fee, cm.feeQ);
      if (cost <= SAFE_MAX) return cost;
    }
    return -1;
  }

  /** marketBuyCost in bigint, for any amount. */
  private marketBuyCostBig(cm: ColumnarMarket, amount: bigint): bigint {
    const m = cm.market;
    const asks = cm.asks;
    const skipped = this.skippedHolder();
    let rest = amount;
    let num = 0n;
    for (let i = 0; i < asks.levelCount && rest > 0n; i++) {
      const level = asks.levelAt(i);
      const available = this.takeableAtBig(asks, level, skipped);
      const take = available < rest ? available : rest;
      num += take * BigInt(asks.ticksOf(level)) * cm.tickSize;
      rest -= take;
    }
    return (num + m.scaleUp) / m.scale + (num * m.takerFee + m.feeScaleUp) / m.feeScale;
  }
}
