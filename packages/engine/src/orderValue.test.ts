import { describe, expect, it } from 'vitest';
import { Engine } from './engine.js';
import type { CommandInput } from './fixtures.js';
import {
  BUY,
  btc,
  CORES,
  limitOrder,
  MARKET,
  oco,
  orderOf,
  SELL,
  stopLimit,
  TestExchange,
  usdt,
} from './fixtures.js';

const setCap = (orderValueMax: bigint) =>
  ({ type: 'market.setLimits', market: MARKET, orderValueMax }) satisfies CommandInput;

describe.each(CORES)('the cap on an order value on the %s core', (core, makeEngine) => {
  it('refuses a limit order worth more, to the minor unit, and nothing changes', () => {
    const x = TestExchange.traded(makeEngine());
    x.ok(setCap(usdt('30000')));
    expect(x.limit(1, SELL, '30000', '1').left).toBe(btc('1'));
    const before = x.engine.stateHash();
    for (const [price, amount] of [
      ['30000.01', '1'],
      ['60000.01', '0.5'],
    ] as const) {
      const refused = x.rejected(limitOrder(1, SELL, price, amount));
      expect(refused).toMatchObject({
        code: 'order_value_too_large',
        message: 'Order value is too large',
        field: 'amount',
      });
    }
    expect(x.engine.stateHash()).toBe(before);
    expect(x.engine.coreName).toBe(core);
    // One minor unit under what 0.001 BTC at 30000 is worth: refused.
    x.ok(setCap(usdt('30') - 1n));
    expect(x.rejected(limitOrder(1, SELL, '30000', '0.001')).code).toBe('order_value_too_large');
    expect(x.limit(1, SELL, '29999.99', '0.001').left).toBe(btc('0.001'));
  });

  it('keeps an ask at an absurd price out of the book, and the engine on its core', () => {
    const x = TestExchange.traded(makeEngine());
    // 1 BTC at 10^10 USDT: worth more than 2^53 minor units of USDT.
    const absurd = limitOrder(1, SELL, '10000000000', '1');
    x.ok(setCap(usdt('1000000000')));
    expect(x.rejected(absurd).code).toBe('order_value_too_large');
    expect(x.engine.coreName).toBe(core);
    // Without a cap it is taken (on the bigint core: see columnar-engine.md).
    x.ok(setCap(0n));
    x.ok(absurd);
    expect(x.engine.coreName).toBe('bigint');
  });

  it('applies to stop-limit and OCO orders at their prices, not to market orders', () => {
    const x = TestExchange.traded(makeEngine());
    x.ok(setCap(usdt('35000')));
    expect(x.rejected(stopLimit(1, BUY, '31000', '36000', '1')).code).toBe('order_value_too_large');
    x.ok(stopLimit(1, BUY, '31000', '35000', '1'));
    // The OCO's stop leg would buy at 36000.
    expect(x.rejected(oco(1, BUY, '29000', '31000', '36000', '1')).code).toBe(
      'order_value_too_large',
    );
    x.ok(oco(1, BUY, '29000', '31000', '35000', '1'));
    // Two asks within the cap; a market buy of both is worth more, and is not capped.
    x.limit(2, SELL, '30000', '1');
    x.limit(2, SELL, '30000', '1');
    const market = x.ok({
      type: 'order.market',
      userId: 1,
      market: MARKET,
      side: BUY,
      amount: btc('2'),
      source: 'web',
    });
    expect(orderOf(market)).toMatchObject({ deal_stock: btc('2'), finish_reason: 0 });
  });

  it('leaves orders already open, and lasts through a snapshot', () => {
    const x = TestExchange.traded(makeEngine());
    const open = x.limit(1, SELL, '40000', '1');
    x.ok(setCap(usdt('35000')));
    expect(x.engine.order(open.id)?.left).toBe(btc('1'));
    const snapshot = x.engine.snapshot();
    expect(snapshot.markets.find((m) => m.name === MARKET)?.orderValueMax).toBe('35000000000');
    expect(snapshot.markets.find((m) => m.name !== MARKET)?.orderValueMax).toBeUndefined();
    expect(x.engine.markets().find((m) => m.name === MARKET)?.orderValueMax).toBe(usdt('35000'));
    const y = new TestExchange(Engine.restore(snapshot));
    y.time = x.time;
    expect(y.engine.stateHash()).toBe(x.engine.stateHash());
    expect(y.rejected(limitOrder(1, SELL, '35000.01', '1')).code).toBe('order_value_too_large');
  });

  it('is set only with a known market and an amount', () => {
    const x = TestExchange.traded(makeEngine());
    const before = x.engine.stateHash();
    expect(x.rejected({ ...setCap(1n), market: 'NOPE_USDT' }).code).toBe('market_not_found');
    for (const bad of [-1n, 10n ** 36n + 1n, 10n ** 40n, 5, '5', null]) {
      const cmd = { ...setCap(0n), orderValueMax: bad } as unknown as CommandInput;
      expect(x.rejected(cmd)).toMatchObject({ code: 'invalid_command', field: 'orderValueMax' });
    }
    expect(x.engine.stateHash()).toBe(before);
    // The largest cap, 10^36 minor units, is an amount like any other.
    x.ok(setCap(10n ** 36n));
  });
});
