// The fast path against plain bigint arithmetic: equal wherever it answers, and it answers
// whenever every quantity involved is a safe integer.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ceilDiv } from './bigmath.js';
import {
  buyFreezeN,
  ceilDivN,
  DealRatios,
  exactQuotientN,
  FillAmounts,
  fillAmounts,
  floorDivN,
  mulSafe,
  positiveSafeOf,
  SAFE_MAX,
  SAFE_MAX_BIG,
  toSafe,
} from './fastmath.js';

const MAX = SAFE_MAX;
/** Safe integers, biased toward the edges (0, 1, near 2^53, near powers of ten). */
const safeInt = (min = 0) =>
  fc.oneof(
    fc.integer({ min, max: 1000 }),
    fc.integer({ min, max: 10 ** 7 }),
    fc.integer({ min: Math.max(min, MAX - 1000), max: MAX }),
    fc.constantFrom(...[1, 2, 10 ** 8, 10 ** 15, 2 ** 52, MAX].filter((v) => v >= min)),
    fc.maxSafeNat().filter((v) => v >= min),
  );
const RUNS = { numRuns: 5000 };

describe('safe-integer helpers', () => {
  it('divide exactly like bigint, rounding down and up', () => {
    fc.assert(
      fc.property(safeInt(), safeInt(1), (a, b) => {
        expect(BigInt(floorDivN(a, b))).toBe(BigInt(a) / BigInt(b));
        expect(BigInt(ceilDivN(a, b))).toBe(ceilDiv(BigInt(a), BigInt(b)));
      }),
      RUNS,
    );
  });

  it('divide exactly where the quotient is a hair from an integer, near 2^53', () => {
    // The rounded quotient comes closest to an integer when a is one away from a multiple of b.
    for (const b of [2, 3, 7, 10 ** 6 + 3, 2 ** 26 + 1, 10 ** 8, 2 ** 40 - 87, MAX - 1, MAX]) {
      const top = Number((BigInt(MAX) / BigInt(b)) * BigInt(b));
      for (const a of [top - 1, top, top + 1, top - b + 1, b - 1, b, b + 1]) {
        if (a < 0 || a > MAX) continue;
        expect(BigInt(floorDivN(a, b))).toBe(BigInt(a) / BigInt(b));
        expect(BigInt(ceilDivN(a, b))).toBe(ceilDiv(BigInt(a), BigInt(b)));
      }
    }
  });

  it('give a quotient exactly when it is an integer, as bigint remainders say', () => {
    const expected = (a: number, b: number) =>
      BigInt(a) % BigInt(b) === 0n ? BigInt(a) / BigInt(b) : -1n;
    fc.assert(
      fc.property(safeInt(), safeInt(1), (a, b) => {
        expect(BigInt(exactQuotientN(a, b))).toBe(expected(a, b));
        // A multiple of b below 2^53 divides exactly, and one away from it does not (b > 1).
        const multiple = Number((BigInt(a) / BigInt(b)) * BigInt(b));
        expect(BigInt(exactQuotientN(multiple, b))).toBe(BigInt(multiple) / BigInt(b));
        if (b > 1 && multiple + 1 <= MAX) expect(exactQuotientN(multiple + 1, b)).toBe(-1);
        if (b > 1 && multiple >= 1) expect(exactQuotientN(multiple - 1, b)).toBe(-1);
      }),
      RUNS,
    );
  });

  it('read a positive (or, toSafe, non-negative) safe bigint as Number does, and nothing else', () => {
    const expected = (v: bigint) => (v > 0n && v <= SAFE_MAX_BIG ? Number(v) : -1);
    const expectedSafe = (v: bigint) => (v >= 0n && v <= SAFE_MAX_BIG ? Number(v) : -1);
    const check = (v: bigint) => {
      expect(positiveSafeOf(v)).toBe(expected(v));
      expect(toSafe(v)).toBe(expectedSafe(v));
    };
    const edges = [0n, 1n, -1n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 32n + 1n, SAFE_MAX_BIG - 1n];
    for (const base of [SAFE_MAX_BIG, 2n ** 63n, 2n ** 64n, 2n ** 96n, 2n ** 128n]) {
      for (const d of [-2n, -1n, 0n, 1n, 2n, 5n, SAFE_MAX_BIG]) edges.push(base + d, -base + d);
    }
    for (const v of edges) check(v);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
          fc.bigInt({ min: 0n, max: 2n ** 54n }),
          // A positive safe value plus a multiple of 2^64: the same low 64 bits.
          fc
            .tuple(safeInt(), fc.bigInt({ min: -4n, max: 4n }))
            .map(([n, k]) => BigInt(n) + k * 2n ** 64n),
        ),
        (v) => check(v),
      ),
      RUNS,
    );
  });

  it('multiply exactly or report that the product is not safe', () => {
    fc.assert(
      fc.property(safeInt(), safeInt(), (a, b) => {
        const exact = BigInt(a) * BigInt(b);
        const p = mulSafe(a, b);
        if (exact <= SAFE_MAX_BIG) expect(BigInt(p)).toBe(exact);
        else expect(p).toBe(-1);
      }),
      RUNS,
    );
    expect(mulSafe(2 ** 26, 2 ** 27)).toBe(-1);
    expect(mulSafe(2 ** 26, 2 ** 27 - 1)).toBe(2 ** 53 - 2 ** 26);
    // A failed product fed to the next (buyFreezeN chains them) stays a failure, even times 0.
    for (const b of [0, 1, 3, 2 ** 52]) {
      expect(mulSafe(-1, b)).toBe(-1);
      expect(mulSafe(b, -1)).toBe(-1);
    }
  });

  it('convert bigints only in the safe range', () => {
    expect(toSafe(SAFE_MAX_BIG)).toBe(MAX);
    expect(toSafe(SAFE_MAX_BIG + 1n)).toBe(-1);
    expect(toSafe(-1n)).toBe(-1);
    expect(toSafe(0n)).toBe(0);
  });
});

/** The bigint formulas of settle.ts and lifecycle.ts, written out plainly. */
function referenceFill(
  tickSize: bigint,
  scale: bigint,
  amount: bigint,
  ticks: bigint,
  moneyNum: bigint,
  feeNum: bigint,
  buyerPpm: bigint,
  sellerPpm: bigint,
) {
  const feeScale = scale * 1_000_000n;
  const num = amount * ticks * tickSize;
  const gross = num / scale;
  const paidBefore = ceilDiv(moneyNum, scale);
  const paidTotal = ceilDiv(moneyNum + num, scale);
  const feeBefore = ceilDiv(feeNum, feeScale);
  const buyerFeeTotal = ceilDiv(feeNum + num * buyerPpm, feeScale);
  let sellerFee = ceilDiv(num * sellerPpm, feeScale);
  if (sellerFee > gross) sellerFee = gross;
  return {
    gross,
    paidTotal,
    paid: paidTotal - paidBefore,
    buyerFeeTotal,
    buyerFee: buyerFeeTotal - feeBefore,
    sellerFee,
    moneyNum: moneyNum + num,
    feeNum: feeNum + num * buyerPpm,
  };
}

const market = fc.record({
  tickExp: fc.integer({ min: 0, max: 18 }),
  tickMantissa: fc.constantFrom(1n, 2n, 5n, 25n, 3n, 7n),
  decimals: fc.integer({ min: 0, max: 18 }),
  makerPpm: fc.constantFrom(0, 1, 500, 1000, 2000, 2500, 999_999, 1_000_000),
  takerPpm: fc.constantFrom(0, 1, 1000, 2000, 3333, 1_000_000),
});

describe('fill amounts', () => {
  it('equal the bigint computation whenever the fast path answers', () => {
    let answered = 0;
    fc.assert(
      fc.property(
        market,
        safeInt(1),
        safeInt(1),
        safeInt(),
        safeInt(),
        fc.boolean(),
        (mk, lots, ticks, moneyUnits, feeUnits, takerBuys) => {
          const tickSize = mk.tickMantissa * 10n ** BigInt(mk.tickExp);
          const scale = 10n ** BigInt(mk.decimals);
          const r = DealRatios.of(tickSize, scale, mk.makerPpm, mk.takerPpm);
          if (r === null) return;
          const buyerPpm = BigInt(takerBuys ? mk.takerPpm : mk.makerPpm);
          const sellerPpm = BigInt(takerBuys ? mk.makerPpm : mk.takerPpm);
          const out = new FillAmounts();
          const lotsTicks = mulSafe(lots, ticks);
          const buyerRate = takerBuys ? r.takerRate : r.makerRate;
          const sellerRate = takerBuys ? r.makerRate : r.takerRate;
          const ok =
            lotsTicks >= 0 &&
            fillAmounts(r, lotsTicks, moneyUnits, feeUnits, buyerRate, sellerRate, out);
          const ref = referenceFill(
            tickSize,
            scale,
            BigInt(lots),
            BigInt(ticks),
            BigInt(moneyUnits) * r.moneyUnit,
            BigInt(feeUnits) * r.feeUnit,
            buyerPpm,
            sellerPpm,
          );
          if (!ok) {
            // It may decline only when some quantity it would hold is not a safe integer.
            const lt = BigInt(lots) * BigInt(ticks);
            const perRate = lt * BigInt(r.feeP);
            const held = [
              lt,
              lt * BigInt(r.valueP),
              perRate,
              perRate * BigInt(Math.max(buyerRate, sellerRate)),
              ref.moneyNum / r.moneyUnit,
              ref.feeNum / r.feeUnit,
            ];
            expect(held.some((v) => v > SAFE_MAX_BIG)).toBe(true);
            return;
          }
          answered++;
          expect(BigInt(out.gross)).toBe(ref.gross);
          expect(BigInt(out.paidTotal)).toBe(ref.paidTotal);
          expect(BigInt(out.paid)).toBe(ref.paid);
          expect(BigInt(out.buyerFeeTotal)).toBe(ref.buyerFeeTotal);
          expect(BigInt(out.buyerFee)).toBe(ref.buyerFee);
          expect(BigInt(out.sellerFee)).toBe(ref.sellerFee);
          expect(BigInt(out.moneyUnits) * r.moneyUnit).toBe(ref.moneyNum);
          expect(BigInt(out.feeUnits) * r.feeUnit).toBe(ref.feeNum);
        },
      ),
      RUNS,
    );
    expect(answered).toBeGreaterThan(300);
  });

  it('take the bench market fast for a whole coin at a high price', () => {
    const r = DealRatios.of(1_000_000n, 10n ** 8n, 1000, 2000)!;
    const out = new FillAmounts();
    expect(fillAmounts(r, 10 ** 8 * 10 ** 6, 0, 0, r.takerRate, r.makerRate, out)).toBe(true);
    expect(out.gross).toBe(10 ** 12);
    expect(out.buyerFee).toBe(2 * 10 ** 9);
    expect(out.sellerFee).toBe(10 ** 9);
  });
});

describe('buy freeze', () => {
  it('equals the bigint computation whenever the fast path answers', () => {
    fc.assert(
      fc.property(market, safeInt(1), safeInt(1), (mk, lots, ticks) => {
        const tickSize = mk.tickMantissa * 10n ** BigInt(mk.tickExp);
        const scale = 10n ** BigInt(mk.decimals);
        const r = DealRatios.of(tickSize, scale, mk.makerPpm, mk.takerPpm);
        if (r === null) return;
        const need = buyFreezeN(r, mulSafe(lots, ticks));
        const num = BigInt(lots) * BigInt(ticks) * tickSize;
        const maxPpm = BigInt(Math.max(mk.makerPpm, mk.takerPpm));
        const ref = ceilDiv(num, scale) + ceilDiv(num * maxPpm, scale * 1_000_000n);
        if (need >= 0) expect(BigInt(need)).toBe(ref);
        else expect(BigInt(lots) * BigInt(ticks) * maxPpm > 0n || ref > 0n).toBe(true);
      }),
      RUNS,
    );
  });

  it('leaves a freeze past 2^53 to bigint, though its value and its fee each are safe', () => {
    // A tick of one unit of a stock of no decimals: the value is lots × ticks; a fee of 0.2%.
    const r = DealRatios.of(1n, 1n, 0, 2000)!;
    expect(buyFreezeN(r, 8 * 10 ** 15)).toBe(8 * 10 ** 15 + 16 * 10 ** 12);
    expect(buyFreezeN(r, 9 * 10 ** 15)).toBe(-1);
  });
});
