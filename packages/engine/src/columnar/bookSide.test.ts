import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvariantViolation } from '../errors.js';
import { BookSide } from './bookSide.js';
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
import { OrderTable } from './orderTable.js';

/** The model of one side: price levels by ticks, each its order slots oldest first. */
type SideModel = Map<number, number[]>;

// Beside small prices, some that share a small one's entry in the side's hint of levels by
// ticks modulo 4096 (4097, 12290), and large ones that share an entry (2^40, 10^15).
const ticks = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 1, max: 15 }) },
  { weight: 2, arbitrary: fc.constantFrom(4097, 12290) },
  { weight: 1, arbitrary: fc.constantFrom(2 ** 40, 10 ** 15, Number.MAX_SAFE_INTEGER) },
);

// Prices over two hundred ticks: sides of hundreds of levels, where a level made or dropped moves
// its neighbours towards either end, more than the few that move in a loop.
const manyTicks = fc.integer({ min: 1, max: 200 });

const stepOf = (ticks: fc.Arbitrary<number>) =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        kind: fc.constant('add' as const),
        ask: fc.boolean(),
        ticks,
        left: fc.integer({ min: 1, max: 1000 }),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('fill' as const),
        ask: fc.boolean(),
        pick: fc.nat(),
      }),
    },
  );

/** A plain check: the model comparison runs after every step, where `expect` is too slow. */
function same(actual: unknown, expected: unknown, what: string): void {
  if (actual !== expected)
    throw new Error(`${what}: ${String(actual)}, expected ${String(expected)}`);
}

/** The bids' amount unit in the random test (a lot of 10^8 minor units); the asks' is 1. */
const BID_LOT = 10 ** 8;

/** Compare a side with its model; `peakLevels` bounds the level numbers (rows are reused). */
function checkSide(book: BookSide, table: OrderTable, model: SideModel, peakLevels: number): void {
  const rows = table.rows;
  const links = table.links;
  const prices = [...model.keys()].sort((a, b) => (book.isAsk ? a - b : b - a));
  same(book.levelCount, prices.length, 'level count');
  same(book.isEmpty, prices.length === 0, 'isEmpty');
  same(book.best(), book.levelAt(0), 'best');
  same(book.levelAt(prices.length), NONE, 'level past the last');
  same(book.levelAt(-1), NONE, 'level before the best');
  const seen = new Set<number>();
  let sideTotal = 0;
  prices.forEach((price, position) => {
    const level = book.levelAt(position);
    same(level >= 0 && level < peakLevels, true, `level number ${level} reused`);
    seen.add(level);
    same(book.ticksOf(level), price, `ticks at position ${position}`);
    const expected = model.get(price)!;
    let total = 0;
    let prev = NONE;
    let i = 0;
    for (let s = book.headOf(level); s !== NONE; s = links[s * LINK_WIDTH + LINK_NEXT]!) {
      same(s, expected[i++], `order ${i} of level ${price}`);
      same(links[s * LINK_WIDTH + LINK_PREV], prev, 'prev link');
      same(rows[s * ORDER_WIDTH + O_LEVEL], level, 'order level');
      total += rows[s * ORDER_WIDTH + O_LEFT]!;
      prev = s;
    }
    same(i, expected.length, `orders of level ${price}`);
    same(book.tailOf(level), prev, 'tail');
    same(book.unitsOf(level) * book.amountUnit, total, 'total');
    same(book.leftOf(level, total + 1), total, 'left');
    same(book.leftOf(level, 1), 1, 'left up to 1');
    sideTotal += total;
  });
  same(seen.size, prices.length, 'distinct levels');
  same(book.units * book.amountUnit, sideTotal, 'side total');
  book.assertTotals('side');
}

describe('BookSide', () => {
  it.each([
    ['a few prices', ticks, 'small', { numRuns: 60 }, undefined],
    // Long runs, so that the sides grow to hundreds of levels; a failure is reported as found
    // (with its seed), since shrinking thousands of steps, each checked, takes minutes.
    ['hundreds of prices', manyTicks, 'max', { numRuns: 8, endOnFailure: true }, undefined],
    // The same, every array grown in place (from a size of 0 bytes).
    ['hundreds of prices, in place', manyTicks, 'max', { numRuns: 3, endOnFailure: true }, 0],
  ] as const)(
    'keeps levels sorted best last, FIFO within each, totals exact, under random add/remove/fill: %s',
    (_name, prices, size, options, inPlaceFrom) => {
      const steps = fc.array(stepOf(prices), { minLength: 50, maxLength: 3000, size });
      fc.assert(
        fc.property(steps, (steps) => {
          // Room for one order and one level at first, so both grow.
          const table = new OrderTable(1, 8, undefined, inPlaceFrom);
          const asks = new BookSide(table, true, 1, 1, inPlaceFrom);
          const bids = new BookSide(table, false, 1, BID_LOT, inPlaceFrom);
          const models = new Map<BookSide, SideModel>([
            [asks, new Map()],
            [bids, new Map()],
          ]);
          const peak = new Map<BookSide, number>([
            [asks, 0],
            [bids, 0],
          ]);
          /** Resting orders, in the order they were added. */
          const resting: { slot: number; book: BookSide }[] = [];
          let peakOpen = 0;
          let nextId = 1;

          const takeOff = (book: BookSide, slot: number): void => {
            const price = table.rows[slot * ORDER_WIDTH + O_TICKS]!;
            const model = models.get(book)!;
            book.remove(slot);
            const list = model.get(price)!;
            list.splice(list.indexOf(slot), 1);
            if (list.length === 0) model.delete(price);
            resting.splice(
              resting.findIndex((r) => r.slot === slot),
              1,
            );
            table.release(slot);
          };

          for (const s of steps) {
            if (s.kind === 'add') {
              const book = s.ask ? asks : bids;
              const slot = table.allocate(nextId++);
              // Slots are reused: never beyond the most orders open at once.
              same(slot < Math.max(peakOpen, table.count), true, `slot ${slot} reused`);
              const rows = table.rows;
              rows[slot * ORDER_WIDTH + O_TICKS] = s.ticks;
              rows[slot * ORDER_WIDTH + O_LEFT] = s.left * book.amountUnit;
              book.add(slot);
              const model = models.get(book)!;
              const list = model.get(s.ticks) ?? [];
              list.push(slot);
              model.set(s.ticks, list);
              resting.push({ slot, book });
            } else if (s.kind === 'remove') {
              if (resting.length === 0) continue;
              const { slot, book } = resting[s.pick % resting.length]!;
              takeOff(book, slot);
            } else {
              const book = s.ask ? asks : bids;
              const level = book.best();
              if (level === NONE) continue;
              const head = book.headOf(level);
              const rows = table.rows;
              const left = rows[head * ORDER_WIDTH + O_LEFT]!;
              const unit = book.amountUnit;
              const amount = unit * (1 + (s.pick % (left / unit)));
              rows[head * ORDER_WIDTH + O_LEFT] = left - amount;
              book.reduceTotal(level, amount);
              if (left === amount) takeOff(book, head);
            }
            peakOpen = Math.max(peakOpen, table.count);
            for (const book of [asks, bids]) {
              peak.set(book, Math.max(peak.get(book)!, book.levelCount));
              checkSide(book, table, models.get(book)!, peak.get(book)!);
            }
          }
          return true;
        }),
        options,
      );
    },
  );

  it('puts a new best level at the end and a worse one in its place', () => {
    const table = new OrderTable();
    const bids = new BookSide(table, false);
    const at = (price: number, left: number): number => {
      const slot = table.allocate(table.count + 1);
      table.rows[slot * ORDER_WIDTH + O_TICKS] = price;
      table.rows[slot * ORDER_WIDTH + O_LEFT] = left;
      bids.add(slot);
      return slot;
    };
    at(100, 1);
    at(105, 2);
    const worse = at(95, 3);
    at(105, 4);
    expect([0, 1, 2].map((p) => bids.ticksOf(bids.levelAt(p)))).toEqual([105, 100, 95]);
    expect(bids.unitsOf(bids.best())).toBe(6);
    bids.remove(worse);
    expect(bids.levelCount).toBe(2);
  });

  it('keeps hundreds of levels in order, inserted and dropped anywhere on the side', () => {
    // Far more levels than BookSide moves in a loop: both the loop and copyWithin run.
    const LEVELS = 300;
    const table = new OrderTable();
    const asks = new BookSide(table, true);
    /** A fixed shuffle of 0..n-1 (a linear congruential generator). */
    const shuffled = (n: number, seed: number): number[] => {
      const out = [...Array(n).keys()];
      let x = seed;
      for (let i = n - 1; i > 0; i--) {
        x = (x * 1103515245 + 12345) % 2 ** 31;
        const j = x % (i + 1);
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    };
    const expectSorted = (prices: Set<number>) => {
      const want = [...prices].sort((a, b) => a - b);
      expect(asks.levelCount).toBe(want.length);
      want.forEach((price, position) => {
        if (asks.ticksOf(asks.levelAt(position)) !== price) {
          throw new Error(`level ${position} is at ${asks.ticksOf(asks.levelAt(position))}`);
        }
      });
    };
    const slots: number[] = [];
    const prices = new Set<number>();
    // Each price twice: the second order finds its level by the sorted keys.
    for (const round of [1, 2]) {
      for (const i of shuffled(LEVELS, round)) {
        const slot = table.allocate(table.count + 1);
        table.rows[slot * ORDER_WIDTH + O_TICKS] = 1000 + i;
        table.rows[slot * ORDER_WIDTH + O_LEFT] = 1;
        asks.add(slot);
        slots.push(slot);
        prices.add(1000 + i);
      }
      expectSorted(prices);
    }
    expect(asks.units).toBe(2 * LEVELS);
    const left = new Map<number, number>([...prices].map((p) => [p, 2]));
    for (const k of shuffled(slots.length, 7)) {
      const slot = slots[k]!;
      const price = table.rows[slot * ORDER_WIDTH + O_TICKS]!;
      asks.remove(slot);
      left.set(price, left.get(price)! - 1);
      if (left.get(price) === 0) prices.delete(price);
      expectSorted(prices);
    }
    expect(asks.isEmpty).toBe(true);
  });

  it('counts its totals in lots, exact past 2^53 minor units', () => {
    const table = new OrderTable();
    const bids = new BookSide(table, false, 16, BID_LOT);
    // Ten bids of 45 million lots of 10^8 minor units: 4.5 × 10^16 minor units in all.
    for (let i = 0; i < 10; i++) {
      const slot = table.allocate(i + 1);
      table.rows[slot * ORDER_WIDTH + O_TICKS] = 1;
      table.rows[slot * ORDER_WIDTH + O_LEFT] = 45_000_000 * BID_LOT;
      bids.add(slot);
    }
    const level = bids.best();
    expect(bids.unitsOf(level)).toBe(450_000_000);
    expect(bids.units).toBe(450_000_000);
    expect(bids.leftOf(level, Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
    expect(bids.leftOf(level, 5 * BID_LOT)).toBe(5 * BID_LOT);
    bids.reduceTotal(level, 3 * BID_LOT);
    expect(bids.unitsOf(level)).toBe(450_000_000 - 3);
    expect(() => bids.assertTotals('bids')).toThrow(InvariantViolation);
  });

  it('refuses an order already on a level and one not on the book', () => {
    const table = new OrderTable();
    const asks = new BookSide(table, true);
    const slot = table.allocate(1);
    table.rows[slot * ORDER_WIDTH + O_TICKS] = 10;
    table.rows[slot * ORDER_WIDTH + O_LEFT] = 5;
    asks.add(slot);
    expect(() => asks.add(slot)).toThrow(InvariantViolation);
    asks.remove(slot);
    expect(asks.isEmpty).toBe(true);
    expect(() => asks.remove(slot)).toThrow(InvariantViolation);
  });
});
