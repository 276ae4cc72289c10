// The balance table against a model of bigint balances in a Map: every operation agrees, a
// refused move changes nothing at all, and values survive the table's growth, where no cell
// moves.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SAFE_MAX } from '../fastmath.js';
import { ACCOUNT_KINDS } from '../ledger.js';
import {
  BLOCK_HOLDERS,
  BLOCK_MASK,
  BLOCK_SHIFT,
  BLOCK_STRIDE,
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
        const cell = table.cell(h, k);
        const want = model.get(h, a, k);
        expect({ available: table.available(a, cell), frozen: table.frozen(a, cell) }).toEqual(
          want,
        );
        expect(table.isZero(a, cell)).toBe(want.available === 0n && want.frozen === 0n);
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

/** Every asset's cells, copied. */
function copyOfAll(table: BalanceTable): Float64Array[] {
  return Array.from({ length: table.assetCount }, (_, a) => table.valuesOf(a).slice());
}

/** The first asset and index where the table and a copy of it differ, '' when none. */
function firstDifference(table: BalanceTable, copy: Float64Array[]): string {
  if (copy.length !== table.assetCount) return 'asset count';
  for (let a = 0; a < copy.length; a++) {
    const now = table.valuesOf(a);
    const was = copy[a]!;
    if (now.length !== was.length) return `${a} length`;
    for (let i = 0; i < now.length; i++) if (!Object.is(now[i], was[i])) return `${a}/${i}`;
  }
  return '';
}

describe('BalanceTable', () => {
  it('lays out the account kinds in the order of ACCOUNT_KINDS', () => {
    expect(ACCOUNT_KINDS).toEqual(['main', 'trade', 'margin']);
    expect([CELL_AVAILABLE, CELL_FROZEN, CELL_WIDTH]).toEqual([0, 2, 4]);
    expect(BLOCK_HOLDERS).toBe(2 ** BLOCK_SHIFT);
    expect(BLOCK_MASK).toBe(BLOCK_HOLDERS - 1);
    expect(KIND_STRIDE).toBe(BLOCK_HOLDERS * CELL_WIDTH);
    expect(BLOCK_STRIDE).toBe(ACCOUNT_KINDS.length * KIND_STRIDE);
  });

  it('agrees with bigint balances over random operations; refusals change nothing', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), fc.nat(), (ops, probe) => {
        const table = new BalanceTable();
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
          const cell = table.cell(h, o.k);
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
          const before = allowed ? undefined : copyOfAll(table);
          const done =
            o.type === 'move'
              ? table.move(a, cell, o.dA, o.dF)
              : o.type === 'setAvailable'
                ? table.setAvailable(a, cell, o.v)
                : table.setFrozen(a, cell, o.v);
          expect(done).toBe(allowed);
          if (allowed) model.set(h, a, o.k, want);
          else expect(firstDifference(table, before!)).toBe('');
          const now = model.get(h, a, o.k);
          expect(table.available(a, cell)).toBe(now.available);
          expect(table.frozen(a, cell)).toBe(now.frozen);
          // An amount next to the balance, when it is a safe integer (checked in bigint).
          const amount = now.available + BigInt((probe % 5) - 2);
          if (amount >= -SAFE && amount <= SAFE) {
            expect(table.hasAvailable(a, cell, Number(amount))).toBe(now.available >= amount);
          }
        }
        expectSame(table, model);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses below zero and out of range, moving both or neither', () => {
    const table = new BalanceTable();
    const user = table.addHolder(false);
    const outside = table.addHolder(true);
    table.addAsset();
    const u = table.cell(user, 1);
    const o = table.cell(outside, 1);
    expect(table.isZero(0, u)).toBe(true);

    expect(table.move(0, o, -10, 0)).toBe(true);
    expect(table.available(0, o)).toBe(-10n);
    expect(table.move(0, o, 0, -1)).toBe(false);
    expect(table.move(0, u, 10, 0)).toBe(true);
    expect(table.move(0, u, -11, 0)).toBe(false);
    expect(table.move(0, u, -4, 4)).toBe(true);
    expect([table.available(0, u), table.frozen(0, u)]).toEqual([6n, 4n]);
    // The available part alone would do; the frozen part would not: neither happens.
    expect(table.move(0, u, 5, -5)).toBe(false);
    expect(table.move(0, u, -6, -5)).toBe(false);
    expect([table.available(0, u), table.frozen(0, u)]).toEqual([6n, 4n]);

    expect(table.setFrozen(0, u, LIMBS_MAX_BIG)).toBe(true);
    expect(table.move(0, u, -1, 1)).toBe(false);
    expect([table.available(0, u), table.frozen(0, u)]).toEqual([6n, LIMBS_MAX_BIG]);
    expect(table.setAvailable(0, u, LIMBS_MAX_BIG - 1n)).toBe(true);
    expect(table.move(0, u, 2, -2)).toBe(false);
    expect(table.move(0, u, 1, -2)).toBe(true);
    expect(table.hasAvailable(0, u, SAFE_MAX)).toBe(true);

    expect(table.setAvailable(0, u, -1n)).toBe(false);
    expect(table.setFrozen(0, o, -1n)).toBe(false);
    expect(table.setAvailable(0, o, LIMBS_MIN_BIG)).toBe(true);
    expect(table.setAvailable(0, o, LIMBS_MIN_BIG - 1n)).toBe(false);
    expect(table.move(0, o, -1, 0)).toBe(false);
    expect(table.available(0, o)).toBe(LIMBS_MIN_BIG);
    expect(table.hasAvailable(0, o, -SAFE_MAX)).toBe(false);
  });

  it('keeps every value across holder blocks and assets added, no cell moving', () => {
    const table = new BalanceTable();
    const expected = (h: number, a: number, k: number, frozen: boolean) =>
      (BigInt(h) * 1_000_003n + BigInt(a) * 101n + BigInt(k) * 7n + (frozen ? 1n : 0n)) *
      (h % 3 === 0 ? 2n ** 40n : 1n);
    const fill = (h: number, a: number) => {
      for (const k of KINDS) {
        const cell = table.cell(h, k);
        const ok =
          table.isZero(a, cell) &&
          table.setAvailable(a, cell, expected(h, a, k, false)) &&
          table.setFrozen(a, cell, expected(h, a, k, true));
        if (!ok) expect.fail(`cannot fill ${h}/${a}/${k}`);
      }
    };
    /** Every cell holds its value, except those of an asset just added, which are zero. */
    const check = (filledAssets = table.assetCount) => {
      // Mismatches are collected and compared once: an expect per cell would take seconds.
      const wrong: string[] = [];
      const seen = new Set<number>();
      for (let h = 0; h < table.holderCount; h++) {
        for (const k of KINDS) {
          const cell = table.cell(h, k);
          for (let a = 0; a < table.assetCount; a++) {
            const filled = a < filledAssets;
            const ok =
              cell % CELL_WIDTH === 0 &&
              cell + CELL_WIDTH <= table.valuesOf(a).length &&
              table.available(a, cell) === (filled ? expected(h, a, k, false) : 0n) &&
              limbsToBigInt(table.valuesOf(a), cell + CELL_FROZEN) ===
                (filled ? expected(h, a, k, true) : 0n);
            if (!ok) wrong.push(`${h}/${a}/${k}`);
          }
          seen.add(cell);
        }
      }
      expect(wrong).toEqual([]);
      // A cell per holder and kind, the same in every asset's array.
      expect(seen.size).toBe(table.holderCount * ACCOUNT_KINDS.length);
    };

    table.addAsset();
    const before = table.addHolder(false);
    fill(before, 0);
    const first = table.valuesOf(0);
    const cellBefore = table.cell(before, 1);
    // An asset added leaves every other asset's array as it was.
    table.addAsset();
    expect(table.valuesOf(0)).toBe(first);
    expect(table.cell(before, 1)).toBe(cellBefore);
    expect(table.available(0, cellBefore)).toBe(expected(before, 0, 1, false));
    table.addHolder(false);
    fill(before + 1, 0);
    fill(before, 1);
    fill(before + 1, 1);
    for (let i = 0; i < 998; i++) {
      const h = table.addHolder(i % 7 === 0);
      for (let a = 0; a < table.assetCount; a++) fill(h, a);
    }
    // Holders within the first block's room: the arrays stay.
    expect(table.valuesOf(0)).toBe(first);
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
    // Past the first block's holders: a block added at the end of every array.
    const lastCell = table.cell(table.holderCount - 1, 2);
    for (let i = 0; i < 2300; i++) {
      const h = table.addHolder(false);
      for (let a = 0; a < table.assetCount; a++) fill(h, a);
    }
    expect(table.cell(1899, 2)).toBe(lastCell);
    check();
    for (let i = 0; i < 16; i++) {
      const asset = table.addAsset();
      expect(table.valuesOf(asset).length).toBe(table.valuesOf(0).length);
      if (i === 15) check(asset);
      for (let h = 0; h < table.holderCount; h++) fill(h, asset);
    }
    check();
    expect(table.holderCount).toBe(4200);
    expect(table.assetCount).toBe(33);
    for (let h = 0; h < table.holderCount; h++) {
      expect(table.mayGoNegative(h)).toBe(h >= 2 && h < 1000 && (h - 2) % 7 === 0);
    }
    // A cell past the first block names its holder for the below-zero check.
    const far = table.addHolder(true);
    expect(table.setAvailable(20, table.cell(far, 1), -5n)).toBe(true);
    expect(table.available(20, table.cell(far, 1))).toBe(-5n);
    expect(table.setAvailable(20, table.cell(far - 1, 1), -5n)).toBe(false);
  }, 30_000);
});
