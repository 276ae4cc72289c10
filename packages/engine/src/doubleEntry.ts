// Double entry, checked on every balance event the engine hands out: per asset, the deltas of one
// event's legs sum to zero (types.ts BalanceLeg). Both cores build their legs to balance; this
// check catches the bug that would make or lose money in the command that makes it, instead of in
// the next full check (Engine.assertValid, O(state)), which only the tests run after every
// command. The bigint core checks each event as it makes it, inside apply, so the engine halts;
// the columnar core as a result's events are first read (records.ts), where its legs become
// bigints anyway: the host reads every command's events inside the sequencer's apply, before
// anything is committed or published, and halts on the throw (docs/decisions/engine.md,
// "Invariants").

import { InvariantViolation } from './errors.js';
import type { BalanceLeg } from './types.js';

/** Throws unless the legs of a `business` movement of order `orderId` (or 0) balance. */
export function checkDoubleEntry(
  legs: readonly BalanceLeg[],
  business: string,
  orderId: number,
): void {
  const asset = unbalancedAsset(legs);
  if (asset !== null) {
    throw new InvariantViolation(
      `a ${business} movement of order ${orderId} does not balance in ${asset}`,
    );
  }
}

/**
 * The first asset whose legs' deltas do not sum to zero, or null when every one does. NOTE: no
 * closure, and no bigint made for a zero delta (most legs move one of their two balances): the
 * bigint core checks every event as it makes it.
 */
export function unbalancedAsset(legs: readonly BalanceLeg[]): string | null {
  for (let i = 0; i < legs.length; i++) {
    const asset = legs[i]!.asset;
    let seen = false;
    for (let j = 0; j < i && !seen; j++) seen = legs[j]!.asset === asset;
    if (seen) continue;
    let sum = 0n;
    for (let j = i; j < legs.length; j++) {
      const leg = legs[j]!;
      if (leg.asset !== asset) continue;
      if (leg.availableDelta !== 0n) sum += leg.availableDelta;
      if (leg.frozenDelta !== 0n) sum += leg.frozenDelta;
    }
    if (sum !== 0n) return asset;
  }
  return null;
}
