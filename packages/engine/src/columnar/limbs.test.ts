// Limb arithmetic against plain bigint: every operation agrees over random values biased to
// the edges (0, ±1, around 2^52 and 2^53, near both ends of the range), and whatever would
// leave the range is refused with the stored value unchanged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SAFE_MAX } from '../fastmath.js';
import {
  addToLimbs,
  compareLimbs,
  fitsLimbs,
  LIMB,
  LIMB_HI_MAX,
  LIMBS_MAX_BIG,
  LIMBS_MIN_BIG,
  limbsAreSafe,
  limbsAtLeast,
  limbsSign,
  limbsToBigInt,
  limbsToNumber,
  setLimbs,
} from './limbs.js';

const B52 = 2n ** 52n;
const SAFE = BigInt(SAFE_MAX);
/** The range written out from its definition, independent of the module's constants. */
const MAX = 2n ** 104n - 1n;
const MIN = -(2n ** 104n) + B52;
const inRange = (v: bigint) => v >= MIN && v <= MAX;
const RUNS = { numRuns: 5000 };

const VALUE_EDGES = [
  0n,
  1n,
  -1n,
  B52 - 1n,
  B52,
  B52 + 1n,
  -(B52 - 1n),
  -B52,
  -(B52 + 1n),
  SAFE,
  SAFE + 1n,
  -SAFE,
  -SAFE - 1n,
  2n ** 103n,
  -(2n ** 103n),
  2n ** 84n,
  -(2n ** 84n),
  MAX,
  MAX - 1n,
  MAX - B52,
  MIN,
  MIN + 1n,
  MIN + B52 - 1n,
];

/** Values in the range, biased to the edges and to the limb boundaries (carries, borrows). */
const value = fc.oneof(
  fc.constantFrom(...VALUE_EDGES),
  fc.bigInt({ min: -1000n, max: 1000n }),
  fc
    .tuple(fc.bigInt({ min: -(2n ** 52n), max: 2n ** 52n }), fc.bigInt({ min: -3n, max: 3n }))
    .map(([k, d]) => k * B52 + d)
    .filter(inRange),
  fc.bigInt({ min: MAX - 2n ** 54n, max: MAX }),
  fc.bigInt({ min: MIN, max: MIN + 2n ** 54n }),
  fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
  fc.bigInt({ min: MIN, max: MAX }),
);

const SAFE_EDGES = [
  0,
  1,
  -1,
  LIMB - 1,
  LIMB,
  LIMB + 1,
  -(LIMB - 1),
  -LIMB,
  -(LIMB + 1),
  2 ** 32,
  -(2 ** 32),
  SAFE_MAX,
  SAFE_MAX - 1,
  -SAFE_MAX,
  -SAFE_MAX + 1,
];

/** Safe integers, biased the same way. */
const safeInt = fc.oneof(
  fc.constantFrom(...SAFE_EDGES),
  fc.integer({ min: -1000, max: 1000 }),
  fc.integer({ min: -(2 ** 34), max: 2 ** 34 }),
  fc.integer({ min: SAFE_MAX - 2 ** 34, max: SAFE_MAX }),
  fc.integer({ min: -SAFE_MAX, max: -SAFE_MAX + 2 ** 34 }),
  fc.maxSafeInteger(),
);

/** Limbs sit at AT inside other numbers, which no operation may touch. */
const AT = 3;
const SENTINEL = 0.5;

/** The canonical limbs of v by bigint floor division. */
function limbsOf(v: bigint): [number, number] {
  const hi = v >= 0n ? v / B52 : -((-v + B52 - 1n) / B52);
  return [Number(hi), Number(v - hi * B52)];
}

function stored(v: bigint): Float64Array {
  const a = new Float64Array(AT + 5).fill(SENTINEL);
  const [hi, lo] = limbsOf(v);
  a[AT] = hi;
  a[AT + 1] = lo;
  return a;
}

/** The limbs hold v in canonical form and the numbers around them are untouched. */
function expectHolds(a: Float64Array, v: bigint): void {
  const [hi, lo] = limbsOf(v);
  expect([a[AT], a[AT + 1]]).toEqual([hi, lo]);
  a.forEach((x, i) => {
    if (i !== AT && i !== AT + 1) expect(x).toBe(SENTINEL);
  });
}

describe('the range', () => {
  it('is hi × 2^52 + lo with |hi| ≤ 2^52 − 1 and 0 ≤ lo < 2^52', () => {
    expect(LIMB).toBe(2 ** 52);
    expect(LIMB_HI_MAX).toBe(2 ** 52 - 1);
    expect(LIMBS_MAX_BIG).toBe(MAX);
    expect(LIMBS_MIN_BIG).toBe(MIN);
    for (const v of [MIN, MAX, 0n]) expect(fitsLimbs(v)).toBe(true);
    for (const v of [MIN - 1n, MAX + 1n, 2n ** 104n, -(2n ** 104n)])
      expect(fitsLimbs(v)).toBe(false);
  });

  it('stores and reads bigints exactly, refusing those out of range', () => {
    const anyBig = fc.oneof(
      value,
      fc.bigInt({ min: MIN - 2n ** 40n, max: MIN - 1n }),
      fc.bigInt({ min: MAX + 1n, max: MAX + 2n ** 40n }),
    );
    fc.assert(
      fc.property(anyBig, value, (v, before) => {
        const a = stored(before);
        expect(fitsLimbs(v)).toBe(inRange(v));
        expect(setLimbs(a, AT, v)).toBe(inRange(v));
        expectHolds(a, inRange(v) ? v : before);
        expect(limbsToBigInt(a, AT)).toBe(inRange(v) ? v : before);
      }),
      RUNS,
    );
  });
});

describe('addToLimbs', () => {
  it('adds exactly like bigint, or refuses a sum out of range and changes nothing', () => {
    fc.assert(
      fc.property(value, safeInt, (v, delta) => {
        const a = stored(v);
        const sum = v + BigInt(delta);
        expect(addToLimbs(a, AT, delta)).toBe(inRange(sum));
        expectHolds(a, inRange(sum) ? sum : v);
      }),
      RUNS,
    );
  });

  it('carries and borrows across the limbs', () => {
    const cases: [bigint, number][] = [
      [B52 - 1n, 1],
      [0n, -1],
      [B52, -1],
      [-1n, 1],
      [-B52, -1],
      [-(B52 + 1n), 1],
      [B52 - 1n, SAFE_MAX],
      [-(B52 - 1n), -SAFE_MAX],
      [SAFE, -SAFE_MAX],
      [-SAFE, SAFE_MAX],
      [5n * B52 + 7n, -(LIMB + 8)],
      [2n * B52 + 7n, -SAFE_MAX],
      [-(2n * B52), SAFE_MAX],
    ];
    for (const [v, delta] of cases) {
      const a = stored(v);
      expect(addToLimbs(a, AT, delta)).toBe(true);
      expectHolds(a, v + BigInt(delta));
    }
  });

  it('refuses at both ends of the range', () => {
    const cases: [bigint, number][] = [
      [MAX, 1],
      [MAX, SAFE_MAX],
      [MAX - SAFE + 1n, SAFE_MAX],
      [MIN, -1],
      [MIN, -SAFE_MAX],
      [MIN + B52 - 1n, -LIMB],
    ];
    for (const [v, delta] of cases) {
      const a = stored(v);
      expect(addToLimbs(a, AT, delta)).toBe(false);
      expectHolds(a, v);
    }
    const a = stored(MAX - SAFE);
    expect(addToLimbs(a, AT, SAFE_MAX)).toBe(true);
    expectHolds(a, MAX);
  });

  it('accumulates a run of deltas like bigint', () => {
    fc.assert(
      fc.property(value, fc.array(safeInt, { maxLength: 40 }), (start, deltas) => {
        const a = stored(start);
        let model = start;
        for (const delta of deltas) {
          const sum = model + BigInt(delta);
          expect(addToLimbs(a, AT, delta)).toBe(inRange(sum));
          if (inRange(sum)) model = sum;
        }
        expectHolds(a, model);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('reading limbs', () => {
  it('gives the sign and compares with safe integers like bigint', () => {
    const sign = (x: bigint) => (x < 0n ? -1 : x > 0n ? 1 : 0);
    fc.assert(
      fc.property(value, safeInt, (v, n) => {
        const a = stored(v);
        expect(limbsSign(a, AT)).toBe(sign(v));
        expect(compareLimbs(a, AT, n)).toBe(sign(v - BigInt(n)));
        expect(limbsAtLeast(a, AT, n)).toBe(v >= BigInt(n));
      }),
      RUNS,
    );
    // Equal values and neighbours across the limb boundary, where only lo decides.
    for (const n of SAFE_EDGES) {
      for (const d of [-1n, 0n, 1n]) {
        const a = stored(BigInt(n) + d);
        expect(compareLimbs(a, AT, n)).toBe(Number(d));
        expect(limbsAtLeast(a, AT, n)).toBe(d >= 0n);
      }
    }
  });

  it('tells whether the value is a safe integer, and gives it exactly', () => {
    const safeValue = fc.oneof(value, fc.bigInt({ min: -SAFE - 2n, max: SAFE + 2n }));
    fc.assert(
      fc.property(safeValue, (v) => {
        const a = stored(v);
        const safe = v >= -SAFE && v <= SAFE;
        expect(limbsAreSafe(a, AT)).toBe(safe);
        if (safe) expect(limbsToNumber(a, AT)).toBe(Number(v));
      }),
      RUNS,
    );
  });
});
