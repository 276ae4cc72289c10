// The columnar core's bounds on an order (placement.ts, place.ts): whether what it can move,
// rest and trigger stays within the ranges the core keeps (columnar-engine.md, "Ranges"), what it
// needs in funds, and how one past them is refused for its funds or declined to the bigint core.
// A layer of the core (recordedState.ts), below the placing of orders (orderPlacement.ts,
// conditionalOrders.ts), which reads it for every order.

import { maxBig } from '../bigmath.js';
import { ceilDivN, SAFE_MAX, toSafe } from '../fastmath.js';
import { buyFreezeFor } from '../lifecycle.js';
import { insufficient } from '../placement.js';
import type { ApplyResult, Rejection } from '../types.js';
import { KIND_TRADE } from './balanceCell.js';
import type { BookSide } from './bookSide.js';
import type { ColumnarMarket } from './columnarMarket.js';
import { Matching } from './matching.js';
import { STP_CANCEL_NEWEST, STP_CANCEL_OLDEST } from './orderCodes.js';
import { LINK_NEXT, LINK_WIDTH, NONE, O_LEFT, O_USER, ORDER_WIDTH } from './orderRow.js';

/** What `apply` returns for a command the columnar core leaves to the bigint core. */
export const DECLINED = Symbol('declined');
export type CoreResult = ApplyResult | typeof DECLINED;

/**
 * The most a command's fills may move, in money minor units, by productsFit's estimate: 2^53
 * less room for that estimate's rounding (a relative 2^-20, for sums of up to 2^30 rounded
 * terms) and for two roundings up.
 */
const MONEY_MAX = SAFE_MAX * (1 - 2 ** -20) - 2;

/** The core with the bounds of an order, which its placing checks before anything changes. */
export abstract class OrderBounds extends Matching {
  /**
   * The holder, market and self-trade code of the order command being placed, set by its first
   * checks (orderPlacement.ts checkPlacement).
   */
  protected placedHolder = NONE;
  protected placedMarket: ColumnarMarket | null = null;
  protected placedSelfTrade = STP_CANCEL_NEWEST;

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
   * Whether what a market buy by total can take in stock, its order's deal_stock, stays below
   * 2^53: at most the asks' total, and at most what its total pays for at the best ask, as every
   * lot costs at least that. The deal can pass 2^53 only where a lot is more than one minor unit
   * (the asks' total counts lots, below 2^53); MONEY_MAX leaves room for the estimate's rounding.
   */
  protected totalBuyStockFits(cm: ColumnarMarket, total: number): boolean {
    const asks = cm.asks;
    const byTotal = (total * cm.valueQ) / (cm.valueP * asks.ticksOf(asks.best()));
    return Math.min(asks.units, byTotal) * cm.amountUnit <= MONEY_MAX;
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
    const n = toSafe(need);
    return n < 0 ? Number.POSITIVE_INFINITY : n;
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
  protected triggersFit(cm: ColumnarMarket, buyTicks: number, amount: number): boolean {
    const stops = cm.stops;
    if (stops.count === 0) return true;
    const most = stops.sellAmountMax;
    if (most > 0 && !this.sellStopsFit(cm, most, buyTicks, amount)) {
      // The kept amount may be of a sell stop gone since: try again with the largest waiting.
      const exact = stops.tightenSellAmountMax();
      if (exact === most || (exact > 0 && !this.sellStopsFit(cm, exact, buyTicks, amount))) {
        return false;
      }
    }
    const units = amount / cm.amountUnit + stops.amountUnits;
    return Math.max(cm.asks.units, cm.bids.units) <= SAFE_MAX - units;
  }

  /**
   * Whether a fired sell stop of at most `most` keeps its products within the ranges, by either
   * of triggersFit's two bounds.
   */
  private sellStopsFit(
    cm: ColumnarMarket,
    most: number,
    buyTicks: number,
    amount: number,
  ): boolean {
    const stops = cm.stops;
    const bids = cm.bids;
    const bestBid = bids.isEmpty ? 0 : bids.ticksOf(bids.best());
    const atBids = cm.lotsTicks(most, Math.max(bestBid, buyTicks));
    if (this.productsFit(cm, atBids + stops.buyProducts)) return true;
    const ownRest = buyTicks > 0 ? cm.lotsTicks(Math.min(amount, most), buyTicks) : 0;
    const reach = this.bidsProducts(cm, most) + ownRest + stops.buyProducts;
    return this.productsFit(cm, reach);
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

  protected crossesBook(cm: ColumnarMarket, side: number, ticks: number): boolean {
    const opposite = cm.oppositeSide(side);
    if (opposite.isEmpty) return false;
    const best = opposite.ticksOf(opposite.best());
    return side === 2 ? best <= ticks : best >= ticks;
  }

  protected nextInLevel(slot: number): number {
    return this.table.links[slot * LINK_WIDTH + LINK_NEXT]!;
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
    if (b.available(funds, b.cell(holder, KIND_TRADE)) >= need) return DECLINED;
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
  protected takerProducts(cm: ColumnarMarket, side: number, amount: number, ticks: number): number {
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
  protected marketBuyCost(cm: ColumnarMarket, amount: number): number {
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
  protected marketBuyCostBig(cm: ColumnarMarket, amount: bigint): bigint {
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
