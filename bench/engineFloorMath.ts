// The engine floor's arithmetic (engineFloor.ts): exact integer division in numbers, the
// reduction of a market's ratios to small integers, and the checks that stop the floor where a
// quantity passes 2^53, beyond which the engine takes its bigint path and the floor has none.

export const SAFE = Number.MAX_SAFE_INTEGER;
export const SAFE_BIG = BigInt(SAFE);

/** The greatest common divisor of two non-negative bigints. */
export function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** A market ratio as a number: one beyond 2^53 stops the floor. */
export function small(v: bigint): number {
  if (v < 0n || v > SAFE_BIG) throw new Error('engine floor: a market ratio beyond 2^53');
  return Number(v);
}

/** Beyond this the engine takes its bigint path, which the floor does not have. */
export function checked(v: number): number {
  if (v > SAFE) throw new Error('engine floor: a quantity beyond 2^53');
  return v;
}

/** a / b rounded down, exactly, for a ≥ 0 and b > 0. */
export function floorDiv(a: number, b: number): number {
  return (a - (a % b)) / b;
}

/** a / b rounded up, exactly, for a ≥ 0 and b > 0. */
export function ceilDiv(a: number, b: number): number {
  const r = a % b;
  return r === 0 ? a / b : (a - r) / b + 1;
}
