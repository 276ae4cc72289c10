import { describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import {
  BUY,
  btc,
  CORES,
  dealsOf,
  limitOrder,
  ltt,
  MARKET,
  marketOrder,
  orderOf,
  SELL,
  TestExchange,
  units,
  usdt,
} from './fixtures.js';
import type { Accepted, OrderView, UserId } from './types.js';

function feesOf(x: TestExchange, asset: string): bigint {
  const total = x.engine.assetTotals().find((t) => t.asset === asset)!.total;
  let users = 0n;
  for (const user of [1, 2, 3, 4, 5, 6]) {
    for (const pair of Object.values(x.engine.balances(user)[asset] ?? {})) {
      users += pair.available + pair.frozen;
    }
  }
  return total - users;
}

describe('fees', () => {
  it('charge the taker and maker rates in the money asset', () => {
    const x = TestExchange.standard();
    x.fund(1, 'BTC', btc('1'));
    x.fund(2, 'USDT', usdt('20000'));
    x.limit(1, SELL, '30000', '0.5');
    const result = x.ok({
      type: 'order.limit',
      userId: 2,
      market: MARKET,
      side: BUY,
      price: usdt('30000'),
      amount: btc('0.5'),
      timeInForce: 'GTC',
      source: 'web',
    });
    expect(dealsOf(result)[0]).toMatchObject({
      makerFee: usdt('15'),
      makerFeeAsset: 'USDT',
      takerFee: usdt('30'),
      takerFeeAsset: 'USDT',
    });
    expect(orderOf(result)).toMatchObject({ deal_money: usdt('15000'), deal_fee: usdt('30') });
    expect(x.trade(2, 'USDT').available).toBe(usdt('4970'));
    expect(x.trade(1, 'USDT').available).toBe(usdt('14985'));
    expect(feesOf(x, 'USDT')).toBe(usdt('45'));
  });

  it('round money and fees toward the exchange, the buyer cumulatively per order', () => {
    const x = TestExchange.standard();
    x.addXyzMarket({
      tickSize: usdt('0.01'),
      lotSize: 1n,
      minAmount: 1n,
      makerFeePpm: 1000,
      takerFeePpm: 2000,
    });
    x.fund(1, 'XYZ', 1000n);
    x.fund(3, 'XYZ', 1000n);
    x.fund(2, 'USDT', usdt('1'));
    const sell = {
      type: 'order.limit',
      market: 'XYZ_USDT',
      side: SELL,
      timeInForce: 'GTC',
    } as const;
    x.ok({ ...sell, userId: 1, price: usdt('1.23'), amount: 123n, source: 'web' });
    x.ok({ ...sell, userId: 3, price: usdt('1.23'), amount: 123n, source: 'web' });
    // 246 units at 1.23 are worth 3.0258 minor units; fee 0.2% of that is 0.0060516.
    const result = x.ok({
      type: 'order.limit',
      userId: 2,
      market: 'XYZ_USDT',
      side: BUY,
      price: usdt('1.23'),
      amount: 246n,
      timeInForce: 'GTC',
      source: 'web',
    });
    const buy = orderOf(result);
    expect(buy).toMatchObject({ deal_money: 4n, deal_fee: 1n, left: 0n });
    expect(dealsOf(result).map((d) => [d.total, d.takerFee, d.makerFee])).toEqual([
      [1n, 1n, 1n],
      [1n, 0n, 1n],
    ]);
    expect(x.trade(2, 'USDT').available).toBe(usdt('1') - 5n);
    expect(x.trade(1, 'USDT').available).toBe(0n);
    const rounding = x.engine.assetTotals().find((t) => t.asset === 'USDT')!;
    expect(rounding.total).toBe(rounding.deposited);
    expect(feesOf(x, 'USDT')).toBe(5n); // 3 in fees, 2 in rounding
  });

  it('take the fee in LTT at half price when the custom fee is on', () => {
    const x = TestExchange.standard();
    priceLtt(x, '2');
    expect(x.engine.lastPrice('LTT_USDT')).toBe(usdt('2'));

    const buy = buyPayingLtt(x, 4, usdt('7000'), ltt('10'));
    // Fee 12 USDT, half of it is 6 USDT, at 2 USDT per LTT: 3 LTT.
    expect(buy).toMatchObject({ deal_fee: 0n, deal_fee_ltt: ltt('3'), deal_money: usdt('6000') });
    expect(x.trade(4, 'LTT').available).toBe(ltt('7'));
    expect(x.trade(4, 'USDT')).toEqual({ available: usdt('1000'), frozen: 0n });
  });

  it('fall back to the money fee while LTT has no price', () => {
    const x = TestExchange.standard();
    const buy = buyPayingLtt(x, 4, usdt('7000'), ltt('10'));
    expect(buy).toMatchObject({ deal_fee: usdt('12'), deal_fee_ltt: 0n });
    expect(x.trade(4, 'LTT').available).toBe(ltt('10'));
  });

  it('never let a buy spend more than it froze, however it is filled', () => {
    const x = TestExchange.standard();
    x.addXyzMarket({
      tickSize: usdt('0.01'),
      lotSize: 1n,
      minAmount: 1n,
      makerFeePpm: 2500,
      takerFeePpm: 1000,
    });
    x.fund(1, 'XYZ', units('0.01', 8));
    // 700 units at 0.99 are worth 6.93 minor units, the fee at 0.25% 0.017: 7 + 1 frozen.
    const needed = 8n;
    x.fund(2, 'USDT', needed);
    const buy = x.ok({
      type: 'order.limit',
      userId: 2,
      market: 'XYZ_USDT',
      side: BUY,
      price: usdt('0.99'),
      amount: 700n,
      timeInForce: 'GTC',
      source: 'web',
    });
    expect(x.trade(2, 'USDT').frozen).toBe(needed);
    for (let i = 0; i < 7; i++) {
      x.ok({
        type: 'order.limit',
        userId: 1,
        market: 'XYZ_USDT',
        side: SELL,
        price: usdt('0.99'),
        amount: 100n,
        timeInForce: 'GTC',
        source: 'web',
      });
    }
    expect(x.engine.order(orderOf(buy).id)).toBeUndefined();
    expect(x.trade(2, 'USDT')).toEqual({ available: 0n, frozen: 0n });
    expect(x.trade(2, 'XYZ').available).toBe(700n);
  });
});

/**
 * `buyer`, given `money` USDT and `held` LTT and with fees in LTT on, buys 0.2 BTC at 30,000 (a
 * taker fee of 12 USDT) from user 1, who is given 1 BTC to sell: the buy.
 */
function buyPayingLtt(x: TestExchange, buyer: UserId, money: bigint, held: bigint): OrderView {
  x.fund(1, 'BTC', btc('1'));
  x.fund(buyer, 'USDT', money);
  x.fund(buyer, 'LTT', held);
  x.ok({ type: 'user.setCustomFee', userId: buyer, enabled: true });
  x.limit(1, SELL, '30000', '0.2');
  return x.limit(buyer, BUY, '30000', '0.2');
}

/** BTC_LTT: BTC priced in LTT to the hundredth, in lots of 0.0001 BTC. */
const btcLtt = {
  type: 'market.add',
  name: 'BTC_LTT',
  stock: 'BTC',
  money: 'LTT',
  tickSize: ltt('0.01'),
  lotSize: btc('0.0001'),
  minAmount: btc('0.001'),
  pricePrecision: 2,
  amountPrecision: 4,
  makerFeePpm: 1000,
  takerFeePpm: 2000,
} as const;

/**
 * User 2, given 6,000 USDT and `held` LTT and with fees in LTT on, buys by total for 6,000 USDT:
 * the result.
 */
function buyFor6000PayingLtt(x: TestExchange, held: bigint): Accepted {
  x.fund(2, 'USDT', usdt('6000'));
  x.fund(2, 'LTT', held);
  x.ok({ type: 'user.setCustomFee', userId: 2, enabled: true });
  return x.ok(marketOrder(2, BUY, { total: usdt('6000') }));
}

/** LTT_USDT's last price at `price` USDT: user 5 sells user 6 one LTT. */
function priceLtt(x: TestExchange, price: string): void {
  x.fund(5, 'LTT', ltt('1'));
  x.fund(6, 'USDT', usdt(price) * 2n);
  const lttOrder = { type: 'order.limit', market: 'LTT_USDT', timeInForce: 'GTC' } as const;
  const order = { ...lttOrder, price: usdt(price), amount: ltt('1'), source: 'web' } as const;
  x.ok({ ...order, userId: 5, side: SELL });
  x.ok({ ...order, userId: 6, side: BUY });
}

/**
 * A user (4) paying fees in LTT with 200 million LTT (past 2^53 minor units), and LTT priced at
 * `lttPrice` USDT. On BTC_USDT a fee of f USDT (the taker's 0.2%) is f / 2 / lttPrice LTT.
 */
function cheapLtt(engine: Engine, lttPrice: string): TestExchange {
  const x = TestExchange.standard(engine);
  priceLtt(x, lttPrice);
  x.fund(1, 'BTC', btc('1000'));
  x.fund(1, 'USDT', usdt('1000000000'));
  x.fund(4, 'BTC', btc('40000'));
  x.fund(4, 'USDT', usdt('100000000'));
  x.fund(4, 'LTT', ltt('200000000'));
  x.ok({ type: 'user.setCustomFee', userId: 4, enabled: true });
  return x;
}

describe.each(CORES)('fees in LTT on the %s core', (core, makeEngine) => {
  it('reach exactly 2^53 − 1 minor units in one order, and not one lot more', () => {
    // At 0.0101 USDT a fill's fee in LTT is ⌈1000 × lots × ticks / 101⌉ minor units: 0.556 BTC
    // at 228,652.39 then 30,319.9998 BTC at 30,000 make 2^53 − 1 for a seller paying the taker
    // rate; one more lot in the first fill takes the second past it, into money.
    for (const [first, total] of [
      ['0.556', '30320.5558'],
      ['0.5561', '30320.5559'],
    ] as const) {
      const x = cheapLtt(makeEngine(), '0.0101');
      x.limit(1, BUY, '228652.39', first);
      x.limit(1, BUY, '30000', '30319.9998');
      const sell = x.ok(limitOrder(4, SELL, '30000', total));
      const fees = dealsOf(sell).map((d) => d.takerFeeAsset);
      if (first === '0.556') {
        expect(orderOf(sell)).toMatchObject({ deal_fee_ltt: 2n ** 53n - 1n, deal_fee: 0n });
        expect(fees).toEqual(['LTT', 'LTT']);
      } else {
        expect(orderOf(sell)).toMatchObject({
          deal_fee_ltt: 1_258_946_476_030n,
          deal_fee: usdt('1819199.988'),
        });
        expect(fees).toEqual(['LTT', 'USDT']);
      }
      expect(x.trade(4, 'LTT').available).toBe(ltt('200000000') - orderOf(sell).deal_fee_ltt);
      expect(x.engine.coreName).toBe(core);
    }
  });

  it('fall back to the money fee, whole, when the LTT available does not cover it', () => {
    // LTT at 2 USDT: a taker fee of 12 USDT is 3 LTT, one of 30 USDT 7.5 LTT. User 2 holds 5.
    const x = TestExchange.standard(makeEngine());
    priceLtt(x, '2');
    const first = buyPayingLtt(x, 2, usdt('30000'), ltt('5'));
    expect(first).toMatchObject({ deal_fee: 0n, deal_fee_ltt: ltt('3') });
    expect(x.trade(2, 'LTT').available).toBe(ltt('2'));
    x.limit(1, SELL, '30000', '0.5');
    const second = x.ok(limitOrder(2, BUY, '30000', '0.5'));
    expect(orderOf(second)).toMatchObject({ deal_fee: usdt('30'), deal_fee_ltt: 0n });
    expect(dealsOf(second)[0]).toMatchObject({ takerFee: usdt('30'), takerFeeAsset: 'USDT' });
    expect(x.trade(2, 'LTT').available).toBe(ltt('2'));
    expect(x.trade(2, 'USDT')).toEqual({
      available: usdt('30000') - usdt('6000') - usdt('15030'),
      frozen: 0n,
    });
    expect(x.engine.coreName).toBe(core);
  });

  it('take the fee in LTT when the LTT available is exactly the fee, on either side', () => {
    // LTT at 2 USDT. 0.2 BTC at 30,000: a taker fee of 12 USDT, 3 LTT; a maker fee of 6 USDT,
    // 1.5 LTT.
    const x = TestExchange.standard(makeEngine());
    priceLtt(x, '2');
    const buy = buyPayingLtt(x, 2, usdt('30000'), ltt('3'));
    expect(buy).toMatchObject({ deal_fee: 0n, deal_fee_ltt: ltt('3') });
    expect(x.trade(2, 'LTT').available).toBe(0n);
    x.fund(3, 'BTC', btc('0.2'));
    x.fund(3, 'LTT', ltt('1.5'));
    x.ok({ type: 'user.setCustomFee', userId: 3, enabled: true });
    x.limit(3, SELL, '30000', '0.2');
    x.fund(1, 'USDT', usdt('6012'));
    const taken = x.ok(limitOrder(1, BUY, '30000', '0.2'));
    expect(dealsOf(taken)[0]).toMatchObject({ makerFee: ltt('1.5'), makerFeeAsset: 'LTT' });
    expect(x.trade(3, 'LTT').available).toBe(0n);
    expect(x.trade(3, 'USDT').available).toBe(usdt('6000'));
    expect(x.engine.coreName).toBe(core);
  });

  it('take a fee past the cap in money, on either side, and the next order pays in LTT again', () => {
    // At 0.0001 USDT, 400 BTC at 30,000: a fee of 24,000 USDT, 1.2 × 10^16 LTT minor units.
    const x = cheapLtt(makeEngine(), '0.0001');
    x.limit(1, SELL, '30000', '400');
    const buy = x.limit(4, BUY, '30000', '400');
    expect(buy).toMatchObject({ deal_fee: usdt('24000'), deal_fee_ltt: 0n });
    x.limit(1, BUY, '30000', '400');
    const sell = x.limit(4, SELL, '30000', '400');
    expect(sell).toMatchObject({ deal_fee: usdt('24000'), deal_fee_ltt: 0n });
    expect(x.trade(4, 'LTT').available).toBe(ltt('200000000'));
    // One BTC: a fee of 60 USDT, 300,000 LTT.
    x.limit(1, SELL, '30000', '1');
    expect(x.limit(4, BUY, '30000', '1')).toMatchObject({
      deal_fee: 0n,
      deal_fee_ltt: ltt('300000'),
    });
    expect(x.trade(4, 'LTT').available).toBe(ltt('199700000'));
    expect(x.engine.coreName).toBe(core);
  });

  it('of nothing, on a market without a maker fee, move nothing and write no leg', () => {
    // XYZ_USDT charges takers 0.2% and makers nothing; the maker pays its fees in LTT.
    const x = TestExchange.standard(makeEngine());
    priceLtt(x, '2');
    x.addXyzMarket({ tickSize: usdt('0.01'), lotSize: 1n, takerFeePpm: 2000 });
    x.fund(3, 'XYZ', 100_000n);
    x.fund(3, 'LTT', ltt('10'));
    x.ok({ type: 'user.setCustomFee', userId: 3, enabled: true });
    x.fund(2, 'USDT', usdt('2000'));
    const order = {
      type: 'order.limit',
      market: 'XYZ_USDT',
      timeInForce: 'GTC',
      source: 'web',
    } as const;
    x.ok({ ...order, userId: 3, side: SELL, price: usdt('10'), amount: 100_000n });
    const taken = x.ok({ ...order, userId: 2, side: BUY, price: usdt('10'), amount: 100_000n });
    expect(dealsOf(taken)[0]).toMatchObject({ makerFee: 0n, takerFee: 20n });
    const legs = taken.events.flatMap((e) => (e.type === 'balance' ? e.legs : []));
    expect(legs.filter((l) => l.availableDelta === 0n && l.frozenDelta === 0n)).toEqual([]);
    expect(legs.filter((l) => l.asset === 'LTT')).toEqual([]);
    expect(x.trade(3, 'LTT')).toEqual({ available: ltt('10'), frozen: 0n });
    expect(x.trade(3, 'USDT').available).toBe(10_000n);
    expect(x.engine.coreName).toBe(core);
  });

  it('let a market buy by total spend its whole total when the fee is taken in LTT', () => {
    // LTT at 2 USDT; 6,000 USDT at 30,000 is 0.2 BTC, whose taker fee of 12 USDT is 3 LTT, in
    // one fill. A user with one minor unit of LTT less than 3 gets the 0.1996 BTC that keep room
    // for a fee in money (5,988 USDT, a fee of 2.994 LTT), then, in a fill of its own, the 0.0003
    // that the 12 USDT left buy the same way (a fee of 0.0045 LTT); the 0.0015 LTT that one lot
    // more would take is one minor unit more than is left.
    for (const [held, bought, spent, feeLtt, fills] of [
      [ltt('10'), '0.2', '6000', '3', 1],
      [ltt('3'), '0.2', '6000', '3', 1],
      [ltt('3') - 1n, '0.1999', '5997', '2.9985', 2],
    ] as const) {
      const x = TestExchange.standard(makeEngine());
      priceLtt(x, '2');
      x.fund(1, 'BTC', btc('1'));
      x.limit(1, SELL, '30000', '1');
      const result = buyFor6000PayingLtt(x, held);
      expect(dealsOf(result)).toHaveLength(fills);
      expect(orderOf(result)).toMatchObject({
        deal_stock: btc(bought),
        deal_money: usdt(spent),
        deal_fee: 0n,
        deal_fee_ltt: ltt(feeLtt),
        left: usdt('6000') - usdt(spent),
      });
      expect(x.trade(2, 'USDT')).toEqual({ available: usdt('6000') - usdt(spent), frozen: 0n });
      expect(x.trade(2, 'LTT')).toEqual({ available: held - ltt(feeLtt), frozen: 0n });
      expect(x.engine.coreName).toBe(core);
    }
  });

  it('let a buy by total take all a maker has when its fee in LTT is covered', () => {
    // 0.1998 BTC at 30,000 (5,994 USDT, a fee of 2.997 LTT) is more than the 0.1996 that keep
    // room for a fee in money, and less than the 0.2 the whole 6,000 USDT would buy, whose fee,
    // 3 LTT, the buyer could not pay.
    const x = TestExchange.standard(makeEngine());
    priceLtt(x, '2');
    x.fund(1, 'BTC', btc('0.1998'));
    x.limit(1, SELL, '30000', '0.1998');
    const result = buyFor6000PayingLtt(x, ltt('2.997'));
    // In one fill: not 0.1996 first, then the 0.0002 left in a second.
    expect(dealsOf(result)).toHaveLength(1);
    expect(orderOf(result)).toMatchObject({
      deal_stock: btc('0.1998'),
      deal_money: usdt('5994'),
      deal_fee: 0n,
      deal_fee_ltt: ltt('2.997'),
    });
    expect(x.trade(2, 'LTT').available).toBe(0n);
    expect(x.engine.coreName).toBe(core);
  });

  it('keep room for a fee in money in a buy by total whose fee in LTT would pass the cap', () => {
    // LTT at 0.0101 USDT: what 1,000,000,000 USDT buys at 30,000 would pay 99,009,901 LTT, past
    // the 2^53 − 1 minor units (about 90,071,992 LTT) an order may pay in LTT; so would the
    // 33,266.7997 BTC that keep room for a fee in money, which pay their fee in money.
    const x = cheapLtt(makeEngine(), '0.0101');
    x.fund(1, 'BTC', btc('40000'));
    x.limit(1, SELL, '30000', '40000');
    x.fund(5, 'USDT', usdt('1000000000'));
    x.fund(5, 'LTT', ltt('200000000'));
    x.ok({ type: 'user.setCustomFee', userId: 5, enabled: true });
    const buy = orderOf(x.ok(marketOrder(5, BUY, { total: usdt('1000000000') })));
    expect(buy).toMatchObject({ deal_stock: btc('33266.7997'), deal_fee_ltt: 0n });
    expect(buy.deal_money + buy.deal_fee).toBeLessThanOrEqual(usdt('1000000000'));
    expect(x.trade(5, 'LTT').available).toBe(ltt('200000000'));
    expect(x.engine.coreName).toBe(core);
  });

  it('let a buy by total spend to the last lot over two prices, its fees in LTT', () => {
    // 0.1 BTC at 30,000 (3,000 USDT, a fee of 1.5 LTT), then the 3,000 USDT left buys 967 lots
    // at 31,000 (2,997.70 USDT, a fee of 1.49885 LTT), not the 965 that keep room for a fee.
    const x = TestExchange.standard(makeEngine());
    priceLtt(x, '2');
    x.fund(1, 'BTC', btc('0.1'));
    x.limit(1, SELL, '30000', '0.1');
    x.fund(3, 'BTC', btc('1'));
    x.limit(3, SELL, '31000', '1');
    const buy = orderOf(buyFor6000PayingLtt(x, ltt('10')));
    expect(buy).toMatchObject({
      deal_stock: btc('0.1967'),
      deal_money: usdt('5997.7'),
      deal_fee: 0n,
      deal_fee_ltt: ltt('2.99885'),
    });
    expect(x.trade(2, 'USDT').available).toBe(usdt('2.3'));
    expect(x.engine.coreName).toBe(core);
  });

  it('keep room for a fee in money in a buy by total when the LTT would not cover the whole', () => {
    // 2.99 LTT: the fee of a 6,000 USDT buy would be 3 LTT, and that of the 0.1996 BTC that
    // leaves room for the money fee 2.994 LTT: the buy pays its fee in money, within its total.
    const x = TestExchange.standard(makeEngine());
    priceLtt(x, '2');
    x.fund(1, 'BTC', btc('1'));
    x.limit(1, SELL, '30000', '1');
    const buy = orderOf(buyFor6000PayingLtt(x, ltt('2.99')));
    expect(buy).toMatchObject({
      deal_stock: btc('0.1996'),
      deal_money: usdt('5988'),
      deal_fee: usdt('11.976'),
      deal_fee_ltt: 0n,
    });
    expect(x.trade(2, 'USDT').available).toBe(usdt('0.024'));
    expect(x.trade(2, 'LTT').available).toBe(ltt('2.99'));
    expect(x.engine.coreName).toBe(core);
  });

  it('count fees in LTT against a buy by total on a market priced in LTT, and stop within it', () => {
    // Its fees in LTT come out of the balance its total does. 3,006 LTT at 15,000: 0.2 BTC
    // (3,000 LTT and a fee of 3, half the money fee of 6), then one lot of 0.0001 (1.5 and a fee
    // of 0.0015): 3,004.5015 in all. Two lots more would pass 3,006; counting only fees in
    // money, it took three lots more, and with them more LTT than it had, which halted the engine.
    const x = TestExchange.standard(makeEngine());
    x.ok(btcLtt);
    x.fund(1, 'BTC', btc('1'));
    const order = { type: 'order.limit', market: 'BTC_LTT', timeInForce: 'GTC' } as const;
    x.ok({ ...order, userId: 1, side: SELL, price: ltt('15000'), amount: btc('1'), source: 'web' });
    x.fund(4, 'LTT', ltt('3006'));
    x.ok({ type: 'user.setCustomFee', userId: 4, enabled: true });
    const buy = x.ok({ ...marketOrder(4, BUY, { total: ltt('3006') }), market: 'BTC_LTT' });
    expect(orderOf(buy)).toMatchObject({
      deal_stock: btc('0.2001'),
      deal_money: ltt('3001.5'),
      deal_fee: 0n,
      deal_fee_ltt: ltt('3.0015'),
    });
    expect(x.trade(4, 'LTT')).toEqual({ available: ltt('1.4985'), frozen: 0n });
    expect(x.engine.coreName).toBe(core);
  });

  it('leave a taker selling LTT the LTT it sells: its fee in LTT comes from what is beyond it', () => {
    // LTT at 2 USDT; user 1 bids for 100 LTT. Selling 100 LTT for 200 USDT, a taker fee of 0.4
    // USDT, 0.1 LTT. Taken from the LTT being sold, it left the seller 0.1 LTT short, and
    // halted the engine.
    const sellAll = (held: bigint, order: 'limit' | 'market', bid = '100') => {
      const x = TestExchange.standard(makeEngine());
      priceLtt(x, '2');
      x.fund(1, 'USDT', usdt('201'));
      const lttOrder = { market: 'LTT_USDT', source: 'web' } as const;
      const bidOrder = { ...lttOrder, type: 'order.limit', timeInForce: 'GTC' } as const;
      x.ok({ ...bidOrder, userId: 1, side: BUY, price: usdt('2'), amount: ltt(bid) });
      x.fund(2, 'LTT', held);
      x.ok({ type: 'user.setCustomFee', userId: 2, enabled: true });
      const sell =
        order === 'limit'
          ? x.ok({ ...bidOrder, userId: 2, side: SELL, price: usdt('2'), amount: ltt('100') })
          : x.ok({ ...marketOrder(2, SELL, { amount: ltt('100') }), ...lttOrder });
      expect(x.engine.coreName).toBe(core);
      return { x, sell: orderOf(sell) };
    };
    for (const order of ['limit', 'market'] as const) {
      // All the LTT it has, or 0.1 LTT short of the fee beside it: the fee in money.
      for (const held of [ltt('100'), ltt('100.1') - 1n]) {
        const { x, sell } = sellAll(held, order);
        expect(sell).toMatchObject({ deal_stock: ltt('100'), deal_fee: usdt('0.4') });
        expect(sell.deal_fee_ltt).toBe(0n);
        expect(x.trade(2, 'LTT')).toEqual({ available: held - ltt('100'), frozen: 0n });
        expect(x.trade(2, 'USDT').available).toBe(usdt('199.6'));
      }
      // The fee beside it: in LTT.
      const { x, sell } = sellAll(ltt('100.1'), order);
      expect(sell).toMatchObject({ deal_fee: 0n, deal_fee_ltt: ltt('0.1') });
      expect(x.trade(2, 'LTT')).toEqual({ available: 0n, frozen: 0n });
      expect(x.trade(2, 'USDT').available).toBe(usdt('200'));
    }
    // Half of it filled as a taker (its fee in money), the rest of the LTT frozen on the book;
    // filled there as a maker, its fee in LTT would come from LTT beyond what is frozen.
    const { x, sell } = sellAll(ltt('100'), 'limit', '50');
    expect(sell).toMatchObject({ deal_stock: ltt('50'), deal_fee: usdt('0.2'), left: ltt('50') });
    expect(x.trade(2, 'LTT')).toEqual({ available: 0n, frozen: ltt('50') });
  });

  it('freeze a buy on a market priced in LTT first: its fees in LTT come from LTT beyond it', () => {
    // Twelve asks of one lot at 0.01 LTT (100 minor units each, a taker fee of 0.2 of a unit in
    // money). The buy of all twelve needs 1,200 units and a fee in money of 3 (2.4 rounded up
    // once); in LTT each fill's fee rounds up on its own, 1 unit each. Taking those from what the
    // buy was paying with left it 9 units short, and halted the engine.
    for (const kind of ['market', 'limit'] as const) {
      for (const [held, feeLtt, fee, left] of [
        [1_203n, 0n, 3n, 0n],
        [1_215n, 12n, 0n, 3n],
      ] as const) {
        const x = TestExchange.standard(makeEngine());
        x.ok({ ...btcLtt, minAmount: btc('0.0001') });
        x.fund(1, 'BTC', btc('1'));
        const order = { type: 'order.limit', market: 'BTC_LTT', timeInForce: 'GTC' } as const;
        const ask = { ...order, userId: 1, side: SELL, price: ltt('0.01'), amount: btc('0.0001') };
        for (let i = 0; i < 12; i++) x.ok({ ...ask, source: 'web' });
        x.fund(4, 'LTT', held);
        x.ok({ type: 'user.setCustomFee', userId: 4, enabled: true });
        const buy =
          kind === 'market'
            ? { ...marketOrder(4, BUY, { amount: btc('0.0012') }), market: 'BTC_LTT' }
            : { ...ask, userId: 4, side: BUY, amount: btc('0.0012'), source: 'api' as const };
        const result = x.ok(buy);
        expect(dealsOf(result)).toHaveLength(12);
        expect(orderOf(result)).toMatchObject({
          deal_stock: btc('0.0012'),
          deal_money: 1_200n,
          deal_fee: fee,
          deal_fee_ltt: feeLtt,
        });
        expect(x.trade(4, 'LTT')).toEqual({ available: left, frozen: 0n });
        expect(x.engine.coreName).toBe(core);
      }
    }
  });

  it('on a market priced in LTT are half its money fee, rounded toward the exchange', () => {
    const x = TestExchange.standard(makeEngine());
    x.ok(btcLtt);
    x.fund(1, 'BTC', btc('1'));
    x.fund(4, 'LTT', ltt('4000'));
    x.ok({ type: 'user.setCustomFee', userId: 4, enabled: true });
    const order = {
      type: 'order.limit',
      market: 'BTC_LTT',
      timeInForce: 'GTC',
      source: 'web',
    } as const;
    const trade = (price: string, amount: string) => {
      x.ok({ ...order, userId: 1, side: SELL, price: ltt(price), amount: btc(amount) });
      return x.ok({ ...order, userId: 4, side: BUY, price: ltt(price), amount: btc(amount) });
    };
    // 0.2 BTC at 15,000 LTT: 3,000 LTT, a taker fee of 6 LTT, of which the buyer pays half.
    const whole = trade('15000', '0.2');
    expect(orderOf(whole)).toMatchObject({ deal_money: ltt('3000'), deal_fee_ltt: ltt('3') });
    expect(dealsOf(whole)[0]).toMatchObject({
      makerFee: ltt('3'),
      makerFeeAsset: 'LTT',
      takerFee: ltt('3'),
      takerFeeAsset: 'LTT',
    });
    expect(x.trade(4, 'LTT')).toEqual({ available: ltt('997'), frozen: 0n });
    // 0.0011 BTC at 0.01 LTT: 1,100 minor units; the fee in money would be 2.2 of them, in LTT
    // at half 1.1, so 2.
    const small = trade('0.01', '0.0011');
    expect(orderOf(small)).toMatchObject({ deal_money: 1_100n, deal_fee_ltt: 2n, deal_fee: 0n });
    expect(x.trade(4, 'LTT')).toEqual({ available: ltt('997') - 1_102n, frozen: 0n });
    expect(x.trade(1, 'LTT').available).toBe(ltt('2997') + 1_100n - 2n);
    expect(feesOf(x, 'LTT')).toBe(ltt('6') + 4n);
    expect(x.engine.coreName).toBe(core);
  });
});
