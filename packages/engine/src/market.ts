// A market: its rules, its two book sides (price levels of FIFO order lists) and waiting stops.
import { maxBig } from './bigmath.js';
import { assert, InvariantViolation } from './errors.js';
import { DealRatios, SAFE_MAX_BIG, toSafe } from './fastmath.js';
import { FiringQueue } from './firingQueue.js';
import type { Balance } from './ledger.js';
import type { Order } from './order.js';
import type { MarketView } from './types.js';

/** One price on one side: an intrusive doubly linked FIFO of orders, so a cancel is O(1). */
export class Level {
  head: Order | null = null;
  tail: Order | null = null;
  /** Sum of `left` over the level's orders. */
  total = 0n;
  count = 0;
  constructor(
    readonly price: bigint,
    /** Sort key: larger is better (ticks for bids, -ticks for asks). */
    readonly key: number,
  ) {}

  append(o: Order): void {
    o.level = this;
    o.prev = this.tail;
    o.next = null;
    if (this.tail === null) this.head = o;
    else this.tail.next = o;
    this.tail = o;
    this.total += o.left;
    this.count++;
  }

  unlink(o: Order): void {
    if (o.prev === null) this.head = o.next;
    else o.prev.next = o.next;
    if (o.next === null) this.tail = o.prev;
    else o.next.prev = o.prev;
    o.prev = null;
    o.next = null;
    o.level = null;
    this.total -= o.left;
    this.count--;
  }
}

/** Levels sorted by key ascending, so the best level is the last one (pop, not shift). */
export class BookSide {
  readonly levels: Level[] = [];
  constructor(readonly isAsk: boolean) {}

  best(): Level | undefined {
    // NOTE: on an empty side levels[-1] would be a named-property lookup up the prototype
    // chain (V8's slow path), not an array read: check the length first.
    const n = this.levels.length;
    return n === 0 ? undefined : this.levels[n - 1];
  }

  /** Index of the first level whose key is ≥ key. */
  private search(key: number): number {
    const levels = this.levels;
    let lo = 0;
    let hi = levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (levels[mid]!.key < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Put an order at the back of its price level, creating the level when new. */
  add(o: Order): void {
    const key = this.isAsk ? -o.ticks : o.ticks;
    const levels = this.levels;
    const n = levels.length;
    let level: Level | undefined;
    // NOTE: most new orders land at or near the best price, so try the end before searching.
    const top = n === 0 ? undefined : levels[n - 1];
    if (top === undefined || top.key < key) {
      level = new Level(o.price, key);
      levels.push(level);
    } else if (top.key === key) {
      level = top;
    } else {
      const i = this.search(key);
      level = levels[i];
      if (level === undefined || level.key !== key) {
        level = new Level(o.price, key);
        levels.splice(i, 0, level);
      }
    }
    level.append(o);
  }

  /** Take an order off the book; an emptied level goes away. */
  remove(o: Order): void {
    const level = o.level;
    if (level === null) throw new InvariantViolation(`order ${o.id} is not on the book`);
    level.unlink(o);
    if (level.count === 0) this.dropLevel(level);
  }

  dropLevel(level: Level): void {
    const levels = this.levels;
    if (levels[levels.length - 1] === level) {
      levels.pop();
      return;
    }
    const i = this.search(level.key);
    assert(levels[i] === level, 'price level missing from its side');
    levels.splice(i, 1);
  }
}

export interface MarketRules {
  name: string;
  stock: string;
  money: string;
  tickSize: bigint;
  lotSize: bigint;
  minAmount: bigint;
  pricePrecision: number;
  amountPrecision: number;
  makerFeePpm: number;
  takerFeePpm: number;
}

export const PPM = 1_000_000n;

/** What a market needs to know of its assets. */
export interface AssetRef {
  readonly decimals: number;
  readonly index: number;
}

export class Market {
  readonly name: string;
  readonly stock: string;
  readonly money: string;
  /** Asset indexes (AssetState.index) of stock and money. */
  readonly stockIndex: number;
  readonly moneyIndex: number;
  readonly tickSize: bigint;
  readonly lotSize: bigint;
  readonly minAmount: bigint;
  readonly pricePrecision: number;
  readonly amountPrecision: number;
  readonly makerFeePpm: number;
  readonly takerFeePpm: number;
  readonly makerFee: bigint;
  readonly takerFee: bigint;
  /** The higher of the two rates: what a buy freezes for its fee. */
  readonly maxFee: bigint;
  /** 10^stock decimals: amount × price / scale is money minor units. */
  readonly scale: bigint;
  readonly feeScale: bigint;
  /** scale − 1 and feeScale − 1: x / scale rounded up is (x + scaleUp) / scale. */
  readonly scaleUp: bigint;
  readonly feeScaleUp: bigint;
  /** Smallest price and amount steps the precisions allow (minor units). */
  readonly priceStep: bigint;
  /** The highest price whose tick count is a safe integer (ticks live in numbers). */
  readonly priceMax: bigint;
  readonly amountStep: bigint;
  /** tickSize and lotSize as numbers, or -1 when not a safe integer. */
  readonly tickSizeN: number;
  readonly lotSizeN: number;
  /** The fast path's fractions (fastmath.ts), or null when they are not safe integers. */
  readonly ratios: DealRatios | null;
  /** The market that prices LTT in this market's money (for fees paid in LTT). */
  readonly lttMarketName: string;
  readonly asks = new BookSide(true);
  readonly bids = new BookSide(false);
  /** Last trade price, 0 before the first trade. */
  last = 0n;
  /** The most an order may be worth at its price, in money minor units; 0 for no cap. */
  orderValueMax = 0n;
  /** The largest amount of one order, in stock minor units; 0 for no cap. */
  orderAmountMax = 0n;
  /** The fees and rounding accounts of the money asset, looked up once (see settleFill). */
  feeAccount: Balance | null = null;
  roundingAccount: Balance | null = null;
  /** Lowest and highest trade price since the last stop check; -1 when none. */
  runLo = -1n;
  runHi = -1n;
  /** Waiting stops firing when last ≥ stop, by stop ascending then id. */
  readonly stopsUp = new FiringQueue<Order>((a, b) =>
    a.stopPrice !== b.stopPrice ? a.stopPrice < b.stopPrice : a.id < b.id,
  );
  /** Waiting stops firing when last ≤ stop, by stop descending then id. */
  readonly stopsDown = new FiringQueue<Order>((a, b) =>
    a.stopPrice !== b.stopPrice ? a.stopPrice > b.stopPrice : a.id < b.id,
  );

  constructor(rules: MarketRules, stockAsset: AssetRef, moneyAsset: AssetRef) {
    const stockDecimals = stockAsset.decimals;
    const moneyDecimals = moneyAsset.decimals;
    this.stockIndex = stockAsset.index;
    this.moneyIndex = moneyAsset.index;
    this.name = rules.name;
    this.stock = rules.stock;
    this.money = rules.money;
    this.tickSize = rules.tickSize;
    this.lotSize = rules.lotSize;
    this.minAmount = rules.minAmount;
    this.pricePrecision = rules.pricePrecision;
    this.amountPrecision = rules.amountPrecision;
    this.makerFeePpm = rules.makerFeePpm;
    this.takerFeePpm = rules.takerFeePpm;
    this.makerFee = BigInt(rules.makerFeePpm);
    this.takerFee = BigInt(rules.takerFeePpm);
    this.maxFee = maxBig(this.makerFee, this.takerFee);
    this.scale = 10n ** BigInt(stockDecimals);
    this.feeScale = this.scale * PPM;
    this.scaleUp = this.scale - 1n;
    this.feeScaleUp = this.feeScale - 1n;
    this.priceStep = 10n ** BigInt(moneyDecimals - rules.pricePrecision);
    this.priceMax = rules.tickSize * BigInt(Number.MAX_SAFE_INTEGER);
    this.amountStep = 10n ** BigInt(stockDecimals - rules.amountPrecision);
    this.lttMarketName = `LTT_${rules.money}`;
    this.tickSizeN = toSafe(rules.tickSize);
    this.lotSizeN = toSafe(rules.lotSize);
    this.ratios = DealRatios.of(rules.tickSize, this.scale, rules.makerFeePpm, rules.takerFeePpm);
  }

  /** Whether an amount is a whole number of lots (in numbers when both are safe integers). */
  onLot(amount: bigint): boolean {
    if (this.lotSizeN > 0 && amount <= SAFE_MAX_BIG) return Number(amount) % this.lotSizeN === 0;
    return amount % this.lotSize === 0n;
  }

  /** Whether a price is a whole number of ticks (in numbers when both are safe integers). */
  onTick(price: bigint): boolean {
    if (this.tickSizeN > 0 && price <= SAFE_MAX_BIG) return Number(price) % this.tickSizeN === 0;
    return price % this.tickSize === 0n;
  }

  /** The tick count of a price on a tick, at most priceMax (so a safe integer). */
  ticksOf(price: bigint): number {
    if (this.tickSizeN > 0 && price <= SAFE_MAX_BIG) return Number(price) / this.tickSizeN;
    return Number(price / this.tickSize);
  }

  side(isAsk: boolean): BookSide {
    return isAsk ? this.asks : this.bids;
  }

  view(): MarketView {
    return {
      name: this.name,
      stock: this.stock,
      money: this.money,
      tickSize: this.tickSize,
      lotSize: this.lotSize,
      minAmount: this.minAmount,
      pricePrecision: this.pricePrecision,
      amountPrecision: this.amountPrecision,
      makerFeePpm: this.makerFeePpm,
      takerFeePpm: this.takerFeePpm,
      ...(this.orderValueMax > 0n ? { orderValueMax: this.orderValueMax } : {}),
      ...(this.orderAmountMax > 0n ? { orderAmountMax: this.orderAmountMax } : {}),
    };
  }
}
