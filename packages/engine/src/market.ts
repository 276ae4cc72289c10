// A market: its rules, its two book sides (price levels of FIFO order lists) and waiting stops.
import { maxBig } from './bigmath.js';
import { assert, InvariantViolation } from './errors.js';
import { DealRatios, SAFE_MAX_BIG, toSafe } from './fastmath.js';
import { FiringQueue } from './firingQueue.js';
import type { Balance } from './ledger.js';
import type { Order } from './order.js';
import type { MarketRules, MarketView } from './types.js';

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

/**
 * Levels sorted by key ascending in [base, top) of an array with room at both ends, so the best
 * level is the last one (pop, not shift), and a level made or dropped elsewhere moves the levels
 * between it and the nearer end: on a deep book, one far from the best moves the few worse than
 * it (docs/decisions/columnar-engine.md, "Deep books"; the columnar core's BookSide does the same).
 */
export class BookSide {
  /** Null outside [base, top): an array of one kind of element, without holes. */
  private slots: (Level | null)[] = [null];
  private base = 0;
  private top = 0;
  constructor(readonly isAsk: boolean) {}

  get levelCount(): number {
    return this.top - this.base;
  }

  best(): Level | undefined {
    const top = this.top;
    return top === this.base ? undefined : this.slots[top - 1]!;
  }

  /** The level `position` places from the best (0 is the best); undefined beyond the last. */
  levelAt(position: number): Level | undefined {
    const top = this.top;
    return position >= 0 && position < top - this.base
      ? this.slots[top - 1 - position]!
      : undefined;
  }

  /** Index of the first level whose key is ≥ key. */
  private search(key: number): number {
    const slots = this.slots;
    let lo = this.base;
    let hi = this.top;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (slots[mid]!.key < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Put an order at the back of its price level, creating the level when new. */
  add(o: Order): void {
    const key = this.isAsk ? -o.ticks : o.ticks;
    // NOTE: most new orders land at or near the best price, so try the end before searching.
    const best = this.best();
    let level: Level | undefined;
    if (best !== undefined && best.key === key) {
      level = best;
    } else {
      const i = best === undefined || best.key < key ? this.top : this.search(key);
      level = i < this.top ? this.slots[i]! : undefined;
      if (level === undefined || level.key !== key) {
        level = new Level(o.price, key);
        this.insertAt(i, level);
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
    const slots = this.slots;
    const { base, top } = this;
    if (slots[top - 1] === level) {
      slots[top - 1] = null;
      this.top = top - 1;
      return;
    }
    const i = this.search(level.key);
    assert(slots[i] === level, 'price level missing from its side');
    // The levels between it and the nearer end one place over it.
    if (i - base < top - 1 - i) {
      for (let j = i; j > base; j--) slots[j] = slots[j - 1]!;
      slots[base] = null;
      this.base = base + 1;
    } else {
      for (let j = i; j < top - 1; j++) slots[j] = slots[j + 1]!;
      slots[top - 1] = null;
      this.top = top - 1;
    }
  }

  /** Put `level` in before index `i`, moving the fewer of its neighbours. */
  private insertAt(i: number, level: Level): void {
    const towardsWorst = i - this.base < this.top - i;
    if (towardsWorst ? this.base === 0 : this.top === this.slots.length) i += this.makeRoom();
    const slots = this.slots;
    const { base, top } = this;
    if (towardsWorst) {
      for (let j = base; j < i; j++) slots[j - 1] = slots[j]!;
      slots[i - 1] = level;
      this.base = base - 1;
    } else {
      for (let j = top; j > i; j--) slots[j] = slots[j - 1]!;
      slots[i] = level;
      this.top = top + 1;
    }
  }

  /**
   * The levels moved to the middle of a new array at least twice their count, so that each end
   * has room for more than half as many levels as moved. Returns how far they moved.
   */
  private makeRoom(): number {
    const { base, top } = this;
    const count = top - base;
    let size = this.slots.length;
    while (size < 2 * count + 2) size *= 2;
    const slots: (Level | null)[] = new Array<Level | null>(size).fill(null);
    const newBase = (size - count) >>> 1;
    for (let j = 0; j < count; j++) slots[newBase + j] = this.slots[base + j]!;
    this.slots = slots;
    this.base = newBase;
    this.top = newBase + count;
    return newBase - base;
  }
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
