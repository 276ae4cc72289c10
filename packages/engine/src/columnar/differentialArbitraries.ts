// For the property test of the two cores: the fast-check arbitraries that commands are built
// of, each field mostly valid and now and then malformed, and the order commands (limit,
// market, stop-limit, OCO) on a generated market. The steps that combine them live in
// differentialSteps.ts; this split keeps the fields apart from the mix of commands.
import fc from 'fast-check';
import type { Step } from './differentialHarness.js';
import {
  amountStep,
  LATER_SHAPES,
  type Plain,
  priceStep,
  SET_UP_SHAPES,
  type Shape,
  USERS,
} from './differentialShapes.js';

/** Mostly `good`, now and then `bad`. */
export function mostly<T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<unknown>, weight = 30) {
  return fc.oneof(
    { weight, arbitrary: good as fc.Arbitrary<unknown> },
    { weight: 1, arbitrary: bad },
  );
}

export const userId = mostly(
  fc.constantFrom(...USERS),
  fc.constantFrom(5, 99, 0, -1, 1.5, '1', null),
);
const side = mostly(fc.constantFrom(1, 2), fc.constantFrom(0, 3, 'buy', 2n));
const source = mostly(fc.constantFrom('web', 'api'), fc.constantFrom('ios', undefined));
const timeInForce = mostly(
  fc.constantFrom('GTC', 'GTC', 'GTC', 'IOC', 'IOC', 'FOK', 'FOK', 'POST_ONLY', 'POST_ONLY'),
  fc.constantFrom('GTD', 'gtc', undefined, 1),
);
export const assetName = mostly(
  fc.constantFrom('BTC', 'USDT', 'ETH', 'LTT'),
  fc.constantFrom('DOGE', 'WEI', 'NOPE', '', 7, null),
  12,
);
export const account = mostly(
  fc.constantFrom('main', 'trade', 'margin'),
  fc.constantFrom('savings', 1),
);
export const businessId = mostly(
  fc.constantFrom('b1', 'b2', 'b3', 'b4', 'b5', 'b6'),
  fc.constantFrom('', 'x'.repeat(129), 5, null, undefined),
  25,
);
export const purpose = mostly(
  fc.constantFrom('staking', 'loan'),
  fc.constantFrom('', 'p'.repeat(32), 3),
);

/** A market: mostly one set up, sometimes one that a generated market.add may have added. */
export const shape = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...SET_UP_SHAPES) },
  { weight: 1, arbitrary: fc.constantFrom(...LATER_SHAPES) },
);
export const marketName = (m: Shape) =>
  mostly(fc.constant(m.spec.name), fc.constantFrom('NOPE_USDT', 'btc_usdt', 7, undefined), 30);

/** A price near the centre; now and then a bad one (zero, negative, off tick, too precise...). */
const priceOf = (m: Shape) =>
  mostly(
    fc.integer({ min: -10, max: 10 }).map((k) => m.center + BigInt(k) * m.step),
    fc.constantFrom(
      0n,
      -m.spec.tickSize,
      m.center + 1n,
      m.center + priceStep(m),
      10n ** 40n,
      Number(m.center),
      `${m.center}`,
      undefined,
    ),
  );

/** An amount of whole lots; now and then a bad one (off lot, too precise, below minimum...). */
const amountOf = (m: Shape) =>
  mostly(
    fc.integer({ min: 1, max: m.maxLots }).map((n) => BigInt(n) * m.spec.lotSize),
    fc.constantFrom(
      0n,
      -m.spec.lotSize,
      m.spec.lotSize + 1n,
      m.spec.lotSize + amountStep(m),
      m.spec.minAmount - amountStep(m),
      m.spec.lotSize * 10n ** 12n,
      10n ** 40n,
      Number(m.spec.lotSize),
      null,
    ),
  );

const totalOf = (m: Shape) =>
  mostly(fc.bigInt({ min: 1n, max: m.maxTotal }), fc.constantFrom(0n, -1n, 10n ** 40n, 1000));

/** An order command with a self-trade prevention mode, none (the default), or a bad one. */
export const withSelfTrade = (orders: fc.Arbitrary<Plain>): fc.Arbitrary<Plain> =>
  fc
    .tuple(
      orders,
      mostly(
        fc.constantFrom(
          'absent',
          'absent',
          undefined,
          'cancelNewest',
          'cancelOldest',
          'cancelBoth',
        ),
        fc.constantFrom('decrement', 1, null),
      ),
    )
    .map(([cmd, mode]) => (mode === 'absent' ? cmd : { ...cmd, selfTradePrevention: mode }));

/** A step that sends the generated command as it is. */
export const command = (arb: fc.Arbitrary<Plain>): fc.Arbitrary<Step> =>
  arb.map((c) => ({ kind: 'command', command: c }));

export const limitOrder = shape.chain((m) =>
  fc.record({
    type: fc.constant('order.limit'),
    userId,
    market: marketName(m),
    side,
    price: priceOf(m),
    amount: amountOf(m),
    timeInForce,
    source,
  }),
);

export const marketOrder = shape.chain((m) =>
  fc
    .tuple(
      userId,
      side,
      marketName(m),
      fc.constantFrom(
        'amount',
        'amount',
        'amount',
        'total',
        'total',
        'total',
        'any side total',
        'both',
        'neither',
      ),
      amountOf(m),
      totalOf(m),
      source,
    )
    .map(([userId, side, market, by, amount, total, source]) => ({
      type: 'order.market',
      userId,
      market,
      side: by === 'total' && side === 1 ? 2 : side,
      ...(by === 'amount' || by === 'both' ? { amount } : {}),
      ...(by === 'amount' || by === 'neither' ? {} : { total }),
      source,
    })),
);

export const stopLimit = shape.chain((m) =>
  fc.record({
    type: fc.constant('order.stopLimit'),
    userId,
    market: marketName(m),
    side,
    stopPrice: priceOf(m),
    price: priceOf(m),
    amount: amountOf(m),
    source,
  }),
);

export const oco = shape.chain((m) =>
  fc.record({
    type: fc.constant('order.oco'),
    userId,
    market: marketName(m),
    side,
    price: priceOf(m),
    stopPrice: priceOf(m),
    limitPrice: priceOf(m),
    amount: amountOf(m),
    source,
  }),
);
