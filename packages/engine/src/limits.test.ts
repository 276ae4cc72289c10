import { describe, expect, it } from 'vitest';
import { Engine } from './engine.js';
import type { CommandInput } from './fixtures.js';
import {
  BUY,
  btc,
  CORES,
  MARKET,
  oco,
  orderOf,
  SELL,
  stopLimit,
  TestExchange,
  usdt,
} from './fixtures.js';
import type { Side, TimeInForce } from './types.js';

/** Users 1 to 3 funded; one trade at 30000 so that stops and OCOs have a last price. */
function exchange(engine: Engine, cap: number): TestExchange {
  const x = TestExchange.funded(engine, [1, 2, 3]);
  for (const user of [1, 2, 3]) x.fund(user, 'LTT', 10_000_000_000n);
  x.lastPrice('30000', 3, 2);
  x.ok({ type: 'limits.set', openOrdersPerUserMax: cap });
  return x;
}

function limit(side: Side, price: string, timeInForce: TimeInForce = 'GTC') {
  return {
    type: 'order.limit',
    userId: 1,
    market: MARKET,
    side,
    price: usdt(price),
    amount: btc('0.01'),
    timeInForce,
    source: 'web',
  } satisfies CommandInput;
}

/** A sell stop below the last price of 30000. */
const stopSell = stopLimit(1, SELL, '29000', '28900', '0.01');

/** An OCO sell: a limit at 31000 and a stop at 29000 below the last price. */
const ocoSell = oco(1, SELL, '31000', '29000', '28900', '0.01');

/** What a refused command must leave as it was. */
function expectRefusedUnchanged(x: TestExchange, cmd: CommandInput): void {
  const before = x.engine.stateHash();
  const seq = x.engine.lastEventSeq;
  const rejection = x.rejected(cmd);
  expect(rejection.code).toBe('too_many_orders');
  expect(rejection.message).toMatch(/^At most \d+ open orders per user/);
  expect(x.engine.stateHash()).toBe(before);
  expect(x.engine.lastEventSeq).toBe(seq);
}

describe.each(CORES)("the cap on a user's open orders (%s core)", (_core, make) => {
  it('refuses an order that would rest past the cap, and lets it in once one closes', () => {
    const x = exchange(make(), 3);
    const first = x.ok(limit(BUY, '29000'));
    x.ok(limit(BUY, '29001'));
    x.ok(limit(SELL, '31000', 'POST_ONLY'));
    expectRefusedUnchanged(x, limit(BUY, '29002'));
    expectRefusedUnchanged(x, limit(BUY, '29002', 'POST_ONLY'));
    expectRefusedUnchanged(x, stopSell);
    x.ok({ type: 'order.cancel', userId: 1, orderId: orderOf(first).id });
    x.ok(limit(BUY, '29002'));
    // Another user is not held back by user 1's orders.
    x.ok({ ...limit(BUY, '29003'), userId: 2 });
  });

  it('never refuses an order that cannot rest: market, IOC and FOK trade at the cap', () => {
    const x = exchange(make(), 2);
    x.ok(limit(BUY, '29000'));
    x.ok(limit(BUY, '29001'));
    x.limit(2, SELL, '30100', '0.1');
    x.ok(limit(BUY, '30100', 'IOC'));
    x.ok(limit(BUY, '30100', 'FOK'));
    x.ok({
      type: 'order.market',
      userId: 1,
      market: MARKET,
      side: BUY,
      amount: btc('0.01'),
      source: 'web',
    });
    expect(x.trade(1, 'BTC').available).toBe(btc('10.03'));
    // A GTC order that would fill at once is refused all the same: what may rest is decided
    // before it trades, so a user can tell beforehand what the cap allows.
    expectRefusedUnchanged(x, limit(BUY, '30100'));
  });

  it('counts both legs of an OCO and every market, and frees a leg cancelled by its sibling', () => {
    const x = exchange(make(), 3);
    x.ok({
      type: 'order.limit',
      userId: 1,
      market: 'LTT_USDT',
      side: SELL,
      price: usdt('1'),
      amount: 100_000_000n,
      timeInForce: 'GTC',
      source: 'web',
    });
    x.ok(limit(BUY, '29000'));
    // Two open, one left under the cap: an OCO needs two.
    expectRefusedUnchanged(x, ocoSell);
    x.ok(stopSell);
    expectRefusedUnchanged(x, limit(BUY, '29001'));
    x.ok({ type: 'order.cancelAll', userId: 1, market: MARKET });
    x.ok(ocoSell);
    // The OCO's limit leg fills: its stop leg is cancelled with it, and both places come free.
    x.ok({
      type: 'order.market',
      userId: 2,
      market: MARKET,
      side: BUY,
      amount: btc('0.01'),
      source: 'web',
    });
    x.ok(limit(BUY, '29000'));
    x.ok(limit(BUY, '29001'));
    expectRefusedUnchanged(x, limit(BUY, '29002'));
  });

  it('a stop that fires stays one open order', () => {
    const x = exchange(make(), 2);
    x.ok(stopSell);
    x.ok(limit(BUY, '28000'));
    // User 2 trades at 29000: the stop fires and rests as a limit order at 28900.
    x.limit(2, BUY, '29000', '0.01');
    x.limit(3, SELL, '29000', '0.01');
    expect(x.engine.openOrders(1).map((o) => o.triggered)).toContain(true);
    expectRefusedUnchanged(x, limit(BUY, '28001'));
  });

  it('a lower cap keeps the orders already open, and 0 lifts it', () => {
    const x = exchange(make(), 0);
    for (let i = 0; i < 5; i++) x.ok(limit(BUY, String(29000 + i)));
    x.ok({ type: 'limits.set', openOrdersPerUserMax: 2 });
    expect(x.engine.openOrders(1)).toHaveLength(5);
    expectRefusedUnchanged(x, limit(BUY, '28000'));
    x.ok({ type: 'order.cancelAll', userId: 1 });
    x.ok(limit(BUY, '28000'));
    x.ok(limit(BUY, '28001'));
    expectRefusedUnchanged(x, limit(BUY, '28002'));
    x.ok({ type: 'limits.set', openOrdersPerUserMax: 0 });
    x.ok(limit(BUY, '28002'));
    expect(x.engine.limits()).toEqual({ openOrdersPerUserMax: 0 });
  });

  it('keeps the cap through a snapshot, and leaves an uncapped snapshot as it was', () => {
    const x = exchange(make(), 0);
    expect(x.engine.snapshot()).not.toHaveProperty('limits');
    x.ok({ type: 'limits.set', openOrdersPerUserMax: 1 });
    x.ok(limit(BUY, '29000'));
    const snapshot = x.engine.snapshot();
    expect(snapshot.limits).toEqual({ openOrdersPerUserMax: 1 });
    const restored = new TestExchange(Engine.restore(JSON.parse(JSON.stringify(snapshot))));
    expect(restored.engine.stateHash()).toBe(x.engine.stateHash());
    restored.time = x.time;
    expectRefusedUnchanged(restored, limit(BUY, '29001'));
  });

  it.each([
    ['negative', -1],
    ['fractional', 1.5],
    ['text', '10'],
    ['missing', undefined],
    ['over a billion', 1_000_000_001],
  ])('refuses a cap that is %s, changing nothing', (_name, value) => {
    const x = exchange(make(), 4);
    const before = x.engine.stateHash();
    const cmd = { type: 'limits.set', openOrdersPerUserMax: value } as unknown as CommandInput;
    expect(x.rejected(cmd).code).toBe('invalid_command');
    expect(x.engine.stateHash()).toBe(before);
    expect(x.engine.limits()).toEqual({ openOrdersPerUserMax: 4 });
  });
});
