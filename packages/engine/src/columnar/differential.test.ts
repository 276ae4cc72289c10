// The two cores side by side: every command goes to a bigint-only engine and to a default
// engine (the columnar core, handing over to the bigint core when a command does not fit it, and
// going back to the columnar core later when the state fits it again).
// Results, events, counters, queries and state hashes must be identical; a throw counts as a
// result, so it must happen on both sides with the same error.
// The harness, the generators and the markets they use are in the differential*.ts modules
// beside this file.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine.js';
import { restoreState } from '../snapshot.js';
import {
  fittingCommand,
  ownOrdersCancelled,
  pricedLtt,
  Random,
  runFitting,
} from './differentialFitting.js';
import { fund, Harness, setUp } from './differentialHarness.js';
import { core, json } from './differentialQueries.js';
import {
  type Plain,
  QUERY_USERS,
  SET_UP_SHAPES,
  SHAPES,
  type Shape,
  USERS,
} from './differentialShapes.js';
import { steps } from './differentialSteps.js';

/**
 * Every twentieth step of the seeded run on BTC_LTT, a buy by total of all the LTT a user has to
 * trade, after an ask of the next user deep enough that it could spend all of it; and a sell of
 * all the LTT another user has, after a bid for it all: where fees in LTT have no slack to come
 * out of.
 */
function wholeBalanceStep(h: Harness, i: number, ltt: Shape, priced: Shape): Plain | null {
  const round = Math.floor(i / 20);
  const user = USERS[(i % 20 < 10 ? round + 2 : round) % USERS.length]!;
  const order = { type: 'order.limit', userId: (user % USERS.length) + 1, timeInForce: 'GTC' };
  const lots = (m: Shape, n: bigint) => ({
    market: m.spec.name,
    price: m.center,
    amount: m.spec.lotSize * n,
  });
  switch (i % 20) {
    case 8:
      return { ...order, ...lots(ltt, 1000n), side: 2, source: 'web' };
    case 9:
      return h.allOutOf(user, ltt.spec.name);
    case 18:
      return { ...order, ...lots(priced, 2000n), side: 1, source: 'web' };
    case 19:
      return h.allInOf(user, priced.spec.name);
    default:
      return null;
  }
}

describe('columnar core against the bigint core', { timeout: 120_000 }, () => {
  it('gives the same results, events, counters, queries and hash on random commands', () => {
    let stayed = 0;
    let left = 0;
    fc.assert(
      fc.property(steps, (run) => {
        const h = Harness.pair();
        // A third engine tries the columnar core again one command after each hand-over.
        h.add(new Engine(undefined, { returnAfter: 1 }), 'returning');
        setUp(h);
        for (const s of run) h.run(s);
        h.compareAll();
        if (core(h.b) === 'columnar') stayed++;
        else left++;
      }),
      // A failure found is still reported when its shrinking is cut short by the time limit.
      { numRuns: 60, interruptAfterTimeLimit: 60_000 },
    );
    // Both paths were exercised: runs that fit throughout, and runs that handed over. About
    // one run in eight also went back to the columnar core (the test below makes sure of it).
    expect(stayed).toBeGreaterThanOrEqual(5);
    expect(left).toBeGreaterThanOrEqual(5);
  });

  it('never leaves the columnar core on a workload that fits it', () => {
    const h = Harness.pair();
    setUp(h);
    pricedLtt(h);
    const r = new Random(20240601);
    const seen = { triggered: 0, ocoCancelled: 0, stopsPut: 0, lttFees: 0, ownCancelled: 0 };
    for (let i = 0; i < 3000; i++) {
      const cmd = fittingCommand(h, r);
      const sent = h.send({ ...cmd, time: h.tick() });
      // The model's result as JSON text.
      const outcome = 'value' in sent ? String(sent.value) : '';
      if (core(h.b) !== 'columnar') expect.fail(`left the columnar core on ${json(cmd)}`);
      seen.triggered += outcome.split('"order.triggered"').length - 1;
      seen.ocoCancelled += outcome.split('"finish_reason":2').length - 1;
      if (cmd.type === 'order.stopLimit' && outcome.includes('"ok":true')) seen.stopsPut++;
      seen.lttFees += outcome.split('FeeAsset":"LTT"').length - 1;
      seen.ownCancelled += ownOrdersCancelled(cmd, outcome);
    }
    h.compareAll();
    expect(h.b.stateHash()).toBe(h.a.stateHash());
    expect(core(h.b)).toBe('columnar');
    // The workload reached the paths of stops and OCO pairs: placed, fired, siblings cancelled.
    expect(seen.stopsPut).toBeGreaterThan(50);
    expect(seen.triggered).toBeGreaterThan(20);
    expect(seen.ocoCancelled).toBeGreaterThan(10);
    expect(seen.lttFees).toBeGreaterThan(20);
    expect(seen.ownCancelled).toBeGreaterThan(20);
  });

  /** Stop-limit and OCO orders with prices around the market's last price, and fees in LTT. */
  const STAYS: [string, (last: (market: string) => bigint) => Plain][] = [
    ['user.setCustomFee', () => ({ type: 'user.setCustomFee', userId: 1, enabled: true })],
    [
      'order.stopLimit',
      (last) => {
        const m = SHAPES[0]!;
        const price = last(m.spec.name);
        return {
          type: 'order.stopLimit',
          userId: 1,
          market: m.spec.name,
          side: 2,
          stopPrice: price + 3n * m.step,
          price: price + 5n * m.step,
          amount: 20n * m.spec.lotSize,
          source: 'api',
        };
      },
    ],
    [
      'order.oco',
      (last) => {
        const m = SHAPES[1]!;
        const price = last(m.spec.name);
        return {
          type: 'order.oco',
          userId: 2,
          market: m.spec.name,
          side: 1,
          price: price + 6n * m.step,
          stopPrice: price - 3n * m.step,
          limitPrice: price - 5n * m.step,
          amount: 50n * m.spec.lotSize,
          source: 'web',
        };
      },
    ],
  ];

  it.each(STAYS)('%s stays on the columnar core and all still matches', (name, make) => {
    const h = Harness.pair();
    setUp(h);
    const ltt = pricedLtt(h);
    const r = new Random(name.length); // a different workload for each
    runFitting(h, r, 200);
    h.ok(make((market) => h.a.lastPrice(market)));
    expect(core(h.b)).toBe('columnar');
    h.compareAll();
    // More trading: fills of the custom-fee user, stops triggered, OCO legs acting.
    runFitting(h, r, 400, [...SET_UP_SHAPES, ltt]);
    h.compareAll();
    expect(core(h.b)).toBe('columnar');
    const restored = Engine.restore(JSON.parse(JSON.stringify(h.b.snapshot())));
    expect(core(restored)).toBe('columnar');
    expect(restored.stateHash()).toBe(h.a.stateHash());
  });

  it('takes fees in LTT alike on a market priced in LTT, and in money once the LTT runs out', () => {
    const h = Harness.pair();
    setUp(h);
    const ltt = pricedLtt(h);
    const priced = SHAPES.find((m) => m.spec.name === 'BTC_LTT')!;
    h.ok(priced.spec);
    for (const userId of [1, 2, 3, 4]) h.ok({ type: 'user.setCustomFee', userId, enabled: true });
    // Users 1 and 2 keep half an LTT to trade with, so that their fees in LTT run out.
    for (const userId of [1, 2]) {
      const transfer = {
        type: 'balance.transfer',
        userId,
        asset: 'LTT',
        from: 'trade',
        to: 'main',
      };
      h.ok({ ...transfer, amount: 7995n * 10n ** 7n, businessId: `keep-${userId}` });
    }
    const r = new Random(7);
    // Order views on BTC_LTT that show fees paid in LTT: the money and the fee come from one
    // balance.
    let paidInLtt = 0;
    for (let i = 0; i < 600; i++) {
      const special = wholeBalanceStep(h, i, ltt, priced);
      const sent = h.send({
        ...(special ?? fittingCommand(h, r, [priced, ...SET_UP_SHAPES, ltt])),
        time: h.tick(),
      });
      const outcome = 'value' in sent ? String(sent.value) : '';
      paidInLtt += outcome.match(/"market":"BTC_LTT"[^{}]*"deal_fee_ltt":"[1-9]/g)?.length ?? 0;
    }
    h.compareAll();
    expect(core(h.b)).toBe('columnar');
    expect(paidInLtt).toBeGreaterThan(20);
  });

  it('keeps orders of a thousand BTC on the columnar core, counting their products in lots', () => {
    const h = Harness.pair();
    setUp(h);
    const funds: [string, bigint][] = [
      ['BTC', 10_000n * 10n ** 8n],
      ['USDT', 10n ** 9n * 10n ** 6n],
    ];
    for (const userId of [1, 2]) {
      for (const [asset, amount] of funds) {
        fund(h, userId, asset, amount, amount, `whale-${userId}-${asset}`);
      }
    }
    // BTC_USDT has lots of 50,000 satoshis: 1,000 BTC at 30,000 is 3 × 10^17 in satoshis ×
    // ticks, past 2^53, and 6 × 10^12 in lots × ticks.
    const m = SHAPES[0]!;
    const order = { type: 'order.limit', market: m.spec.name, source: 'api', timeInForce: 'GTC' };
    const btc = 10n ** 8n;
    h.ok({ ...order, userId: 1, side: 2, price: m.center, amount: 1000n * btc });
    h.ok({ ...order, userId: 2, side: 1, price: m.center - m.step, amount: 600n * btc });
    const market = { type: 'order.market', market: m.spec.name, source: 'web' };
    h.ok({ ...market, userId: 2, side: 1, amount: 300n * btc });
    h.ok({ ...order, userId: 2, side: 1, price: m.center + 9n * m.step, amount: 2000n * btc });
    h.ok({ ...market, userId: 1, side: 2, total: 20_000_000n * 10n ** 6n });
    expect(core(h.b)).toBe('columnar');
    h.compareAll();
    // With the large orders resting: a restore takes them into the columnar core too.
    const restored = Engine.restore(JSON.parse(JSON.stringify(h.b.snapshot())));
    expect(core(restored)).toBe('columnar');
    expect(restored.stateHash()).toBe(h.a.stateHash());
    h.add(restored, 'restored');
    h.ok({ ...market, userId: 1, side: 2, amount: 500n * btc });
    h.ok({ type: 'order.cancelAll', userId: 1 });
    h.ok({ type: 'order.cancelAll', userId: 2 });
    expect(core(h.b)).toBe('columnar');
    expect(core(restored)).toBe('columnar');
    h.compareAll();
  });

  it('goes back to the columnar core when what did not fit is gone, and all still matches', () => {
    const h = Harness.pair();
    h.add(new Engine(undefined, { returnAfter: 16 }), 'returning');
    setUp(h);
    const r = new Random(11);
    runFitting(h, r, 200);
    const m = SHAPES[0]!;
    // An ask of one BTC at 10^12 USDT: its fills at its own price would pass 2^53, so every
    // engine but the model hands over.
    h.ok({
      type: 'order.limit',
      userId: 4,
      market: m.spec.name,
      side: 1,
      price: 10n ** 18n,
      amount: 10n ** 8n,
      timeInForce: 'GTC',
      source: 'api',
    });
    expect(core(h.b)).toBe('bigint');
    expect(core(h.engines[2]!)).toBe('bigint');
    // While it rests, the returning engine's tries find the state not fitting.
    runFitting(h, r, 100);
    expect(core(h.engines[2]!)).toBe('bigint');
    h.ok({ type: 'order.cancelAll', userId: 4 });
    runFitting(h, r, 300);
    h.compareAll();
    expect(core(h.engines[2]!)).toBe('columnar');
    expect(h.returns).toBe(1);
    // The default engine waits 1,024 commands before its first try.
    expect(core(h.b)).toBe('bigint');
  });

  it('fees in LTT stay on the columnar core when the LTT in the exchange passes 2^53', () => {
    for (const customFeeFirst of [false, true]) {
      const h = Harness.pair();
      setUp(h);
      const ltt = pricedLtt(h);
      const r = new Random(customFeeFirst ? 3 : 4);
      runFitting(h, r, 200, [...SET_UP_SHAPES, ltt]);
      const customFee = { type: 'user.setCustomFee', userId: 1, enabled: true };
      if (customFeeFirst) h.ok(customFee);
      fund(h, 1, 'LTT', 2n ** 53n, 2n ** 53n, 'big');
      if (!customFeeFirst) h.ok(customFee);
      expect(core(h.b)).toBe('columnar');
      // The workload turns fees in LTT on and off for every user.
      let lttFees = 0;
      for (let i = 0; i < 300; i++) {
        const sent = h.send({ ...fittingCommand(h, r, [...SET_UP_SHAPES, ltt]), time: h.tick() });
        lttFees += ('value' in sent ? String(sent.value) : '').split('FeeAsset":"LTT"').length - 1;
      }
      h.compareAll();
      expect(core(h.b)).toBe('columnar');
      expect(lttFees).toBeGreaterThan(10);
      // A restore of that state is the columnar core's too.
      const restored = Engine.restore(h.b.snapshot());
      expect(core(restored)).toBe('columnar');
      expect(restored.stateHash()).toBe(h.a.stateHash());
    }
  });

  it('restores a snapshot to the same state, with or without a hand-over', () => {
    const h = Harness.pair();
    setUp(h);
    const r = new Random(7);
    runFitting(h, r, 600);
    expect(core(h.b)).toBe('columnar');
    const snapshot = JSON.parse(JSON.stringify(h.b.snapshot()));
    const restored = Engine.restore(snapshot);
    // A state that fits the columnar core is restored into it.
    expect(core(restored)).toBe('columnar');
    // With every balance the bigint core's restore lists, zero ones included (not normalised).
    const restoredOnBigint = new Engine(restoreState(snapshot));
    for (const u of QUERY_USERS) {
      expect(json(restored.balances(u))).toBe(json(restoredOnBigint.balances(u)));
    }
    expect(restored.stateHash()).toBe(h.b.stateHash());
    expect(restored.stateHash()).toBe(h.a.stateHash());
    // The restored engine, on whichever core, then runs on like the others.
    h.add(restored, 'restored');
    runFitting(h, r, 300);
    h.compareAll();

    h.ok({ type: 'user.setCustomFee', userId: 2, enabled: true });
    runFitting(h, r, 100);
    const again = Engine.restore(h.b.snapshot());
    // A user paying fees in LTT stays on the columnar core through a restore.
    expect(core(again)).toBe('columnar');
    expect(again.stateHash()).toBe(h.b.stateHash());
    expect(again.stateHash()).toBe(h.a.stateHash());
    // Past its ranges (a deposit beyond two limbs), the engine hands over and restores onto the
    // bigint core.
    h.ok({ type: 'balance.deposit', userId: 3, asset: 'BTC', amount: 2n ** 104n, businessId: 'x' });
    expect(core(h.b)).toBe('bigint');
    const last = Engine.restore(h.b.snapshot());
    expect(core(last)).toBe('bigint');
    expect(last.stateHash()).toBe(h.a.stateHash());
  });
});
