import { describe, expect, it } from 'vitest';
import { commandFromJson, commandToJson, eventFromJson, eventToJson } from './codec.js';
import { Engine } from './engine.js';
import type { CommandInput } from './fixtures.js';
import { BUY, btc, ltt, MARKET, RESTORE_ON, SELL, TestExchange, usdt } from './fixtures.js';
import { restoreState } from './snapshot.js';
import { State } from './state.js';
import type {
  Command,
  EngineSnapshot,
  EngineSnapshotV1,
  EngineSnapshotV2,
  SnapshotOrderRow,
} from './types.js';

/** `amount` LTT for a user, on trade. */
function lttFor(userId: number, amount: bigint): CommandInput[] {
  const base = { userId, asset: 'LTT', amount } as const;
  return [
    { type: 'balance.deposit', ...base, businessId: `ltt-${userId}` },
    { type: 'balance.transfer', ...base, from: 'main', to: 'trade', businessId: `lt-${userId}` },
  ];
}

/**
 * A busy little history: resting orders, fills, a stop, an OCO pair, holds and freezes, and a
 * bid partly filled that pays its fees in LTT.
 */
function history(): CommandInput[] {
  const order = { type: 'order.limit', market: MARKET, timeInForce: 'GTC', source: 'web' } as const;
  const lttOrder = { ...order, market: 'LTT_USDT' } as const;
  return [
    {
      type: 'balance.freeze',
      userId: 1,
      asset: 'USDT',
      account: 'trade',
      amount: usdt('10'),
      businessId: 'f',
      purpose: 'staking',
    },
    { type: 'balance.deposit', userId: 2, asset: 'BTC', amount: btc('1'), businessId: 'dep' },
    { type: 'balance.withdrawHold', userId: 2, asset: 'BTC', amount: btc('0.5'), businessId: 'w' },
    { ...order, userId: 1, side: SELL, price: usdt('30000'), amount: btc('0.3') },
    { ...order, userId: 2, side: BUY, price: usdt('30000'), amount: btc('0.1') },
    { ...order, userId: 3, side: BUY, price: usdt('29000'), amount: btc('0.2') },
    {
      type: 'order.stopLimit',
      userId: 3,
      market: MARKET,
      side: SELL,
      stopPrice: usdt('29500'),
      price: usdt('29400'),
      amount: btc('0.1'),
      source: 'api',
    },
    {
      type: 'order.oco',
      userId: 2,
      market: MARKET,
      side: SELL,
      price: usdt('31000'),
      stopPrice: usdt('29000'),
      limitPrice: usdt('28900'),
      amount: btc('0.2'),
      source: 'web',
    },
    { ...order, userId: 3, side: BUY, price: usdt('31000'), amount: btc('0.25') },
    {
      type: 'order.market',
      userId: 1,
      market: MARKET,
      side: SELL,
      amount: btc('0.3'),
      source: 'api',
    },
    { type: 'balance.withdrawComplete', businessId: 'w', fee: btc('0.0001') },
    { ...order, userId: 1, side: SELL, price: usdt('32000'), amount: btc('0.1') },
    // LTT at 0.05 USDT; user 3's bid of 10 LTT takes its maker fee on 4 of them in LTT.
    ...lttFor(1, ltt('100')),
    { ...lttOrder, userId: 1, side: SELL, price: usdt('0.05'), amount: ltt('1') },
    { ...lttOrder, userId: 2, side: BUY, price: usdt('0.05'), amount: ltt('1') },
    ...lttFor(3, ltt('100')),
    { type: 'user.setCustomFee', userId: 3, enabled: true },
    { ...lttOrder, userId: 3, side: BUY, price: usdt('0.05'), amount: ltt('10') },
    { ...lttOrder, userId: 1, side: SELL, price: usdt('0.05'), amount: ltt('4') },
  ];
}

const ROW_VIEW_FIELDS = [
  'id',
  'userId',
  'market',
  'side',
  'type',
  'algorithm',
  'timeInForce',
  'platform',
  'amount',
  'total',
  'price',
  'stop_price',
  'limit_price',
  'left',
  'deal_stock',
  'deal_money',
  'deal_fee',
  'deal_fee_ltt',
  'triggered',
  'oco_id',
  'ctime',
  'mtime',
] as const;

/** The same state in the second snapshot format: each applied id a keyed entry, its result whole. */
function asVersion2(snap: EngineSnapshot): EngineSnapshotV2 {
  const done = snap.done.map(([key, fingerprint, result]) => {
    if (!Array.isArray(result)) return { key, fingerprint, result };
    const pair = (i: number) => ({ available: result[2 + 2 * i], frozen: result[3 + 2 * i] });
    const balances = { main: pair(0), trade: pair(1), margin: pair(2) };
    return {
      key,
      fingerprint,
      result: { kind: 'balance', userId: result[0], asset: result[1], balances },
    };
  });
  return { ...snap, version: 2, done };
}

/** The same state in the first snapshot format: each order a keyed view and its accounting. */
function asVersion1(snap: EngineSnapshot): EngineSnapshotV1 {
  const orders = snap.orders.map((row: SnapshotOrderRow) => {
    const view: Record<string, unknown> = { account: 0, ftime: 0, finish_reason: null };
    ROW_VIEW_FIELDS.forEach((field, i) => {
      view[field] = row[i];
    });
    view.triggered = row[18] === 1;
    return { view, frozen: row[22], moneyNum: row[23], feeNum: row[24], direction: row[25] };
  });
  return { ...asVersion2(snap), version: 1, orders };
}

function funded(): TestExchange {
  const x = TestExchange.standard();
  for (const user of [1, 2, 3]) {
    x.fund(user, 'BTC', btc('5'));
    x.fund(user, 'USDT', usdt('200000'));
  }
  return x;
}

describe.each(Object.entries(RESTORE_ON))(
  'snapshot and restore onto the %s core',
  (_core, restore) => {
    it('restore(snapshot(x)) hashes equal to x, through JSON', () => {
      const x = funded();
      for (const cmd of history()) x.ok(cmd);
      const snap = x.engine.snapshot();
      // The partly filled bid that paid 0.002 LTT of fees is among what is restored.
      expect(snap.orders.some((row) => row[17] === ltt('0.002').toString())).toBe(true);
      const json = JSON.stringify(snap);
      const restored = restore(JSON.parse(json) as EngineSnapshot);
      restored.assertValid();
      expect(restored.stateHash()).toBe(x.engine.stateHash());
      expect(JSON.stringify(restored.snapshot())).toBe(json);
    });

    it('snapshot at any point + replay of the rest = the uninterrupted run', () => {
      const commands = history();
      const full = funded();
      for (const cmd of commands) full.ok(cmd);
      for (let cut = 0; cut <= commands.length; cut++) {
        const x = funded();
        for (const cmd of commands.slice(0, cut)) x.ok(cmd);
        const resumed = new TestExchange(restore(JSON.parse(JSON.stringify(x.engine.snapshot()))));
        resumed.time = x.time;
        for (const cmd of commands.slice(cut)) resumed.ok(cmd);
        expect(resumed.engine.stateHash()).toBe(full.engine.stateHash());
      }
    });
  },
);

describe('snapshot and restore', () => {
  it('restores a version 1 snapshot (keyed order views) to the same state', () => {
    const x = funded();
    for (const cmd of history()) x.ok(cmd);
    const snap = x.engine.snapshot();
    expect(snap.version).toBe(3);
    expect(snap.orders.length).toBeGreaterThan(2);
    const old = JSON.parse(JSON.stringify(asVersion1(snap))) as EngineSnapshotV1;
    const restored = Engine.restore(old);
    restored.assertValid();
    expect(restored.stateHash()).toBe(x.engine.stateHash());
    // And it carries on alike: the same next command gives the same state.
    const next = new TestExchange(restored);
    next.time = x.time;
    next.limit(3, BUY, '32000', '0.05');
    x.limit(3, BUY, '32000', '0.05');
    expect(restored.stateHash()).toBe(x.engine.stateHash());
  });

  it('restores a version 2 snapshot (applied ids as keyed entries) to the same state', () => {
    const x = funded();
    for (const cmd of history()) x.ok(cmd);
    const snap = x.engine.snapshot();
    expect(snap.done.some(([, , result]) => Array.isArray(result))).toBe(true);
    const old = JSON.parse(JSON.stringify(asVersion2(snap))) as EngineSnapshotV2;
    for (const restored of [Engine.restore(old), new Engine(restoreState(old))]) {
      restored.assertValid();
      expect(restored.stateHash()).toBe(x.engine.stateHash());
      // Every applied id repeats as a no-op with its first result.
      const again = new TestExchange(restored);
      again.time = x.time;
      const repeat = again.ok(history()[0]!);
      expect(repeat.events).toEqual([]);
    }
  });

  it('refuses a snapshot of an unknown version', () => {
    for (const version of [0, 2.5, 4]) {
      const snap = { ...funded().engine.snapshot(), version } as unknown as EngineSnapshot;
      expect(() => Engine.restore(snap)).toThrow(`unknown snapshot version ${version}`);
    }
  });

  it('a repeated business id stays a no-op after a restore', () => {
    const x = funded();
    const deposit = {
      type: 'balance.deposit',
      userId: 1,
      asset: 'BTC',
      amount: 5n,
      businessId: 'again',
    } as const;
    const first = x.ok(deposit);
    const restored = new TestExchange(Engine.restore(x.engine.snapshot()));
    const repeat = restored.ok(deposit);
    expect(repeat.events).toEqual([]);
    expect(repeat.result).toEqual(first.result);
  });

  it('holds a market with more waiting stops than a call takes arguments', () => {
    // The bigint core listed a market's stops as the arguments of one call, and V8 refuses a call
    // of about 120,000 arguments or more: a snapshot, a state hash or a move back to the columnar
    // core then threw. 150,000 sell stops at one price, placed on the bigint core.
    const x = TestExchange.standard(new Engine(new State()));
    x.checkInvariants = false;
    x.fund(1, 'BTC', btc('200'));
    x.fund(2, 'USDT', usdt('100000'));
    x.limit(1, SELL, '30000', '0.001');
    x.limit(2, BUY, '30000', '0.001');
    const stops = 150_000;
    for (let i = 0; i < stops; i++) {
      x.ok({
        type: 'order.stopLimit',
        userId: 1,
        market: MARKET,
        side: SELL,
        stopPrice: usdt('29000'),
        price: usdt('28900'),
        amount: btc('0.001'),
        source: 'api',
      });
    }
    const snap = x.engine.snapshot();
    expect(snap.orders).toHaveLength(stops);
    const restored = Engine.restore(JSON.parse(JSON.stringify(snap)) as EngineSnapshot);
    expect(restored.stateHash()).toBe(x.engine.stateHash());
  }, 120_000);

  it('different states hash differently', () => {
    const a = funded();
    const b = funded();
    expect(a.engine.stateHash()).toBe(b.engine.stateHash());
    b.limit(1, SELL, '30000', '0.1');
    expect(a.engine.stateHash()).not.toBe(b.engine.stateHash());
  });
});

describe('journal codec', () => {
  it('round-trips commands and events through JSON', () => {
    const x = funded();
    let time = 1;
    for (const input of history()) {
      const cmd = { ...input, time: time++ } as Command;
      const wire = JSON.parse(JSON.stringify(commandToJson(cmd)));
      expect(commandFromJson(wire)).toEqual(cmd);
      const result = x.ok(input);
      for (const event of result.events) {
        expect(eventFromJson(JSON.parse(JSON.stringify(eventToJson(event))))).toEqual(event);
      }
    }
  });
});
