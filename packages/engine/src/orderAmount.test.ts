import { describe, expect, it } from 'vitest';
import { Engine } from './engine.js';
import type { CommandInput } from './fixtures.js';
import {
  BUY,
  btc,
  CORES,
  limitOrder,
  ltt,
  MARKET,
  marketOrder,
  oco,
  orderOf,
  SELL,
  stopLimit,
  TestExchange,
  usdt,
} from './fixtures.js';

const setAmountCap = (orderAmountMax: bigint, market = MARKET) =>
  ({ type: 'market.setLimits', market, orderAmountMax }) satisfies CommandInput;

const TOO_LARGE = {
  code: 'order_amount_too_large',
  message: 'Order amount is too large',
  field: 'amount',
};

describe.each(CORES)('the cap on an order amount on the %s core', (core, makeEngine) => {
  it('refuses a limit order for more, to the lot, and nothing changes', () => {
    const x = TestExchange.traded(makeEngine());
    x.ok(setAmountCap(btc('2')));
    const before = x.engine.stateHash();
    expect(x.rejected(limitOrder(1, SELL, '30000', '2.0001'))).toMatchObject(TOO_LARGE);
    expect(x.rejected(limitOrder(1, BUY, '1', '5'))).toMatchObject(TOO_LARGE);
    expect(x.engine.stateHash()).toBe(before);
    expect(x.limit(1, SELL, '30000', '2').left).toBe(btc('2'));
    expect(x.engine.coreName).toBe(core);
  });

  it('applies to stop-limit, OCO and market orders by amount, not by total', () => {
    const x = TestExchange.traded(makeEngine());
    x.limit(2, SELL, '30000', '3');
    x.limit(1, BUY, '29000', '0.5');
    x.ok(setAmountCap(btc('1')));
    expect(x.rejected(stopLimit(1, BUY, '31000', '31000', '1.0001'))).toMatchObject(TOO_LARGE);
    expect(x.rejected(oco(1, BUY, '29000', '31000', '31000', '1.0001'))).toMatchObject(TOO_LARGE);
    expect(x.rejected(marketOrder(1, BUY, { amount: btc('1.0001') }))).toMatchObject(TOO_LARGE);
    expect(x.rejected(marketOrder(2, SELL, { amount: btc('1.0001') }))).toMatchObject(TOO_LARGE);
    // A market buy by total is bounded by its money: 2 BTC's worth is taken.
    const byTotal = x.ok(marketOrder(1, BUY, { total: usdt('60000') }));
    expect(orderOf(byTotal).deal_stock).toBeGreaterThan(btc('1.9'));
    x.ok(stopLimit(1, BUY, '31000', '31000', '1'));
    x.ok(marketOrder(1, BUY, { amount: btc('1') }));
  });

  it('keeps a bid for an absurd amount at the lowest price out of the book', () => {
    const x = TestExchange.traded(makeEngine());
    // 100 million LTT (10^16 minor units, past 2^53) at 0.0001 USDT costs 10,000 USDT.
    const absurd = {
      type: 'order.limit',
      userId: 1,
      market: 'LTT_USDT',
      side: BUY,
      price: usdt('0.0001'),
      amount: ltt('100000000'),
      timeInForce: 'GTC',
      source: 'web',
    } as const;
    x.ok(setAmountCap(2n ** 53n - 1n, 'LTT_USDT'));
    expect(x.rejected(absurd)).toMatchObject(TOO_LARGE);
    expect(x.engine.coreName).toBe(core);
    // Without a cap it is taken (on the bigint core: see columnar-engine.md).
    x.ok(setAmountCap(0n, 'LTT_USDT'));
    x.ok(absurd);
    expect(x.engine.coreName).toBe('bigint');
  });

  it('is set beside the value cap, each left as it is when not given, and lasts a snapshot', () => {
    const x = TestExchange.traded(makeEngine());
    x.ok({ type: 'market.setLimits', market: MARKET, orderValueMax: usdt('50000') });
    x.ok(setAmountCap(btc('1')));
    const view = () => x.engine.markets().find((m) => m.name === MARKET);
    expect(view()).toMatchObject({ orderValueMax: usdt('50000'), orderAmountMax: btc('1') });
    x.ok({ type: 'market.setLimits', market: MARKET, orderValueMax: 0n });
    expect(view()?.orderAmountMax).toBe(btc('1'));
    expect(view()?.orderValueMax).toBeUndefined();
    const snapshot = x.engine.snapshot();
    expect(snapshot.markets.find((m) => m.name === MARKET)?.orderAmountMax).toBe('100000000');
    expect(snapshot.markets.find((m) => m.name !== MARKET)?.orderAmountMax).toBeUndefined();
    const y = new TestExchange(Engine.restore(snapshot));
    y.time = x.time;
    expect(y.engine.stateHash()).toBe(x.engine.stateHash());
    expect(y.rejected(limitOrder(1, SELL, '30000', '1.0001'))).toMatchObject(TOO_LARGE);
  });

  it('is set only with a known market and an amount', () => {
    const x = TestExchange.traded(makeEngine());
    const before = x.engine.stateHash();
    expect(x.rejected({ ...setAmountCap(1n), market: 'NOPE_USDT' }).code).toBe('market_not_found');
    for (const bad of [-1n, 10n ** 40n, 5, '5', null]) {
      const cmd = { ...setAmountCap(0n), orderAmountMax: bad } as unknown as CommandInput;
      expect(x.rejected(cmd)).toMatchObject({ code: 'invalid_command', field: 'orderAmountMax' });
    }
    // A bad amount cap sets neither.
    const both = { ...setAmountCap(-1n), orderValueMax: 1n } as unknown as CommandInput;
    expect(x.rejected(both).field).toBe('orderAmountMax');
    const neither = { type: 'market.setLimits', market: MARKET } as unknown as CommandInput;
    expect(x.rejected(neither).code).toBe('invalid_command');
    expect(x.engine.stateHash()).toBe(before);
  });
});
