// Properties over random command sequences across several users and markets: every invariant
// holds after every step, a rejection changes nothing, and snapshot + replay is exact.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from './engine.js';
import type { CommandInput } from './fixtures.js';
import { btc, ltt, TestExchange, usdt } from './fixtures.js';
import type { Side, TimeInForce } from './types.js';

interface MarketShape {
  name: string;
  stock: string;
  /** Price at the centre, and the price step between generated prices. */
  center: bigint;
  step: bigint;
  lot: bigint;
  maxLots: number;
}

const MARKETS: MarketShape[] = [
  {
    name: 'BTC_USDT',
    stock: 'BTC',
    center: usdt('30000'),
    step: usdt('5'),
    lot: btc('0.0001'),
    maxLots: 3000,
  },
  {
    name: 'LTT_USDT',
    stock: 'LTT',
    center: usdt('2'),
    step: usdt('0.0003'),
    lot: ltt('1'),
    maxLots: 40,
  },
  // Lots of one minor unit: deal values are fractions of a cent, so rounding is exercised.
  {
    name: 'XYZ_USDT',
    stock: 'XYZ',
    center: usdt('1.11'),
    step: usdt('0.01'),
    lot: 1n,
    maxLots: 90_000,
  },
];
const USERS = [1, 2, 3, 4];
const ASSETS = ['BTC', 'USDT', 'LTT', 'XYZ'];

function build(): TestExchange {
  const x = TestExchange.standard();
  x.ok({ type: 'asset.add', asset: 'XYZ', decimals: 8 });
  x.ok({
    type: 'market.add',
    name: 'XYZ_USDT',
    stock: 'XYZ',
    money: 'USDT',
    tickSize: usdt('0.01'),
    lotSize: 1n,
    minAmount: 1n,
    pricePrecision: 2,
    amountPrecision: 8,
    makerFeePpm: 2500,
    takerFeePpm: 1500,
  });
  for (const user of USERS) {
    x.fund(user, 'BTC', btc('2'));
    x.fund(user, 'USDT', usdt('150000'));
    x.fund(user, 'LTT', ltt('300'));
    x.fund(user, 'XYZ', 200_000n);
  }
  // A last price and a little depth on each market, so stops, OCOs and market orders apply.
  for (const m of MARKETS) {
    const order = {
      type: 'order.limit',
      market: m.name,
      timeInForce: 'GTC',
      source: 'web',
    } as const;
    const amount = m.lot * BigInt(Math.ceil(m.maxLots / 4));
    x.ok({ ...order, userId: 3, side: 1, price: m.center, amount });
    x.ok({ ...order, userId: 4, side: 2, price: m.center, amount });
    x.ok({ ...order, userId: 3, side: 1, price: m.center + 3n * m.step, amount });
    x.ok({ ...order, userId: 4, side: 2, price: m.center - 3n * m.step, amount });
  }
  return x;
}

// Built once; each run starts from a restored copy (cheaper than building it again).
const START = build();
const START_SNAPSHOT = START.engine.snapshot();

function setUp(): TestExchange {
  const x = new TestExchange(Engine.restore(START_SNAPSHOT));
  x.time = START.time;
  return x;
}

const user = fc.constantFrom(...USERS);
const side = fc.constantFrom<Side>(1, 2);
const market = fc.constantFrom(...MARKETS);
const businessId = fc.constantFrom('a', 'b', 'c', 'd', 'e');
const asset = fc.constantFrom(...ASSETS);
const account = fc.constantFrom('main' as const, 'trade' as const, 'margin' as const);

/** A price near the centre; now and then a bad one (off tick, zero, negative). */
const priceOf = (m: MarketShape) =>
  fc.oneof(
    {
      weight: 20,
      arbitrary: fc.integer({ min: -12, max: 12 }).map((k) => m.center + BigInt(k) * m.step),
    },
    { weight: 1, arbitrary: fc.constantFrom(0n, -m.step, m.center + 1n) },
  );
const amountOf = (m: MarketShape) =>
  fc.oneof(
    { weight: 20, arbitrary: fc.integer({ min: 1, max: m.maxLots }).map((n) => BigInt(n) * m.lot) },
    { weight: 1, arbitrary: fc.constantFrom(0n, -m.lot, m.lot * 10n ** 12n) },
  );

/** Order commands with a self-trade prevention mode or none (the default). */
const withSelfTrade = (orders: fc.Arbitrary<CommandInput>): fc.Arbitrary<CommandInput> =>
  fc
    .tuple(orders, fc.constantFrom(undefined, 'cancelNewest', 'cancelOldest', 'cancelBoth'))
    .map(([cmd, mode]) => (mode === undefined ? cmd : { ...cmd, selfTradePrevention: mode }));

const orderCommand: fc.Arbitrary<CommandInput> = market.chain((m) =>
  withSelfTrade(
    fc.oneof(
      fc.record({
        type: fc.constant('order.limit' as const),
        userId: user,
        market: fc.constant(m.name),
        side,
        price: priceOf(m),
        amount: amountOf(m),
        timeInForce: fc.constantFrom<TimeInForce>('GTC', 'GTC', 'GTC', 'IOC', 'FOK', 'POST_ONLY'),
        source: fc.constant('web' as const),
      }),
      fc.tuple(user, side, amountOf(m), fc.option(fc.bigInt({ min: 1n, max: usdt('50000') }))).map(
        ([userId, s, amount, total]): CommandInput => ({
          type: 'order.market',
          userId,
          market: m.name,
          side: s,
          ...(total === null ? { amount } : { total }),
          source: 'api',
        }),
      ),
      fc.record({
        type: fc.constant('order.stopLimit' as const),
        userId: user,
        market: fc.constant(m.name),
        side,
        stopPrice: priceOf(m),
        price: priceOf(m),
        amount: amountOf(m),
        source: fc.constant('api' as const),
      }),
      fc.record({
        type: fc.constant('order.oco' as const),
        userId: user,
        market: fc.constant(m.name),
        side,
        price: priceOf(m),
        stopPrice: priceOf(m),
        limitPrice: priceOf(m),
        amount: amountOf(m),
        source: fc.constant('web' as const),
      }),
    ),
  ),
);

const cancelCommand: fc.Arbitrary<CommandInput> = fc.oneof(
  fc.record({
    type: fc.constant('order.cancel' as const),
    userId: user,
    orderId: fc.integer({ min: 1, max: 60 }),
  }),
  fc.record({
    type: fc.constant('order.cancelAll' as const),
    userId: user,
    market: market.map((m) => m.name),
  }),
  fc.record({ type: fc.constant('order.cancelAllByCoin' as const), userId: user, asset }),
);

const small = fc.bigInt({ min: -5n, max: 10n ** 8n });
const balanceCommand: fc.Arbitrary<CommandInput> = fc.oneof(
  fc.record({
    type: fc.constant('balance.deposit' as const),
    userId: user,
    asset,
    amount: small,
    businessId,
  }),
  fc.record({
    type: fc.constant('balance.withdrawHold' as const),
    userId: user,
    asset,
    amount: small,
    businessId,
  }),
  fc.record({
    type: fc.constant('balance.withdrawComplete' as const),
    businessId,
    fee: fc.bigInt({ min: 0n, max: 1000n }),
  }),
  fc.record({ type: fc.constant('balance.withdrawRelease' as const), businessId }),
  fc.record({
    type: fc.constant('balance.transfer' as const),
    userId: user,
    asset,
    amount: small,
    from: account,
    to: account,
    businessId,
  }),
  fc.record({
    type: fc.constant('balance.freeze' as const),
    userId: user,
    asset,
    account,
    amount: small,
    businessId,
    purpose: fc.constant('staking'),
  }),
  fc.record({ type: fc.constant('balance.unfreeze' as const), businessId }),
  fc.record({ type: fc.constant('balance.settleFreeze' as const), businessId, toUserId: user }),
  fc.record({
    type: fc.constant('user.setCustomFee' as const),
    userId: user,
    enabled: fc.boolean(),
  }),
  // Small caps on open orders, so that orders meet them (0: no cap).
  fc.record({
    type: fc.constant('limits.set' as const),
    openOrdersPerUserMax: fc.integer({ min: 0, max: 4 }),
  }),
  // Caps on one order's value and amount around what the orders are worth and hold (0: no
  // cap); either may be left out, and then stays as it was.
  fc.record(
    {
      type: fc.constant('market.setLimits' as const),
      market: market.map((m) => m.name),
      orderValueMax: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: usdt('50000') })),
      orderAmountMax: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: btc('2') })),
    },
    { requiredKeys: ['type', 'market'] },
  ),
);

const command = fc.oneof(
  { weight: 12, arbitrary: orderCommand },
  { weight: 3, arbitrary: cancelCommand },
  { weight: 2, arbitrary: balanceCommand },
);

/**
 * An order for all a user has to trade, read when it is sent (wholeOrder): a sell of all of a
 * stock, by a limit order that takes the bids or at the market, or a buy by total of all the
 * money; half of them by a user who pays fees in LTT. Where fees have no slack to come out of.
 */
interface Whole {
  whole: { userId: number; market: MarketShape; side: Side; atMarket: boolean; ltt: boolean };
}

const wholeStep: fc.Arbitrary<Whole> = fc
  .record({ userId: user, market, side, atMarket: fc.boolean(), ltt: fc.boolean() })
  .map((whole) => ({ whole }));

/** The order a whole step sends, on the state `x` is in. */
function wholeOrder(x: TestExchange, { userId, market: m, side, atMarket }: Whole['whole']) {
  const base = { userId, market: m.name, side, source: 'web' } as const;
  if (side === 2) {
    return { ...base, type: 'order.market', total: x.trade(userId, 'USDT').available } as const;
  }
  const held = (x.trade(userId, m.stock).available / m.lot) * m.lot;
  const amount = held > 0n ? held : m.lot;
  if (atMarket) return { ...base, type: 'order.market', amount } as const;
  // Low enough to take every bid near the centre, and to rest what they do not take.
  const price = m.center - 12n * m.step;
  return { ...base, type: 'order.limit', price, amount, timeInForce: 'GTC' } as const;
}

const step: fc.Arbitrary<CommandInput | Whole> = fc.oneof(
  { weight: 10, arbitrary: command as fc.Arbitrary<CommandInput | Whole> },
  { weight: 1, arbitrary: wholeStep },
);

// A few seconds on an idle machine; the timeout leaves room for a busy one.
describe('engine properties', { timeout: 60_000 }, () => {
  it('keeps every invariant after every step; a rejection changes nothing', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 20, maxLength: 80 }), (steps) => {
        const x = setUp();
        for (const next of steps) {
          if ('whole' in next && next.whole.ltt) {
            x.ok({ type: 'user.setCustomFee', userId: next.whole.userId, enabled: true });
          }
          const cmd = 'whole' in next ? wholeOrder(x, next.whole) : next;
          const before = x.engine.stateHash();
          const seq = x.engine.lastEventSeq;
          const result = x.apply(cmd); // checks every invariant
          if (!result.ok) {
            expect(x.engine.stateHash()).toBe(before);
            expect(x.engine.lastEventSeq).toBe(seq);
          } else {
            expect(result.events.map((e) => e.seq)).toEqual(
              result.events.map((_, i) => seq + i + 1),
            );
          }
        }
      }),
      { numRuns: 30 },
    );
  });

  it('snapshot at a random point + replay of the rest = the uninterrupted run', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 20, maxLength: 80 }), fc.nat(), (commands, at) => {
        const cut = at % (commands.length + 1);
        const full = setUp();
        full.checkInvariants = false;
        const split = setUp();
        split.checkInvariants = false;
        for (const cmd of commands) full.apply(cmd);
        for (const cmd of commands.slice(0, cut)) split.apply(cmd);
        const snapshot = JSON.parse(JSON.stringify(split.engine.snapshot()));
        const resumed = new TestExchange(Engine.restore(snapshot));
        expect(resumed.engine.stateHash()).toBe(split.engine.stateHash());
        resumed.time = split.time;
        for (const cmd of commands.slice(cut)) resumed.apply(cmd);
        expect(resumed.engine.stateHash()).toBe(full.engine.stateHash());
      }),
      { numRuns: 30 },
    );
  });

  it('never throws on junk input, and junk that is rejected changes nothing', () => {
    const types = fc.constantFrom(
      'asset.add',
      'market.add',
      'user.add',
      'user.setCustomFee',
      'limits.set',
      'balance.deposit',
      'balance.withdrawHold',
      'balance.withdrawComplete',
      'balance.withdrawRelease',
      'balance.transfer',
      'balance.freeze',
      'balance.unfreeze',
      'balance.settleFreeze',
      'order.limit',
      'order.market',
      'order.stopLimit',
      'order.oco',
      'order.cancel',
      'order.cancelAll',
      'order.cancelAllByCoin',
      'market.setLimits',
      'order.teleport',
    );
    // Each field: sometimes a plausible value, sometimes anything at all.
    const field = <T>(plausible: fc.Arbitrary<T>) =>
      fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 1, arbitrary: fc.anything() });
    const junk = fc.record(
      {
        type: types,
        userId: field(user),
        toUserId: field(user),
        market: field(market.map((m) => m.name)),
        asset: field(asset),
        side: field(side),
        price: field(fc.bigInt({ min: -10n, max: usdt('40000') })),
        stopPrice: field(fc.bigInt({ min: -10n, max: usdt('40000') })),
        limitPrice: field(fc.bigInt({ min: -10n, max: usdt('40000') })),
        amount: field(fc.bigInt({ min: -10n, max: btc('3') })),
        total: field(fc.bigInt({ min: -10n, max: usdt('40000') })),
        fee: field(fc.bigInt({ min: -10n, max: 100n })),
        timeInForce: field(fc.constantFrom('GTC', 'IOC', 'FOK', 'POST_ONLY')),
        source: field(fc.constantFrom('web', 'api')),
        selfTradePrevention: field(fc.constantFrom('cancelNewest', 'cancelOldest', 'cancelBoth')),
        businessId: field(businessId),
        from: field(account),
        to: field(account),
        account: field(account),
        purpose: field(fc.constant('loan')),
        orderId: field(fc.integer({ min: 1, max: 40 })),
        enabled: field(fc.boolean()),
        openOrdersPerUserMax: field(fc.integer({ min: 0, max: 4 })),
        orderValueMax: field(fc.bigInt({ min: -10n, max: usdt('50000') })),
      },
      { requiredKeys: ['type'] },
    );
    fc.assert(
      fc.property(fc.array(junk, { minLength: 10, maxLength: 40 }), (commands) => {
        const x = setUp();
        for (const cmd of commands) {
          const before = x.engine.stateHash();
          const result = x.apply(cmd as unknown as CommandInput);
          if (!result.ok) expect(x.engine.stateHash()).toBe(before);
        }
      }),
      { numRuns: 20 },
    );
  });
});
