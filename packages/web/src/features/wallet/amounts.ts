/**
 * Decimal strings of the wallet, compared and added exactly in integer units (never floats).
 * Amounts have at most 8 decimals (SPEC.md §9), fewer where the asset has fewer.
 */

export const amountDecimalsMax = 8;

/**
 * What the user typed, as the spec reads a number: digits with one optional decimal mark, a
 * comma becoming a dot, cut (not rounded) to `decimals` places. Other characters are dropped.
 */
export function cleanAmountInput(text: string, decimals = amountDecimalsMax): string {
  const dotted = text.replace(/,/g, '.').replace(/[^\d.]/g, '');
  const [whole = '', ...rest] = dotted.split('.');
  if (rest.length === 0) return whole;
  return `${whole}.${rest.join('').slice(0, decimals)}`;
}

const decimalPattern = /^\d+(\.\d+)?$/;

export function isDecimal(text: string): boolean {
  return decimalPattern.test(text);
}

function scaleOf(...values: string[]): number {
  return Math.max(0, ...values.map((value) => value.split('.')[1]?.length ?? 0));
}

function unitsOf(value: string, scale: number): bigint {
  const [whole = '0', fraction = ''] = value.split('.');
  return BigInt((whole || '0') + fraction.padEnd(scale, '0'));
}

function decimalOf(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** -1, 0 or 1 as `a` is below, equal to or above `b`. */
export function compareAmounts(a: string, b: string): number {
  const scale = scaleOf(a, b);
  const left = unitsOf(a, scale);
  const right = unitsOf(b, scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

export function addAmounts(a: string, b: string): string {
  const scale = scaleOf(a, b);
  return decimalOf(unitsOf(a, scale) + unitsOf(b, scale), scale);
}

/** `a - b`, or '0' when `b` is larger. */
export function subtractAmounts(a: string, b: string): string {
  const scale = scaleOf(a, b);
  const difference = unitsOf(a, scale) - unitsOf(b, scale);
  return decimalOf(difference > 0n ? difference : 0n, scale);
}

export function isZero(value: string): boolean {
  return !isDecimal(value) || compareAmounts(value, '0') === 0;
}

/** `value` cut (not rounded) to `decimals` places, for display: 99880.10852 USD → 99880.1. */
export function truncateAmount(value: string, decimals: number): string {
  const [whole = '0', fraction = ''] = value.split('.');
  const kept = fraction.slice(0, decimals).replace(/0+$/, '');
  return kept ? `${whole}.${kept}` : whole;
}
