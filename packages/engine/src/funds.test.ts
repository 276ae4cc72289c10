// Every kind of order checks its user's funds to the minor unit: exactly what it needs is
// enough, one minor unit less is refused and changes nothing. The fee a buy holds is at the
// higher of the market's rates (0.2% on BTC_USDT). A market buy by amount, costed at the taker's
// rate, is in marketOrder.test.ts.
import { describe, expect, it } from 'vitest';
import type { CommandInput } from './fixtures.js';
import {
  BUY,
  btc,
  CORES,
  limitOrder,
  marketOrder,
  oco,
  SELL,
  stopLimit,
  TestExchange,
  usdt,
} from './fixtures.js';

/** Each order of user 3, the asset it is paid from, and what it needs of it. */
const orders: [string, CommandInput, string, bigint][] = [
  // 0.1 BTC at 30,000: 3,000 USDT and 6 of fee.
  ['a limit buy', limitOrder(3, BUY, '30000', '0.1'), 'USDT', usdt('3006')],
  ['a limit sell', limitOrder(3, SELL, '30000', '0.1'), 'BTC', btc('0.1')],
  // Held at its limit price of 31,100: 3,110 USDT and 6.22 of fee.
  ['a stop-limit buy', stopLimit(3, BUY, '31000', '31100', '0.1'), 'USDT', usdt('3116.22')],
  ['a stop-limit sell', stopLimit(3, SELL, '29000', '28900', '0.1'), 'BTC', btc('0.1')],
  // Held at the dearer of its legs' prices, the stop leg's 31,100.
  ['an OCO buy', oco(3, BUY, '29000', '31000', '31100', '0.1'), 'USDT', usdt('3116.22')],
  ['an OCO sell', oco(3, SELL, '31000', '29000', '28900', '0.1'), 'BTC', btc('0.1')],
  // 0.0332 BTC at 30,000: 996 USDT and 1.992 of fee.
  [
    'a market buy by total',
    marketOrder(3, BUY, { total: usdt('997.992') }),
    'USDT',
    usdt('997.992'),
  ],
  ['a market sell', marketOrder(3, SELL, { amount: btc('0.1') }), 'BTC', btc('0.1')],
];

describe.each(CORES)('funds on the %s core', (core, makeEngine) => {
  /** BTC_USDT last traded at 30,000, with 1 BTC offered at 30,000 and bid at 29,000. */
  const exchange = () => {
    const x = TestExchange.traded(makeEngine());
    x.limit(1, SELL, '30000', '1');
    x.limit(2, BUY, '29000', '1');
    return x;
  };

  it.each(orders)('%s needs all it holds and not a minor unit more', (_name, cmd, asset, need) => {
    const short = exchange();
    short.fund(3, asset, need - 1n);
    const before = short.engine.stateHash();
    expect(short.rejected(cmd).code).toBe('insufficient_balance');
    expect(short.engine.stateHash()).toBe(before);
    const enough = exchange();
    enough.fund(3, asset, need);
    enough.ok(cmd);
    expect(enough.trade(3, asset).available).toBe(0n);
    expect(enough.engine.coreName).toBe(core);
  });
});
