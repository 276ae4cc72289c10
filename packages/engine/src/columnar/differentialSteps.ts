// For the property test of the two cores: the fast-check arbitraries of whole steps (cancels,
// balance moves, operator commands, limits, malformed input, hand-overs) and `steps`, the
// weighted mix of them that one generated run plays. Built on the fields and orders of
// differentialArbitraries.ts; the harness resolves the steps against what a run has seen.
import fc from 'fast-check';
import {
  account,
  assetName,
  businessId,
  command,
  limitOrder,
  marketName,
  marketOrder,
  mostly,
  oco,
  purpose,
  shape,
  stopLimit,
  userId,
  withSelfTrade,
} from './differentialArbitraries.js';
import type { Step } from './differentialHarness.js';
import {
  LATER_SHAPES,
  MARKET_NAMES,
  type Plain,
  SET_UP_SHAPES,
  SHAPES,
  spec,
  USERS,
} from './differentialShapes.js';

const cancels: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant('cancel' as const),
      pick: fc.nat(1000),
      byOwner: mostly(fc.constant(true), fc.constant(false), 6) as fc.Arbitrary<boolean>,
      open: mostly(fc.constant(true), fc.constant(false), 3) as fc.Arbitrary<boolean>,
    }),
  },
  {
    weight: 1,
    arbitrary: command(
      fc.record({
        type: fc.constant('order.cancel'),
        userId,
        orderId: fc.constantFrom(0, -1, 1.5, '3', 1_000_000, null),
      }),
    ),
  },
  {
    weight: 2,
    arbitrary: command(
      fc.record(
        {
          type: fc.constant('order.cancelAll'),
          userId,
          market: mostly(fc.constantFrom(...MARKET_NAMES), fc.constantFrom(5, null), 10),
        },
        { requiredKeys: ['type', 'userId'] },
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: command(
      fc.record({ type: fc.constant('order.cancelAllByCoin'), userId, asset: assetName }),
    ),
  },
);

/** A balance amount; a huge one (past what the columnar core holds) only where allowed. */
const balanceAmount = (huge: boolean) =>
  mostly(
    fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 6n }), fc.bigInt({ min: 1n, max: 10n ** 10n })),
    fc.constantFrom(0n, -5n, 100, '100', null, 10n ** 37n, ...(huge ? [10n ** 30n] : [])),
    12,
  );

const balances = (huge: boolean): fc.Arbitrary<Step> => {
  const amount = balanceAmount(huge);
  return command(
    fc.oneof(
      fc
        .tuple(
          fc.record({ type: fc.constant('balance.deposit'), userId, asset: assetName, amount }),
          businessId,
          mostly(fc.constant(null), fc.constantFrom('reward', '', 'r'.repeat(32), 3), 6),
        )
        .map(([c, id, business]) => ({
          ...c,
          businessId: id,
          ...(business === null ? {} : { business }),
        })),
      fc.record({
        type: fc.constant('balance.withdrawHold'),
        userId,
        asset: assetName,
        amount,
        businessId,
      }),
      fc.record(
        {
          type: fc.constant('balance.withdrawComplete'),
          businessId,
          fee: mostly(fc.bigInt({ min: 0n, max: 2000n }), fc.constantFrom(-1n, 10n ** 12n, 5)),
        },
        { requiredKeys: ['type', 'businessId'] },
      ),
      fc.record({ type: fc.constant('balance.withdrawRelease'), businessId }),
      fc.record({
        type: fc.constant('balance.transfer'),
        userId,
        asset: assetName,
        amount,
        from: account,
        to: account,
        businessId,
      }),
      fc.record({
        type: fc.constant('balance.freeze'),
        userId,
        asset: assetName,
        account,
        amount,
        businessId,
        purpose,
      }),
      fc.record({ type: fc.constant('balance.unfreeze'), businessId }),
      fc.record({ type: fc.constant('balance.settleFreeze'), businessId, toUserId: userId }),
    ),
  );
};

/** Assets and markets an operator might add; only with `wide`, an 18-decimal asset. */
const setupCommand = (wide: boolean): fc.Arbitrary<Step> =>
  command(
    fc.oneof(
      fc.record({
        type: fc.constant('user.add'),
        userId: mostly(fc.constantFrom(1, 5, 6), fc.constantFrom(0, 'x', 2.5)),
      }),
      fc.constantFrom<Plain>(
        { type: 'asset.add', asset: 'DOGE', decimals: 8 },
        { type: 'asset.add', asset: 'BTC', decimals: 8 },
        { type: 'asset.add', asset: 'doge', decimals: 8 },
        { type: 'asset.add', asset: 'BIG', decimals: 19 },
        { type: 'asset.add', asset: 'HALF', decimals: 1.5 },
        ...(wide ? [{ type: 'asset.add', asset: 'WEI', decimals: 18 }] : []),
      ),
      fc.constantFrom<Plain>(
        ...LATER_SHAPES.map((m) => m.spec),
        SET_UP_SHAPES[1]!.spec,
        { ...SET_UP_SHAPES[0]!.spec, name: 'BTCUSDT' },
        spec('DOGE_USDT', 10n, 10_000n, 0n, 5, 4, 2000, 2000),
        spec('ETH_LTT', 3n, 1000n, 0n, 6, 5, 0, 0),
        spec('LTT_ETH', 100n, 1000n, 0n, 6, 5, 1_000_000, 0),
        spec('BTC_ETH', 100n, 1000n, 0n, 6, 9, 0, 0),
        ...(wide ? [spec('WEI_USDT', 10_000n, 10n ** 15n, 0n, 2, 3, 1000, 1000)] : []),
      ),
    ),
  );

const customFee: fc.Arbitrary<Step> = command(
  fc.record({ type: fc.constant('user.setCustomFee'), userId, enabled: fc.boolean() }),
);

/** The cap on a user's open orders: small, so that orders meet it; sometimes malformed. */
const limitsSet: fc.Arbitrary<Step> = command(
  fc.record({
    type: fc.constant('limits.set'),
    openOrdersPerUserMax: mostly(fc.constantFrom(0, 1, 2, 3, 5, 8), fc.constantFrom(-1, 1.5, '3')),
  }),
);

/**
 * A market's caps on one order's value and amount: none, or about what its orders are worth and
 * hold; sometimes bad; either or both may be left out.
 */
const marketLimits: fc.Arbitrary<Step> = shape.chain((m) =>
  command(
    fc.record(
      {
        type: fc.constant('market.setLimits'),
        market: marketName(m),
        orderValueMax: mostly(
          fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: m.maxTotal })),
          fc.constantFrom(-1n, 10n ** 40n, 5, null),
        ),
        orderAmountMax: mostly(
          fc.oneof(
            fc.constant(0n),
            fc.bigInt({ min: 1n, max: BigInt(m.maxLots) * m.spec.lotSize }),
          ),
          fc.constantFrom(-1n, 10n ** 40n, 5, null),
        ),
      },
      { requiredKeys: ['type', 'market'] },
    ),
  ),
);

/** A command past the columnar core's ranges: the engine hands over to the bigint core. */
const handOver: fc.Arbitrary<Step> = command(
  fc.record({
    type: fc.constant('balance.deposit'),
    userId,
    asset: assetName,
    amount: fc.constant(2n ** 104n),
    businessId,
  }),
);

const malformed: fc.Arbitrary<Step> = fc.oneof(
  fc
    .constantFrom(null, undefined, 42, 'order.limit', [], true)
    .map((value) => ({ kind: 'raw' as const, value })),
  command(
    fc.constantFrom<Plain>(
      { type: 'order.teleport', userId: 1 },
      { type: 'toString', userId: 1 },
      { type: '__proto__' },
      { userId: 1 },
    ),
  ),
  fc
    .tuple(limitOrder, fc.constantFrom(-1, 1.5, '1700000000000', Number.NaN, 2 ** 53, null))
    .map(([c, time]) => ({ kind: 'badTime' as const, command: c, time })),
);

/** An order for all a user has: a limit order in any time in force, a stop-limit or an OCO. */
const allInOrder: fc.Arbitrary<Step> = fc.record({
  kind: fc.constant('allInOrder' as const),
  order: fc.constantFrom('order.limit' as const, 'order.stopLimit' as const, 'order.oco' as const),
  userId: fc.constantFrom(...USERS),
  market: fc.constantFrom(...SHAPES.map((m) => m.spec.name)),
  side: fc.constantFrom(1 as const, 2 as const),
  timeInForce: fc.constantFrom('GTC', 'IOC', 'FOK', 'POST_ONLY'),
  steps: fc.tuple(
    fc.integer({ min: -10, max: 10 }),
    fc.integer({ min: -10, max: 10 }),
    fc.integer({ min: -10, max: 10 }),
  ),
});

/** One step; with `rare`, also the commands that make the engine leave the columnar core. */
const step = (rare: boolean): fc.Arbitrary<Step> =>
  fc.oneof(
    { weight: 30, arbitrary: command(withSelfTrade(limitOrder)) },
    { weight: 8, arbitrary: command(withSelfTrade(marketOrder)) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constantFrom('allIn' as const, 'allOut' as const),
        userId: fc.constantFrom(...USERS),
        market: fc.constantFrom(...MARKET_NAMES),
      }),
    },
    { weight: 2, arbitrary: allInOrder },
    { weight: 4, arbitrary: command(withSelfTrade(stopLimit)) },
    { weight: 3, arbitrary: command(withSelfTrade(oco)) },
    { weight: 2, arbitrary: customFee },
    { weight: 1, arbitrary: limitsSet },
    { weight: 2, arbitrary: marketLimits },
    { weight: 12, arbitrary: cancels },
    { weight: 12, arbitrary: balances(rare) },
    {
      weight: 2,
      arbitrary: fc.nat(50).map((back) => ({ kind: 'repeat' as const, back })),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('endHold' as const),
        pick: fc.nat(20),
        settle: fc.boolean(),
        fee: fc.bigInt({ min: 0n, max: 3000n }),
        toUserId: fc.constantFrom(...USERS),
      }),
    },
    { weight: 2, arbitrary: setupCommand(rare) },
    { weight: 2, arbitrary: malformed },
    { weight: rare ? 2 : 0, arbitrary: handOver },
  );

/** A generated run of 40 to 120 steps; about half the runs also hand over now and then. */
export const steps = fc
  .boolean()
  .chain((rare) => fc.array(step(rare), { minLength: 40, maxLength: 120 }));
