// One side of one market's book: price levels as rows of a Float64Array, kept sorted best last,
// with room at both ends (a level made or dropped moves the fewer of the levels on either side
// of it), each a FIFO list of order slots: an order's O_LEVEL names its level, and the order table's
// links LINK_PREV/LINK_NEXT thread the list. Each level's total, and the side's, counts the
// orders' left in the market's amount units (lots), not minor units: every left is a whole number
// of lots, so the sums are exact, and they stay below 2^53 for books 2^53 lots deep, where in
// minor units a few bids for a token of eight decimals at its lowest price passed it.
import { InvariantViolation } from '../errors.js';
import { IN_PLACE_FROM, InPlaceArray } from './inPlaceArray.js';
import { L_HEAD, L_TAIL, L_TICKS, L_TOTAL, LEVEL_WIDTH } from './levelRow.js';
import {
  LINK_NEXT,
  LINK_PREV,
  LINK_WIDTH,
  NONE,
  O_LEFT,
  O_LEVEL,
  O_TICKS,
  ORDER_WIDTH,
} from './orderRow.js';
import type { OrderTable } from './orderTable.js';

const LEVELS_DEFAULT = 16;
/**
 * Up to this many levels move in a loop: `copyWithin` is a call into the runtime, which costs
 * more than a short loop, and most levels come and go near the best price (the end).
 */
const SHORT_MOVE = 32;
/**
 * Entries of the levels-by-price hint (a power of two): a level is kept at its ticks modulo
 * this, so that an order at a price the side already has finds its level without a search.
 */
const HINT_SIZE = 4096;
const HINT_MASK = HINT_SIZE - 1;

export class BookSide {
  // The arrays grow in place once large (docs/decisions/growing-in-place.md): copied, a side's
  // 524,288th level took 11.80 ms to make in a scratch run resting asks a tick apart.
  private readonly levelRowCells: InPlaceArray<Float64Array>;
  private readonly freeLevelCells: InPlaceArray<Int32Array>;
  private readonly sortedCells: InPlaceArray<Int32Array>;
  private readonly sortedKeyCells: InPlaceArray<Float64Array>;
  private levelRows: Float64Array;
  private capacity: number;
  /** Level rows ever handed out: every one below is on the side or on the free list. */
  private levelsUsed = 0;
  private freeLevels: Int32Array;
  private freeCount = 0;
  /**
   * The side's level numbers sorted by key ascending in [sortedBase, sortedTop), so the best is
   * last (taken and dropped without moving the others). A level made or dropped elsewhere moves
   * the levels between it and the nearer end: on a deep book, one far from the best moves the few
   * worse than it, not every level up to the best (columnar-engine.md, "Deep books").
   */
  private sorted: Int32Array;
  /**
   * The key of each level in `sorted`, at the same position: the binary searches read this one
   * small array instead of a level row per probe (a read of memory a few levels apart each).
   */
  private sortedKeys: Float64Array;
  private sortedBase = 0;
  private sortedTop = 0;
  /** key = sign × ticks, larger is better: -1 for asks (lowest best), 1 for bids. */
  private readonly sign: number;
  /** Sum of O_LEFT over every order on the side, in amount units (each level's is at most this). */
  private sideUnits = 0;
  /**
   * A level by its ticks modulo HINT_SIZE, NONE when none: a hint, not an index. Two prices may
   * share an entry (the later one keeps it), so a hit is checked against the level's ticks; an
   * entry never names a level that has left the side (dropLevel clears it).
   */
  private readonly byTicks = new Int32Array(HINT_SIZE).fill(NONE);

  /**
   * `amountUnit`: the market's (ColumnarMarket.amountUnit), what the totals count.
   * `inPlaceFrom`: the bytes from which an array grows in place (tests make it 0).
   * NOTE: the table's rows array is replaced when it grows, so every method re-reads
   * `table.rows` instead of keeping it.
   */
  constructor(
    private readonly table: OrderTable,
    readonly isAsk: boolean,
    levelCapacity = LEVELS_DEFAULT,
    readonly amountUnit = 1,
    inPlaceFrom = IN_PLACE_FROM,
  ) {
    this.sign = isAsk ? -1 : 1;
    this.capacity = Math.max(1, levelCapacity);
    const levels = this.capacity;
    this.levelRowCells = new InPlaceArray(Float64Array, levels * LEVEL_WIDTH, inPlaceFrom);
    this.freeLevelCells = new InPlaceArray(Int32Array, levels, inPlaceFrom);
    this.sortedCells = new InPlaceArray(Int32Array, levels, inPlaceFrom);
    this.sortedKeyCells = new InPlaceArray(Float64Array, levels, inPlaceFrom);
    this.levelRows = this.levelRowCells.array;
    this.freeLevels = this.freeLevelCells.array;
    this.sorted = this.sortedCells.array;
    this.sortedKeys = this.sortedKeyCells.array;
  }

  get levelCount(): number {
    return this.sortedTop - this.sortedBase;
  }

  /** Sum of every order's left on the side, in amount units. */
  get units(): number {
    return this.sideUnits;
  }

  get isEmpty(): boolean {
    return this.sortedTop === this.sortedBase;
  }

  /** The best level, NONE when the side is empty. */
  best(): number {
    const top = this.sortedTop;
    return top === this.sortedBase ? NONE : this.sorted[top - 1]!;
  }

  /** The level `position` places from the best (0 is the best), NONE beyond the last. */
  levelAt(position: number): number {
    const top = this.sortedTop;
    return position >= 0 && position < top - this.sortedBase
      ? this.sorted[top - 1 - position]!
      : NONE;
  }

  ticksOf(level: number): number {
    return this.levelRows[level * LEVEL_WIDTH + L_TICKS]!;
  }

  /** The level's oldest order: the next to fill. */
  headOf(level: number): number {
    // NOTE: `| 0` (exact: a slot is a small integer), here and wherever a slot, a level or a
    // holder is read from a Float64Array: as a 32-bit integer it indexes the rows without the
    // conversion and the check that every access with a double index costs (columnar-engine.md,
    // "Indexes as 32-bit integers").
    return this.levelRows[level * LEVEL_WIDTH + L_HEAD]! | 0;
  }

  tailOf(level: number): number {
    return this.levelRows[level * LEVEL_WIDTH + L_TAIL]! | 0;
  }

  /** Sum of the level's orders' left, in amount units. */
  unitsOf(level: number): number {
    return this.levelRows[level * LEVEL_WIDTH + L_TOTAL]!;
  }

  /** The level's orders' left, in minor units, or `most` if that is less. */
  leftOf(level: number, most: number): number {
    // NOTE: a product past 2^53 may be rounded, but never below 2^53, which is above `most`.
    const left = this.levelRows[level * LEVEL_WIDTH + L_TOTAL]! * this.amountUnit;
    return left < most ? left : most;
  }

  /** A fill of `amount` of one of the level's orders (its O_LEFT is the caller's to reduce). */
  reduceTotal(level: number, amount: number): void {
    const units = amount / this.amountUnit;
    this.levelRows[level * LEVEL_WIDTH + L_TOTAL]! -= units;
    this.sideUnits -= units;
  }

  /** Put an order (O_TICKS and O_LEFT set) at the back of its level, creating the level. */
  add(slot: number): void {
    const orders = this.table.rows;
    const row = slot * ORDER_WIDTH;
    if (orders[row + O_LEVEL] !== NONE) throw new InvariantViolation(`slot ${slot} is on a level`);
    const level = this.levelFor(orders[row + O_TICKS]!);
    const levels = this.levelRows;
    const at = level * LEVEL_WIDTH;
    const tail = levels[at + L_TAIL]! | 0;
    const links = this.table.links;
    const link = slot * LINK_WIDTH;
    orders[row + O_LEVEL] = level;
    links[link + LINK_PREV] = tail;
    links[link + LINK_NEXT] = NONE;
    if (tail === NONE) levels[at + L_HEAD] = slot;
    else links[tail * LINK_WIDTH + LINK_NEXT] = slot;
    levels[at + L_TAIL] = slot;
    const units = orders[row + O_LEFT]! / this.amountUnit;
    levels[at + L_TOTAL]! += units;
    this.sideUnits += units;
  }

  /** Take an order off its level, wherever it is in the FIFO; an emptied level leaves. */
  remove(slot: number): void {
    const orders = this.table.rows;
    const row = slot * ORDER_WIDTH;
    const level = orders[row + O_LEVEL]! | 0;
    if (level === NONE) throw new InvariantViolation(`slot ${slot} is not on the book`);
    const levels = this.levelRows;
    const at = level * LEVEL_WIDTH;
    const links = this.table.links;
    const link = slot * LINK_WIDTH;
    const prev = links[link + LINK_PREV]!;
    const next = links[link + LINK_NEXT]!;
    if (prev === NONE) levels[at + L_HEAD] = next;
    else links[prev * LINK_WIDTH + LINK_NEXT] = next;
    if (next === NONE) levels[at + L_TAIL] = prev;
    else links[next * LINK_WIDTH + LINK_PREV] = prev;
    orders[row + O_LEVEL] = NONE;
    links[link + LINK_PREV] = NONE;
    links[link + LINK_NEXT] = NONE;
    const units = orders[row + O_LEFT]! / this.amountUnit;
    levels[at + L_TOTAL]! -= units;
    this.sideUnits -= units;
    if (levels[at + L_HEAD] === NONE) this.dropLevel(level);
  }

  /**
   * Each level's total, and the side's, are the sums of their orders' left in amount units.
   * O(orders): for Engine.assertValid.
   */
  assertTotals(label: string): void {
    const orders = this.table.rows;
    const links = this.table.links;
    let sideUnits = 0;
    for (let i = this.sortedBase; i < this.sortedTop; i++) {
      const level = this.sorted[i]!;
      let units = 0;
      for (let o = this.headOf(level); o !== NONE; o = links[o * LINK_WIDTH + LINK_NEXT]!) {
        units += orders[o * ORDER_WIDTH + O_LEFT]! / this.amountUnit;
      }
      const kept = this.unitsOf(level);
      if (units !== kept) {
        throw new InvariantViolation(
          `${label}: level at ${this.ticksOf(level)} totals ${units}, kept as ${kept}`,
        );
      }
      sideUnits += units;
    }
    if (sideUnits !== this.sideUnits) {
      throw new InvariantViolation(`${label}: side totals ${sideUnits}, kept as ${this.sideUnits}`);
    }
  }

  // --- internals -----------------------------------------------------------------------------

  /** The level at `ticks`, created and inserted in order when the side has none. */
  private levelFor(ticks: number): number {
    const entry = ticks & HINT_MASK;
    const hinted = this.byTicks[entry]!;
    if (hinted !== NONE && this.levelRows[hinted * LEVEL_WIDTH + L_TICKS] === ticks) return hinted;
    const key = this.sign * ticks;
    const keys = this.sortedKeys;
    const base = this.sortedBase;
    const top = this.sortedTop;
    // Most new orders land at or near the best price (the end): try it before searching.
    let i = top;
    if (top > base && keys[top - 1]! > key) {
      let lo = base;
      let hi = top;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (keys[mid]! <= key) lo = mid + 1;
        else hi = mid;
      }
      i = lo;
    }
    if (i > base && keys[i - 1] === key) {
      const found = this.sorted[i - 1]!;
      this.byTicks[entry] = found;
      return found;
    }
    const level = this.newLevel(ticks);
    this.byTicks[entry] = level;
    this.insertAt(i, level, key);
    return level;
  }

  /** Put `level` into the sorted levels before position `i`, moving the fewer of its neighbours. */
  private insertAt(i: number, level: number, key: number): void {
    let base = this.sortedBase;
    let top = this.sortedTop;
    const towardsWorst = i - base < top - i;
    if (towardsWorst ? base === 0 : top === this.sorted.length) {
      const moved = this.makeRoom();
      i += moved;
      base += moved;
      top += moved;
    }
    if (towardsWorst) {
      // The worse levels one place down: the level goes in at i - 1.
      this.moveDown(base, i);
      this.sorted[i - 1] = level;
      this.sortedKeys[i - 1] = key;
      this.sortedBase = base - 1;
    } else {
      this.moveUp(i, top);
      this.sorted[i] = level;
      this.sortedKeys[i] = key;
      this.sortedTop = top + 1;
    }
  }

  /** The sorted levels at [from, to) one place down, to [from - 1, to - 1). */
  private moveDown(from: number, to: number): void {
    const sorted = this.sorted;
    const keys = this.sortedKeys;
    if (to - from > SHORT_MOVE) {
      sorted.copyWithin(from - 1, from, to);
      keys.copyWithin(from - 1, from, to);
    } else {
      for (let j = from; j < to; j++) {
        sorted[j - 1] = sorted[j]!;
        keys[j - 1] = keys[j]!;
      }
    }
  }

  /** The sorted levels at [from, to) one place up, to [from + 1, to + 1). */
  private moveUp(from: number, to: number): void {
    const sorted = this.sorted;
    const keys = this.sortedKeys;
    if (to - from > SHORT_MOVE) {
      sorted.copyWithin(from + 1, from, to);
      keys.copyWithin(from + 1, from, to);
    } else {
      for (let j = to; j > from; j--) {
        sorted[j] = sorted[j - 1]!;
        keys[j] = keys[j - 1]!;
      }
    }
  }

  /**
   * Room at both ends of the sorted levels: they move to the middle of their arrays, doubled
   * first until the levels fill less than half, so that each end has room for more than half as
   * many levels as it moved: a run of levels made at one end moves the side once per that many.
   * Returns how far the levels moved.
   */
  private makeRoom(): number {
    const base = this.sortedBase;
    const count = this.sortedTop - base;
    let size = this.sorted.length;
    if (size < 2 * count + 2) {
      while (size < 2 * count + 2) size *= 2;
      this.sorted = this.sortedCells.grow(size);
      this.sortedKeys = this.sortedKeyCells.grow(size);
    }
    const newBase = (size - count) >>> 1;
    this.sorted.copyWithin(newBase, base, base + count);
    this.sortedKeys.copyWithin(newBase, base, base + count);
    this.sortedBase = newBase;
    this.sortedTop = newBase + count;
    return newBase - base;
  }

  private newLevel(ticks: number): number {
    let level: number;
    if (this.freeCount > 0) {
      level = this.freeLevels[--this.freeCount]!;
    } else {
      if (this.levelsUsed === this.capacity) {
        const size = this.capacity * 2;
        this.capacity = size;
        this.levelRows = this.levelRowCells.grow(size * LEVEL_WIDTH);
        this.freeLevels = this.freeLevelCells.grow(size);
      }
      level = this.levelsUsed++;
    }
    const at = level * LEVEL_WIDTH;
    this.levelRows[at + L_TICKS] = ticks;
    this.levelRows[at + L_HEAD] = NONE;
    this.levelRows[at + L_TAIL] = NONE;
    this.levelRows[at + L_TOTAL] = 0;
    return level;
  }

  /** Take an empty level off the side (the best, usually) and free its row. */
  private dropLevel(level: number): void {
    const total = this.levelRows[level * LEVEL_WIDTH + L_TOTAL]!;
    if (total !== 0) throw new InvariantViolation(`emptied level ${level} has total ${total}`);
    const ticks = this.levelRows[level * LEVEL_WIDTH + L_TICKS]!;
    const entry = ticks & HINT_MASK;
    if (this.byTicks[entry] === level) this.byTicks[entry] = NONE;
    const sorted = this.sorted;
    const base = this.sortedBase;
    const top = this.sortedTop;
    if (sorted[top - 1] === level) {
      this.sortedTop = top - 1;
    } else {
      const keys = this.sortedKeys;
      const key = this.sign * ticks;
      let lo = base;
      let hi = top;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (keys[mid]! < key) lo = mid + 1;
        else hi = mid;
      }
      if (sorted[lo] !== level)
        throw new InvariantViolation(`level ${level} missing from its side`);
      // The levels between it and the nearer end one place over it.
      if (lo - base < top - 1 - lo) {
        this.moveUp(base, lo);
        this.sortedBase = base + 1;
      } else {
        this.moveDown(lo + 1, top);
        this.sortedTop = top - 1;
      }
    }
    this.freeLevels[this.freeCount++] = level;
  }
}
