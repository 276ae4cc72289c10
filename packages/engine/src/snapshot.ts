// Snapshot and restore of the whole state as plain JSON, in a canonical order, so that equal
// states give equal snapshots (and hashes) however they were reached.
import { bigintFromJson, toPlainJson } from './codec.js';
import { ACCOUNT_KINDS, type Holder } from './ledger.js';
import { addStop, registerOrder, restOnBook } from './lifecycle.js';
import { Market } from './market.js';
import { Order, orderView } from './order.js';
import { State } from './state.js';
import type {
  AccountKind,
  BalancePair,
  CommandResult,
  EngineSnapshot,
  Owner,
  SnapshotOrder,
} from './types.js';

function holders(s: State): Holder[] {
  const users = [...s.users.values()].sort((a, b) => a.userId - b.userId);
  return [...users, s.external, s.fees, s.rounding];
}

function snapshotBalances(s: State): EngineSnapshot['balances'] {
  const out: EngineSnapshot['balances'] = [];
  for (const holder of holders(s)) {
    const assets = [...holder.assets.keys()].sort();
    for (const asset of assets) {
      const set = holder.accounts(asset);
      for (const kind of ACCOUNT_KINDS) {
        const b = set[kind];
        if (b.available === 0n && b.frozen === 0n) continue;
        out.push([holder.owner, kind, asset, b.available.toString(), b.frozen.toString()]);
      }
    }
  }
  return out;
}

function snapshotOrder(o: Order): SnapshotOrder {
  return {
    view: toPlainJson(orderView(o)) as Record<string, unknown>,
    frozen: o.frozen.toString(),
    moneyNum: o.moneyNum.toString(),
    feeNum: o.feeNum.toString(),
    direction: o.direction,
  };
}

/** A market's open orders: the book best level first in FIFO order, then waiting stops. */
function marketOrders(m: Market): Order[] {
  const out: Order[] = [];
  for (const side of [m.bids, m.asks]) {
    for (let i = side.levels.length - 1; i >= 0; i--) {
      for (let o = side.levels[i]!.head; o !== null; o = o.next) out.push(o);
    }
  }
  out.push(...m.stopsUp, ...m.stopsDown);
  return out;
}

export function snapshotState(s: State): EngineSnapshot {
  const markets = [...s.markets.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  const holdKeys = [...s.holds.keys()].sort();
  const doneKeys = [...s.done.keys()].sort();
  return {
    version: 1,
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
    users: [...s.users.values()]
      .sort((a, b) => a.userId - b.userId)
      .map((u) => ({ userId: u.userId, customFee: u.customFee })),
    balances: snapshotBalances(s),
    orders: markets.flatMap((m) => marketOrders(m).map(snapshotOrder)),
    holds: holdKeys.map((key) => {
      const h = s.holds.get(key)!;
      return {
        businessId: h.businessId,
        kind: h.kind,
        userId: h.user.userId,
        asset: h.asset,
        account: h.account,
        amount: h.amount.toString(),
        purpose: h.purpose,
      };
    }),
    done: doneKeys.map((key) => {
      const entry = s.done.get(key)!;
      return { key, fingerprint: entry.fingerprint, result: toPlainJson(entry.result) };
    }),
  };
}

function holderOf(s: State, owner: Owner): Holder {
  if (owner === 'fees') return s.fees;
  if (owner === 'rounding') return s.rounding;
  if (owner === 'external') return s.external;
  return s.user(owner);
}

function restoreOrder(s: State, so: SnapshotOrder): Order {
  const v = so.view;
  const big = (field: string) => bigintFromJson(v[field], field);
  const o = new Order(
    v.id as number,
    s.user(v.userId as number),
    s.markets.get(v.market as string)!,
    v.side as Order['side'],
    v.type as Order['type'],
    v.algorithm as Order['algorithm'],
    v.timeInForce as Order['timeInForce'],
    v.platform as Order['source'],
    big('amount'),
    big('total'),
    big('price'),
    big('stop_price'),
    big('limit_price'),
    v.ctime as number,
  );
  o.left = big('left');
  o.dealStock = big('deal_stock');
  o.dealMoney = big('deal_money');
  o.dealFee = big('deal_fee');
  o.dealFeeLtt = big('deal_fee_ltt');
  o.moneyNum = bigintFromJson(so.moneyNum, 'moneyNum');
  o.feeNum = bigintFromJson(so.feeNum, 'feeNum');
  o.frozen = bigintFromJson(so.frozen, 'frozen');
  o.fundsFrozen = true;
  o.triggered = v.triggered as boolean;
  o.ocoId = v.oco_id as number;
  o.direction = so.direction;
  o.mtime = v.mtime as number;
  return o;
}

function reviveResult(json: unknown): CommandResult {
  const r = json as { kind: string; balances?: Record<AccountKind, Record<string, string>> };
  if (r.kind !== 'balance' || r.balances === undefined) return r as CommandResult;
  const balances = {} as Record<AccountKind, BalancePair>;
  for (const kind of ACCOUNT_KINDS) {
    const pair = r.balances[kind]!;
    balances[kind] = {
      available: bigintFromJson(pair.available, 'available'),
      frozen: bigintFromJson(pair.frozen, 'frozen'),
    };
  }
  return { ...(r as object), balances } as CommandResult;
}

function restoreOrders(s: State, snap: EngineSnapshot): void {
  const byOco = new Map<number, Order>();
  for (const so of snap.orders) {
    const o = restoreOrder(s, so);
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

export function restoreState(snap: EngineSnapshot): State {
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
    s.markets.set(m.name, m);
  }
  for (const u of snap.users) s.user(u.userId).customFee = u.customFee;
  for (const [owner, kind, asset, available, frozen] of snap.balances) {
    const b = holderOf(s, owner).balance(asset, kind);
    b.available = bigintFromJson(available, 'available');
    b.frozen = bigintFromJson(frozen, 'frozen');
  }
  restoreOrders(s, snap);
  for (const h of snap.holds) {
    s.holds.set(`${h.kind}:${h.businessId}`, {
      ...h,
      user: s.user(h.userId),
      amount: bigintFromJson(h.amount, 'amount'),
    });
  }
  for (const d of snap.done) {
    s.done.set(d.key, { fingerprint: d.fingerprint, result: reviveResult(d.result) });
  }
  return s;
}
