// The balance table against a model of bigint balances in a Map: every operation agrees, a
// refused move changes nothing at all, and values survive the table's growth and re-lays.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SAFE_MAX } from '../fastmath.js';
import { ACCOUNT_KINDS } from '../ledger.js';
import {
  ASSET_STRIDE,
  BLOCK_HOLDERS,
  BLOCK_MASK,
  BLOCK_SHIFT,
  CELL_AVAILABLE,
  CELL_FROZEN,
  CELL_WIDTH,
  KIND_STRIDE,
} from './balanceCell.js';
import type { AccountKindIndex } from './balanceTable.js';
import { BalanceTable } from './balanceTable.js';
import { LIMBS_MAX_BIG, LIMBS_MIN_BIG, limbsToBigInt } from './limbs.js';

const SAFE = BigInt(SAFE_MAX);
const KINDS: AccountKindIndex[] = [0, 1, 2];
const inRange = (v: bigint) => v >= LIMBS_MIN_BIG && v <= LIMBS_MAX_BIG;

interface Balances {
  available: bigint;
  frozen: bigint;
}

/** Balances by holder, asset and kind, as the engine's bigint ledger keeps them. */
class Model {
  readonly mayGoNegative: boolean[] = [];
  assets = 0;
  private readonly cells = new Map<string, Balances>();

  get(h: number, a: number, k: number): Balances {
    return this.cells.get(`${h}/${a}/${k}`) ?? { available: 0n, frozen: 0n };
  }

  set(h: number, a: number, k: number, b: Balances): void {
    this.cells.set(`${h}/${a}/${k}`, b);
  }
}

function expectSame(table: BalanceTable, model: Model): void {
  expect(table.holderCount).toBe(model.mayGoNegative.length);
  expect(table.assetCount).toBe(model.assets);
  for (let h = 0; h < table.holderCount; h++) {
    expect(table.mayGoNegative(h)).toBe(model.mayGoNegative[h]);
    for (let a = 0; a < table.assetCount; a++) {
      for (const k of KINDS) {
        const cell = table.cell(h, a, k);
        const want = model.get(h, a, k);
        expect({ available: table.available(cell), frozen: table.frozen(cell) }).toEqual(want);
        expect(table.isZero(cell)).toBe(want.available === 0n && want.frozen === 0n);
      }
    }
  }
}

/** Deltas: small ones (frequent refusals below zero), large ones, and the safe edges. */
const delta = fc.oneof(
  fc.constantFrom(0, 1, -1, 2 ** 52 - 1, -(2 ** 52), SAFE_MAX, -SAFE_MAX),
  fc.integer({ min: -1000, max: 1000 }),
  fc.maxSafeInteger(),
);
/** Stored values: small, large, near both ends of the range and beyond them. */
const storedValue = fc.oneof(
  fc.bigInt({ min: -1000n, max: 1000n }),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  fc.bigInt({ min: LIMBS_MAX_BIG - SAFE, max: LIMBS_MAX_BIG + 2n }),
  fc.bigInt({ min: LIMBS_MIN_BIG - 2n, max: LIMBS_MIN_BIG + SAFE }),
);
const where = { h: fc.nat(), a: fc.nat(), k: fc.constantFrom(...KINDS) };
const op = fc.oneof(
  { arbitrary: fc.record({ type: fc.constant('holder' as const), neg: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ type: fc.constant('asset' as const) }), weight: 1 },
  {
    arbitrary: fc.record({ type: fc.constant('move' as const), ...where, dA: delta, dF: delta }),
    weight: 6,
  },
  {
    arbitrary: fc.record({
      type: fc.constantFrom('setAvailable' as const, 'setFrozen' as const),
      ...where,
      v: storedValue,
    }),
    weight: 2,
  },
);

/** The first index where two arrays of one length differ, -1 when none. */
function firstDifference(a: Float64Array, b: Float64Array): number {
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return a.length === b.length ? -1 : a.length;
}

describe('BalanceTable', () => {
  it('lays out the account kinds in the order of ACCOUNT_KINDS', () => {
    expect(ACCOUNT_KINDS).toEqual(['main', 'trade', 'margin']);
    expect([CELL_AVAILABLE, CELL_FROZEN, CELL_WIDTH]).toEqual([0, 2, 4]);
    expect(BLOCK_HOLDERS).toBe(2 ** BLOCK_SHIFT);
    expect(BLOCK_MASK).toBe(BLOCK_HOLDERS - 1);
    expect(KIND_STRIDE).toBe(BLOCK_HOLDERS * CELL_WIDTH);
    expect(ASSET_STRIDE).toBe(ACCOUNT_KINDS.length * KIND_STRIDE);
  });

  it('agrees with bigint balances over random operations; refusals change nothing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }),
        fc.array(op, { maxLength: 120 }),
        fc.nat(),
        (assetRoom, ops, probe) => {
          const table = new BalanceTable(assetRoom);
          const model = new Model();
          for (const o of ops) {
            if (o.type === 'holder') {
              expect(table.addHolder(o.neg)).toBe(model.mayGoNegative.length);
              model.mayGoNegative.push(o.neg);
              continue;
            }
            if (o.type === 'asset') {
              expect(table.addAsset()).toBe(model.assets++);
              expectSame(table, model);
              continue;
            }
            if (table.holderCount === 0 || table.assetCount === 0) continue;
            const h = o.h % table.holderCount;
            const a = o.a % table.assetCount;
            const cell = table.cell(h, a, o.k);
            const was = model.get(h, a, o.k);
            const want: Balances =
              o.type === 'move'
                ? { available: was.available + BigInt(o.dA), frozen: was.frozen + BigInt(o.dF) }
                : o.type === 'setAvailable'
                  ? { ...was, available: o.v }
                  : { ...was, frozen: o.v };
            const allowed =
              inRange(want.available) &&
              inRange(want.frozen) &&
              want.frozen >= 0n &&
              (want.available >= 0n || model.mayGoNegative[h] === true);
            // The whole table before a refusal, which must change none of it.
            const before = allowed ? undefined : table.values.slice();
            const done =
              o.type === 'move'
                ? table.move(cell, o.dA, o.dF)
                : o.type === 'setAvailable'
                  ? table.setAvailable(cell, o.v)
                  : table.setFrozen(cell, o.v);
            expect(done).toBe(allowed);
            if (allowed) model.set(h, a, o.k, want);
            else expect(firstDifference(table.values, before!)).toBe(-1);
            const now = model.get(h, a, o.k);
            expect(table.available(cell)).toBe(now.available);
            expect(table.frozen(cell)).toBe(now.frozen);
            // An amount next to the balance, when it is a safe integer (checked in bigint).
            const amount = now.available + BigInt((probe % 5) - 2);
            if (amount >= -SAFE && amount <= SAFE) {
              expect(table.hasAvailable(cell, Number(amount))).toBe(now.available >= amount);
            }
          }
          expectSame(table, model);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses below zero and out of range, moving both or neither', () => {
    const table = new BalanceTable();
    const user = table.addHolder(false);
    const outside = table.addHolder(true);
    table.addAsset();
    const u = table.cell(user, 0, 1);
    const o = table.cell(outside, 0, 1);
    expect(table.isZero(u)).toBe(true);

    expect(table.move(o, -10, 0)).toBe(true);
    expect(table.available(o)).toBe(-10n);
    expect(table.move(o, 0, -1)).toBe(false);
    expect(table.move(u, 10, 0)).toBe(true);
    expect(table.move(u, -11, 0)).toBe(false);
    expect(table.move(u, -4, 4)).toBe(true);
    expect([table.available(u), table.frozen(u)]).toEqual([6n, 4n]);
    // The available part alone would do; the frozen part would not: neither happens.
    expect(table.move(u, 5, -5)).toBe(false);
    expect(table.move(u, -6, -5)).toBe(false);
    expect([table.available(u), table.frozen(u)]).toEqual([6n, 4n]);

    expect(table.setFrozen(u, LIMBS_MAX_BIG)).toBe(true);
    expect(table.move(u, -1, 1)).toBe(false);
    expect([table.available(u), table.frozen(u)]).toEqual([6n, LIMBS_MAX_BIG]);
    expect(table.setAvailable(u, LIMBS_MAX_BIG - 1n)).toBe(true);
    expect(table.move(u, 2, -2)).toBe(false);
    expect(table.move(u, 1, -2)).toBe(true);
    expect(table.hasAvailable(u, SAFE_MAX)).toBe(true);

    expect(table.setAvailable(u, -1n)).toBe(false);
    expect(table.setFrozen(o, -1n)).toBe(false);
    expect(table.setAvailable(o, LIMBS_MIN_BIG)).toBe(true);
    expect(table.setAvailable(o, LIMBS_MIN_BIG - 1n)).toBe(false);
    expect(table.move(o, -1, 0)).toBe(false);
    expect(table.available(o)).toBe(LIMBS_MIN_BIG);
    expect(table.hasAvailable(o, -SAFE_MAX)).toBe(false);
  });

  it('keeps every value across holder blocks and asset growth', () => {
    const table = new BalanceTable(1);
    const expected = (h: number, a: number, k: number, frozen: boolean) =>
      (BigInt(h) * 1_000_003n + BigInt(a) * 101n + BigInt(k) * 7n + (frozen ? 1n : 0n)) *
      (h % 3 === 0 ? 2n ** 40n : 1n);
    const fill = (h: number, a: number) => {
      for (const k of KINDS) {
        const cell = table.cell(h, a, k);
        const ok =
          table.isZero(cell) &&
          table.setAvailable(cell, expected(h, a, k, false)) &&
          table.setFrozen(cell, expected(h, a, k, true));
        if (!ok) expect.fail(`cannot fill ${h}/${a}/${k}`);
      }
    };
    /** Every cell holds its value, except those of an asset just added, which are zero. */
    const check = (filledAssets = table.assetCount) => {
      // Mismatches are collected and compared once: an expect per cell would take seconds.
      const wrong: string[] = [];
      const seen = new Set<number>();
      for (let h = 0; h < table.holderCount; h++) {
        for (let a = 0; a < table.assetCount; a++) {
          for (const k of KINDS) {
            const cell = table.cell(h, a, k);
            const filled = a < filledAssets;
            const ok =
              cell % CELL_WIDTH === 0 &&
              cell + CELL_WIDTH <= table.values.length &&
              table.available(cell) === (filled ? expected(h, a, k, false) : 0n) &&
              limbsToBigInt(table.values, cell + CELL_FROZEN) ===
                (filled ? expected(h, a, k, true) : 0n);
            if (!ok) wrong.push(`${h}/${a}/${k}`);
            seen.add(cell);
          }
        }
      }
      expect(wrong).toEqual([]);
      expect(seen.size).toBe(table.holderCount * table.assetCount * ACCOUNT_KINDS.length);
    };

    table.addAsset();
    const first = table.values;
    // In the first block, adding an asset past the room leaves every cell where it was.
    const before = table.addHolder(false);
    fill(before, 0);
    const cellBefore = table.cell(before, 0, 1);
    table.addAsset();
    expect(table.values).not.toBe(first);
    expect(table.cell(before, 0, 1)).toBe(cellBefore);
    expect(table.available(cellBefore)).toBe(expected(before, 0, 1, false));
    table.addHolder(false);
    fill(before + 1, 0);
    fill(before, 1);
    fill(before + 1, 1);
    const grownAt = table.values;
    for (let i = 0; i < 998; i++) {
      const h = table.addHolder(i % 7 === 0);
      for (let a = 0; a < table.assetCount; a++) fill(h, a);
    }
    // Holders within the first block's room: the array stays.
    expect(table.values).toBe(grownAt);
    check();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 5; i++) {
        const asset = table.addAsset();
        check(asset);
        for (let h = 0; h < table.holderCount; h++) fill(h, asset);
      }
      for (let i = 0; i < 300; i++) {
        const h = table.addHolder(false);
        for (let a = 0; a < table.assetCount; a++) fill(h, a);
      }
      check();
    }
    expect(table.holderCount).toBe(1900);
    expect(table.assetCount).toBe(17);
    // Past the first block's holders: blocks added at the end, where no cell moves, then assets
    // past the room (32) that move every block but the first.
    const lastCell = table.cell(table.holderCount - 1, 16, 2);
    for (let i = 0; i < 2300; i++) {
      const h = table.addHolder(false);
      for (let a = 0; a < table.assetCount; a++) fill(h, a);
    }
    expect(table.cell(1899, 16, 2)).toBe(lastCell);
    check();
    for (let i = 0; i < 16; i++) {
      const asset = table.addAsset();
      if (i === 15) check(asset);
      for (let h = 0; h < table.holderCount; h++) fill(h, asset);
    }
    check();
    expect(table.holderCount).toBe(4200);
    expect(table.assetCount).toBe(33);
    for (let h = 0; h < table.holderCount; h++) {
      expect(table.mayGoNegative(h)).toBe(h >= 2 && h < 1000 && (h - 2) % 7 === 0);
    }
    // A cell past the first block names its holder for the below-zero check, blocks moved.
    const far = table.addHolder(true);
    expect(table.setAvailable(table.cell(far, 20, 1), -5n)).toBe(true);
    expect(table.available(table.cell(far, 20, 1))).toBe(-5n);
    expect(table.setAvailable(table.cell(far - 1, 20, 1), -5n)).toBe(false);
  }, 30_000);
});
