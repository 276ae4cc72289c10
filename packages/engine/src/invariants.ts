// The full invariant check, O(state): tests run it after every step, the host periodically.
// Any failure is a bug in the engine, never the fault of a command.
import { ceilDiv, maxBig } from './bigmath.js';
import { assert } from './errors.js';
import type { Holder } from './ledger.js';
import { ACCOUNT_KINDS } from './ledger.js';
import { remainingNeed } from './lifecycle.js';
import type { BookSide, Market } from './market.js';
import type { Order } from './order.js';
import type { State } from './state.js';

function assertLevelValid(side: BookSide, s: State, seen: Set<Order>): void {
  let prevKey = Number.NEGATIVE_INFINITY;
  // Worst first: the keys ascend.
  for (let position = side.levelCount - 1; position >= 0; position--) {
    const level = side.levelAt(position)!;
    assert(level.key > prevKey, 'price levels out of order');
    prevKey = level.key;
    let count = 0;
    let total = 0n;
    let prev: Order | null = null;
    for (let o = level.head; o !== null; o = o.next) {
      assert(o.prev === prev, `broken links at order ${o.id}`);
      assert(o.level === level && o.price === level.price, `order ${o.id} on the wrong level`);
      assert((o.side === 1) === side.isAsk, `order ${o.id} on the wrong side`);
      assert(o.left > 0n && o.finishReason === null, `dead order ${o.id} on the book`);
      assert(s.orders.get(o.id) === o, `book order ${o.id} not indexed`);
      seen.add(o);
      count++;
      total += o.left;
      prev = o;
    }
    assert(level.tail === prev, 'level tail is not its last order');
    assert(count > 0 && count === level.count, 'level count is wrong');
    assert(total === level.total, 'level total is not the sum of its orders');
  }
}

/** Sorted levels with right sums and links, and no crossed book. */
export function assertBookValid(s: State, m: Market, seen: Set<Order> = new Set()): void {
  assertLevelValid(m.asks, s, seen);
  assertLevelValid(m.bids, s, seen);
  const ask = m.asks.best();
  const bid = m.bids.best();
  assert(ask === undefined || bid === undefined || bid.price < ask.price, `crossed book ${m.name}`);
}

function assertStopsValid(s: State, m: Market, seen: Set<Order>): void {
  for (const [list, direction] of [
    [m.stopsUp, 1],
    [m.stopsDown, -1],
  ] as const) {
    // The queue's own check, then the order spelled out again here, apart from its comparison.
    list.assertInOrder(`${m.name} stops`);
    let prev: Order | undefined;
    for (const o of list) {
      assert(o.direction === direction && o.isStopWaiting, `order ${o.id} in the wrong stop list`);
      assert(s.orders.get(o.id) === o, `stop ${o.id} not indexed`);
      if (prev !== undefined) {
        const ordered =
          prev.stopPrice === o.stopPrice
            ? prev.id < o.id
            : direction > 0
              ? prev.stopPrice < o.stopPrice
              : prev.stopPrice > o.stopPrice;
        assert(ordered, 'stop list out of order');
      }
      prev = o;
      seen.add(o);
    }
  }
}

/** Each open order holds enough for what it may still pay (an OCO pair: for either leg). */
function assertOrderFunds(s: State, o: Order): void {
  assert(o.fundsFrozen, `open order ${o.id} without frozen funds`);
  // What a buy has paid is its rounded-up numerators: the fast path (fastmath.ts) relies on it.
  if (o.side === 2) {
    const m = o.market;
    assert(o.dealMoney === ceilDiv(o.moneyNum, m.scale), `order ${o.id} paid off its value`);
    assert(o.dealFee === ceilDiv(o.feeNum, m.feeScale), `order ${o.id} fee off its numerator`);
  }
  const sibling = o.sibling;
  if (sibling !== null) {
    assert(sibling.sibling === o && sibling.ocoId === o.ocoId, `broken OCO pair ${o.ocoId}`);
    assert(s.orders.get(sibling.id) === sibling, `OCO sibling of ${o.id} is closed`);
    assert((o.frozen === 0n) !== (sibling.frozen === 0n), `OCO pair ${o.ocoId} funds split`);
    if (o.frozen === 0n) return;
    const a = remainingNeed(o);
    const b = remainingNeed(sibling);
    assert(o.frozen >= maxBig(a, b), `OCO pair ${o.ocoId} underfunded`);
    return;
  }
  assert(o.frozen >= remainingNeed(o), `order ${o.id} underfunded`);
}

/** Frozen on every account equals what open orders and holds set aside. */
function assertFrozenMatches(s: State): void {
  const expected = new Map<string, bigint>();
  const add = (key: string, amount: bigint) =>
    expected.set(key, (expected.get(key) ?? 0n) + amount);
  for (const o of s.orders.entries()) {
    assertOrderFunds(s, o);
    const asset = o.side === 1 ? o.market.stock : o.market.money;
    add(`${o.user.userId}:${asset}:trade`, o.frozen);
  }
  for (const h of s.holds.values()) add(`${h.userId}:${h.asset}:${h.account}`, h.amount);
  for (const user of s.users.values()) {
    for (const set of user.accountSets) {
      for (const kind of ACCOUNT_KINDS) {
        const want = expected.get(`${user.userId}:${set.asset}:${kind}`) ?? 0n;
        assert(
          set[kind].frozen === want,
          `frozen ${user.userId} ${set.asset} ${kind} is not ${want}`,
        );
      }
    }
  }
}

/** Per asset, the sum over every account is what came in less what went out. */
export function assertConserved(s: State): void {
  const holders: Holder[] = [...s.users.values(), s.fees, s.rounding];
  const sums = new Map<string, bigint>();
  for (const holder of holders) {
    for (const set of holder.accountSets) {
      for (const kind of ACCOUNT_KINDS) {
        const b = set[kind];
        assert(b.available >= 0n && b.frozen >= 0n, `negative balance of ${String(holder.owner)}`);
        sums.set(set.asset, (sums.get(set.asset) ?? 0n) + b.available + b.frozen);
      }
    }
  }
  for (const a of s.assets.values()) {
    const inside = sums.get(a.name) ?? 0n;
    assert(inside === a.deposited - a.withdrawn, `asset ${a.name} not conserved`);
    const outside = s.external.find(a.name)?.main;
    assert((outside?.available ?? 0n) === -inside, `external ${a.name} is not the mirror`);
  }
}

export function assertStateValid(s: State): void {
  const seen = new Set<Order>();
  for (const m of s.markets.values()) {
    assertBookValid(s, m, seen);
    assertStopsValid(s, m, seen);
  }
  assert(seen.size === s.orders.size, 'open orders missing from book and stop lists');
  for (const user of s.users.values()) {
    const open = user.openOrders();
    assert(open.length === user.openCount, 'user open order count');
    for (const o of open) assert(s.orders.get(o.id) === o, 'user order index');
  }
  assertFrozenMatches(s);
  assertConserved(s);
}
