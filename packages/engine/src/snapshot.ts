// Snapshot and restore of the whole state as plain JSON, in a canonical order, so that equal
// states give equal snapshots (and hashes) however they were reached.
import { bigintFromJson, resultFromJson, toPlainJson } from './codec.js';
import { ACCOUNT_KINDS, type Holder } from './ledger.js';
import { addStop, registerOrder, restOnBook } from './lifecycle.js';
import { Market } from './market.js';
import { Order } from './order.js';
import { openOrderOfRow, rowOfV1, snapshotOrder } from './snapshotRows.js';
import { State } from './state.js';
import type {
  EngineSnapshot,
  EngineSnapshotV1,
  EngineSnapshotV2,
  Owner,
  SnapshotOrderRow,
} from './types.js';

/** The holders in the order a snapshot lists their balances: users by id, then the system's. */
function snapshotHolders(s: State): Holder[] {
  const users = [...s.users.values()].sort((a, b) => a.userId - b.userId);
  return [...users, s.external, s.fees, s.rounding];
}

function snapshotBalances(s: State): EngineSnapshot['balances'] {
  const out: EngineSnapshot['balances'] = [];
  for (const holder of snapshotHolders(s)) {
    const sets = [...holder.accountSets].sort((a, b) => (a.asset < b.asset ? -1 : 1));
    for (const set of sets) {
      for (const kind of ACCOUNT_KINDS) {
        const b = set[kind];
        if (b.available === 0n && b.frozen === 0n) continue;
        out.push([holder.owner, kind, set.asset, b.available.toString(), b.frozen.toString()]);
      }
    }
  }
  return out;
}

/** A market's open orders: the book best level first in FIFO order, then waiting stops. */
function marketOrders(m: Market, out: Order[]): void {
  for (const side of [m.bids, m.asks]) {
    for (let i = 0; i < side.levelCount; i++) {
      for (let o = side.levelAt(i)!.head; o !== null; o = o.next) out.push(o);
    }
  }
  // NOTE: a loop, not push(...stops): a call of 120,000 arguments or so throws in V8.
  for (const o of m.stopsUp) out.push(o);
  for (const o of m.stopsDown) out.push(o);
}

function marketsByName(s: State): Market[] {
  return [...s.markets.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Every open order in the snapshot's order: by market name, then as marketOrders lists them. */
export function openOrders(s: State): Order[] {
  const out: Order[] = [];
  for (const m of marketsByName(s)) marketOrders(m, out);
  return out;
}

/** What a snapshot holds; a move between cores hands the parts it leaves out over live. */
export interface SnapshotParts {
  /** The applied business ids and their results (grow with the exchange's history). */
  readonly done: boolean;
  /** The open orders (grow with the book). */
  readonly orders: boolean;
  /** The balances (grow with the users). */
  readonly balances: boolean;
}

const WHOLE: SnapshotParts = { done: true, orders: true, balances: true };

/**
 * The whole state as plain JSON; with `parts`, without the applied business ids, the open
 * orders or the balances (their lists empty): for a move between cores that hands the ids and
 * orders over as they are, and for the columnar core, which writes the orders and balances
 * from its own tables.
 */
export function snapshotState(s: State, parts: SnapshotParts = WHOLE): EngineSnapshot {
  const markets = marketsByName(s);
  const holdKeys = [...s.holds.keys()].sort();
  return {
    version: 3,
    counters: {
      lastEventSeq: s.lastEventSeq,
      nextOrderId: s.nextOrderId,
      nextDealId: s.nextDealId,
    },
    assets: [...s.assets.values()]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((a) => ({
        asset: a.name,
        decimals: a.decimals,
        deposited: a.deposited.toString(),
        withdrawn: a.withdrawn.toString(),
      })),
    markets: markets.map((m) => ({
      ...(toPlainJson(m.view()) as EngineSnapshot['markets'][number]),
      last: m.last.toString(),
    })),
    // Written only when set, so that the snapshots and hashes of an exchange without limits are
    // what they were before limits existed.
    ...(s.openOrdersPerUserMax === 0
      ? {}
      : { limits: { openOrdersPerUserMax: s.openOrdersPerUserMax } }),
    users: [...s.users.values()]
      .sort((a, b) => a.userId - b.userId)
      .map((u) => ({ userId: u.userId, customFee: u.customFee })),
    balances: parts.balances ? snapshotBalances(s) : [],
    orders: parts.orders ? openOrders(s).map(snapshotOrder) : [],
    holds: holdKeys.map((key) => {
      const h = s.holds.get(key)!;
      return {
        businessId: h.businessId,
        kind: h.kind,
        userId: h.userId,
        asset: h.asset,
        account: h.account,
        amount: h.amount.toString(),
        purpose: h.purpose,
      };
    }),
    done: parts.done ? s.done.snapshotRows() : [],
  };
}

function holderOf(s: State, owner: Owner): Holder {
  if (owner === 'fees') return s.fees;
  if (owner === 'rounding') return s.rounding;
  if (owner === 'external') return s.external;
  return s.user(owner);
}

function restoreOrder(s: State, row: SnapshotOrderRow): Order {
  const f = openOrderOfRow(row);
  const market = s.markets.get(f.market.name);
  if (market === undefined) throw new TypeError(`order ${f.id}: unknown market ${f.market.name}`);
  const o = new Order(
    f.id,
    s.user(f.user.userId),
    market,
    f.side,
    f.type,
    f.algorithm,
    f.timeInForce,
    f.source,
    f.amount,
    f.total,
    f.price,
    f.stopPrice,
    f.limitPrice,
    f.ctime,
  );
  o.left = f.left;
  o.dealStock = f.dealStock;
  o.dealMoney = f.dealMoney;
  o.dealFee = f.dealFee;
  o.dealFeeLtt = f.dealFeeLtt;
  o.triggered = f.triggered;
  o.ocoId = f.ocoId;
  o.mtime = f.mtime;
  o.frozen = f.frozen;
  o.moneyNum = f.moneyNum;
  o.feeNum = f.feeNum;
  o.fundsFrozen = true;
  o.direction = f.direction;
  o.selfTrade = f.selfTrade;
  return o;
}

/**
 * Open orders, in a snapshot's order, put into a state that has their markets and users: on
 * the book or among the waiting stops, indexed, and each OCO leg paired with the other.
 */
export function putBackOrders(s: State, orders: readonly Order[]): void {
  const byOco = new Map<number, Order>();
  for (const o of orders) {
    if (o.isStopWaiting) addStop(o);
    else restOnBook(o);
    registerOrder(s, o);
    if (o.ocoId === 0) continue;
    const other = byOco.get(o.ocoId);
    if (other === undefined) {
      byOco.set(o.ocoId, o);
    } else {
      o.sibling = other;
      other.sibling = o;
    }
  }
}

/** A state from a snapshot of the current format or of an earlier one. */
export function restoreState(snap: EngineSnapshot | EngineSnapshotV2 | EngineSnapshotV1): State {
  const s = new State();
  s.lastEventSeq = snap.counters.lastEventSeq;
  s.nextOrderId = snap.counters.nextOrderId;
  s.nextDealId = snap.counters.nextDealId;
  for (const a of snap.assets) {
    s.assets.set(a.asset, {
      name: a.asset,
      index: s.assets.size,
      decimals: a.decimals,
      deposited: bigintFromJson(a.deposited, 'deposited'),
      withdrawn: bigintFromJson(a.withdrawn, 'withdrawn'),
    });
  }
  for (const sm of snap.markets) {
    const rules = {
      ...sm,
      tickSize: bigintFromJson(sm.tickSize, 'tickSize'),
      lotSize: bigintFromJson(sm.lotSize, 'lotSize'),
      minAmount: bigintFromJson(sm.minAmount, 'minAmount'),
    };
    const m = new Market(rules, s.assets.get(sm.stock)!, s.assets.get(sm.money)!);
    m.last = bigintFromJson(sm.last, 'last');
    if (sm.orderValueMax !== undefined) {
      m.orderValueMax = bigintFromJson(sm.orderValueMax, 'orderValueMax');
    }
    if (sm.orderAmountMax !== undefined) {
      m.orderAmountMax = bigintFromJson(sm.orderAmountMax, 'orderAmountMax');
    }
    s.markets.set(m.name, m);
  }
  s.openOrdersPerUserMax = snap.limits?.openOrdersPerUserMax ?? 0;
  for (const u of snap.users) s.user(u.userId).customFee = u.customFee;
  for (const [owner, kind, asset, available, frozen] of snap.balances) {
    const b = holderOf(s, owner).balance(asset, kind);
    b.available = bigintFromJson(available, 'available');
    b.frozen = bigintFromJson(frozen, 'frozen');
  }
  const rows = snap.version === 1 ? snap.orders.map(rowOfV1) : snap.orders;
  putBackOrders(
    s,
    rows.map((row) => restoreOrder(s, row)),
  );
  for (const h of snap.holds) {
    // A hold's user exists, listed among the users or not.
    s.user(h.userId);
    s.holds.set(`${h.kind}:${h.businessId}`, {
      ...h,
      amount: bigintFromJson(h.amount, 'amount'),
    });
  }
  if (snap.version === 3) {
    for (const row of snap.done) s.done.setRow(row);
  } else {
    for (const d of snap.done) {
      s.done.set(d.key, { fingerprint: d.fingerprint, result: resultFromJson(d.result) });
    }
  }
  return s;
}
