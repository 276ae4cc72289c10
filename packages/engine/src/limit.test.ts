import { describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import {
  BUY,
  btc,
  CORES,
  dealsOf,
  MARKET,
  ordersOf,
  SELL,
  TestExchange,
  usdt,
} from './fixtures.js';

function fundedExchange(engine: Engine): TestExchange {
  const x = TestExchange.standard(engine);
  for (const user of [1, 2, 3]) {
    x.fund(user, 'BTC', btc('10'));
    x.fund(user, 'USDT', usdt('1000000'));
  }
  return x;
}

describe.each(CORES)('limit orders on the %s core', (_core, makeEngine) => {
  const exchange = () => fundedExchange(makeEngine());

  it('rest on the book and freeze what they may spend', () => {
    const x = exchange();
    const sell = x.limit(1, SELL, '30000', '0.5');
    expect(sell.left).toBe(btc('0.5'));
    expect(x.trade(1, 'BTC').frozen).toBe(btc('0.5'));
    x.limit(2, BUY, '29000', '1');
    // 29000 for the coin plus the worst fee rate (0.2%): 58 USDT.
    expect(x.trade(2, 'USDT').frozen).toBe(usdt('29058'));
    expect(x.engine.depth(MARKET, 10)).toEqual({
      asks: [[usdt('30000'), btc('0.5')]],
      bids: [[usdt('29000'), btc('1')]],
    });
  });

  it('trade at the maker price and report partial fills', () => {
    const x = exchange();
    const maker = x.limit(1, SELL, '30000', '0.5');
    const result = x.ok({
      type: 'order.limit',
      userId: 2,
      market: MARKET,
      side: BUY,
      price: usdt('31000'),
      amount: btc('0.2'),
      timeInForce: 'GTC',
      source: 'web',
    });
    const [deal] = dealsOf(result);
    expect(deal).toMatchObject({ price: usdt('30000'), amount: btc('0.2'), total: usdt('6000') });
    const types = result.events.map((e) => e.type);
    expect(types).toEqual(['deal', 'balance', 'order.update', 'order.finish']);
    expect(x.engine.order(maker.id)).toMatchObject({ left: btc('0.3'), deal_stock: btc('0.2') });
    // The buyer froze nothing (it filled at once) and paid 6000 + 0.2% from available.
    expect(x.trade(2, 'USDT')).toEqual({ available: usdt('993988'), frozen: 0n });
    expect(x.trade(2, 'BTC').available).toBe(btc('10.2'));
    expect(x.trade(1, 'USDT').available).toBe(usdt('1005994'));
  });

  it('fill orders at one price first come, first served', () => {
    const x = exchange();
    const first = x.limit(1, SELL, '30000', '0.3');
    const second = x.limit(3, SELL, '30000', '0.3');
    const taker = x.limit(2, BUY, '30000', '0.4');
    expect(taker.left).toBe(0n);
    expect(x.engine.order(first.id)).toBeUndefined();
    expect(x.engine.order(second.id)?.left).toBe(btc('0.2'));
  });

  it('fill the better price first, whatever the arrival order', () => {
    const x = exchange();
    const worse = x.limit(1, SELL, '30100', '0.3');
    const better = x.limit(3, SELL, '30000', '0.3');
    const result = x.ok({
      type: 'order.limit',
      userId: 2,
      market: MARKET,
      side: BUY,
      price: usdt('30200'),
      amount: btc('0.4'),
      timeInForce: 'GTC',
      source: 'web',
    });
    expect(dealsOf(result).map((d) => [d.makerOrderId, d.price])).toEqual([
      [better.id, usdt('30000')],
      [worse.id, usdt('30100')],
    ]);
  });

  it('rest the rest of a partly filled taker, and return unspent funds when done', () => {
    const x = exchange();
    x.limit(1, SELL, '30000', '0.1');
    const taker = x.limit(2, BUY, '30500', '0.3');
    expect(taker).toMatchObject({ left: btc('0.2'), deal_stock: btc('0.1'), finish_reason: null });
    expect(x.engine.depth(MARKET, 5).bids).toEqual([[usdt('30500'), btc('0.2')]]);
    x.ok({ type: 'order.cancel', userId: 2, orderId: taker.id });
    expect(x.trade(2, 'USDT').frozen).toBe(0n);
    // Paid 3000 + 6 (taker fee) for 0.1 BTC; everything else is back.
    expect(x.trade(2, 'USDT').available).toBe(usdt('996994'));
  });

  it('IOC cancels what does not fill at once', () => {
    const x = exchange();
    x.limit(1, SELL, '30000', '0.1');
    const ioc = x.limit(2, BUY, '30000', '0.3', 'IOC');
    expect(ioc).toMatchObject({ left: btc('0.2'), finish_reason: 1 });
    expect(x.engine.depth(MARKET, 5).bids).toEqual([]);
    expect(x.trade(2, 'USDT').frozen).toBe(0n);
  });

  it('FOK fills completely or is rejected without a trace', () => {
    const x = exchange();
    x.limit(1, SELL, '30000', '0.1');
    x.limit(3, SELL, '30100', '0.1');
    const before = x.engine.stateHash();
    const rejected = x.rejected({
      type: 'order.limit',
      userId: 2,
      market: MARKET,
      side: BUY,
      price: usdt('30100'),
      amount: btc('0.3'),
      timeInForce: 'FOK',
      source: 'api',
    });
    expect(rejected.code).toBe('fok_not_filled');
    expect(x.engine.stateHash()).toBe(before);
    expect(x.limit(2, BUY, '30100', '0.2', 'FOK')).toMatchObject({ left: 0n, finish_reason: 0 });
  });

  it('post-only never takes', () => {
    const x = exchange();
    x.limit(1, SELL, '30000', '0.1');
    const rejected = x.rejected({
      type: 'order.limit',
      userId: 2,
      market: MARKET,
      side: BUY,
      price: usdt('30000'),
      amount: btc('0.1'),
      timeInForce: 'POST_ONLY',
      source: 'web',
    });
    expect(rejected.code).toBe('post_only_would_take');
    expect(x.limit(2, BUY, '29999.99', '0.1', 'POST_ONLY').finish_reason).toBeNull();
  });

  it('self-trade prevention cancels the newest order, after trading with others', () => {
    const x = exchange();
    const other = x.limit(3, SELL, '29900', '0.1');
    const own = x.limit(2, SELL, '30000', '0.1');
    x.limit(3, SELL, '30100', '0.1');
    const taker = x.limit(2, BUY, '30100', '0.3');
    expect(taker).toMatchObject({ deal_stock: btc('0.1'), left: btc('0.2'), finish_reason: 1 });
    expect(x.engine.order(other.id)).toBeUndefined();
    expect(x.engine.order(own.id)?.left).toBe(btc('0.1'));
    expect(x.trade(2, 'USDT').frozen).toBe(0n);
  });

  it('cancel releases funds; another user cannot cancel it', () => {
    const x = exchange();
    const order = x.limit(1, SELL, '30000', '0.5');
    expect(x.rejected({ type: 'order.cancel', userId: 2, orderId: order.id }).code).toBe(
      'order_not_found',
    );
    const result = x.ok({ type: 'order.cancel', userId: 1, orderId: order.id });
    expect(result.result).toMatchObject({ kind: 'order', order: { finish_reason: 1 } });
    expect(x.trade(1, 'BTC')).toEqual({ available: btc('10'), frozen: 0n });
    expect(x.rejected({ type: 'order.cancel', userId: 1, orderId: order.id }).code).toBe(
      'order_not_found',
    );
  });

  it('cancel all, by market and by coin', () => {
    const x = exchange();
    x.fund(1, 'LTT', 10n * 10n ** 8n);
    x.limit(1, SELL, '30000', '0.1');
    x.limit(1, BUY, '20000', '0.1');
    const lttSell = {
      type: 'order.limit',
      userId: 1,
      market: 'LTT_USDT',
      side: SELL,
      price: usdt('2'),
      amount: 10n ** 8n,
      timeInForce: 'GTC',
      source: 'web',
    } as const;
    x.ok(lttSell);
    const byMarket = x.ok({ type: 'order.cancelAll', userId: 1, market: MARKET });
    expect(byMarket.result).toMatchObject({ kind: 'orders', orders: [{}, {}] });
    expect(x.engine.openOrders(1).map((o) => o.market)).toEqual(['LTT_USDT']);
    x.limit(1, SELL, '30000', '0.1');
    const byCoin = x.ok({ type: 'order.cancelAllByCoin', userId: 1, asset: 'LTT' });
    expect(byCoin.result).toMatchObject({ kind: 'orders', orders: [{ market: 'LTT_USDT' }] });
    // By the money asset: every market it prices.
    x.ok(lttSell);
    const byMoney = x.ok({ type: 'order.cancelAllByCoin', userId: 1, asset: 'USDT' });
    expect(ordersOf(byMoney).map((o) => o.market)).toEqual([MARKET, 'LTT_USDT']);
    expect(x.engine.openOrders(1)).toEqual([]);
    x.limit(1, SELL, '30000', '0.1');
    x.ok(lttSell);
    x.ok({ type: 'order.cancelAll', userId: 1 });
    expect(x.engine.openOrders(1)).toEqual([]);
  });
});
