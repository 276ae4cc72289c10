// How much a market buy by total takes at one price: the most whole lots whose cumulative cost,
// money and fee each rounded up, stays within the budget.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ceilDiv } from './bigmath.js';
import { BUY, CORES, orderOf, SELL, TestExchange, usdt } from './fixtures.js';
import { Market } from './market.js';
import { affordable, budgetFeeNum } from './match.js';

/** A market priced in LTT: BTC_LTT, a tick of one minor unit, lots of one. */
const btcLttRules = {
  name: 'BTC_LTT',
  stock: 'BTC',
  money: 'LTT',
  tickSize: 1n,
  lotSize: 1n,
  minAmount: 1n,
  pricePrecision: 8,
  amountPrecision: 8,
  makerFeePpm: 1000,
  takerFeePpm: 2000,
};

function xyzMarket(lotSize: bigint, takerFeePpm: number, stockDecimals: number): Market {
  const rules = {
    name: 'XYZ_USDT',
    stock: 'XYZ',
    money: 'USDT',
    tickSize: 1n,
    lotSize,
    minAmount: lotSize,
    pricePrecision: 6,
    amountPrecision: stockDecimals,
    makerFeePpm: 0,
    takerFeePpm,
  };
  return new Market(rules, { decimals: stockDecimals, index: 0 }, { decimals: 6, index: 1 });
}

/**
 * What a buy has paid in all, money and fee, after taking `amount` more at `price` with a fee in
 * money at `rate` (ppm).
 */
function paid(
  m: Market,
  moneyNum: bigint,
  feeNum: bigint,
  amount: bigint,
  price: bigint,
  rate: bigint,
): bigint {
  const money = ceilDiv(moneyNum + amount * price, m.scale);
  return money + ceilDiv(feeNum + amount * price * rate, m.feeScale);
}

const big = (min: number, max: number) => fc.bigInt({ min: BigInt(min), max: BigInt(max) });

describe('affordable', () => {
  it('is the most whole lots the budget pays for, money and fee rounded up', () => {
    // The fee's rate is the taker's, or none for a fill whose fee is paid in LTT.
    fc.assert(
      fc.property(
        fc.record({
          decimals: fc.integer({ min: 0, max: 18 }),
          lot: fc.oneof(big(1, 10), big(1, 10 ** 8)),
          fee: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 10_000 })),
          price: fc.oneof(big(1, 1000), big(1, 10 ** 12)),
          total: fc.oneof(big(0, 1000), big(0, 10 ** 15)),
          // What the buy took before, at another price.
          before: fc.tuple(big(0, 10 ** 12), big(1, 10 ** 12)),
          feeInLtt: fc.boolean(),
        }),
        ({ decimals, lot, fee, price, total, before, feeInLtt }) => {
          const m = xyzMarket(lot, fee, decimals);
          const moneyNum = before[0] * before[1];
          const feeNum = moneyNum * m.takerFee;
          const rate = feeInLtt ? 0n : m.takerFee;
          fc.pre(paid(m, moneyNum, feeNum, 0n, price, rate) <= total);
          const amount = affordable(m, total, moneyNum, feeNum, price, rate);
          expect(amount % lot).toBe(0n);
          expect(paid(m, moneyNum, feeNum, amount, price, rate)).toBeLessThanOrEqual(total);
          expect(paid(m, moneyNum, feeNum, amount + lot, price, rate)).toBeGreaterThan(total);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('a buy by total on a market priced in LTT', () => {
  it('stays within its total, the next fill paying its fee in money or in LTT', () => {
    // There its fees in LTT come out of the total too (budgetFeeNum). A fee in LTT is half the
    // fee in money, each fill's rounded up on its own; fees in money round up on the order's sum.
    const m = new Market(btcLttRules, { decimals: 8, index: 0 }, { decimals: 8, index: 1 });
    fc.assert(
      fc.property(
        fc.record({
          price: fc.oneof(big(1, 10 ** 9), big(10 ** 7, 10 ** 9)),
          // What the total leaves after the earlier fills: tight, or not.
          room: fc.oneof(big(0, 10), big(0, 10 ** 6)),
          // Earlier fills: their value and fees in money (numerators), and fees in LTT.
          moneyNum: big(0, 10 ** 18),
          feeNum: big(0, 10 ** 18),
          dealFeeLtt: big(0, 10 ** 6),
        }),
        ({ price, room, moneyNum, feeNum, dealFeeLtt }) => {
          const spent = ceilDiv(moneyNum, m.scale) + ceilDiv(feeNum, m.feeScale) + dealFeeLtt;
          const total = spent + room;
          const base = budgetFeeNum(m, feeNum, dealFeeLtt);
          const amount = affordable(m, total, moneyNum, base, price, m.takerFee);
          const x = amount * price;
          const money = ceilDiv(moneyNum + x, m.scale);
          const inMoney = money + ceilDiv(feeNum + x * m.takerFee, m.feeScale) + dealFeeLtt;
          const inLtt =
            money +
            ceilDiv(feeNum, m.feeScale) +
            dealFeeLtt +
            ceilDiv(x * m.takerFee, m.feeScale * 2n);
          expect(inMoney).toBeLessThanOrEqual(total);
          expect(inLtt).toBeLessThanOrEqual(total);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe.each(CORES)('a market buy by total on the %s core', (_core, makeEngine) => {
  it('spends its whole total where a lot is worth a hundredth of a minor unit', () => {
    // One minor unit of XYZ at 1.00 USDT costs 0.01 of a micro-USDT: the two round-ups of
    // money and fee leave about a hundred lots between the amount that surely fits and the
    // most that could.
    const x = TestExchange.standard(makeEngine());
    x.addXyzMarket({ tickSize: usdt('0.01'), lotSize: 1n, takerFeePpm: 2000 });
    x.fund(1, 'XYZ', 2n * 10n ** 8n);
    x.fund(2, 'USDT', usdt('1'));
    const order = { market: 'XYZ_USDT', source: 'web' } as const;
    x.ok({
      ...order,
      type: 'order.limit',
      userId: 1,
      side: SELL,
      price: usdt('1'),
      amount: 2n * 10n ** 8n,
      timeInForce: 'GTC',
    });
    const buy = orderOf(
      x.ok({ ...order, type: 'order.market', userId: 2, side: BUY, total: usdt('1') }),
    );
    // 0.998003 XYZ: 0.998003 USDT and a fee of 0.001996006, rounded up to 0.001997. One more
    // minor unit of XYZ would cost 0.99800301, rounded up to 0.998004.
    expect(buy).toMatchObject({ deal_stock: 99_800_300n, deal_money: 998_003n, deal_fee: 1997n });
    expect(x.trade(2, 'USDT')).toEqual({ available: 0n, frozen: 0n });
  });
});
