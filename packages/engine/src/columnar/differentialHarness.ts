// For the differential test of the two cores: the harness that feeds the same commands to a
// bigint-only model and to the engines under test, compares every outcome, counter and query,
// and remembers what a run has seen (order ids, owners, holds, idempotent commands) so that
// generated steps can be resolved against it; and the set-up of the exchange every test starts
// from. Kept apart from the generators so that the seeded and the fast-check tests share it.
import { expect } from 'vitest';
import { maxBig } from '../bigmath.js';
import { Engine } from '../engine.js';
import { buyFreezeFor } from '../lifecycle.js';
import { Market } from '../market.js';
import { State } from '../state.js';
import type { Command } from '../types.js';
import {
  attempt,
  core,
  counters,
  json,
  type Outcome,
  plain,
  queries,
  resultView,
} from './differentialQueries.js';
import {
  DECIMALS,
  FUNDS,
  type Plain,
  SET_UP_SHAPES,
  SHAPES,
  type Shape,
  USERS,
} from './differentialShapes.js';

/** The time of the first timed command; `tick` adds a millisecond for each one after it. */
const T0 = 1_700_000_000_000;
/** The commands a `repeat` step may send again, since their business id makes them idempotent. */
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

/** A generated step: a command, or one resolved against what the run has seen so far. */
export type Step =
  | { kind: 'command'; command: Plain }
  | { kind: 'badTime'; command: Plain; time: unknown }
  | { kind: 'raw'; value: unknown }
  | { kind: 'cancel'; pick: number; byOwner: boolean; open: boolean }
  | { kind: 'endHold'; pick: number; settle: boolean; fee: bigint; toUserId: number }
  | { kind: 'repeat'; back: number }
  | { kind: 'allIn'; userId: number; market: string }
  | { kind: 'allOut'; userId: number; market: string }
  | AllInOrderStep;

/**
 * A limit, stop-limit or OCO order for all a user has to trade: the most whole lots its funds
 * cover at its prices, fees included, as the "100%" of an order form sends. Prices are the
 * market's centre plus a number of its steps.
 */
export interface AllInOrderStep {
  kind: 'allInOrder';
  order: 'order.limit' | 'order.stopLimit' | 'order.oco';
  userId: number;
  market: string;
  side: 1 | 2;
  timeInForce: string;
  /** The price, the stop price and the stop leg's limit price, in steps from the centre. */
  steps: [number, number, number];
}

/**
 * Engines fed the same commands. The first is the model (bigint only); after each command the
 * others must give the same outcome and counters, and every tenth the same answer to every query.
 */
export class Harness {
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
    // No command may throw, on either core: a throw is a broken invariant, which halts trading,
    // and the cores throwing alike (from the code they share) is no excuse.
    expect(expected, `the model, command ${this.count + 1}: ${json(cmd)}`).not.toHaveProperty(
      'threw',
    );
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

  /** One step, resolved against what the run has seen; returns the model's outcome. */
  run(step: Step): Outcome {
    switch (step.kind) {
      case 'command':
        return this.send({ ...step.command, time: this.tick() });
      case 'badTime':
        return this.send({ ...step.command, time: step.time });
      case 'raw':
        return this.send(step.value);
      case 'cancel':
        return this.send({
          ...this.cancelOf(step.pick, step.byOwner, step.open),
          time: this.tick(),
        });
      case 'endHold':
        return this.send({ ...this.endHold(step), time: this.tick() });
      case 'allIn':
        return this.send({ ...this.allInOf(step.userId, step.market), time: this.tick() });
      case 'allOut':
        return this.send({ ...this.allOutOf(step.userId, step.market), time: this.tick() });
      case 'allInOrder':
        return this.send({ ...this.allInOrderOf(step), time: this.tick() });
      case 'repeat': {
        const n = this.idempotent.length;
        const again = n === 0 ? { type: 'balance.unfreeze', businessId: 'b1' } : undefined;
        return this.send({
          ...(again ?? this.idempotent[n - 1 - (step.back % n)]),
          time: this.tick(),
        });
      }
    }
  }

  /**
   * A market buy by total of all the money the user has available to trade, as the model says:
   * the "100%" of a trade form, where a buy's fees have no slack to come out of.
   */
  allInOf(userId: number, market: string): Plain {
    const money = market.split('_')[1] ?? '';
    const available = this.a.balances(userId)[money]?.trade.available ?? 0n;
    return {
      type: 'order.market',
      userId,
      market,
      side: 2,
      total: available > 0n ? available : 1n,
      source: 'web',
    };
  }

  /**
   * A market sell of all the stock the user has available to trade, in whole lots, as the model
   * says: where a seller's fees in LTT have no slack when the stock is LTT.
   */
  allOutOf(userId: number, market: string): Plain {
    const stock = market.split('_')[0] ?? '';
    const available = this.a.balances(userId)[stock]?.trade.available ?? 0n;
    const lot = SHAPES.find((m) => m.spec.name === market)?.spec.lotSize ?? 1n;
    const amount = (available / lot) * lot;
    return {
      type: 'order.market',
      userId,
      market,
      side: 1,
      amount: amount > 0n ? amount : lot,
      source: 'web',
    };
  }

  /** An order for all the user has to trade (`AllInOrderStep`), as the model says. */
  allInOrderOf(step: AllInOrderStep): Plain {
    const m = SHAPES.find((shape) => shape.spec.name === step.market) ?? SHAPES[0]!;
    const [price, stopPrice, limitPrice] = step.steps.map((k) => m.center + BigInt(k) * m.step);
    const { stock, money, lotSize } = m.spec;
    const funds = this.a.balances(step.userId)[step.side === 1 ? stock : money];
    const available = funds?.trade.available ?? 0n;
    // One freeze covers an OCO's two legs, at whichever price costs more.
    const top = step.order === 'order.oco' ? maxBig(price!, limitPrice!) : price!;
    let lots = available / lotSize;
    if (step.side === 2) {
      // The most lots whose freeze (the engine's own sum, each part rounded up) fits: a search
      // up from none to past the bound without a fee.
      const market = marketOf(m);
      const scale = 10n ** BigInt(DECIMALS[stock] ?? 0);
      let [fits, over] = [0n, top > 0n ? (available * scale) / (top * lotSize) + 1n : 1n];
      while (over - fits > 1n) {
        const mid = (fits + over) / 2n;
        if (buyFreezeFor(market, mid * lotSize, top) <= available) fits = mid;
        else over = mid;
      }
      lots = fits;
    }
    const amount = (lots > 0n ? lots : 1n) * lotSize;
    const order = { userId: step.userId, market: step.market, side: step.side, amount };
    const source = 'web';
    switch (step.order) {
      case 'order.limit':
        return { type: step.order, ...order, price, timeInForce: step.timeInForce, source };
      case 'order.stopLimit':
        return { type: step.order, ...order, stopPrice, price, source };
      case 'order.oco':
        return { type: step.order, ...order, price, stopPrice, limitPrice, source };
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

/** The engine's market of a shape, to ask what a buy on it freezes. */
function marketOf(m: Shape): Market {
  const { stock, money } = m.spec;
  const asset = (name: string, index: number) => ({ decimals: DECIMALS[name] ?? 0, index });
  return new Market(m.spec, asset(stock, 0), asset(money, 1));
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

/** A deposit to the user's main account, and a transfer of `traded` of it to trade. */
export function fund(
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

/** Assets, markets, funded users and a little depth around each market's centre. */
export function setUp(h: Harness): void {
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
