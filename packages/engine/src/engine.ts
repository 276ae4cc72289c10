// The exchange engine: a deterministic state machine, apply(command) -> events.
import {
  deposit,
  freeze,
  settleFreeze,
  transfer,
  unfreeze,
  withdrawComplete,
  withdrawHold,
  withdrawRelease,
} from './balances.js';
import { cancelAll, cancelAllByCoin, cancelOne } from './cancel.js';
import { placeOco, placeStopLimit } from './conditional.js';
import { assert, InvariantViolation, reject } from './errors.js';
import { hashString } from './hash.js';
import { assertStateValid } from './invariants.js';
import { ACCOUNT_KINDS } from './ledger.js';
import { orderView } from './order.js';
import { placeLimit, placeMarket } from './place.js';
import { queryDepth } from './queries.js';
import { addAsset, addMarket, addUser, setCustomFee } from './setup.js';
import { restoreState, snapshotState } from './snapshot.js';
import { State } from './state.js';
import type {
  ApplyResult,
  AssetTotal,
  AssetView,
  Command,
  DepthView,
  EngineSnapshot,
  EngineSnapshotV1,
  FreezeView,
  MarketView,
  OrderView,
  UserBalances,
  UserId,
} from './types.js';
import { checkBusinessId } from './validate.js';

export { InvariantViolation };

type Handler = (s: State, cmd: never) => ApplyResult;

const HANDLERS: Record<Command['type'], Handler> = {
  'asset.add': addAsset,
  'market.add': addMarket,
  'user.add': addUser,
  'user.setCustomFee': setCustomFee,
  'balance.deposit': deposit,
  'balance.withdrawHold': withdrawHold,
  'balance.withdrawComplete': withdrawComplete,
  'balance.withdrawRelease': withdrawRelease,
  'balance.transfer': transfer,
  'balance.freeze': freeze,
  'balance.unfreeze': unfreeze,
  'balance.settleFreeze': settleFreeze,
  'order.limit': placeLimit,
  'order.market': placeMarket,
  'order.stopLimit': placeStopLimit,
  'order.oco': placeOco,
  'order.cancel': cancelOne,
  'order.cancelAll': cancelAll,
  'order.cancelAllByCoin': cancelAllByCoin,
};

/** Commands whose business id makes a repeat a no-op. */
const IDEMPOTENT = new Set<string>([
  'balance.deposit',
  'balance.withdrawHold',
  'balance.withdrawComplete',
  'balance.withdrawRelease',
  'balance.transfer',
  'balance.freeze',
  'balance.unfreeze',
  'balance.settleFreeze',
]);

/** The fields that say what an idempotent command asks for (its time is not one of them). */
const FINGERPRINT_FIELDS: Record<string, readonly string[]> = {
  'balance.deposit': ['userId', 'asset', 'amount', 'businessId', 'business'],
  'balance.withdrawHold': ['userId', 'asset', 'amount', 'businessId'],
  'balance.withdrawComplete': ['businessId', 'fee'],
  'balance.withdrawRelease': ['businessId'],
  'balance.transfer': ['userId', 'asset', 'amount', 'from', 'to', 'businessId'],
  'balance.freeze': ['userId', 'asset', 'account', 'amount', 'businessId', 'purpose'],
  'balance.unfreeze': ['businessId'],
  'balance.settleFreeze': ['businessId', 'toUserId'],
};

/**
 * What a command asks for: a repeat must ask for the same thing. Null when a field cannot be
 * written as JSON at all (a cycle): such input is rejected.
 */
function fingerprint(cmd: Command): string | null {
  const record = cmd as unknown as Record<string, unknown>;
  const values = (FINGERPRINT_FIELDS[cmd.type] ?? []).map((field) => record[field]);
  try {
    // JSON has no bigint: write one as its digits and an n.
    return JSON.stringify(values, (_key, value) =>
      typeof value === 'bigint' ? `${value}n` : value,
    );
  } catch {
    return null;
  }
}

/** Mutable state inside for speed; conceptually apply(state, cmd) -> events. */
export class Engine {
  private readonly s: State;

  constructor(state: State = new State()) {
    this.s = state;
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

  /** Apply one command. Bad input is a rejection and leaves the state as it was. */
  apply(cmd: Command): ApplyResult {
    if (typeof cmd !== 'object' || cmd === null) {
      return reject('invalid_command', 'A command must be an object');
    }
    if (typeof cmd.time !== 'number' || !Number.isSafeInteger(cmd.time) || cmd.time < 0) {
      return reject('invalid_time', 'Time must be a non-negative integer (ms)', 'time');
    }
    const s = this.s;
    s.time = cmd.time;
    s.events = [];
    s.lastViewOrder = null;
    // The hot commands first, without a table lookup.
    switch (cmd.type) {
      case 'order.limit':
        return placeLimit(s, cmd);
      case 'order.cancel':
        return cancelOne(s, cmd);
      case 'order.market':
        return placeMarket(s, cmd);
    }
    const handler = HANDLERS[cmd.type] as ((s: State, c: Command) => ApplyResult) | undefined;
    if (handler === undefined || !Object.hasOwn(HANDLERS, cmd.type)) {
      return reject('invalid_command', 'Unknown command type', 'type');
    }
    if (!IDEMPOTENT.has(cmd.type)) return handler(s, cmd);
    const businessId = (cmd as { businessId: unknown }).businessId;
    const bad = checkBusinessId(businessId);
    if (bad !== null) return bad;
    const key = `${cmd.type}:${businessId as string}`;
    const print = fingerprint(cmd);
    if (print === null) return reject('invalid_command', 'A command must be plain data');
    const done = s.done.get(key);
    if (done !== undefined) {
      return done.fingerprint === print
        ? { ok: true, events: [], result: done.result }
        : reject(
            'business_id_conflict',
            'This business id was used for another request',
            'businessId',
          );
    }
    const result = handler(s, cmd);
    if (result.ok) s.done.set(key, { fingerprint: print, result: result.result });
    return result;
  }

  /** The whole state as plain JSON (bigints as decimal strings). */
  snapshot(): EngineSnapshot {
    return snapshotState(this.s);
  }

  /** An engine from a snapshot of the current format, or of the first one (version 1). */
  static restore(snapshot: EngineSnapshot | EngineSnapshotV1): Engine {
    const version = snapshot.version as number;
    assert(version === 1 || version === 2, `unknown snapshot version ${String(version)}`);
    return new Engine(restoreState(snapshot));
  }

  /** Deterministic hash of the whole state, equal for equal states however reached. */
  stateHash(): string {
    return hashString(JSON.stringify(snapshotState(this.s)));
  }

  /** Every invariant, over the whole state (O(state)); throws InvariantViolation. */
  assertValid(): void {
    assertStateValid(this.s);
  }

  /** Whether the engine knows the user (added, funded, or given a fee setting). */
  hasUser(userId: UserId): boolean {
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
      out.push({ businessId, userId: hold.user.userId, asset, account, amount, purpose });
    }
    return out.sort((a, b) =>
      a.businessId < b.businessId ? -1 : a.businessId > b.businessId ? 1 : 0,
    );
  }

  balances(userId: UserId): UserBalances {
    const out: UserBalances = {};
    const user = this.s.users.get(userId);
    if (user === undefined) return out;
    for (const [asset, set] of user.assets) {
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
    const o = this.s.orders.get(orderId);
    return o === undefined ? undefined : orderView(o);
  }

  /** A user's open orders, untriggered stops included, newest first. */
  openOrders(userId: UserId, market?: string): OrderView[] {
    const user = this.s.users.get(userId);
    if (user === undefined) return [];
    const out: OrderView[] = [];
    for (const o of user.openOrders()) {
      if (market === undefined || o.market.name === market) out.push(orderView(o));
    }
    return out.sort((a, b) => b.id - a.id);
  }

  depth(market: string, limit: number, mergeStep?: bigint): DepthView {
    const m = this.s.markets.get(market);
    return m === undefined ? { asks: [], bids: [] } : queryDepth(m, limit, mergeStep);
  }

  /** Last trade price of a market, 0 before its first trade or when unknown. */
  lastPrice(market: string): bigint {
    return this.s.markets.get(market)?.last ?? 0n;
  }

  markets(): MarketView[] {
    return [...this.s.markets.values()].map((m) => m.view());
  }

  assets(): AssetView[] {
    return [...this.s.assets.values()].map((a) => ({ asset: a.name, decimals: a.decimals }));
  }

  /** Per asset: the sum over every account but `external`, and what came in and went out. */
  assetTotals(): AssetTotal[] {
    const totals = new Map<string, bigint>();
    for (const holder of [...this.s.users.values(), this.s.fees, this.s.rounding]) {
      for (const [asset, set] of holder.assets) {
        let sum = totals.get(asset) ?? 0n;
        for (const kind of ACCOUNT_KINDS) sum += set[kind].available + set[kind].frozen;
        totals.set(asset, sum);
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
