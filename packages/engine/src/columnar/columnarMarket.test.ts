// A market whose deal ratios with the lot folded in are not safe integers, though its ratios per
// minor unit are: the columnar core trades it counting amounts in minor units, not in lots
// (ColumnarMarket's amountUnit), and must agree with the bigint core. And a market the columnar
// core cannot hold at all: its orders are the bigint core's.
import { describe, expect, it } from 'vitest';
import { ask, bid, funding, type Input, Pair, setUp, setupCommands } from './enginePairTestKit.js';

/**
 * A lot of 7^18 satoshis and a tick of 7 minor units: a lot at one tick is worth 7^19 / 10^8
 * minor units, a fraction whose numerator passes 2^53 and shares no factor with 10^8, so the
 * lot cannot be folded into the deal ratios; a tick alone, 7 / 10^8, can.
 */
const LOT = 7n ** 18n;

/** The kit's exchange (fees of 0.1% and 0.2%) with that tick and lot on its BTC_USDT. */
const sevens = setupCommands(1_000, 2_000).map((cmd) =>
  cmd.type === 'market.add' ? { ...cmd, tickSize: 7n, lotSize: LOT, minAmount: LOT } : cmd,
);

describe('a market whose lot does not fold into its deal ratios', () => {
  it('trades on the columnar core in minor units, as the bigint core does', () => {
    const pair = new Pair();
    for (const cmd of sevens) pair.apply(cmd);
    expect(pair.engine.coreName).toBe('columnar');
    const commands: Input[] = [
      ask(1, 3n * LOT, 7_000_007n),
      ask(1, 2n * LOT, 7_000_014n),
      bid(2, 4n * LOT, 7_000_014n),
      { type: 'order.market', userId: 2, market: 'BTC_USDT', side: 2, amount: LOT, source: 'api' },
      bid(2, 5n * LOT, 6_999_993n),
      {
        type: 'order.market',
        userId: 1,
        market: 'BTC_USDT',
        side: 1,
        amount: 2n * LOT,
        source: 'api',
      },
      { type: 'order.cancelAll', userId: 2, market: 'BTC_USDT' },
    ];
    let deals = 0;
    for (const cmd of commands) {
      const result = pair.apply(cmd);
      expect(result.ok).toBe(true);
      if (result.ok) deals += result.events.filter((e) => e.type === 'deal').length;
    }
    // The bid takes both asks, the market buy the last lot, the market sell from the new bid.
    expect(deals).toBe(4);
    expect(pair.engine.coreName).toBe('columnar');
    pair.engine.assertValid();
    pair.restart();
    expect(pair.engine.coreName).toBe('columnar');
  });
});

describe('a market whose deal ratios are not safe integers', () => {
  /**
   * ETH of 18 decimals priced in USDT to the micro-dollar, and traded to the wei: a deal of one
   * wei at one tick is worth 1 / 10^18 minor units, a denominator past 2^53. Its orders' own
   * amounts and values are small numbers.
   */
  const ethMarket: Input[] = [
    { type: 'asset.add', asset: 'ETH', decimals: 18 },
    {
      type: 'market.add',
      name: 'ETH_USDT',
      stock: 'ETH',
      money: 'USDT',
      tickSize: 1n,
      lotSize: 1n,
      minAmount: 1n,
      pricePrecision: 6,
      amountPrecision: 18,
      makerFeePpm: 1_000,
      takerFeePpm: 2_000,
    },
    ...[1, 2].flatMap((userId) => funding(userId, 'ETH')),
  ];
  /** 0.001 ETH at 3,000 USDT: a value of 3 USDT. */
  const ethOrder = (userId: number, side: number): Input => ({
    ...bid(userId, 10n ** 15n, 3_000_000_000n),
    market: 'ETH_USDT',
    side,
  });

  it('is the bigint core’s while it has open orders, and the columnar core comes back after', () => {
    const pair = setUp({ returnAfter: 2 }, [...setupCommands(), ...ethMarket]);
    // Added, it changes nothing: no order on it has been placed.
    expect(pair.engine.coreName).toBe('columnar');
    expect(pair.apply(ethOrder(2, 2)).ok).toBe(true);
    expect(pair.engine.coreName).toBe('bigint');
    expect(pair.apply(ethOrder(2, 2)).ok).toBe(true);
    const sell = pair.apply(ethOrder(1, 1));
    expect(sell.ok && sell.events.filter((e) => e.type === 'deal').length).toBe(1);
    // Tries back find a bid open on it, and stay.
    for (let i = 0; i < 8; i++) pair.apply(bid(1, 1n, 10n));
    expect(pair.engine.coreName).toBe('bigint');
    pair.apply({ type: 'order.cancelAll', userId: 2, market: 'ETH_USDT' });
    for (let i = 0; i < 16; i++) pair.apply(bid(1, 1n, 10n));
    expect(pair.engine.coreName).toBe('columnar');
    pair.restart();
    expect(pair.engine.coreName).toBe('columnar');
  });
});
