// The exchange engine: a deterministic state machine, apply(command) -> events.
//
// Two cores stand behind it (docs/decisions/columnar-engine.md): a new engine starts on the
// columnar core, whose state is typed arrays of exact numbers; on the first command that core
// declines, the engine moves its state into the bigint core (handedOverState) and goes on there.
// Some commands later it tries the columnar core again (handBack: a snapshot of the rest, then a
// restore, the open orders and applied business ids passed over as they are), and goes back to
// it when the state fits. Both give the same results, events, snapshots and hashes.
import { ColumnarCore, DECLINED } from './columnar/core.js';
import { handedOverState } from './columnar/handOver.js';
import { restoreColumnar } from './columnar/restore.js';
import {
  assetTotalsOf,
  balancesOf,
  depthOf,
  lastPriceOf,
  openOrdersOf,
  orderOf,
  snapshotOf,
} from './columnar/views.js';
import { applyToState } from './dispatch.js';
import { assert, InvariantViolation, reject } from './errors.js';
import { StringHasher } from './hash.js';
import { assertStateValid } from './invariants.js';
import { ACCOUNT_KINDS } from './ledger.js';
import { orderView } from './order.js';
import { queryDepth } from './queries.js';
import { openOrders, restoreState, snapshotState } from './snapshot.js';
import { jsonTextPieces } from './snapshotText.js';
import { State } from './state.js';
import type {
  ApplyResult,
  AssetTotal,
  AssetView,
  Command,
  DepthView,
  EngineSnapshot,
  EngineSnapshotV1,
  EngineSnapshotV2,
  FreezeView,
  MarketView,
  OrderView,
  UserBalances,
  UserId,
} from './types.js';

export { InvariantViolation };

export interface EngineOptions {
  /**
   * After a hand-over to the bigint core, how many commands it runs before the engine first
   * tries the columnar core again (RETURN_AFTER; tests make it small).
   */
  returnAfter?: number;
  /**
   * How many events the columnar core must write after a return before a hand-over waits the
   * first wait again rather than twice the last (HELD_FOR; tests make it small).
   */
  heldFor?: number;
}

/**
 * The first wait, in commands, before a try at the columnar core after a hand-over. Each try
 * and each move costs a conversion of the state but its applied business ids (tens of ms at
 * 10,000 open orders, growing with them: docs/decisions/columnar-engine.md), so the wait doubles
 * after every hand-over and every try that fails, up to RETURN_AFTER_MAX, until a return holds
 * (HELD_FOR): a state that keeps declining costs one conversion per million commands or fewer,
 * and a single large order costs a thousand commands on the slower core, not all of them until
 * a restart.
 */
const RETURN_AFTER = 1024;
const RETURN_AFTER_MAX = 2 ** 20;

/**
 * Events the columnar core writes after a return before the doubling starts over: a state that
 * keeps declining is handed over again within a few waits, while large orders days apart are
 * each their own hand-over, and without this the tenth of them would wait a thousand times the
 * first. 2^24 events are millions of commands: hand-overs that come just further apart than that
 * still cost at most two conversions (tens of ms each) per several seconds of commands at full
 * speed.
 */
const HELD_FOR = 2 ** 24;

/** Mutable state inside for speed; conceptually apply(state, cmd) -> events. */
export class Engine {
  /** The bigint core's state; while the columnar core runs, its registry (ColumnarCore.meta). */
  private s: State;
  private columnar: ColumnarCore | null;
  /** Commands the bigint core runs before the next try at the columnar core; -1, no try due. */
  private untilReturn = -1;
  /** The wait after the next hand-over or failed try. */
  private returnAfter: number;
  /** The first wait after a hand-over, which the wait goes back to once a return has held. */
  private readonly firstWait: number;
  private readonly heldFor: number;
  /** The last event's sequence number when the columnar core last took the state back. */
  private returnedAtSeq = 0;
  /**
   * Why the engine stopped, or null: a command threw, which only a bug does (InvariantViolation),
   * and may have left the state half changed; or a command's events failed a check as they were
   * read (the columnar core's, ColumnarAccepted), so the state it left is wrong.
   */
  private brokenBy: string | null = null;

  /**
   * A new engine on the columnar core; with a state, an engine on the bigint core that stays
   * there (the bigint core alone, as the tests' model and the bench's --bigint run it).
   */
  constructor(state?: State | ColumnarCore, options: EngineOptions = {}) {
    this.firstWait = Math.max(1, Math.min(options.returnAfter ?? RETURN_AFTER, RETURN_AFTER_MAX));
    this.returnAfter = this.firstWait;
    this.heldFor = options.heldFor ?? HELD_FOR;
    if (state instanceof State) {
      this.columnar = null;
      this.s = state;
    } else {
      this.columnar = this.attached(state ?? new ColumnarCore());
      this.s = this.columnar.meta;
    }
  }

  /** The core, telling this engine to stop when one of its results fails a check as it is read. */
  private attached(core: ColumnarCore): ColumnarCore {
    core.names.broken = (reason) => {
      this.brokenBy ??= reason;
    };
    return core;
  }

  /** The core applying commands now. */
  get coreName(): 'columnar' | 'bigint' {
    return this.columnar === null ? 'bigint' : 'columnar';
  }

  get lastEventSeq(): number {
    return this.s.lastEventSeq;
  }
  get nextOrderId(): number {
    return this.s.nextOrderId;
  }
  get nextDealId(): number {
    return this.s.nextDealId;
  }

  /**
   * Apply one command. Bad input is a rejection and leaves the state as it was. A command that
   * throws (a bug) stops the engine: every later command and snapshot throws, so that a state a
   * command left half changed is neither built on nor saved.
   */
  apply(cmd: Command): ApplyResult {
    if (this.brokenBy !== null) throw this.stopped();
    try {
      return this.applyOne(cmd);
    } catch (error) {
      this.brokenBy = error instanceof Error ? error.message : String(error);
      throw error;
    }
  }

  /** Why the engine stopped (a command threw or its events failed a check), or null if it runs. */
  get halted(): string | null {
    return this.brokenBy;
  }

  private stopped(): InvariantViolation {
    return new InvariantViolation(`the engine stopped: ${this.brokenBy}`);
  }

  private applyOne(cmd: Command): ApplyResult {
    if (typeof cmd !== 'object' || cmd === null) {
      return reject('invalid_command', 'A command must be an object');
    }
    // NOTE: read once. A command's time is beyond 2^31, a double in the object, and a read of it
    // that the compiler does not keep as a double makes a new heap number: with inlining off, a
    // sampling heap profile of the bench's workload found 49 bytes an operation made here.
    const time = cmd.time;
    if (typeof time !== 'number' || !Number.isSafeInteger(time) || time < 0) {
      return reject('invalid_time', 'Time must be a non-negative integer (ms)', 'time');
    }
    if (this.untilReturn >= 0) this.countTowardsReturn();
    const columnar = this.columnar;
    if (columnar !== null) {
      const result = columnar.apply(cmd, time);
      if (result !== DECLINED) return result;
      // The columnar core changed nothing: the bigint core takes its state and the command.
      this.s = handedOverState(columnar);
      this.columnar = null;
      if (this.s.lastEventSeq - this.returnedAtSeq >= this.heldFor)
        this.returnAfter = this.firstWait;
      this.waitToReturn();
    }
    return applyToState(this.s, cmd);
  }

  /**
   * How many more commands the bigint core runs before the engine tries the columnar core
   * again; null when no try is due (on the columnar core, or the bigint core alone).
   */
  get commandsBeforeReturn(): number | null {
    return this.untilReturn >= 0 ? this.untilReturn : null;
  }

  /** A command on the bigint core: the wait's last, or a try at the columnar core first. */
  private countTowardsReturn(): void {
    if (this.untilReturn === 0) this.handBack();
    if (this.untilReturn > 0) this.untilReturn--;
  }

  private waitToReturn(): void {
    this.untilReturn = this.returnAfter;
    this.returnAfter = Math.min(this.returnAfter * 2, RETURN_AFTER_MAX);
  }

  /**
   * The columnar core takes the state back when it fits, as a restart from a snapshot would
   * put it there; else the bigint core waits longer. Both cores give the same results, so the
   * move is not seen in any output, only in speed.
   */
  private handBack(): void {
    // The open orders and the applied business ids go over as they are: no text of them, which
    // grows with the book and with history.
    const rest = snapshotState(this.s, { done: false, orders: false, balances: true });
    const core = restoreColumnar(rest, { done: this.s.done, orders: openOrders(this.s) });
    if (core === null) {
      this.waitToReturn();
      return;
    }
    this.columnar = this.attached(core);
    this.s = core.meta;
    this.untilReturn = -1;
    this.returnedAtSeq = this.s.lastEventSeq;
  }

  /**
   * Say that no result `apply` has returned so far will be read again (a result not yet read
   * may then throw when read): the columnar core reuses their memory for the events to come
   * instead of allocating more. Without it, every result stays readable, at that cost.
   */
  releaseResults(): void {
    this.columnar?.releaseResults();
  }

  /** The whole state as plain JSON (bigints as decimal strings). */
  snapshot(): EngineSnapshot {
    if (this.brokenBy !== null) throw this.stopped();
    return this.columnar === null ? snapshotState(this.s) : snapshotOf(this.columnar);
  }

  /** An engine from a snapshot of the current format, or of an earlier one (version 1 or 2). */
  static restore(
    snapshot: EngineSnapshot | EngineSnapshotV2 | EngineSnapshotV1,
    options: EngineOptions = {},
  ): Engine {
    const version = snapshot.version as number;
    assert([1, 2, 3].includes(version), `unknown snapshot version ${String(version)}`);
    // The columnar core when the state fits it, else the bigint core, which will try the
    // columnar core again later as after a hand-over.
    const columnar = snapshot.version === 1 ? null : restoreColumnar(snapshot);
    if (columnar !== null) return new Engine(columnar, options);
    const engine = new Engine(restoreState(snapshot), options);
    engine.waitToReturn();
    return engine;
  }

  /**
   * Deterministic hash of the whole state, equal for equal states however reached: the hash of
   * the snapshot's JSON text, taken a piece at a time (a large state's text is longer than a
   * string can be).
   */
  stateHash(): string {
    const hasher = new StringHasher();
    for (const piece of jsonTextPieces(this.snapshot())) hasher.update(piece);
    return hasher.digest();
  }

  /** Every invariant, over the whole state (O(state)); throws InvariantViolation. */
  assertValid(): void {
    // The columnar core's state is checked as the bigint core's it converts to, and its stop
    // lists, which that conversion sorts again, and its levels' totals, which it does not
    // carry, as they are.
    if (this.columnar !== null) {
      for (const cm of this.columnar.markets) {
        cm.stops.assertValid(cm.name);
        cm.asks.assertTotals(`${cm.name} asks`);
        cm.bids.assertTotals(`${cm.name} bids`);
      }
      this.columnar.table.assertUserCounts();
      this.columnar.holders.assertNothingLent();
    }
    assertStateValid(this.columnar === null ? this.s : restoreState(snapshotOf(this.columnar)));
  }

  /** Whether the engine knows the user (added, funded, or given a fee setting). */
  hasUser(userId: UserId): boolean {
    if (this.columnar !== null) return this.columnar.holders.findUser(userId) >= 0;
    return this.s.users.has(userId);
  }

  /**
   * The open freezes of one purpose, in business-id order: what a product's start-up check
   * compares with its own records after a stop between a freeze and its record.
   */
  openFreezes(purpose: string): FreezeView[] {
    const out: FreezeView[] = [];
    for (const hold of this.s.holds.values()) {
      if (hold.kind !== 'freeze' || hold.purpose !== purpose) continue;
      const { businessId, asset, account, amount } = hold;
      out.push({ businessId, userId: hold.userId, asset, account, amount, purpose });
    }
    return out.sort((a, b) =>
      a.businessId < b.businessId ? -1 : a.businessId > b.businessId ? 1 : 0,
    );
  }

  /** A user's balances of every asset they have one of, in the order the assets were added. */
  balances(userId: UserId): UserBalances {
    if (this.columnar !== null) return balancesOf(this.columnar, userId);
    const out: UserBalances = {};
    const user = this.s.users.get(userId);
    if (user === undefined) return out;
    // In the order the assets were added, as the columnar core lists them (balancesOf).
    for (const asset of this.s.assets.keys()) {
      const set = user.find(asset);
      if (set === undefined) continue;
      const entry = {} as UserBalances[string];
      for (const kind of ACCOUNT_KINDS) {
        entry[kind] = { available: set[kind].available, frozen: set[kind].frozen };
      }
      out[asset] = entry;
    }
    return out;
  }

  /** An open order (resting or waiting stop); finished orders live in the host's history. */
  order(orderId: number): OrderView | undefined {
    if (this.columnar !== null) return orderOf(this.columnar, orderId);
    const o = this.s.orders.get(orderId);
    return o === undefined ? undefined : orderView(o);
  }

  /** A user's open orders, untriggered stops included, newest first. */
  openOrders(userId: UserId, market?: string): OrderView[] {
    if (this.columnar !== null) return openOrdersOf(this.columnar, userId, market);
    const user = this.s.users.get(userId);
    if (user === undefined) return [];
    const out: OrderView[] = [];
    for (const o of user.openOrders()) {
      if (market === undefined || o.market.name === market) out.push(orderView(o));
    }
    return out.sort((a, b) => b.id - a.id);
  }

  depth(market: string, limit: number, mergeStep?: bigint): DepthView {
    if (this.columnar !== null) return depthOf(this.columnar, market, limit, mergeStep);
    const m = this.s.markets.get(market);
    return m === undefined ? { asks: [], bids: [] } : queryDepth(m, limit, mergeStep);
  }

  /** Last trade price of a market, 0 before its first trade or when unknown. */
  lastPrice(market: string): bigint {
    if (this.columnar !== null) return lastPriceOf(this.columnar, market);
    return this.s.markets.get(market)?.last ?? 0n;
  }

  markets(): MarketView[] {
    return [...this.s.markets.values()].map((m) => m.view());
  }

  /** The limits of limits.set (0: no cap). */
  limits(): { openOrdersPerUserMax: number } {
    return { openOrdersPerUserMax: this.s.openOrdersPerUserMax };
  }

  assets(): AssetView[] {
    return [...this.s.assets.values()].map((a) => ({ asset: a.name, decimals: a.decimals }));
  }

  /** Per asset: the sum over every account but `external`, and what came in and went out. */
  assetTotals(): AssetTotal[] {
    if (this.columnar !== null) return assetTotalsOf(this.columnar);
    const totals = new Map<string, bigint>();
    for (const holder of [...this.s.users.values(), this.s.fees, this.s.rounding]) {
      for (const set of holder.accountSets) {
        let sum = totals.get(set.asset) ?? 0n;
        for (const kind of ACCOUNT_KINDS) sum += set[kind].available + set[kind].frozen;
        totals.set(set.asset, sum);
      }
    }
    return [...this.s.assets.values()].map((a) => ({
      asset: a.name,
      total: totals.get(a.name) ?? 0n,
      deposited: a.deposited,
      withdrawn: a.withdrawn,
    }));
  }
}
