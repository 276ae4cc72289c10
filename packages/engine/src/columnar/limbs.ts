// Exact integers beyond 2^53 without bigint: a value is two limbs in a Float64Array,
// a[at] × 2^52 + a[at + 1], the low limb an integer in [0, 2^52), the high limb an integer with
// |hi| ≤ LIMB_HI_MAX. Each value has exactly one such form (hi = floor(value / 2^52)), so limbs
// compare like the values and an undone addition restores the same bits.
// NOTE: the low limb is as wide as it can be and stay exact when added to: a balance below 2^52
// (45 million USDT in 8 decimals) is one number, and a delta changes only it but for a carry
// once in 2^52 / |delta| additions. With a 2^32 limb, a delta of 2^32 or more (most trades' money
// on the bench, up to 10^11 minor units) always took the carrying path.
//
// Why every step is exact: a double holds every integer of magnitude ≤ 2^53, and an operation
// whose exact result is such an integer returns it unrounded. Multiplying or dividing by 2^52
// only changes the exponent, and Math.floor of a double is exact. The bound on hi keeps hi plus
// a delta's high part plus a carry below 2^53.
// NOTE: this module imports nothing, so that the bundler puts LIMB and LIMB_HI_MAX in place of
// their names (docs/decisions/inlined-layout-constants.md).

/** The weight of the high limb: 2^52. */
export const LIMB = 2 ** 52;
/** The bound on |hi|, so the values span (−2^104, 2^104). */
export const LIMB_HI_MAX = 2 ** 52 - 1;

const LIMB_BIG = 2n ** 52n;
const LO_MASK_BIG = LIMB_BIG - 1n;
/** The extreme values: hi = ±LIMB_HI_MAX with lo at its largest and smallest (0). */
export const LIMBS_MAX_BIG = BigInt(LIMB_HI_MAX) * LIMB_BIG + LO_MASK_BIG;
export const LIMBS_MIN_BIG = -BigInt(LIMB_HI_MAX) * LIMB_BIG;

/**
 * Add a safe integer delta (|delta| ≤ 2^53 − 1); false, with the value unchanged, when the
 * sum would leave the limbs' range. Allocates nothing.
 */
export function addToLimbs(a: Float64Array, at: number, delta: number): boolean {
  const lo = a[at + 1]! + delta;
  // Most deltas stay within the low limb. The sum may round, but rounding is monotone and
  // 0 and 2^52 are doubles: a rounded sum in [0, 2^52) means the exact one is there too, so
  // it is an integer below 2^53 and was not rounded. The high limb does not change.
  if (lo >= 0 && lo < LIMB) {
    a[at + 1] = lo;
    return true;
  }
  return addCarrying(a, at, delta);
}

/**
 * addToLimbs when the sum leaves the low limb: rare, and apart so that addToLimbs stays small
 * enough to be inlined wherever a balance moves (see ceilDivN in fastmath.ts).
 */
function addCarrying(a: Float64Array, at: number, delta: number): boolean {
  // Split the delta as the value is split: deltaHi = floor(delta / 2^52) (exact: a power-of-two
  // division, then floor), deltaLo = delta − deltaHi × 2^52, an integer in [0, 2^52) (the
  // product is exact, and so is a difference that is such an integer).
  const deltaHi = Math.floor(delta / LIMB);
  const deltaLo = delta - deltaHi * LIMB;
  // Both low limbs are in [0, 2^52), so their sum is in [0, 2^53): exact, carry 0 or 1.
  let newLo = a[at + 1]! + deltaLo;
  const carry = newLo >= LIMB ? 1 : 0;
  newLo -= carry * LIMB;
  // |hi| < 2^52 and |deltaHi| ≤ 2, so this sum is below 2^53: exact.
  const newHi = a[at]! + deltaHi + carry;
  if (newHi > LIMB_HI_MAX || newHi < -LIMB_HI_MAX) return false;
  a[at] = newHi;
  a[at + 1] = newLo;
  return true;
}

/** −1, 0 or 1 as the value is below, at or above zero. */
export function limbsSign(a: Float64Array, at: number): -1 | 0 | 1 {
  const hi = a[at]!;
  // lo ≥ 0, so hi < 0 means value ≤ −2^52 + (2^52 − 1) < 0.
  if (hi < 0) return -1;
  if (hi > 0) return 1;
  return a[at + 1]! > 0 ? 1 : 0;
}

/** −1, 0 or 1 as the value is below, equal to or above the safe integer n. */
export function compareLimbs(a: Float64Array, at: number, n: number): -1 | 0 | 1 {
  // n split exactly as in addToLimbs; the forms are unique, so comparing limbs compares values.
  const nHi = Math.floor(n / LIMB);
  const hi = a[at]!;
  if (hi !== nHi) return hi < nHi ? -1 : 1;
  const lo = a[at + 1]!;
  const nLo = n - nHi * LIMB;
  if (lo === nLo) return 0;
  return lo < nLo ? -1 : 1;
}

/** Whether the value is ≥ the safe integer n: one multiply and add, for the hot path. */
export function limbsAtLeast(a: Float64Array, at: number, n: number): boolean {
  // hi × 2^52 is exact; the sum is the value rounded once. Rounding is monotone and keeps n,
  // so value ≥ n gives sum ≥ n. A value < n is either an integer ≥ −2^53, exact as a double,
  // or below −2^53, whose rounding stays ≤ −2^53 < n.
  return a[at]! * LIMB + a[at + 1]! >= n;
}

/** Whether the value is a safe integer (|value| ≤ 2^53 − 1). */
export function limbsAreSafe(a: Float64Array, at: number): boolean {
  // As in limbsAtLeast: the rounded sum is the value when the value is safe, and is at least
  // 2^53 in magnitude when it is not.
  const sum = a[at]! * LIMB + a[at + 1]!;
  return sum <= Number.MAX_SAFE_INTEGER && sum >= -Number.MAX_SAFE_INTEGER;
}

/** The value as a number: exact when limbsAreSafe, otherwise rounded (never use it then). */
export function limbsToNumber(a: Float64Array, at: number): number {
  return a[at]! * LIMB + a[at + 1]!;
}

/** Whether a bigint fits in limbs. */
export function fitsLimbs(v: bigint): boolean {
  return v >= LIMBS_MIN_BIG && v <= LIMBS_MAX_BIG;
}

/** Store a bigint; false, with the value unchanged, when it does not fit. */
export function setLimbs(a: Float64Array, at: number, v: bigint): boolean {
  if (!fitsLimbs(v)) return false;
  // bigint shifts and masks act on two's complement: v >> 52 is floor(v / 2^52), and v & mask
  // is v − that × 2^52, in [0, 2^52), also for v < 0. Both are below 2^53, so exact.
  a[at] = Number(v >> 52n);
  a[at + 1] = Number(v & LO_MASK_BIG);
  return true;
}

/** The value as a bigint (allocates: for snapshots, events and checks, not the hot path). */
export function limbsToBigInt(a: Float64Array, at: number): bigint {
  return BigInt(a[at]!) * LIMB_BIG + BigInt(a[at + 1]!);
}
