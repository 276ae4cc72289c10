// The two cores side by side: every command goes to a bigint-only engine and to a default
// engine (the columnar core, handing over to the bigint core when a command does not fit it, and
// going back to the columnar core later when the state fits it again).
// Results, events, counters, queries and state hashes must be identical; a throw counts as a
// result, so it must happen on both sides with the same error.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine.js';
import { restoreState } from '../snapshot.js';
import { State } from '../state.js';
import type { ApplyResult, Command, MarketAddCommand, UserBalances } from '../types.js';

type Plain = Record<string, unknown>;
type MarketSpec = Omit<MarketAddCommand, 'time'>;

const T0 = 1_700_000_000_000;
const USERS = [1, 2, 3, 4];
const DECIMALS: Record<string, number> = { BTC: 8, USDT: 6, ETH: 8, LTT: 8 };
/** What each user deposits of each asset; four fifths of it goes on to the trade account. */
const FUNDS: [string, bigint][] = [
  ['BTC', 10n * 10n ** 8n],
  ['USDT', 1_000_000n * 10n ** 6n],
  ['ETH', 100n * 10n ** 8n],
  ['LTT', 1000n * 10n ** 8n],
];
const IDEMPOTENT = new Set([
  'balance.deposit',
  'balance.withdrawHold',
  'balance.withdrawComplete',
  'balance.withdrawRelease',
  'balance.transfer',
  'balance.freeze',
  'balance.unfreeze',
  'balance.settleFreeze',
]);

// ---------------------------------------------------------------------------------------------
// Markets

interface Shape {
  spec: MarketSpec;
  /** Generated prices are center + k × step (step a multiple of the tick). */
  center: bigint;
  step: bigint;
  /** Generated amounts are 1 to maxLots lots. */
  maxLots: number;
  /** The largest money total of a generated market buy by total. */
  maxTotal: bigint;
}

function spec(
  name: string,
  tickSize: bigint,
  lotSize: bigint,
  minAmount: bigint,
  pricePrecision: number,
  amountPrecision: number,
  makerFeePpm: number,
  takerFeePpm: number,
): MarketSpec {
  const [stock = '', money = ''] = name.split('_');
  return {
    type: 'market.add',
    name,
    stock,
    money,
    tickSize,
    lotSize,
    minAmount,
    pricePrecision,
    amountPrecision,
    makerFeePpm,
    takerFeePpm,
  };
}

/** The first three are set up; the last two only appear through a generated market.add. */
const SHAPES: Shape[] = [
  // Tick = price step; a lot of five amount steps, so an amount can be off the lot.
  {
    spec: spec('BTC_USDT', 10_000n, 50_000n, 100_000n, 2, 4, 1000, 2000),
    center: 30_000_000_000n,
    step: 5_000_000n,
    maxLots: 400,
    maxTotal: 10_000_000_000n,
  },
  // A tick of five price steps (a price can be off the tick); no maker fee.
  {
    spec: spec('ETH_USDT', 50_000n, 100_000n, 1_000_000n, 2, 3, 0, 1500),
    center: 2_000_000_000n,
    step: 500_000n,
    maxLots: 3000,
    maxTotal: 5_000_000_000n,
  },
  // Lots of one minor unit: deal values are fractions of a satoshi, so rounding is exercised.
  {
    spec: spec('ETH_BTC', 1000n, 1n, 1000n, 5, 8, 2500, 500),
    center: 6_500_000n,
    step: 2000n,
    maxLots: 200_000_000,
    maxTotal: 20_000_000n,
  },
  {
    spec: spec('LTT_USDT', 100n, 100_000_000n, 100_000_000n, 4, 0, 1000, 2000),
    center: 2_000_000n,
    step: 300n,
    maxLots: 50,
    maxTotal: 100_000_000n,
  },
  {
    spec: spec('LTT_BTC', 1n, 1_000_000n, 0n, 8, 2, 3000, 3000),
    center: 7000n,
    step: 13n,
    maxLots: 5000,
    maxTotal: 1_000_000n,
  },
];
const SET_UP_SHAPES = SHAPES.slice(0, 3);
const LATER_SHAPES = SHAPES.slice(3);
const MARKET_NAMES = [...SHAPES.map((m) => m.spec.name), 'DOGE_USDT', 'WEI_USDT', 'NOPE_USDT'];
const MERGE_STEPS = new Map(SHAPES.map((m) => [m.spec.name, m.step * 3n]));

/** Users the queries look at: the funded ones, two that may be added later, an unknown one. */
const QUERY_USERS = [1, 2, 3, 4, 5, 6, 99];
const PURPOSES = ['staking', 'loan', 'none'];

const priceStep = (m: Shape) =>
  10n ** BigInt((DECIMALS[m.spec.money] ?? 0) - m.spec.pricePrecision);
const amountStep = (m: Shape) =>
  10n ** BigInt((DECIMALS[m.spec.stock] ?? 0) - m.spec.amountPrecision);

// ---------------------------------------------------------------------------------------------
// Comparing

/** JSON with each bigint written as its digits and an n (so 1n and 1 differ). */
function json(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ??
    'undefined'
  );
}

function plain(value: unknown): unknown {
  const text = json(value);
  return text === 'undefined' ? undefined : JSON.parse(text);
}

/** A value, or how reading it threw. */
type Outcome = { value: unknown } | { threw: string };

function attempt(read: () => unknown): Outcome {
  try {
    return { value: read() };
  } catch (error) {
    return { threw: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** What a command returned, read property by property (events and result may be getters). */
function resultView(r: ApplyResult): unknown {
  return r.ok
    ? { ok: r.ok, events: r.events, result: r.result }
    : { ok: r.ok, code: r.code, message: r.message, field: r.field };
}

function counters(e: Engine) {
  return { lastEventSeq: e.lastEventSeq, nextOrderId: e.nextOrderId, nextDealId: e.nextDealId };
}

/** Which core runs the engine: 'columnar' or 'bigint'. */
function core(e: Engine): string {
  return (e as unknown as { coreName: string }).coreName;
}

/** A user's balances without the assets whose three accounts are all zero. */
function nonZero(balances: UserBalances): UserBalances {
  const out: UserBalances = {};
  for (const [asset, accounts] of Object.entries(balances)) {
    const pairs = Object.values(accounts);
    if (pairs.some((p) => p.available !== 0n || p.frozen !== 0n)) out[asset] = accounts;
  }
  return out;
}

/**
 * A list sorted by name: a restore lists assets and markets by name (as the snapshot does), so a
 * hand-over may change their order and only their contents are compared.
 */
function byName<T>(items: T[], name: (item: T) => string): T[] {
  return [...items].sort((x, y) => (name(x) < name(y) ? -1 : name(x) > name(y) ? 1 : 0));
}

/** Every query an engine answers, over the users, markets and orders a run may touch. */
function queries(e: Engine, orderIds: readonly number[]): Record<string, Outcome> {
  const out: Record<string, Outcome> = {};
  const read = (key: string, f: () => unknown) => {
    out[key] = attempt(() => plain(f()));
  };
  read('stateHash', () => e.stateHash());
  read('snapshot', () => e.snapshot());
  read('counters', () => counters(e));
  read('assetTotals', () => byName(e.assetTotals(), (a) => a.asset));
  read('markets', () => byName(e.markets(), (m) => m.name));
  read('assets', () => byName(e.assets(), (a) => a.asset));
  for (const m of MARKET_NAMES) {
    read(`depth ${m}`, () => e.depth(m, 20));
    read(`merged depth ${m}`, () => e.depth(m, 5, MERGE_STEPS.get(m) ?? 10_000n));
    read(`lastPrice ${m}`, () => e.lastPrice(m));
  }
  for (const u of QUERY_USERS) {
    read(`hasUser ${u}`, () => e.hasUser(u));
    read(`balances ${u}`, () => nonZero(e.balances(u)));
    read(`openOrders ${u}`, () => e.openOrders(u));
    for (const m of MARKET_NAMES) read(`openOrders ${u} ${m}`, () => e.openOrders(u, m));
  }
  for (const id of [0, ...orderIds]) read(`order ${id}`, () => e.order(id) ?? null);
  for (const p of PURPOSES) read(`openFreezes ${p}`, () => e.openFreezes(p));
  return out;
}

/** A generated step: a command, or one resolved against what the run has seen so far. */
type Step =
  | { kind: 'command'; command: Plain }
  | { kind: 'badTime'; command: Plain; time: unknown }
  | { kind: 'raw'; value: unknown }
  | { kind: 'cancel'; pick: number; byOwner: boolean; open: boolean }
  | { kind: 'endHold'; pick: number; settle: boolean; fee: bigint; toUserId: number }
  | { kind: 'repeat'; back: number };

/**
 * Engines fed the same commands. The first is the model (bigint only); after each command the
 * others must give the same outcome and counters, and every tenth the same answer to every query.
 */
class Harness {
  readonly engines: Engine[];
  readonly names: string[];
  time = T0;
  count = 0;
  /** Moves from the bigint core back to the columnar core, by any engine but the model. */
  returns = 0;
  /** Order ids seen in results and events, newest last, without repeats. */
  readonly recent: number[] = [];
  readonly owners = new Map<number, unknown>();
  /** The ids of open orders, as the model's latest views of them say. */
  readonly open = new Set<number>();
  /** Idempotent commands the model accepted, for repeats. */
  readonly idempotent: Plain[] = [];
  /** Withdrawal holds and freezes the model accepted (some may be over since). */
  readonly holds: { freeze: boolean; businessId: unknown }[] = [];
  /** Each engine's core after the last command. */
  private readonly cores: string[];

  constructor(engines: Engine[], names: string[]) {
    this.engines = engines;
    this.names = names;
    this.cores = engines.map(core);
  }

  static pair(): Harness {
    return new Harness([new Engine(new State()), new Engine()], ['bigint-only', 'default']);
  }

  /** Another engine, from here on fed the same commands. */
  add(engine: Engine, name: string): void {
    this.engines.push(engine);
    this.names.push(name);
    this.cores.push(core(engine));
  }

  get a(): Engine {
    return this.engines[0]!;
  }
  get b(): Engine {
    return this.engines[1]!;
  }

  tick(): number {
    return this.time++;
  }

  /** One command to every engine; returns the model's outcome (the JSON of its result). */
  send(cmd: unknown): Outcome {
    const [model, ...others] = this.engines as [Engine, ...Engine[]];
    const expected = attempt(() => json(resultView(model.apply(cmd as Command))));
    const expectedCounters = plain(attempt(() => counters(model)));
    this.count++;
    others.forEach((e, i) => {
      const actual = attempt(() => json(resultView(e.apply(cmd as Command))));
      const where = `${this.names[i + 1]}, command ${this.count}: ${json(cmd)}`;
      if (json(actual) !== json(expected)) {
        expect(parsed(actual), where).toEqual(parsed(expected));
        expect(json(actual), where).toBe(json(expected));
      }
      expect(plain(attempt(() => counters(e))), where).toEqual(expectedCounters);
    });
    this.checkCores(cmd);
    this.note(cmd, expected);
    if (this.count % 10 === 0) this.compareAll();
    return expected;
  }

  /** A command that must be accepted (setup). */
  ok(cmd: Plain): void {
    const outcome = this.send({ ...cmd, time: this.tick() });
    const result = parsed(outcome) as { ok?: boolean };
    if (result.ok !== true) throw new Error(`${json(cmd)}: ${json(outcome)}`);
  }

  run(step: Step): void {
    switch (step.kind) {
      case 'command':
        this.send({ ...step.command, time: this.tick() });
        return;
      case 'badTime':
        this.send({ ...step.command, time: step.time });
        return;
      case 'raw':
        this.send(step.value);
        return;
      case 'cancel':
        this.send({ ...this.cancelOf(step.pick, step.byOwner, step.open), time: this.tick() });
        return;
      case 'endHold':
        this.send({ ...this.endHold(step), time: this.tick() });
        return;
      case 'repeat': {
        const n = this.idempotent.length;
        const again = n === 0 ? { type: 'balance.unfreeze', businessId: 'b1' } : undefined;
        this.send({ ...(again ?? this.idempotent[n - 1 - (step.back % n)]), time: this.tick() });
        return;
      }
    }
  }

  /** A cancel of an open order or of one seen lately, by its owner or by someone else. */
  cancelOf(pick: number, byOwner: boolean, open: boolean): Plain {
    const ids = open && this.open.size > 0 ? [...this.open] : this.recent.slice(-40);
    const orderId = ids.length === 0 ? 1 : ids[ids.length - 1 - (pick % ids.length)]!;
    const owner = this.owners.get(orderId) ?? 1;
    const userId = byOwner || typeof owner !== 'number' ? owner : (owner % 4) + 1;
    return { type: 'order.cancel', userId, orderId };
  }

  /** The end of a hold seen lately: a withdrawal completed or released, a freeze undone or settled. */
  endHold(step: { pick: number; settle: boolean; fee: bigint; toUserId: number }): Plain {
    const n = this.holds.length;
    const hold =
      n === 0 ? { freeze: false, businessId: 'b1' } : this.holds[n - 1 - (step.pick % n)]!;
    const { businessId } = hold;
    if (hold.freeze) {
      return step.settle
        ? { type: 'balance.settleFreeze', businessId, toUserId: step.toUserId }
        : { type: 'balance.unfreeze', businessId };
    }
    return step.settle
      ? { type: 'balance.withdrawComplete', businessId, fee: step.fee }
      : { type: 'balance.withdrawRelease', businessId };
  }

  /** Every query on every engine, against the model's answers. */
  compareAll(): void {
    const ids = this.recent.slice(-30);
    const expected = queries(this.a, ids);
    this.engines.slice(1).forEach((e, i) => {
      expect(queries(e, ids), `${this.names[i + 1]} after ${this.count} commands`).toEqual(
        expected,
      );
    });
  }

  /** The model is bigint only; the others run either core and never return to the columnar. */
  private checkCores(cmd: unknown): void {
    expect(core(this.a)).toBe('bigint');
    this.engines.forEach((e, i) => {
      const now = core(e);
      const where = `${this.names[i]}, command ${this.count}: ${json(cmd)}`;
      expect(['columnar', 'bigint'], where).toContain(now);
      if (this.cores[i] === 'bigint' && now === 'columnar') this.returns++;
      this.cores[i] = now;
    });
  }

  /** Remember the order ids and accepted idempotent commands of the model's outcome. */
  private note(cmd: unknown, outcome: Outcome): void {
    const r = parsed(outcome) as Seen | null;
    if (r === null || typeof r !== 'object' || r.ok !== true) return;
    // Events first, then the result: the latest view of an order comes last.
    const orders = [
      ...(r.events ?? []).flatMap((e) => (e.order === undefined ? [] : [e.order])),
      ...(r.result?.order === undefined ? [] : [r.result.order]),
      ...(r.result?.orders ?? []),
    ];
    for (const o of orders) {
      if (o.finish_reason === null) this.open.add(o.id);
      else this.open.delete(o.id);
      if (this.owners.has(o.id)) continue;
      this.owners.set(o.id, o.userId);
      this.recent.push(o.id);
    }
    const { time: _time, ...rest } = cmd as Plain;
    if (!IDEMPOTENT.has(rest.type as string)) return;
    this.idempotent.push(rest);
    if (rest.type === 'balance.withdrawHold' || rest.type === 'balance.freeze') {
      this.holds.push({ freeze: rest.type === 'balance.freeze', businessId: rest.businessId });
    }
  }
}

/** What `note` reads of an accepted result. */
interface Seen {
  ok?: boolean;
  events?: { order?: OrderSeen }[];
  result?: { order?: OrderSeen; orders?: OrderSeen[] };
}
interface OrderSeen {
  id: number;
  userId: unknown;
  finish_reason: number | null;
}

/** The model's or an engine's outcome with its JSON text parsed back, for readable diffs. */
function parsed(outcome: Outcome): unknown {
  if (!('value' in outcome) || typeof outcome.value !== 'string') return outcome;
  return outcome.value === 'undefined' ? undefined : JSON.parse(outcome.value);
}

/** Assets, markets, funded users and a little depth around each market's centre. */
/** A deposit to the user's main account, and a transfer of `traded` of it to trade. */
function fund(
  h: Harness,
  userId: number,
  asset: string,
  amount: bigint,
  traded: bigint,
  businessId: string,
): void {
  h.ok({ type: 'balance.deposit', userId, asset, amount, businessId });
  const transfer = { type: 'balance.transfer', userId, asset, amount: traded, businessId };
  h.ok({ ...transfer, from: 'main', to: 'trade' });
}

function setUp(h: Harness): void {
  for (const [asset, decimals] of Object.entries(DECIMALS)) {
    h.ok({ type: 'asset.add', asset, decimals });
  }
  for (const m of SET_UP_SHAPES) h.ok(m.spec);
  for (const userId of USERS) {
    h.ok({ type: 'user.add', userId });
    for (const [asset, amount] of FUNDS) {
      fund(h, userId, asset, amount, (amount * 4n) / 5n, `setup-${userId}-${asset}`);
    }
  }
  for (const m of SET_UP_SHAPES) {
    const amount = m.spec.lotSize * BigInt(Math.ceil(m.maxLots / 8));
    const order = { type: 'order.limit', market: m.spec.name, amount, source: 'web' };
    for (const k of [1n, 2n, 4n]) {
      h.ok({ ...order, userId: 3, side: 1, price: m.center + k * m.step, timeInForce: 'GTC' });
      h.ok({ ...order, userId: 4, side: 2, price: m.center - k * m.step, timeInForce: 'GTC' });
    }
    // A trade, so every set-up market has a last price.
    h.ok({ ...order, userId: 1, side: 2, price: m.center + m.step, timeInForce: 'IOC' });
  }
}

// ---------------------------------------------------------------------------------------------
// Generated commands (the property test)

/** Mostly `good`, now and then `bad`. */
function mostly<T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<unknown>, weight = 30) {
  return fc.oneof(
    { weight, arbitrary: good as fc.Arbitrary<unknown> },
    { weight: 1, arbitrary: bad },
  );
}

const userId = mostly(fc.constantFrom(...USERS), fc.constantFrom(5, 99, 0, -1, 1.5, '1', null));
const side = mostly(fc.constantFrom(1, 2), fc.constantFrom(0, 3, 'buy', 2n));
const source = mostly(fc.constantFrom('web', 'api'), fc.constantFrom('ios', undefined));
const timeInForce = mostly(
  fc.constantFrom('GTC', 'GTC', 'GTC', 'IOC', 'IOC', 'FOK', 'FOK', 'POST_ONLY', 'POST_ONLY'),
  fc.constantFrom('GTD', 'gtc', undefined, 1),
);
const assetName = mostly(
  fc.constantFrom('BTC', 'USDT', 'ETH', 'LTT'),
  fc.constantFrom('DOGE', 'WEI', 'NOPE', '', 7, null),
  12,
);
const account = mostly(fc.constantFrom('main', 'trade', 'margin'), fc.constantFrom('savings', 1));
const businessId = mostly(
  fc.constantFrom('b1', 'b2', 'b3', 'b4', 'b5', 'b6'),
  fc.constantFrom('', 'x'.repeat(129), 5, null, undefined),
  25,
);
const purpose = mostly(fc.constantFrom('staking', 'loan'), fc.constantFrom('', 'p'.repeat(32), 3));

/** A market: mostly one set up, sometimes one that a generated market.add may have added. */
const shape = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...SET_UP_SHAPES) },
  { weight: 1, arbitrary: fc.constantFrom(...LATER_SHAPES) },
);
const marketName = (m: Shape) =>
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
const withSelfTrade = (orders: fc.Arbitrary<Plain>): fc.Arbitrary<Plain> =>
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

const command = (arb: fc.Arbitrary<Plain>): fc.Arbitrary<Step> =>
  arb.map((c) => ({ kind: 'command', command: c }));

const limitOrder = shape.chain((m) =>
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

const marketOrder = shape.chain((m) =>
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

const stopLimit = shape.chain((m) =>
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

const oco = shape.chain((m) =>
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

/** One step; with `rare`, also the commands that make the engine leave the columnar core. */
const step = (rare: boolean): fc.Arbitrary<Step> =>
  fc.oneof(
    { weight: 30, arbitrary: command(withSelfTrade(limitOrder)) },
    { weight: 8, arbitrary: command(withSelfTrade(marketOrder)) },
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

const steps = fc.boolean().chain((rare) => fc.array(step(rare), { minLength: 40, maxLength: 120 }));

// ---------------------------------------------------------------------------------------------
// Seeded workloads that fit the columnar core (the other tests)

/** mulberry32: a small seeded generator. */
class Random {
  private s: number;

  constructor(seed: number) {
    this.s = seed >>> 0;
  }

  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }
}

const FITTING_TIF = ['GTC', 'GTC', 'GTC', 'GTC', 'IOC', 'IOC', 'FOK', 'POST_ONLY', 'POST_ONLY'];

/** An order command's self-trade prevention: mostly the default, given or not. */
function fittingSelfTrade(r: Random): Plain {
  const mode = r.pick(['absent', 'absent', 'cancelNewest', 'cancelOldest', 'cancelBoth']);
  return mode === 'absent' ? {} : { selfTradePrevention: mode };
}

/** A stop-limit order or an OCO pair around the market's last price, mostly valid. */
function conditionalCommand(
  h: Harness,
  r: Random,
  m: Shape,
  userId: number,
  side: number,
  amount: bigint,
): Plain {
  const last = h.a.lastPrice(m.spec.name);
  const base = last > 0n ? last : m.center;
  const away = (k: number) => BigInt(k) * m.step;
  const order = { userId, market: m.spec.name, side, amount, source: r.pick(['web', 'api']) };
  if (r.next() < 0.6) {
    const stopPrice = base + away(r.int(-6, 6));
    const price = stopPrice + away(r.int(-3, 3));
    return { type: 'order.stopLimit', ...order, stopPrice, price: price > 0n ? price : stopPrice };
  }
  // A sell: price above the last price, stop below it, limit at or below the stop; a buy the
  // other way round.
  const dir = side === 1 ? 1n : -1n;
  const price = base + dir * away(r.int(1, 6));
  const stopPrice = base - dir * away(r.int(1, 6));
  const limitPrice = stopPrice - dir * away(r.int(0, 3));
  return { type: 'order.oco', ...order, price, stopPrice, limitPrice };
}

/**
 * Limit (every time in force), market (amount, total), stop-limit and OCO orders, cancels,
 * transfers and fees in LTT turned on and off, modest sizes.
 */
function fittingCommand(h: Harness, r: Random, shapes: readonly Shape[] = SET_UP_SHAPES): Plain {
  const m = r.pick(shapes);
  const userId = r.pick(USERS);
  const side = r.int(1, 2);
  const lots = BigInt(r.int(1, Math.ceil(m.maxLots / 4)));
  const roll = r.next();
  if (roll < 0.1) {
    const conditional = conditionalCommand(h, r, m, userId, side, lots * m.spec.lotSize);
    return { ...conditional, ...fittingSelfTrade(r) };
  }
  if (roll < 0.11) return { type: 'user.setCustomFee', userId, enabled: r.next() < 0.7 };
  if (roll < 0.5) {
    return {
      type: 'order.limit',
      userId,
      market: m.spec.name,
      side,
      price: m.center + BigInt(r.int(-8, 8)) * m.step,
      amount: lots * m.spec.lotSize,
      timeInForce: r.pick(FITTING_TIF),
      source: r.pick(['web', 'api']),
      ...fittingSelfTrade(r),
    };
  }
  if (roll < 0.62) {
    const byTotal = side === 2 && r.next() < 0.5;
    return {
      type: 'order.market',
      userId,
      market: m.spec.name,
      side,
      ...(byTotal
        ? { total: BigInt(r.int(1, Number(m.maxTotal / 4n))) }
        : { amount: lots * m.spec.lotSize }),
      source: 'api',
      ...fittingSelfTrade(r),
    };
  }
  if (roll < 0.82) return h.cancelOf(r.int(0, 1000), r.next() < 0.9, r.next() < 0.8);
  if (roll < 0.86) {
    return r.next() < 0.5
      ? { type: 'order.cancelAll', userId }
      : { type: 'order.cancelAll', userId, market: m.spec.name };
  }
  const [asset, funded] = r.pick(FUNDS);
  const toMain = r.next() < 0.5;
  return {
    type: 'balance.transfer',
    userId,
    asset,
    amount: BigInt(r.int(1, Number(funded / 100n))),
    from: toMain ? 'trade' : 'main',
    to: toMain ? 'main' : 'trade',
    businessId: `t${h.count}`,
  };
}

/**
 * How many resting orders of its own user a limit or market order cancelled by its self-trade
 * prevention (cancelOldest, cancelBoth), from the model's result as JSON text.
 */
function ownOrdersCancelled(cmd: Plain, outcome: string): number {
  const mode = cmd.selfTradePrevention;
  if (mode !== 'cancelOldest' && mode !== 'cancelBoth') return 0;
  if (cmd.type !== 'order.limit' && cmd.type !== 'order.market') return 0;
  const result = JSON.parse(outcome) as {
    ok: boolean;
    events?: { type: string; order?: { id: number; userId: number; finish_reason: number } }[];
    result?: { order?: { id: number } };
  };
  if (!result.ok) return 0;
  const own = result.result?.order?.id;
  return result.events!.filter(
    (e) =>
      e.type === 'order.finish' &&
      e.order!.finish_reason === 1 &&
      e.order!.userId === cmd.userId &&
      e.order!.id !== own,
  ).length;
}

/** The LTT_USDT market, with a last price, so that fees can be taken in LTT. */
function pricedLtt(h: Harness): Shape {
  const ltt = SHAPES[3]!;
  h.ok(ltt.spec);
  const order = {
    type: 'order.limit',
    market: ltt.spec.name,
    amount: 5n * ltt.spec.lotSize,
    price: ltt.center,
    timeInForce: 'GTC',
    source: 'web',
  };
  h.ok({ ...order, userId: 3, side: 1 });
  h.ok({ ...order, userId: 4, side: 2 });
  return ltt;
}

function runFitting(h: Harness, r: Random, n: number, shapes?: readonly Shape[]): void {
  for (let i = 0; i < n; i++) h.send({ ...fittingCommand(h, r, shapes), time: h.tick() });
}

// ---------------------------------------------------------------------------------------------

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
