// One market in the columnar core: the bigint core's Market for its rules and checks, its two
// book sides, and the fast path's fractions (fastmath.ts) as plain numbers.
import {
  DealRatios,
  exactQuotientN,
  positiveSafeOf,
  SAFE_MAX,
  SAFE_MAX_BIG,
  toSafe,
} from '../fastmath.js';
import type { Market } from '../market.js';
import { BookSide } from './bookSide.js';
import type { OrderTable } from './orderTable.js';
import { StopLists } from './stopLists.js';

const LEVELS_DEFAULT = 64;

export class ColumnarMarket {
  readonly name: string;
  readonly tickSize: bigint;
  /** The money asset's name: what every fee of this market is paid in. */
  readonly moneyName: string;
  /** Asset indexes (AssetState.index, the balance table's asset index). */
  readonly stock: number;
  readonly money: number;
  /**
   * Whether the columnar core can trade here: the deal fractions, tick and lot are safe
   * integers. The core declines every order of a market where they are not.
   */
  readonly fits: boolean;
  readonly tickN: number;
  readonly lotN: number;
  /**
   * What a fill's products count amounts in: the lot, or one minor unit in a market whose
   * fractions in lots are not safe integers (see lotsTicks).
   */
  readonly amountUnit: number;
  /** The minimum amount, or above every safe integer when it is (no safe amount reaches it). */
  readonly minAmountN: number;
  readonly valueP: number;
  readonly valueQ: number;
  readonly feeP: number;
  readonly feeQ: number;
  readonly makerRate: number;
  readonly takerRate: number;
  readonly maxRate: number;
  /** moneyNum and feeNum are counts of these (DealRatios). */
  readonly moneyUnit: bigint;
  readonly feeUnit: bigint;
  readonly asks: BookSide;
  readonly bids: BookSide;
  /** The last trade's price in ticks, 0 before the first (Market.last / tickSize). */
  lastTicks = 0;
  /** The lowest and highest trade price of the command so far, in ticks; -1 before its first. */
  runLo = -1;
  runHi = -1;
  /** The market's waiting stops. */
  readonly stops: StopLists;
  /**
   * The market's cap on an order's value (Market.orderValueMax) in lotsTicks, -1 for none: a
   * limit order whose lotsTicks at its own price passes it is checked in bigint
   * (checkOrderValue), which refuses it. Set by syncLimits.
   */
  valueCapLotsTicks = -1;
  /**
   * The market's cap on an order's amount (Market.orderAmountMax), +∞ for none or for one past
   * the safe integers, which every amount the fast path reads is below. Set by syncLimits.
   */
  amountMax = Number.POSITIVE_INFINITY;

  constructor(
    readonly index: number,
    readonly market: Market,
    table: OrderTable,
  ) {
    this.name = market.name;
    this.tickSize = market.tickSize;
    this.moneyName = market.money;
    this.stock = market.stockIndex;
    this.money = market.moneyIndex;
    // The fractions with the lot folded in (the bigint core's count minor units): amounts come
    // into the products as lots (lotsTicks).
    const inLots =
      market.lotSizeN > 0
        ? DealRatios.of(
            market.tickSize * market.lotSize,
            market.scale,
            market.makerFeePpm,
            market.takerFeePpm,
          )
        : null;
    const r = inLots ?? market.ratios;
    this.fits = r !== null && market.tickSizeN > 0 && market.lotSizeN > 0;
    this.tickN = market.tickSizeN;
    this.lotN = market.lotSizeN;
    this.amountUnit = inLots !== null ? market.lotSizeN : 1;
    this.minAmountN =
      market.minAmount <= SAFE_MAX_BIG ? Number(market.minAmount) : Number.POSITIVE_INFINITY;
    this.valueP = r?.valueP ?? 0;
    this.valueQ = r?.valueQ ?? 1;
    this.feeP = r?.feeP ?? 0;
    this.feeQ = r?.feeQ ?? 1;
    this.makerRate = r?.makerRate ?? 0;
    this.takerRate = r?.takerRate ?? 0;
    this.maxRate = r?.maxRate ?? 0;
    this.moneyUnit = r?.moneyUnit ?? 1n;
    this.feeUnit = r?.feeUnit ?? 1n;
    this.asks = new BookSide(table, true, LEVELS_DEFAULT, this.amountUnit);
    this.bids = new BookSide(table, false, LEVELS_DEFAULT, this.amountUnit);
    this.stops = new StopLists(table, this.amountUnit);
    this.syncLimits();
  }

  /** Take the market's limits on one order (market.setLimits) into the fast path's numbers. */
  syncLimits(): void {
    // toSafe: 0 for none, -1 for a cap past the safe integers; either is no cap here.
    const amountMax = toSafe(this.market.orderAmountMax);
    this.amountMax = amountMax > 0 ? amountMax : Number.POSITIVE_INFINITY;
    const max = this.market.orderValueMax;
    if (max === 0n) {
      this.valueCapLotsTicks = -1;
      return;
    }
    // An order's value is lotsTicks × tickSize × amountUnit / scale, and its lotsTicks a whole
    // number (exact below 2^53): it is worth more than the cap exactly when its lotsTicks passes
    // this quotient, rounded down. A quotient past the safe integers stands at SAFE_MAX, so
    // that only an order whose lotsTicks passes them too, and may be rounded, is checked.
    const cap = (max * this.market.scale) / (this.tickSize * BigInt(this.amountUnit));
    const capN = toSafe(cap);
    this.valueCapLotsTicks = capN < 0 ? SAFE_MAX : capN;
  }

  /**
   * The ticks of a price that is a safe integer on a tick, else -1: every such price passes
   * checkPrice (it is at most priceMax); the caller asks checkPrice about the rest.
   */
  ticksOfPrice(price: unknown): number {
    if (typeof price !== 'bigint') return -1;
    const n = positiveSafeOf(price);
    return n < 0 ? -1 : exactQuotientN(n, this.tickN);
  }

  /**
   * The number of an amount that is a safe integer, a whole number of lots and at least the
   * minimum, else -1: every such amount passes checkAmount; the caller asks it about the rest.
   */
  amountOf(amount: unknown): number {
    if (typeof amount !== 'bigint') return -1;
    const n = positiveSafeOf(amount);
    return n > 0 && n >= this.minAmountN && exactQuotientN(n, this.lotN) >= 0 ? n : -1;
  }

  /**
   * amount × ticks with the amount in amountUnits: what a fill's value and fee are computed
   * from (value = lotsTicks × valueP / valueQ). Counting lots rather than minor units keeps it
   * below 2^53, where a fill is settled in numbers, for orders lotSize times larger
   * (docs/decisions/columnar-engine.md, "Products in lots"). Exact below 2^53: every amount of
   * an order and of a fill is a whole number of lots (amountOf, restore.ts), so the quotient is
   * an integer; above, the nearest double, which the bounds allow for (productsFit) and a fill
   * does not use (settleBig).
   */
  lotsTicks(amount: number, ticks: number): number {
    return (amount / this.amountUnit) * ticks;
  }

  /** Note a trade at `ticks`: the last price, and the command's range for the stops. */
  noteTrade(ticks: number): void {
    this.lastTicks = ticks;
    if (this.runLo < 0 || ticks < this.runLo) this.runLo = ticks;
    if (ticks > this.runHi) this.runHi = ticks;
  }

  /** The side an order rests on: asks for a sell (1), bids for a buy (2). */
  ownSide(side: number): BookSide {
    return side === 1 ? this.asks : this.bids;
  }

  /** The side an order trades against. */
  oppositeSide(side: number): BookSide {
    return side === 1 ? this.bids : this.asks;
  }
}
