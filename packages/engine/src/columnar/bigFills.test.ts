// Fills whose numerators (amount × price, and × the fee rate) pass 2^53 while what they move
// stays below it: the columnar core settles them in bigint and keeps the buyer's numerators in
// bigint from then on, with the results, events and state hash of a bigint-only engine, and
// without handing over to the bigint core.
import { describe, expect, it } from 'vitest';
import { orderOf } from '../fixtures.js';
import type { Accepted } from '../types.js';
import {
  ask,
  bid,
  funding,
  type Input,
  oneUnitMarket,
  type Pair,
  setUp,
  setupCommands,
} from './enginePairTestKit.js';

/** Fees of 0.1% and 0.2%: a fill's fee numerator is twice its products at the taker rate. */
const withFees = (): Pair => setUp(undefined, setupCommands(1000, 2000));
const market = (userId: number, side: 1 | 2, more: Record<string, bigint>): Input => ({
  type: 'order.market',
  userId,
  market: 'BTC_USDT',
  side,
  source: 'api',
  ...more,
});

/** 10^12 minor units at 10^6 ticks: products of 10^18, a value of 10^10 USDT minor units. */
const BIG = 10n ** 12n;
const PRICE = 10n ** 6n;

describe('columnar core: fills past 2^53 in bigint', () => {
  it('a fill whose products pass 2^53', () => {
    const pair = withFees();
    pair.apply(ask(1, BIG, PRICE));
    pair.apply(bid(2, BIG, PRICE));
    // And the other way round: a taker sell into a resting bid.
    pair.apply(bid(2, BIG, PRICE));
    pair.apply(ask(1, BIG, PRICE));
    expect(pair.engine.coreName).toBe('columnar');
  });

  it('a buy keeps its numerators in bigint over partial fills, a rest and a restart', () => {
    const pair = withFees();
    pair.apply(ask(1, BIG / 3n, PRICE));
    // It takes the ask, then rests with what it still may pay frozen.
    pair.apply(bid(2, 3n * BIG, PRICE));
    pair.apply(ask(1, BIG, PRICE));
    pair.restart();
    expect(pair.engine.coreName).toBe('columnar');
    pair.apply(ask(1, BIG, PRICE));
    pair.apply(ask(1, 2n * BIG, PRICE));
    pair.apply({ type: 'order.cancelAll', userId: 1 });
    expect(pair.engine.coreName).toBe('columnar');
  });

  it('market orders by amount and by total', () => {
    const pair = withFees();
    pair.apply(ask(1, BIG, PRICE));
    pair.apply(ask(1, BIG, 2n * PRICE));
    pair.apply(market(2, 2, { amount: (3n * BIG) / 2n }));
    pair.apply(ask(1, BIG, PRICE));
    pair.apply(market(2, 2, { total: 2n * 10n ** 10n }));
    pair.apply(bid(2, BIG, PRICE));
    pair.apply(bid(2, BIG, PRICE / 2n));
    pair.apply(market(1, 1, { amount: (3n * BIG) / 2n }));
    // What a buy of BIG at PRICE costs is 10^10 and its fee: more than a user with 10^10 has.
    for (const cmd of funding(3, 'USDT', 10n ** 10n)) pair.apply(cmd);
    pair.apply(ask(1, BIG, PRICE));
    pair.apply(market(3, 2, { amount: BIG }));
    pair.apply(market(3, 2, { amount: BIG - 10n ** 10n }));
    expect(pair.engine.coreName).toBe('columnar');
  });

  it('a stop-limit buy and an OCO pair whose freezes pass 2^53 in numerators', () => {
    const pair = withFees();
    // A last price of 10^6 ticks.
    pair.apply(ask(1, 1n, PRICE));
    pair.apply(bid(2, 1n, PRICE));
    const stop = { market: 'BTC_USDT', amount: BIG, source: 'web' };
    pair.apply({
      ...stop,
      type: 'order.stopLimit',
      userId: 2,
      side: 2,
      stopPrice: 2n * PRICE,
      price: 3n * PRICE,
    });
    pair.apply({
      ...stop,
      type: 'order.oco',
      userId: 2,
      side: 2,
      price: PRICE / 2n,
      stopPrice: 4n * PRICE,
      limitPrice: 5n * PRICE,
    });
    // A trade at twice the price fires the stop, which takes the asks up to its limit.
    pair.apply(ask(1, BIG, 2n * PRICE));
    pair.apply(ask(1, BIG, 3n * PRICE));
    pair.apply(bid(2, 1n, 2n * PRICE));
    pair.apply({ type: 'order.cancelAll', userId: 1 });
    pair.apply({ type: 'order.cancelAll', userId: 2 });
    expect(pair.engine.coreName).toBe('columnar');
  });

  it('fees in LTT, valued at the LTT market’s last price', () => {
    const pair = withLtt(10n ** 15n);
    pair.apply({ ...ask(1, 10n ** 8n, 10n ** 5n), market: 'LTT_USDT' });
    pair.apply({ ...bid(2, 10n ** 8n, 10n ** 5n), market: 'LTT_USDT' });
    pair.apply({ type: 'user.setCustomFee', userId: 2, enabled: true });
    pair.apply(ask(1, BIG, PRICE));
    pair.apply(bid(2, BIG, PRICE));
    pair.apply({ type: 'user.setCustomFee', userId: 1, enabled: true });
    pair.apply(bid(2, BIG, PRICE));
    pair.apply(ask(1, BIG, PRICE));
    expect(pair.engine.coreName).toBe('columnar');
  });

  it('fees in LTT up to their cap per order, with more LTT in the exchange than 2^53', () => {
    const pair = withLtt(10n ** 22n);
    // LTT at one USDT minor unit: a fee of f USDT minor units is 5 × 10^7 f LTT minor units, so
    // a fill of BIG at PRICE (a fee of 2 × 10^7 at the taker's rate) pays 10^15 in LTT.
    pair.apply({ ...ask(1, 10n ** 8n, 1n), market: 'LTT_USDT' });
    pair.apply({ ...bid(2, 10n ** 8n, 1n), market: 'LTT_USDT' });
    for (const userId of [1, 2]) pair.apply({ type: 'user.setCustomFee', userId, enabled: true });
    // Ten fills of one bid: nine pay 9 × 10^15 in LTT; the tenth would pass the cap, in USDT.
    for (let i = 0; i < 10; i++) pair.apply(ask(1, BIG, PRICE));
    const taker = orderOf(pair.apply(bid(2, 10n * BIG, PRICE)) as Accepted);
    expect(taker).toMatchObject({ deal_fee_ltt: 9n * 10n ** 15n, deal_fee: 2n * 10n ** 7n });
    // One fill of ten times BIG: the maker's fee (0.1%) in LTT, the taker's past the cap in USDT.
    pair.apply(bid(2, 10n * BIG, PRICE));
    const seller = orderOf(pair.apply(ask(1, 10n * BIG, PRICE)) as Accepted);
    expect(seller).toMatchObject({ deal_fee_ltt: 0n, deal_fee: 2n * 10n ** 8n });
    pair.restart();
    pair.apply(ask(1, BIG, PRICE));
    pair.apply(bid(2, BIG, PRICE));
    expect(pair.engine.coreName).toBe('columnar');
  });
});

describe('columnar core: numerators a double would round', () => {
  // A numerator past 2^53 that is one more than a multiple of its divisor rounds, as a double,
  // to that multiple: a payment or fee rounded up from it would come out one minor unit short.

  it("a buy's money over two fills: (10^8 + 1)^2, in units of 10^-8 minor units", () => {
    const pair = setUp();
    const price = 10n ** 8n + 1n;
    pair.apply(ask(1, 5n * 10n ** 7n, price));
    pair.apply(ask(1, 5n * 10n ** 7n + 1n, price));
    const buy = orderOf(pair.apply(bid(2, 10n ** 8n + 1n, price)) as Accepted);
    // 10^16 + 2 × 10^8 + 1 of them: 10^8 + 3 minor units, rounded up.
    expect(buy.deal_money).toBe(10n ** 8n + 3n);
    expect(pair.engine.coreName).toBe('columnar');
  });

  // Fees of 1 and 3 parts per million: a fill's fee numerator at the taker's rate is three times
  // its products, in units of 10^-14 minor units, while its value's numerator is once them.
  const ppmFees = () => setUp(undefined, setupCommands(1, 3));
  // 3 × 3066666666666667 is 92 × 10^14 + 1.
  const PRODUCTS = 3066666666666667n;

  it("a buy's fee over two fills", () => {
    const pair = ppmFees();
    pair.apply(ask(1, 1n, PRODUCTS / 2n));
    pair.apply(ask(1, 1n, PRODUCTS - PRODUCTS / 2n));
    const buy = orderOf(pair.apply(bid(2, 2n, PRODUCTS - PRODUCTS / 2n)) as Accepted);
    expect(buy.deal_fee).toBe(93n);
    expect(pair.engine.coreName).toBe('columnar');
  });

  it("a selling taker's fee in one fill", () => {
    const pair = ppmFees();
    pair.apply(bid(2, 1n, PRODUCTS));
    const sell = orderOf(pair.apply(ask(1, 1n, PRODUCTS)) as Accepted);
    expect(sell.deal_fee).toBe(93n);
    expect(pair.engine.coreName).toBe('columnar');
  });
});

/** BTC_USDT with fees, LTT (each of users 1 and 2 holding `each`) and LTT_USDT without fees. */
function withLtt(each: bigint): Pair {
  return setUp(undefined, [
    ...setupCommands(1000, 2000),
    { type: 'asset.add', asset: 'LTT', decimals: 8 },
    oneUnitMarket('LTT', 0, 0),
    ...[1, 2].flatMap((userId) => funding(userId, 'LTT', each)),
  ]);
}
