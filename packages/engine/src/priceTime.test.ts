import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ceilDiv } from './bigmath.js';
import type { Engine } from './engine.js';
import { CORES, type CommandInput, limitOrder, TestExchange, usdt } from './fixtures.js';
import { type ModelBalance, type ModelOutcome, PriceTimeModel } from './priceTimeModel.js';
import type { ApplyResult, SelfTradePrevention, Side } from './types.js';

// Random commands on one market, sent to the engine and to a reference model of the book
// written from the documented rules (priceTimeModel.ts): each command must trade the same orders
// at the same prices, amounts and fees, end the same orders for the same reasons, fire the same
// stops in the same order and leave the same book and balances. Balances are large enough never
// to refuse an order; the market takes any amount to the minor unit, so deals' values are
// fractions of a cent that each side rounds its own way.

const MARKET = 'XYZ_USDT';
const USERS = [1, 2, 3, 4] as const;
const LAST = usdt('123.45');
// Fees in parts per million, as market.add takes them, and as the model's bigints.
const MAKER_PPM = 1000;
const TAKER_PPM = 2500;
const RATES = {
  maker: BigInt(MAKER_PPM),
  taker: BigInt(TAKER_PPM),
  stockScale: 10n ** 8n,
  lot: 1n,
};

// Prices on a grid of 17 around the last price, so orders share levels and stops are crossed.
const STEP = usdt('0.05');
const price = fc.integer({ min: -8, max: 8 }).map((k) => LAST + BigInt(k) * STEP);
// Up to 3 XYZ in minor units, from the market's minimum.
const MIN_AMOUNT = 500n;
const amount = fc.integer({ min: 500, max: 300_000_000 }).map(BigInt);
const user = fc.constantFrom(...USERS);
const side = fc.constantFrom<Side>(1, 2);
const selfTrade = fc.constantFrom<SelfTradePrevention | undefined>(
  undefined,
  undefined,
  'cancelNewest',
  'cancelOldest',
  'cancelBoth',
);

const step = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('limit' as const),
      user,
      side,
      price,
      amount,
      tif: fc.constantFrom('GTC', 'GTC', 'GTC', 'IOC', 'FOK', 'FOK', 'POST_ONLY'),
      selfTrade,
      // A fill-or-kill order, two times in three, for what it can fill at its price, one unit
      // more or one less: the edge of its check.
      edge: fc.option(fc.integer({ min: -1, max: 1 }), { freq: 3, nil: undefined }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('market' as const),
      user,
      side,
      amount,
      selfTrade,
      // A buy, two times in three, by the money it spends instead: up to 400 USDT; a few minor
      // units, which buy one lot or a few; one minor unit, which buys less than one lot at every
      // price of the grid (a lot costs 1.23 to 1.24 units with its fee); or (0) exactly what the
      // best ask costs.
      total: fc.option(
        fc.oneof(
          { weight: 3, arbitrary: fc.integer({ min: 2, max: 10 }) },
          fc.constant(1),
          fc.integer({ min: 1, max: 400_000_000 }),
          fc.constant(0),
        ),
        { freq: 3, nil: undefined },
      ),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('stopLimit' as const),
      user,
      side,
      stop: price,
      price,
      amount,
      selfTrade,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('oco' as const),
      user,
      side,
      price,
      stop: price,
      limitPrice: price,
      amount,
      selfTrade,
      // Most pairs are placed around the last price as the rule asks (price < last < stop for a
      // buy), from the offsets given in steps of the grid; the rest anywhere on the grid.
      aroundLast: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
      below: fc.integer({ min: 1, max: 6 }),
      above: fc.integer({ min: 1, max: 6 }),
    }),
  },
  {
    weight: 3,
    // Mostly one of the user's own open orders; else any order ever placed, whoever's it is.
    arbitrary: fc.record({
      kind: fc.constant('cancel' as const),
      user,
      pick: fc.nat(),
      own: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
    }),
  },
  {
    weight: 1,
    // All of the user's orders: in the market, everywhere, or by either of its coins.
    arbitrary: fc.record({
      kind: fc.constant('cancelAll' as const),
      user,
      by: fc.constantFrom('market', 'all', 'XYZ', 'USDT'),
    }),
  },
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

/** The engine's command for a step and the model's outcome of it. */
function send(model: PriceTimeModel, s: Step, issued: number[]): [CommandInput, ModelOutcome] {
  const base = { userId: s.user, market: MARKET, source: 'web' as const };
  if (s.kind === 'cancel') {
    const own = [...model.open.values()].filter((o) => o.user === s.user).map((o) => o.id);
    const from = s.own && own.length > 0 ? own : issued;
    const orderId = from.length === 0 ? 1 : from[s.pick % from.length]!;
    return [{ type: 'order.cancel', userId: s.user, orderId }, model.cancel(s.user, orderId)];
  }
  if (s.kind === 'cancelAll') {
    const userId = s.user;
    const cmd: CommandInput =
      s.by === 'market'
        ? { type: 'order.cancelAll', userId, market: MARKET }
        : s.by === 'all'
          ? { type: 'order.cancelAll', userId }
          : { type: 'order.cancelAllByCoin', userId, asset: s.by };
    return [cmd, model.cancelAll(s.user)];
  }
  const stp = s.selfTrade ?? 'cancelNewest';
  const mode = s.selfTrade === undefined ? {} : { selfTradePrevention: s.selfTrade };
  switch (s.kind) {
    case 'limit': {
      let amount = s.amount;
      if (s.tif === 'FOK' && s.edge !== undefined) {
        const edge = model.fillableAmount(s.user, s.side, s.price, stp) + BigInt(s.edge);
        if (edge >= MIN_AMOUNT) amount = edge;
      }
      return [
        {
          type: 'order.limit',
          ...base,
          ...mode,
          side: s.side,
          price: s.price,
          amount,
          timeInForce: s.tif,
        },
        model.limit(s.user, s.side, s.price, amount, s.tif, stp),
      ] as [CommandInput, ModelOutcome];
    }
    case 'market':
      if (s.side === 2 && s.total !== undefined) {
        const total = s.total === 0 ? costOfBestAsk(model) : BigInt(s.total);
        return [
          { type: 'order.market', ...base, ...mode, side: 2, total },
          model.marketByTotal(s.user, total, stp),
        ];
      }
      return [
        { type: 'order.market', ...base, ...mode, side: s.side, amount: s.amount },
        model.market(s.user, s.side, s.amount, stp),
      ];
    case 'stopLimit':
      return [
        {
          type: 'order.stopLimit',
          ...base,
          ...mode,
          side: s.side,
          stopPrice: s.stop,
          price: s.price,
          amount: s.amount,
        },
        model.stopLimit(s.user, s.side, s.stop, s.price, s.amount, stp),
      ];
    case 'oco': {
      let [price, stop, limitPrice] = [s.price, s.stop, s.limitPrice];
      if (s.aroundLast) {
        const [low, high] = [
          model.last - BigInt(s.below) * STEP,
          model.last + BigInt(s.above) * STEP,
        ];
        [price, stop] = s.side === 1 ? [high, low] : [low, high];
        limitPrice = stop;
      }
      const order = { side: s.side, price, stopPrice: stop, limitPrice, amount: s.amount };
      return [
        { type: 'order.oco', ...base, ...mode, ...order },
        model.oco(s.user, s.side, price, stop, limitPrice, s.amount, stp),
      ];
    }
  }
}

/** What the best ask's whole amount costs a buy by total, its fee as taker included. */
function costOfBestAsk(model: PriceTimeModel): bigint {
  const best = model.asks[0];
  if (best === undefined) return 1n;
  const num = best.left * best.price;
  return ceilDiv(num, RATES.stockScale) + ceilDiv(num * RATES.taker, RATES.stockScale * 1_000_000n);
}

/** The engine's result in the model's terms. */
function outcomeOf(result: ApplyResult): ModelOutcome {
  if (!result.ok) return { rejected: result.code, deals: [], finishes: [], triggered: [] };
  const outcome: ModelOutcome = { rejected: null, deals: [], finishes: [], triggered: [] };
  for (const e of result.events) {
    if (e.type === 'deal') {
      const { makerOrderId, takerOrderId, price, amount, makerFee, takerFee } = e;
      outcome.deals.push([makerOrderId, takerOrderId, price, amount, makerFee, takerFee]);
    }
    if (e.type === 'order.finish') outcome.finishes.push([e.order.id, e.order.finish_reason ?? -1]);
    if (e.type === 'order.triggered') outcome.triggered.push(e.order.id);
  }
  return outcome;
}

type ById = [id: number, ...rest: unknown[]];
const byId = (a: ById, b: ById) => a[0] - b[0];

/** The book and every user's open orders, as the engine and as the model have them. */
function expectSameBook(engine: Engine, model: PriceTimeModel): void {
  const depth = engine.depth(MARKET, 1000);
  expect(depth.asks).toEqual(model.depth(1));
  expect(depth.bids).toEqual(model.depth(2));
  for (const u of USERS) {
    const theirs = engine.openOrders(u, MARKET).map((o): ById => [o.id, o.side, o.price, o.left]);
    const ours = [...model.open.values()]
      .filter((o) => o.user === u)
      .map((o): ById => [o.id, o.side, o.price, o.left]);
    expect(theirs.sort(byId)).toEqual(ours.sort(byId));
  }
  expect(engine.lastPrice(MARKET)).toBe(model.last);
  for (const u of USERS) expect(balanceOf(engine, u), `user ${u}`).toEqual(model.balances.get(u));
}

/** A user's XYZ and USDT on the trade account, available and frozen together. */
function balanceOf(engine: Engine, user: number): ModelBalance {
  const trade = (asset: string) => {
    const b = engine.balances(user)[asset]?.trade;
    return b === undefined ? 0n : b.available + b.frozen;
  };
  return { stock: trade('XYZ'), money: trade('USDT') };
}

/** XYZ_USDT with fees, every user funded, and a first trade at LAST between users 1 and 2. */
function setUp(x: TestExchange): PriceTimeModel {
  x.addXyzMarket({
    tickSize: usdt('0.01'),
    lotSize: 1n,
    makerFeePpm: MAKER_PPM,
    takerFeePpm: TAKER_PPM,
  });
  for (const u of USERS) {
    x.fund(u, 'XYZ', 1000n * RATES.stockScale);
    x.fund(u, 'USDT', usdt('1000000'));
  }
  x.ok({ ...limitOrder(1, 1, '0', '0'), market: MARKET, price: LAST, amount: 1000n });
  x.ok({ ...limitOrder(2, 2, '0', '0'), market: MARKET, price: LAST, amount: 1000n });
  const balances = new Map(USERS.map((u) => [u, balanceOf(x.engine, u)] as const));
  const model = new PriceTimeModel(x.engine.nextOrderId, RATES, balances);
  model.last = LAST;
  return model;
}

describe.each(CORES)(
  'price-time priority on the %s core',
  { timeout: 120_000 },
  (_core, makeEngine) => {
    it('trades, settles, ends and fires orders as the reference model of the rules does', () => {
      const seen = {
        deals: 0,
        triggered: 0,
        ocoCancelled: 0,
        selfTrade: 0,
        rejected: 0,
        outOfBook: 0,
        byTotal: 0,
        lessThanALot: 0,
        fokAtEdge: 0,
        fokPastEdge: 0,
      };
      fc.assert(
        fc.property(fc.array(step, { minLength: 30, maxLength: 100 }), (steps) => {
          const x = TestExchange.standard(makeEngine());
          const model = setUp(x);
          const issued: number[] = [];
          for (const s of steps) {
            const firstId = model.nextId;
            const [cmd, expected] = send(model, s, issued);
            for (let id = firstId; id < model.nextId; id++) issued.push(id);
            const actual = outcomeOf(x.apply(cmd));
            expected.finishes.sort(byId);
            actual.finishes.sort(byId);
            expect(
              actual,
              JSON.stringify(cmd, (_k, v) => (typeof v === 'bigint' ? `${v}` : v)),
            ).toEqual(expected);
            expect(x.engine.nextOrderId).toBe(model.nextId);
            expectSameBook(x.engine, model);
            seen.deals += expected.deals.length;
            seen.triggered += expected.triggered.length;
            if (s.kind === 'market' && s.side === 2 && s.total !== undefined) {
              seen.byTotal += expected.deals.length;
              if (expected.rejected === 'amount_too_small') seen.lessThanALot++;
            }
            if (s.kind === 'limit' && s.tif === 'FOK' && s.edge !== undefined) {
              if (expected.deals.length > 0) seen.fokAtEdge++;
              if (expected.rejected === 'fok_not_filled' && s.edge > 0) seen.fokPastEdge++;
            }
            seen.rejected += expected.rejected === null ? 0 : 1;
            for (const [, reason] of expected.finishes) {
              if (reason === 2) seen.ocoCancelled++;
              if (reason === 3) seen.outOfBook++;
            }
            // A resting order cancelled by a new order's self-trade prevention.
            if (s.kind !== 'cancel' && s.kind !== 'cancelAll') {
              seen.selfTrade += expected.finishes.filter(
                ([id, why]) => id < firstId && why === 1,
              ).length;
            }
          }
        }),
        { numRuns: 80 },
      );
      // What the runs reached: a property that never trades, fires or cancels a pair shows nothing.
      expect(seen.deals).toBeGreaterThan(400);
      expect(seen.triggered).toBeGreaterThan(100);
      expect(seen.ocoCancelled).toBeGreaterThan(100);
      expect(seen.selfTrade).toBeGreaterThan(40);
      expect(seen.rejected).toBeGreaterThan(400);
      expect(seen.outOfBook).toBeGreaterThan(15);
      // Seeds 1 to 20 gave 47 to 82 deals by total and 11 to 29 totals under a lot. When one
      // minor unit was just one value of a range of 1 to 10, seeds 1 to 40 gave 4 to 18 totals
      // under a lot, and one unseeded run gave 1.
      expect(seen.byTotal).toBeGreaterThan(30);
      expect(seen.lessThanALot).toBeGreaterThan(2);
      expect(seen.fokAtEdge).toBeGreaterThan(10);
      expect(seen.fokPastEdge).toBeGreaterThan(20);
    });
  },
);
