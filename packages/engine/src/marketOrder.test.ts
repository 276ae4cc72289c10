import { describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import {
  BUY,
  btc,
  CORES,
  dealsOf,
  marketOrder,
  orderOf,
  SELL,
  TestExchange,
  usdt,
} from './fixtures.js';

function fundedExchange(engine: Engine): TestExchange {
  const x = TestExchange.standard(engine);
  for (const user of [1, 2, 3]) {
    x.fund(user, 'BTC', btc('10'));
    x.fund(user, 'USDT', usdt('100000'));
  }
  return x;
}

describe.each(CORES)('market orders on the %s core', (_core, makeEngine) => {
  const exchange = () => fundedExchange(makeEngine());

  it("say 'Not enough liquidity' when the other side is empty", () => {
    const x = exchange();
    const before = x.engine.stateHash();
    const rejected = x.rejected(marketOrder(2, BUY, { amount: btc('0.1') }));
    expect(rejected).toMatchObject({
      code: 'not_enough_liquidity',
      message: 'Not enough liquidity',
    });
    expect(x.engine.stateHash()).toBe(before);
  });

  it('sweep price levels best first and finish filled', () => {
    const x = exchange();
    x.limit(1, BUY, '30000', '0.1');
    x.limit(3, BUY, '29900', '0.2');
    const result = x.ok(marketOrder(2, SELL, { amount: btc('0.25') }));
    expect(dealsOf(result).map((d) => [d.price, d.amount])).toEqual([
      [usdt('30000'), btc('0.1')],
      [usdt('29900'), btc('0.15')],
    ]);
    expect(orderOf(result)).toMatchObject({ type: 2, left: 0n, finish_reason: 0 });
    expect(result.events.filter((e) => e.type.startsWith('order.')).at(-1)?.type).toBe(
      'order.finish',
    );
  });

  it('finish with reason 3 when the book runs out', () => {
    const x = exchange();
    x.limit(1, SELL, '30000', '0.1');
    const order = orderOf(x.ok(marketOrder(2, BUY, { amount: btc('0.3') })));
    expect(order).toMatchObject({ deal_stock: btc('0.1'), left: btc('0.2'), finish_reason: 3 });
  });

  it('a buy by total that spends all its total on the last ask is filled, not out of book', () => {
    const x = exchange();
    x.limit(1, SELL, '30000', '0.1');
    // 0.1 BTC at 30000 and the taker's fee of 0.2%, to the minor unit; one more takes the book.
    const spent = orderOf(x.ok(marketOrder(2, BUY, { total: usdt('3006') })));
    expect(spent).toMatchObject({ deal_stock: btc('0.1'), left: 0n, finish_reason: 0 });
    x.limit(1, SELL, '30000', '0.1');
    const more = orderOf(x.ok(marketOrder(2, BUY, { total: usdt('3006.000001') })));
    expect(more).toMatchObject({ deal_stock: btc('0.1'), left: 1n, finish_reason: 3 });
  });

  it('buy by total spends at most the total, fee included', () => {
    const x = exchange();
    x.limit(1, SELL, '30000', '0.1');
    x.limit(3, SELL, '31000', '1');
    const order = orderOf(x.ok(marketOrder(2, BUY, { total: usdt('10000') })));
    expect(order.amount).toBe(0n);
    expect(order.total).toBe(usdt('10000'));
    expect(order.deal_money + order.deal_fee).toBeLessThanOrEqual(usdt('10000'));
    // 0.1 at 30000 (3006 with fee), then 0.2251 at 31000 (6978.10 + 13.9562 fee): one more
    // lot would cost 6995.16 of the 6994 left.
    expect(order.deal_stock).toBe(btc('0.3251'));
    expect(order.deal_money + order.deal_fee).toBe(usdt('9998.0562'));
    expect(order.left).toBe(usdt('10000') - order.deal_money - order.deal_fee);
    expect(x.trade(2, 'USDT').available).toBe(usdt('100000') - order.deal_money - order.deal_fee);
  });

  it('check the balance before buying', () => {
    const x = exchange();
    x.limit(1, SELL, '30000', '10');
    x.limit(3, BUY, '29000', '1');
    const before = x.engine.stateHash();
    expect(x.rejected(marketOrder(2, BUY, { amount: btc('4') })).code).toBe('insufficient_balance');
    expect(x.rejected(marketOrder(2, BUY, { total: usdt('100001') })).code).toBe(
      'insufficient_balance',
    );
    expect(x.rejected(marketOrder(2, SELL, { amount: btc('11') })).code).toBe(
      'insufficient_balance',
    );
    expect(x.engine.stateHash()).toBe(before);
  });

  it('check a buy by amount for its cost with the fee at the taker rate, to the minor unit', () => {
    const x = exchange();
    x.limit(1, SELL, '30000', '2');
    // 1 BTC at 30,000 costs 30,000 and a taker fee of 60 (the maker rate would make it 30).
    x.fund(4, 'USDT', usdt('30059.999999'));
    const before = x.engine.stateHash();
    expect(x.rejected(marketOrder(4, BUY, { amount: btc('1') })).code).toBe('insufficient_balance');
    expect(x.engine.stateHash()).toBe(before);
    x.fund(5, 'USDT', usdt('30060'));
    expect(orderOf(x.ok(marketOrder(5, BUY, { amount: btc('1') })))).toMatchObject({
      deal_stock: btc('1'),
      deal_money: usdt('30000'),
      deal_fee: usdt('60'),
    });
    expect(x.trade(5, 'USDT')).toEqual({ available: 0n, frozen: 0n });
  });

  it('take exactly one of amount and total, and total only for a buy', () => {
    const x = exchange();
    x.limit(1, SELL, '30000', '1');
    x.limit(1, BUY, '29000', '1');
    expect(x.rejected(marketOrder(2, BUY, {})).code).toBe('invalid_command');
    expect(x.rejected(marketOrder(2, BUY, { amount: btc('1'), total: usdt('1') })).code).toBe(
      'invalid_command',
    );
    expect(x.rejected(marketOrder(2, SELL, { total: usdt('1000') })).code).toBe('invalid_command');
    expect(x.rejected(marketOrder(2, BUY, { total: usdt('0.01') })).code).toBe('amount_too_small');
  });
});
