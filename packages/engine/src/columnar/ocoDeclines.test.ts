// The columnar core's range checks for an OCO: both legs are placed in one command, the stop
// leg waiting at its limit price, so the pair is declined (and the bigint core places it) when
// either leg could take a quantity past what the core's numbers hold exactly.
import { describe, expect, it } from 'vitest';
import { bid, funding, type Input, setUp } from './enginePairTestKit.js';

/** An OCO sell of user 1: the limit leg above the last price of 10, the stop leg below it. */
function ocoSell(amount: bigint, limitPrice: bigint): Input {
  const oco = { type: 'order.oco', userId: 1, market: 'BTC_USDT', side: 1, source: 'api' };
  return { ...oco, amount, price: 20n, stopPrice: 5n, limitPrice };
}

/** A market with a last price of 10 ticks and nothing resting. */
function tradedOnce() {
  const pair = setUp();
  pair.apply(bid(2, 1n, 10n));
  pair.apply({ ...bid(1, 1n, 10n), side: 1 });
  return pair;
}

describe('columnar core: OCO declines', () => {
  it('an OCO whose stop leg’s fills at its limit price could move more than 2^53', () => {
    const pair = tradedOnce();
    // 10^12 at a limit of 10^10 ticks: 10^14 minor units; the limit leg rests at 20 ticks.
    expect(pair.apply(ocoSell(10n ** 12n, 10n ** 10n)).ok).toBe(true);
    expect(pair.engine.coreName).toBe('columnar');
    pair.apply({ type: 'order.cancelAll', userId: 1 });
    // 10^15 at that limit: 10^17 minor units, though its limit leg's fills at 20 ticks fit.
    expect(pair.apply(ocoSell(10n ** 15n, 10n ** 10n)).ok).toBe(true);
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('an OCO whose stop leg would take the waiting stops’ sum past 2^53', () => {
    const pair = tradedOnce();
    const sellStop = { type: 'order.stopLimit', userId: 1, market: 'BTC_USDT', side: 1 };
    for (const amount of [2n ** 52n, 2n ** 52n - 2n]) {
      pair.apply({ ...sellStop, source: 'web', stopPrice: 5n, price: 1n, amount });
    }
    expect(pair.engine.coreName).toBe('columnar');
    // The stops' sum at 2^53 - 2: one more lot fits, two do not (the asks hold none yet).
    expect(pair.apply(ocoSell(1n, 1n)).ok).toBe(true);
    expect(pair.engine.coreName).toBe('columnar');
    expect(pair.apply(ocoSell(1n, 1n)).ok).toBe(true);
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('an OCO whose limit leg would take the asks’ total past 2^53', () => {
    const pair = tradedOnce();
    for (const amount of [2n ** 52n, 2n ** 52n - 2n])
      pair.apply({ ...bid(1, amount, 30n), side: 1 });
    expect(pair.engine.coreName).toBe('columnar');
    // The asks' total at 2^53 - 2: one more lot fits, two do not (the stops hold one).
    expect(pair.apply(ocoSell(1n, 1n)).ok).toBe(true);
    expect(pair.engine.coreName).toBe('columnar');
    expect(pair.apply(ocoSell(1n, 1n)).ok).toBe(true);
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('an OCO buy past 2^53 paid for at its limit leg’s price, not its stop leg’s, is refused here', () => {
    const pair = tradedOnce();
    // 2^53 + 1 units: at the limit leg's 5 ticks a freeze of 450,359,963 minor units, at the
    // stop leg's limit of 30 ticks 2,702,159,777. User 3 holds the first.
    const amount = 2n ** 53n + 1n;
    for (const cmd of funding(3, 'USDT', 450_359_963n)) pair.apply(cmd);
    const oco = { type: 'order.oco', userId: 3, market: 'BTC_USDT', side: 2, source: 'api' };
    const buy = pair.apply({ ...oco, amount, price: 5n, stopPrice: 20n, limitPrice: 30n });
    expect(buy.ok ? 'accepted' : buy.code).toBe('insufficient_balance');
    // Refused for its funds on the columnar core, as the bigint core refuses it: no hand-over.
    expect(pair.engine.coreName).toBe('columnar');
    expect(pair.apply({ ...oco, amount, price: 5n, stopPrice: 20n, limitPrice: 5n }).ok).toBe(true);
    expect(pair.engine.coreName).toBe('bigint');
  });
});
