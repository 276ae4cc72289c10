import { describe, expect, it } from 'vitest';
import { Engine } from './engine.js';
import type { CommandInput } from './fixtures.js';
import {
  BUY,
  btc,
  CORES,
  dealsOf,
  limitOrder,
  MARKET,
  oco,
  orderOf,
  ordersOf,
  SELL,
  stopLimit,
  TestExchange,
  usdt,
} from './fixtures.js';
import type { Accepted, SelfTradePrevention, Side, TimeInForce } from './types.js';

/** Users 1 to 3 funded; one trade at 30000 so that stops and OCOs have a last price. */
function exchange(engine: Engine): TestExchange {
  const x = TestExchange.funded(engine, [1, 2, 3]);
  x.lastPrice('30000', 3, 1);
  return x;
}

/** A limit order on BTC_USDT with a self-trade prevention mode, or none. */
function limit(
  userId: number,
  side: Side,
  price: string,
  amount: string,
  selfTradePrevention?: SelfTradePrevention,
  timeInForce: TimeInForce = 'GTC',
) {
  const order = limitOrder(userId, side, price, amount, timeInForce);
  return selfTradePrevention === undefined ? order : { ...order, selfTradePrevention };
}

/** Asks of user 3 at 30100 and 30300 around one of user 2 at 30200, 0.1 BTC each. */
function asksAroundOwn(x: TestExchange): number {
  x.limit(3, SELL, '30100', '0.1');
  const own = x.limit(2, SELL, '30200', '0.1').id;
  x.limit(3, SELL, '30300', '0.1');
  return own;
}

/** The finish events of a result as [order id, finish reason], in order. */
function finishes(result: Accepted): [number, number | null][] {
  return result.events.flatMap((e) =>
    e.type === 'order.finish'
      ? [[e.order.id, e.order.finish_reason] as [number, number | null]]
      : [],
  );
}

describe.each(CORES)('self-trade prevention on the %s core', (core, makeEngine) => {
  it('cancelNewest, given or not, stops the taker at its own order and cancels its rest', () => {
    for (const mode of [undefined, 'cancelNewest'] as const) {
      const x = exchange(makeEngine());
      const own = asksAroundOwn(x);
      const taker = orderOf(x.ok(limit(2, BUY, '30300', '0.3', mode)));
      expect(taker).toMatchObject({ deal_stock: btc('0.1'), left: btc('0.2'), finish_reason: 1 });
      expect(x.engine.order(own)?.left).toBe(btc('0.1'));
    }
  });

  it('cancelOldest cancels the resting order and goes on matching, then rests', () => {
    const x = exchange(makeEngine());
    const own = asksAroundOwn(x);
    const result = x.ok(limit(2, BUY, '30300', '0.3', 'cancelOldest'));
    const taker = orderOf(result);
    // The own order is cancelled between the two fills, and its BTC released.
    expect(dealsOf(result).map((d) => d.price)).toEqual([usdt('30100'), usdt('30300')]);
    expect(finishes(result)[1]).toEqual([own, 1]);
    expect(x.engine.order(own)).toBeUndefined();
    expect(x.trade(2, 'BTC')).toEqual({ available: btc('10.2'), frozen: 0n });
    expect(taker).toMatchObject({ deal_stock: btc('0.2'), left: btc('0.1'), finish_reason: null });
    expect(x.engine.depth(MARKET, 5)).toEqual({ asks: [], bids: [[usdt('30300'), btc('0.1')]] });
    expect(x.engine.coreName).toBe(core);
  });

  it('cancelBoth cancels the resting order and the rest of the taker', () => {
    const x = exchange(makeEngine());
    const own = asksAroundOwn(x);
    const result = x.ok(limit(2, BUY, '30300', '0.3', 'cancelBoth'));
    const taker = orderOf(result);
    expect(dealsOf(result)).toHaveLength(1);
    expect(finishes(result).slice(1)).toEqual([
      [own, 1],
      [taker.id, 1],
    ]);
    expect(taker).toMatchObject({ deal_stock: btc('0.1'), left: btc('0.2'), finish_reason: 1 });
    expect(x.trade(2, 'USDT').frozen).toBe(0n);
    expect(x.engine.depth(MARKET, 5).asks).toEqual([[usdt('30300'), btc('0.1')]]);
  });

  it('a market buy that passes its own asks is checked at what the others charge', () => {
    const x = exchange(makeEngine());
    x.fund(4, 'BTC', btc('1'));
    x.fund(4, 'USDT', usdt('20000'));
    // User 4's cheap ask would make the buy look affordable; the others' at 30300 are not.
    const own = x.limit(4, SELL, '100', '1').id;
    x.limit(3, SELL, '30300', '1');
    const buy = (amount: string, selfTradePrevention: SelfTradePrevention) =>
      ({
        type: 'order.market',
        userId: 4,
        market: MARKET,
        side: BUY,
        amount: btc(amount),
        source: 'web',
        selfTradePrevention,
      }) satisfies CommandInput;
    const before = x.engine.stateHash();
    expect(x.rejected(buy('1', 'cancelOldest')).code).toBe('insufficient_balance');
    expect(x.engine.stateHash()).toBe(before);
    // Stopped by its own ask, the same buy would have paid 100.2 at most: it is let through.
    expect(orderOf(x.ok(buy('1', 'cancelNewest')))).toMatchObject({ deal_stock: 0n });
    const result = x.ok(buy('0.5', 'cancelOldest'));
    expect(finishes(result)[0]).toEqual([own, 1]);
    expect(dealsOf(result).map((d) => d.price)).toEqual([usdt('30300')]);
    expect(orderOf(result)).toMatchObject({ deal_stock: btc('0.5'), finish_reason: 0 });
    expect(x.trade(4, 'BTC')).toEqual({ available: btc('1.5'), frozen: 0n });
  });

  it('a fill-or-kill order counts past its own orders only when it cancels them', () => {
    const x = exchange(makeEngine());
    asksAroundOwn(x);
    const fok = (mode: SelfTradePrevention) => limit(2, BUY, '30300', '0.2', mode, 'FOK');
    expect(x.rejected(fok('cancelNewest')).code).toBe('fok_not_filled');
    expect(x.rejected(fok('cancelBoth')).code).toBe('fok_not_filled');
    const filled = orderOf(x.ok(fok('cancelOldest')));
    expect(filled).toMatchObject({ deal_stock: btc('0.2'), left: 0n, finish_reason: 0 });
  });

  it('a buy by total that has spent its total is filled, and leaves its own order alone', () => {
    for (const mode of ['cancelNewest', 'cancelOldest', 'cancelBoth'] as const) {
      const x = exchange(makeEngine());
      const own = asksAroundOwn(x);
      // 0.1 BTC at 30100 and the taker's fee of 0.2%: the total buys that and not a lot more.
      const result = x.ok({
        type: 'order.market',
        userId: 2,
        market: MARKET,
        side: BUY,
        total: usdt('3010') + usdt('6.02'),
        source: 'web',
        selfTradePrevention: mode,
      });
      expect(dealsOf(result).map((d) => d.amount)).toEqual([btc('0.1')]);
      expect(orderOf(result)).toMatchObject({ deal_money: usdt('3010'), finish_reason: 0 });
      expect(x.engine.order(own)?.finish_reason).toBeNull();
    }
  });

  it('a stop keeps its mode until it fires, through a snapshot', () => {
    const x = exchange(makeEngine());
    const stop = orderOf(
      x.ok({ ...stopLimit(2, BUY, '30100', '30300', '0.2'), selfTradePrevention: 'cancelOldest' }),
    );
    const own = asksAroundOwn(x);
    const snapshot = x.engine.snapshot();
    const row = snapshot.orders.find((r) => r[0] === stop.id)!;
    expect(row[26]).toBe('cancelOldest');
    expect(snapshot.orders.find((r) => r[0] === own)).toHaveLength(26);
    const y = new TestExchange(Engine.restore(snapshot));
    y.time = x.time;
    // A trade at 30100 fires it: it takes 30100's rest, cancels its user's 30200 and buys 30300.
    const result = y.ok(limit(1, BUY, '30100', '0.05'));
    expect(finishes(result)).toContainEqual([own, 1]);
    expect(y.engine.depth(MARKET, 5)).toEqual({ asks: [], bids: [[usdt('30300'), btc('0.05')]] });
  });

  it('an OCO leg cancelled as the resting order takes the other leg with it', () => {
    const x = exchange(makeEngine());
    const [limitLeg, stopLeg] = ordersOf(x.ok(oco(2, SELL, '30200', '29000', '28900', '0.1')));
    const result = x.ok(limit(2, BUY, '30200', '0.1', 'cancelOldest'));
    expect(finishes(result).slice(0, 2)).toEqual([
      [stopLeg!.id, 2],
      [limitLeg!.id, 1],
    ]);
    expect(orderOf(result)).toMatchObject({ deal_stock: 0n, finish_reason: null });
    expect(x.trade(2, 'BTC')).toEqual({ available: btc('10'), frozen: 0n });
  });

  it('rejects an unknown mode and changes nothing', () => {
    const x = exchange(makeEngine());
    const before = x.engine.stateHash();
    for (const bad of ['cancel_newest', 'decrement', 1, null]) {
      const cmd = { ...limit(2, BUY, '30000', '0.1'), selfTradePrevention: bad };
      const rejection = x.rejected(cmd as unknown as CommandInput);
      expect(rejection).toMatchObject({ code: 'invalid_command', field: 'selfTradePrevention' });
    }
    const stop = { ...stopLimit(2, BUY, '30100', '30300', '0.2'), selfTradePrevention: 'x' };
    expect(x.rejected(stop as unknown as CommandInput).field).toBe('selfTradePrevention');
    expect(x.engine.stateHash()).toBe(before);
  });
});

describe('self-trade prevention across the cores', () => {
  it('gives the same state on both, and a snapshot row with an unknown mode does not restore', () => {
    const hashes = CORES.map(([, makeEngine]) => {
      const x = exchange(makeEngine());
      asksAroundOwn(x);
      x.ok(limit(2, BUY, '30300', '0.3', 'cancelOldest'));
      x.ok({ ...stopLimit(2, SELL, '29000', '28900', '0.1'), selfTradePrevention: 'cancelBoth' });
      return x.engine;
    });
    expect(hashes[0]!.stateHash()).toBe(hashes[1]!.stateHash());
    const snapshot = hashes[0]!.snapshot();
    const row = snapshot.orders.find((r) => r.length > 26)!;
    (row as unknown[])[26] = 'cancelSometimes';
    expect(() => Engine.restore(snapshot)).toThrow(/unknown self-trade prevention/);
  });
});
