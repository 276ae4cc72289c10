// A market whose deal ratios with the lot folded in are not safe integers, though its ratios per
// minor unit are: the columnar core trades it counting amounts in minor units, not in lots
// (ColumnarMarket's amountUnit), and must agree with the bigint core.
import { describe, expect, it } from 'vitest';
import { bid, type Input, Pair, setupCommands } from './enginePairTestKit.js';

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

const ask = (userId: number, amount: bigint, price: bigint): Input => ({
  ...bid(userId, amount, price),
  side: 1,
});

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
