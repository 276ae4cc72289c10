// The two cores side by side where balances and fees have the least slack: every market set
// up (the one priced in LTT with fees far past any real market's among them), LTT traded at a
// price anywhere from a hundredth of a cent to a hundred thousand dollars, users paying fees
// in LTT, and trade balances cut down, many of them, to a few minor units or a few whole units.
// The random steps of the main differential test then run on it, orders for all a user has
// among them; no command may throw, and both cores must agree on everything.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine.js';
import { fund, Harness, type Step, setUp } from './differentialHarness.js';
import type { Outcome } from './differentialQueries.js';
import { DECIMALS, type Plain, SHAPES, type Shape, USERS } from './differentialShapes.js';
import { steps } from './differentialSteps.js';

const LTT_USDT = SHAPES.find((m) => m.spec.name === 'LTT_USDT')!;
/** In `cutDown`'s `keep`: the whole balance stays. */
const KEEP_ALL = -1n;

/** The markets only a generated market.add adds elsewhere, each with a bid and an ask. */
function setUpEveryMarket(h: Harness, lttPrice: bigint): void {
  // LTT_USDT first, with one trade at `lttPrice`: the price fees in LTT are converted at.
  h.ok(LTT_USDT.spec);
  const lot = { type: 'order.limit', amount: LTT_USDT.spec.lotSize, timeInForce: 'GTC' };
  const trade = { ...lot, market: LTT_USDT.spec.name, price: lttPrice, source: 'web' };
  h.ok({ ...trade, userId: 3, side: 1 });
  h.ok({ ...trade, userId: 4, side: 2 });
  for (const m of SHAPES.slice(4)) {
    h.ok(m.spec);
    const order = { ...lot, market: m.spec.name, amount: 3n * m.spec.lotSize, source: 'api' };
    h.ok({ ...order, userId: 3, side: 1, price: m.center + m.step });
    h.ok({ ...order, userId: 4, side: 2, price: m.center - m.step });
  }
}

/** Each user's trade balance of each asset cut down to what `keep` says, the rest to main. */
function cutDown(h: Harness, keep: bigint[]): void {
  let k = 0;
  for (const userId of USERS) {
    for (const asset of Object.keys(DECIMALS)) {
      const available = h.a.balances(userId)[asset]?.trade.available ?? 0n;
      const kept = keep[k++]!;
      if (kept === KEEP_ALL || kept >= available) continue;
      const amount = available - kept;
      const transfer: Plain = { type: 'balance.transfer', userId, asset, amount };
      h.ok({ ...transfer, from: 'trade', to: 'main', businessId: `cut-${userId}-${asset}` });
    }
  }
}

/** Of one asset: a few minor units, up to ten whole units (of eight decimals), or all of it. */
const kept = fc.oneof(
  { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 1000n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 10n ** 9n }) },
  { weight: 2, arbitrary: fc.constant(KEEP_ALL) },
);

/** The model's result as JSON text; empty for a throw. */
const text = (o: Outcome) => ('value' in o ? String(o.value) : '');

/** A user who makes markets for the others' orders for all they have: ten million of each asset. */
const MAKER = 5;
const LTT_MARKETS = SHAPES.filter((m) => m.spec.stock === 'LTT' || m.spec.money === 'LTT');

/**
 * An order for all a user has on a market that trades LTT, after a limit order of the maker's
 * at the market's last price on the other side, deep enough to take all of it.
 */
const edge = fc.record({
  shape: fc.constantFrom(...LTT_MARKETS),
  userId: fc.constantFrom(...USERS),
  /** Whether the user is instead one of those paying fees in LTT (half the edges). */
  payer: fc.boolean(),
  side: fc.constantFrom(1 as const, 2 as const),
  order: fc.constantFrom(
    'order.market' as const,
    'order.market' as const,
    'order.limit' as const,
    'order.stopLimit' as const,
    'order.oco' as const,
  ),
  timeInForce: fc.constantFrom('GTC', 'IOC', 'FOK', 'POST_ONLY'),
  steps: fc.tuple(
    fc.integer({ min: -3, max: 3 }),
    fc.integer({ min: -3, max: 3 }),
    fc.integer({ min: -3, max: 3 }),
  ),
});
type Edge = typeof edge extends fc.Arbitrary<infer T> ? T : never;

/** The maker's order, then the edge's order for all the user has; the model's outcome of it. */
function runEdge(h: Harness, e: Edge): Outcome {
  const m: Shape = e.shape;
  const { stock, money, lotSize } = m.spec;
  const last = h.a.lastPrice(m.spec.name);
  const price = last > 0n ? last : m.center;
  const balance = h.a.balances(e.userId)[e.side === 1 ? stock : money]?.trade.available ?? 0n;
  const scale = 10n ** BigInt(DECIMALS[stock] ?? 0);
  // Lots the user's stock makes, or the user's money buys at this price, and one more.
  const lots = (e.side === 1 ? balance / lotSize : (balance * scale) / (price * lotSize)) + 1n;
  const depth = lots < 5000n ? lots : 5000n;
  h.send({
    type: 'order.limit',
    userId: MAKER,
    market: m.spec.name,
    side: 3 - e.side,
    price,
    amount: depth * lotSize,
    timeInForce: 'GTC',
    source: 'api',
    time: h.tick(),
  });
  const { order, userId, side, timeInForce, steps } = e;
  const market = m.spec.name;
  const step: Step =
    order === 'order.market'
      ? { kind: side === 1 ? 'allOut' : 'allIn', userId, market }
      : { kind: 'allInOrder', order, userId, market, side, timeInForce, steps };
  return h.run(step);
}

describe('columnar core against the bigint core, with little slack', { timeout: 120_000 }, () => {
  it('agrees, and never throws, on every market with cut-down balances and fees in LTT', () => {
    // What the runs reached: fees paid in LTT, orders for all a user has that were accepted,
    // and orders refused for their balance.
    const seen = { lttFees: 0, allInAccepted: 0, insufficient: 0 };
    fc.assert(
      fc.property(
        steps,
        fc.constantFrom(100n, 200n, 10_000n, 2_000_000n, 10n ** 9n, 10n ** 11n),
        fc.subarray(USERS, { minLength: 1 }),
        fc.array(kept, { minLength: 16, maxLength: 16 }),
        fc.array(edge, { minLength: 5, maxLength: 20 }),
        (run, lttPrice, payInLtt, keep, edges) => {
          const h = Harness.pair();
          h.add(new Engine(undefined, { returnAfter: 1 }), 'returning');
          setUp(h);
          h.ok({ type: 'user.add', userId: MAKER });
          for (const [asset, decimals] of Object.entries(DECIMALS)) {
            const amount = 10n ** BigInt(decimals + 7);
            fund(h, MAKER, asset, amount, amount, `maker-${asset}`);
          }
          setUpEveryMarket(h, lttPrice);
          for (const userId of payInLtt) {
            h.ok({ type: 'user.setCustomFee', userId, enabled: true });
          }
          cutDown(h, keep);
          // The edges spread evenly through the run.
          const every = Math.max(1, Math.floor(run.length / edges.length));
          for (const [i, s] of run.entries()) {
            const e = i % every === 0 ? edges[i / every] : undefined;
            if (e !== undefined) {
              const payer = payInLtt[e.userId % payInLtt.length]!;
              const outcome = text(runEdge(h, e.payer ? { ...e, userId: payer } : e));
              if (outcome.includes('"ok":true')) seen.allInAccepted++;
              seen.lttFees += outcome.split('FeeAsset":"LTT"').length - 1;
            }
            const outcome = text(h.run(s));
            seen.lttFees += outcome.split('FeeAsset":"LTT"').length - 1;
            seen.insufficient += outcome.includes('"insufficient_balance"') ? 1 : 0;
            const allIn = s.kind === 'allIn' || s.kind === 'allOut' || s.kind === 'allInOrder';
            if (allIn && outcome.includes('"ok":true')) seen.allInAccepted++;
          }
          h.compareAll();
        },
      ),
      { numRuns: 25, interruptAfterTimeLimit: 60_000 },
    );
    expect(seen.lttFees).toBeGreaterThan(5);
    expect(seen.allInAccepted).toBeGreaterThan(5);
    expect(seen.insufficient).toBeGreaterThan(20);
  });
});
