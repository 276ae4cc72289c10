import { describe, expect, it } from 'vitest';
import { BALANCE_HEAD, K_BALANCE, LEG_RECORD } from './columnar/recordLayout.js';
import { eventsOfRecords } from './columnar/records.js';
import { checkDoubleEntry, unbalancedAsset } from './doubleEntry.js';
import { InvariantViolation } from './errors.js';
import type { BalanceLeg, Owner } from './types.js';

function leg(owner: Owner, asset: string, availableDelta: bigint, frozenDelta = 0n): BalanceLeg {
  return { owner, account: 'trade', asset, availableDelta, frozenDelta, available: 0n, frozen: 0n };
}

// A fill of 0.1 BTC at 30,000 USDT (6 decimals): the buyer pays 3,000 USDT and a fee of 6, the
// seller receives 3,000 less a fee of 3, the fees account takes 9, nothing is left to rounding.
const fill = (): BalanceLeg[] => [
  leg(2, 'USDT', -3_006_000_000n),
  leg(2, 'BTC', 10_000_000n),
  leg(1, 'BTC', 0n, -10_000_000n),
  leg(1, 'USDT', 2_997_000_000n),
  leg('fees', 'USDT', 9_000_000n),
];

describe('double entry: the legs of one balance event', () => {
  it('balance per asset on a fill, a fill with fees in LTT, a freeze and a deposit', () => {
    // The same fill with both fees paid in LTT: the money moves whole, the fees apart.
    const inLtt = [leg(2, 'USDT', -3_000_000_000n), ...fill().slice(1, 3)];
    inLtt.push(leg(1, 'USDT', 3_000_000_000n));
    inLtt.push(leg(2, 'LTT', -4n), leg(1, 'LTT', -2n), leg('fees', 'LTT', 6n));
    const freeze = [leg(1, 'BTC', -5n, 5n)];
    const deposit = [leg('external', 'BTC', -7n), leg(1, 'BTC', 7n)];
    for (const legs of [fill(), inLtt, freeze, deposit]) expect(unbalancedAsset(legs)).toBeNull();
  });

  it('name the asset whose deltas make or lose money, exactly however large', () => {
    const fee = fill();
    fee[4] = leg('fees', 'USDT', 9_000_001n);
    const stock = fill();
    stock[1] = leg(2, 'BTC', 9_999_999n);
    const release = [leg(1, 'BTC', 5n, -4n)];
    const big = 2n ** 80n;
    const offByOne = [leg(1, 'BTC', big), leg(2, 'BTC', 1n - big)];
    expect(unbalancedAsset(fee)).toBe('USDT');
    expect(unbalancedAsset(stock)).toBe('BTC');
    expect(unbalancedAsset(release)).toBe('BTC');
    expect(unbalancedAsset(offByOne)).toBe('BTC');
    expect(() => checkDoubleEntry(fee, 'trade', 12)).toThrow(
      new InvariantViolation('a trade movement of order 12 does not balance in USDT'),
    );
    expect(() => checkDoubleEntry(fill(), 'trade', 12)).not.toThrow();
  });

  it("are checked as the columnar core's records become events", () => {
    const names = { assetNames: ['USDT', 'BTC'], markets: [] };
    // A trade movement of order 7: user 1 gives 5 USDT, user 2 takes `taken`.
    const recordsOf = (taken: number) => {
      const log = new Float64Array(BALANCE_HEAD + 2 * LEG_RECORD);
      log.set([K_BALANCE, 1, 0, 7, 1, 2]);
      log.set([1, 1, 0, -5, 0], BALANCE_HEAD);
      log.set([2, 1, 0, taken, 0], BALANCE_HEAD + LEG_RECORD);
      return log;
    };
    const read = (log: Float64Array) => eventsOfRecords(log, 0, log.length, 0, names);
    expect(read(recordsOf(5))).toHaveLength(1);
    expect(() => read(recordsOf(6))).toThrow(
      new InvariantViolation('a trade movement of order 7 does not balance in USDT'),
    );
  });
});
