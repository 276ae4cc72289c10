// The checked fast path: deal arithmetic in safe-integer numbers, exact or not taken.
//
// A fill of `amount` at a price of `ticks` ticks is worth amount × ticks × tickSize / scale
// money minor units; its fee is that × rate / 10^6. Reduced once per market to fractions of
// small integers, both become (amount × ticks) × P / Q. Every number here is an integer below
// 2^53, which a double holds exactly, and the operations used keep it so: a product is taken
// only after a bound check shows it stays ≤ 2^53 − 1, and a quotient's floor is exact (below).
// When a bound fails, the caller falls back to bigint; fastmath.test.ts compares both ways over
// random and edge values.

// NOTE: the literal, not Number.MAX_SAFE_INTEGER: the bundler puts a literal in place of the name
// (docs/decisions/inlined-layout-constants.md).
export const SAFE_MAX = 9007199254740991;
export const SAFE_MAX_BIG = BigInt(SAFE_MAX);

/**
 * floor(a / b) for safe integers a ≥ 0 and b > 0. Exact: when b divides a, the quotient is an
 * integer below 2^53 and a / b returns it. Otherwise the exact quotient is at least 1/b from
 * every integer, and rounding moves it by at most half an ulp, which is at most
 * (a / b) × 2^-53 < 1/b because a < 2^53: the rounded quotient stays strictly between the same
 * two integers, and its floor is the exact one.
 */
export function floorDivN(a: number, b: number): number {
  // NOTE: not a % b, which V8 computes for doubles by calling a C function: the division and
  // floor are instructions. The fills' settlement takes three or four of these per fill.
  return Math.floor(a / b);
}

/**
 * ceil(a / b) for safe integers a ≥ 0 and b > 0: exact by floorDivN's argument, since the
 * rounded quotient stays strictly between the same two integers as the exact one.
 */
export function ceilDivN(a: number, b: number): number {
  // NOTE: kept under V8's 27 bytes of bytecode, below which a function is always inlined. A
  // call that is not inlined boxes each number beyond 2^31 it passes or returns: written as a
  // floor and a check that the product gives a back (44 bytes), the settlement's calls were not
  // all inlined, and the engine allocated 33 more bytes per operation on the bench's workload.
  return Math.ceil(a / b);
}

/**
 * a / b when b divides a, else -1, for safe integers a ≥ 0 and b > 0: the quotient is an
 * integer exactly when b divides a, by floorDivN's argument (rounding never makes a quotient
 * that is not an integer into one). The checks of a price's tick and an amount's lot use it.
 */
export function exactQuotientN(a: number, b: number): number {
  const q = a / b;
  return q === Math.floor(q) ? q : -1;
}

/** a × b when both are safe integers ≥ 0 and the product is one too, else -1. */
export function mulSafe(a: number, b: number): number {
  if (a < 0 || b < 0) return -1;
  // NOTE: a rounded product above the limit means the exact one is above it too.
  const p = a * b;
  return p <= SAFE_MAX ? p : -1;
}

// A bigint's low 64 bits as two 32-bit words, in the platform's byte order.
const int64 = new BigInt64Array(1);
const int64Words = new Int32Array(int64.buffer);
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HIGH_WORD = littleEndian ? 1 : 0;
const LOW_WORD = 1 - HIGH_WORD;

/**
 * The number of a bigint in [1, 2^53), else -1: what Number(v) gives when that is a positive
 * safe integer. Exact: a bigint in [-2^63, 2^63) is stored whole and read back as its two
 * words, high × 2^32 + low, which rounds monotonically, so that v past 2^53 − 1 reads past it
 * too; a bigint outside that range is told by BigInt.asIntN(64, v) differing from it.
 */
export function positiveSafeOf(v: bigint): number {
  // NOTE: not Number(v), which V8 computes for a bigint by calling into its runtime: 30 to
  // 58 ns a call in a scratch loop under Node 20 and 24, against 12 to 23 for this, whose
  // store and reads the optimising compiler inlines. Every order's price and amount come here.
  int64[0] = v;
  const n = int64Words[HIGH_WORD]! * 2 ** 32 + (int64Words[LOW_WORD]! >>> 0);
  return n > 0 && n <= SAFE_MAX && BigInt.asIntN(64, v) === v ? n : -1;
}

/** The number of a bigint in [0, 2^53), else -1 (the caller then takes the bigint path). */
export function toSafe(v: bigint): number {
  return v === 0n ? 0 : positiveSafeOf(v);
}

function gcdBig(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/**
 * A market's fractions for the fast path. Money numerators (Σ amount × price) are counted in
 * `moneyUnit`s and fee numerators (Σ amount × price × ppm) in `feeUnit`s; every such sum is a
 * multiple of its unit because each price is a multiple of the tick and each rate one of
 * `rateGcd`.
 */
export class DealRatios {
  constructor(
    /** amount × ticks × valueP / valueQ is the deal value in money minor units. */
    readonly valueP: number,
    readonly valueQ: number,
    readonly moneyUnit: bigint,
    /** amount × ticks × (rate / rateGcd) × feeP / feeQ is the fee in money minor units. */
    readonly feeP: number,
    readonly feeQ: number,
    readonly feeUnit: bigint,
    /** The rates divided by their common divisor. */
    readonly makerRate: number,
    readonly takerRate: number,
    readonly maxRate: number,
  ) {}

  /** The ratios of a market, or null when one of them is not a safe integer. */
  static of(
    tickSize: bigint,
    scale: bigint,
    makerPpm: number,
    takerPpm: number,
  ): DealRatios | null {
    const rateGcd =
      makerPpm === 0 && takerPpm === 0 ? 1n : gcdBig(BigInt(makerPpm), BigInt(takerPpm));
    const moneyUnit = gcdBig(tickSize, scale);
    const feeTop = tickSize * rateGcd;
    const feeBottom = scale * 1_000_000n;
    const feeUnit = gcdBig(feeTop, feeBottom);
    const parts = [tickSize / moneyUnit, scale / moneyUnit, feeTop / feeUnit, feeBottom / feeUnit];
    if (parts.some((p) => p > SAFE_MAX_BIG)) return null;
    const [valueP, valueQ, feeP, feeQ] = parts.map(Number) as [number, number, number, number];
    const maker = Number(BigInt(makerPpm) / rateGcd);
    const taker = Number(BigInt(takerPpm) / rateGcd);
    return new DealRatios(
      valueP,
      valueQ,
      moneyUnit,
      feeP,
      feeQ,
      feeUnit,
      maker,
      taker,
      Math.max(maker, taker),
    );
  }
}

/** What one fill moves, in money minor units (see settle.ts for what each one means). */
export class FillAmounts {
  gross = 0;
  paidTotal = 0;
  paid = 0;
  buyerFeeTotal = 0;
  buyerFee = 0;
  sellerFee = 0;
  /** The buyer order's new money and fee numerators, in their units. */
  moneyUnits = 0;
  feeUnits = 0;
}

/**
 * One fill's amounts in numbers, into `out`; false (and `out` unspecified) when a bound fails.
 * `lotsTicks` is amount × ticks; the buyer's numerators so far are in the ratios' units.
 */
export function fillAmounts(
  r: DealRatios,
  lotsTicks: number,
  buyerMoneyUnits: number,
  buyerFeeUnits: number,
  buyerRate: number,
  sellerRate: number,
  out: FillAmounts,
): boolean {
  const value = mulSafe(lotsTicks, r.valueP);
  const perRate = mulSafe(lotsTicks, r.feeP);
  const buyerFeeNum = mulSafe(perRate, buyerRate);
  const sellerFeeNum = mulSafe(perRate, sellerRate);
  if (value < 0 || buyerFeeNum < 0 || sellerFeeNum < 0) return false;
  const moneyUnits = buyerMoneyUnits + value;
  const feeUnits = buyerFeeUnits + buyerFeeNum;
  if (buyerMoneyUnits < 0 || buyerFeeUnits < 0 || moneyUnits > SAFE_MAX || feeUnits > SAFE_MAX) {
    return false;
  }
  out.gross = floorDivN(value, r.valueQ);
  out.paidTotal = ceilDivN(moneyUnits, r.valueQ);
  out.paid = out.paidTotal - ceilDivN(buyerMoneyUnits, r.valueQ);
  out.buyerFeeTotal = ceilDivN(feeUnits, r.feeQ);
  out.buyerFee = out.buyerFeeTotal - ceilDivN(buyerFeeUnits, r.feeQ);
  const sellerFee = ceilDivN(sellerFeeNum, r.feeQ);
  out.sellerFee = sellerFee > out.gross ? out.gross : sellerFee;
  out.moneyUnits = moneyUnits;
  out.feeUnits = feeUnits;
  return true;
}

/**
 * What a buy of amount × ticks must freeze: its value rounded up plus the fee at the higher
 * rate rounded up; -1 when a bound fails.
 */
export function buyFreezeN(r: DealRatios, lotsTicks: number): number {
  const value = mulSafe(lotsTicks, r.valueP);
  const fee = mulSafe(mulSafe(lotsTicks, r.feeP), r.maxRate);
  if (value < 0 || fee < 0) return -1;
  const need = ceilDivN(value, r.valueQ) + ceilDivN(fee, r.feeQ);
  return need <= SAFE_MAX ? need : -1;
}
