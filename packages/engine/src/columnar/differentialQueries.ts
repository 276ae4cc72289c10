// For the differential test of the two cores: how an engine's answers are read so that two
// engines can be compared as text. Every outcome is JSON with bigints marked, a throw counts as
// an outcome, and `queries` reads every query an engine answers; the harness compares these
// after each command and the tests use them to check cores and restores.
import type { Engine } from '../engine.js';
import type { ApplyResult, UserBalances } from '../types.js';
import { MARKET_NAMES, MERGE_STEPS, PURPOSES, QUERY_USERS } from './differentialShapes.js';

/** JSON with each bigint written as its digits and an n (so 1n and 1 differ). */
export function json(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ??
    'undefined'
  );
}

/** A value as its JSON reads back (bigints as marked strings), for deep comparisons. */
export function plain(value: unknown): unknown {
  const text = json(value);
  return text === 'undefined' ? undefined : JSON.parse(text);
}

/** A value, or how reading it threw. */
export type Outcome = { value: unknown } | { threw: string };

export function attempt(read: () => unknown): Outcome {
  try {
    return { value: read() };
  } catch (error) {
    return { threw: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** What a command returned, read property by property (events and result may be getters). */
export function resultView(r: ApplyResult): unknown {
  return r.ok
    ? { ok: r.ok, events: r.events, result: r.result }
    : { ok: r.ok, code: r.code, message: r.message, field: r.field };
}

/** The engine's counters of events, order ids and deal ids. */
export function counters(e: Engine) {
  return { lastEventSeq: e.lastEventSeq, nextOrderId: e.nextOrderId, nextDealId: e.nextDealId };
}

/** Which core runs the engine: 'columnar' or 'bigint'. */
export function core(e: Engine): string {
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
export function queries(e: Engine, orderIds: readonly number[]): Record<string, Outcome> {
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
