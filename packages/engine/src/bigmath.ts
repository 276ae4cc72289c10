// Integer helpers for bigint amounts (Math.min/max do not take bigints).

export function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

export function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/** a / b rounded up, for a ≥ 0 and b > 0. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return q * b === a ? q : q + 1n;
}
