import { describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import {
  BUY,
  btc,
  CORES,
  MARKET,
  oco,
  orderOf,
  ordersOf,
  SELL,
  stopLimit,
  TestExchange,
  usdt,
} from './fixtures.js';
import type { OrderView } from './types.js';

/** An exchange whose last price is 30000 (users 1..4 funded). */
function fundedExchange(engine: Engine): TestExchange {
  const x = TestExchange.funded(engine, [1, 2, 3, 4]);
  x.lastPrice('30000', 3, 4, '0.1');
  return x;
}

/** User 3 sells 0.001 BTC at market: the ids of the stops that triggers, in the order they fire. */
function triggeredBySale(x: TestExchange): number[] {
  const result = x.ok({
    type: 'order.market',
    userId: 3,
    market: MARKET,
    side: SELL,
    amount: btc('0.001'),
    source: 'web',
  });
  return result.events.flatMap((e) => (e.type === 'order.triggered' ? [e.order.id] : []));
}

function finished(events: { type: string; order?: OrderView }[], id: number) {
  return events.find((e) => e.type === 'order.finish' && e.order?.id === id)?.order;
}

describe.each(CORES)('stop-limit orders on the %s core', (_core, makeEngine) => {
  const exchange = () => fundedExchange(makeEngine());

  it('need a last price different from the stop', () => {
    const x = TestExchange.standard(makeEngine());
    x.fund(1, 'BTC', btc('1'));
    expect(x.rejected(stopLimit(1, SELL, '29000', '28900', '0.1')).code).toBe('invalid_stop_price');
    const y = exchange();
    expect(y.rejected(stopLimit(1, SELL, '30000', '29900', '0.1')).code).toBe('invalid_stop_price');
  });

  it('wait off the book with funds frozen, then trigger on the last price', () => {
    const x = exchange();
    const stop = orderOf(x.ok(stopLimit(1, SELL, '29500', '29400', '0.2')));
    expect(stop).toMatchObject({ algorithm: 1, triggered: false, stop_price: usdt('29500') });
    expect(x.trade(1, 'BTC').frozen).toBe(btc('0.2'));
    expect(x.engine.depth(MARKET, 10).asks).toEqual([]);
    expect(x.engine.openOrders(1).map((o) => o.id)).toEqual([stop.id]);
    // A trade at 29600 does not reach it; one at 29500 does.
    x.limit(2, BUY, '29600', '0.1');
    x.limit(3, SELL, '29600', '0.1');
    expect(x.engine.order(stop.id)?.triggered).toBe(false);
    x.limit(2, BUY, '29500', '0.1');
    const result = x.ok({
      type: 'order.limit',
      userId: 3,
      market: MARKET,
      side: SELL,
      price: usdt('29500'),
      amount: btc('0.1'),
      timeInForce: 'GTC',
      source: 'web',
    });
    const triggered = result.events.find((e) => e.type === 'order.triggered');
    expect(triggered).toMatchObject({ order: { id: stop.id, triggered: true } });
    expect(x.engine.depth(MARKET, 10).asks).toEqual([[usdt('29400'), btc('0.2')]]);
  });

  it('cascade: a triggered stop that trades can trigger the next', () => {
    const x = exchange();
    x.limit(2, BUY, '29900', '0.101');
    x.limit(2, BUY, '29800', '0.1');
    x.limit(2, BUY, '29700', '0.1');
    const first = orderOf(x.ok(stopLimit(1, SELL, '29950', '29900', '0.1')));
    const second = orderOf(x.ok(stopLimit(1, SELL, '29900', '29800', '0.1')));
    const third = orderOf(x.ok(stopLimit(1, SELL, '29800', '29700', '0.1')));
    expect(triggeredBySale(x)).toEqual([first.id, second.id, third.id]);
    expect(x.engine.lastPrice(MARKET)).toBe(usdt('29700'));
    expect(x.engine.openOrders(1)).toEqual([]);
    expect(x.trade(1, 'BTC')).toEqual({ available: btc('9.7'), frozen: 0n });
  });

  it('fire thousands in firing order after cancels among them', () => {
    const x = exchange();
    x.checkInvariants = false;
    // 2,000 sell stops at 50 prices (29,950 down to 29,460), placed in a scrambled price order,
    // so that the lists grow in the middle as well as at the end and are cut into chunks.
    const placed: { id: number; stop: number }[] = [];
    for (let i = 0; i < 2000; i++) {
      const stop = 29_950 - ((i * 37) % 50) * 10;
      const o = orderOf(x.ok(stopLimit(1, SELL, String(stop), String(stop - 500), '0.001')));
      placed.push({ id: o.id, stop });
    }
    // Cancel every third, and every stop at 20 neighbouring prices: chunks dwindle and merge.
    const cancelled = new Set<number>();
    for (const [k, o] of placed.entries()) {
      if (k % 3 === 0 || (o.stop <= 29_800 && o.stop > 29_600)) {
        x.ok({ type: 'order.cancel', userId: 1, orderId: o.id });
        cancelled.add(o.id);
      }
    }
    x.engine.assertValid();
    const waiting = placed
      .filter((o) => !cancelled.has(o.id))
      .sort((a, b) => b.stop - a.stop || a.id - b.id);
    // A trade at 29,000 crosses them all: they fire highest stop first, then oldest.
    x.limit(4, BUY, '29000', '0.001');
    expect(waiting.length).toBeGreaterThan(512); // more than one chunk still
    expect(triggeredBySale(x)).toEqual(waiting.map((o) => o.id));
    x.engine.assertValid();
  });

  it('cancel before the trigger returns the funds', () => {
    const x = exchange();
    const stop = orderOf(x.ok(stopLimit(2, BUY, '31000', '31100', '0.1')));
    expect(x.trade(2, 'USDT').frozen).toBe(usdt('3116.22'));
    x.ok({ type: 'order.cancel', userId: 2, orderId: stop.id });
    expect(x.trade(2, 'USDT').frozen).toBe(0n);
  });
});

describe.each(CORES)('OCO orders on the %s core', (_core, makeEngine) => {
  const exchange = () => fundedExchange(makeEngine());

  it('need the prices around the last price', () => {
    const x = exchange();
    expect(x.rejected(oco(1, SELL, '31000', '30500', '30400', '0.1')).code).toBe(
      'invalid_oco_prices',
    );
    expect(x.rejected(oco(2, BUY, '29000', '29500', '29600', '0.1')).code).toBe(
      'invalid_oco_prices',
    );
  });

  it('freeze once for both legs (a buy: at the higher of the two prices)', () => {
    const x = exchange();
    const legs = ordersOf(x.ok(oco(2, BUY, '29000', '31000', '31100', '0.1')));
    expect(legs.map((o) => [o.algorithm, o.oco_id])).toEqual([
      [2, legs[0]!.id],
      [2, legs[0]!.id],
    ]);
    expect(x.trade(2, 'USDT').frozen).toBe(usdt('3116.22'));
  });

  it('cancel the stop leg when the limit leg executes, even partly', () => {
    const x = exchange();
    const [limitLeg, stopLeg] = ordersOf(x.ok(oco(1, SELL, '31000', '29000', '28900', '0.2')));
    const result = x.ok({
      type: 'order.limit',
      userId: 2,
      market: MARKET,
      side: BUY,
      price: usdt('31000'),
      amount: btc('0.05'),
      timeInForce: 'GTC',
      source: 'web',
    });
    expect(finished(result.events, stopLeg!.id)).toMatchObject({ finish_reason: 2 });
    expect(x.engine.order(limitLeg!.id)?.left).toBe(btc('0.15'));
    expect(x.trade(1, 'BTC').frozen).toBe(btc('0.15'));
  });

  it('cancel the limit leg when the stop triggers, handing over the funds', () => {
    const x = exchange();
    const [limitLeg, stopLeg] = ordersOf(x.ok(oco(1, SELL, '31000', '29500', '29400', '0.2')));
    x.limit(2, BUY, '29500', '0.1');
    const result = x.ok({
      type: 'order.market',
      userId: 3,
      market: MARKET,
      side: SELL,
      amount: btc('0.1'),
      source: 'web',
    });
    expect(finished(result.events, limitLeg!.id)).toMatchObject({ finish_reason: 2 });
    expect(x.engine.order(stopLeg!.id)).toMatchObject({ triggered: true, left: btc('0.2') });
    expect(x.trade(1, 'BTC').frozen).toBe(btc('0.2'));
    expect(x.engine.depth(MARKET, 1).asks).toEqual([[usdt('29400'), btc('0.2')]]);
  });

  it('cancel both legs when one is cancelled', () => {
    const x = exchange();
    const [limitLeg, stopLeg] = ordersOf(x.ok(oco(2, BUY, '29000', '31000', '31100', '0.1')));
    const result = x.ok({ type: 'order.cancel', userId: 2, orderId: stopLeg!.id });
    expect(finished(result.events, stopLeg!.id)).toMatchObject({ finish_reason: 1 });
    expect(finished(result.events, limitLeg!.id)).toMatchObject({ finish_reason: 2 });
    expect(x.trade(2, 'USDT')).toEqual({ available: usdt('1000000'), frozen: 0n });
  });

  it('cancel both legs when the limit leg meets the user’s own order', () => {
    const x = exchange();
    const own = x.limit(2, SELL, '29990', '0.1');
    const result = x.ok(oco(2, BUY, '29990', '31000', '31100', '0.1'));
    const [limitLeg, stopLeg] = ordersOf(result);
    expect(finished(result.events, limitLeg!.id)).toMatchObject({ finish_reason: 1 });
    expect(finished(result.events, stopLeg!.id)).toMatchObject({ finish_reason: 2 });
    expect(x.engine.openOrders(2).map((o) => o.id)).toEqual([own.id]);
    expect(x.trade(2, 'USDT').frozen).toBe(0n);
  });
});
