/**
 * Amount columns hold integer minor units: `NUMERIC(39,0)` on PostgreSQL, `TEXT` on SQLite.
 * Both drivers return them as strings; these two functions are the only way across.
 */

/** The largest amount a column holds: 39 decimal digits. */
export const amountColumnMax = 10n ** 39n - 1n;

/** Reads an amount column (a string of digits on both dialects) as a bigint. */
export function amountFromDb(value: string | number | bigint): bigint {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    throw new RangeError(`amount column holds a non-integer or unsafe number: ${value}`);
  }
  return BigInt(value);
}

/** Writes a bigint into an amount column. */
export function amountToDb(value: bigint): string {
  if (value > amountColumnMax || value < -amountColumnMax) {
    throw new RangeError(`amount does not fit in 39 digits: ${value}`);
  }
  return value.toString();
}
