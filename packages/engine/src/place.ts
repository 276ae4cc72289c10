// Limit and market orders: validate everything first (a rejection leaves the state untouched),
// then match.
import { ceilDiv, minBig } from './bigmath.js';
import { reject } from './errors.js';
import type { UserState } from './ledger.js';
import { freezeForOrder, registerOrder } from './lifecycle.js';
import type { Level } from './market.js';
import { affordable, executeLimit, executeMarket, runTriggers } from './match.js';
import {
  checkOpenOrderCap,
  checkPlacement,
  insufficient,
  mayRest,
  Placement,
} from './placement.js';
import type { State } from './state.js';
import type { ApplyResult, OrderLimitCommand, OrderMarketCommand, Rejection } from './types.js';
import {
  checkAmount,
  checkOrderAmount,
  checkOrderValue,
  checkPositive,
  checkPrice,
} from './validate.js';

/**
 * Whether a fill-or-kill order can fill completely right now: an own order stops it, unless
 * its self-trade prevention cancels own orders and goes on (cancelOldest).
 */
function canFillCompletely(p: Placement, price: bigint, amount: bigint): boolean {
  const isBuy = p.side === 2;
  const side = isBuy ? p.market.asks : p.market.bids;
  const skipsOwn = p.selfTrade === 'cancelOldest';
  let rest = amount;
  for (let i = 0; i < side.levelCount && rest > 0n; i++) {
    const level = side.levelAt(i)!;
    if (isBuy ? level.price > price : level.price < price) return false;
    for (let o = level.head; o !== null && rest > 0n; o = o.next) {
      if (o.user !== p.user) rest -= minBig(o.left, rest);
      else if (!skipsOwn) return false;
    }
  }
  return rest === 0n;
}

function crossesBook(p: Placement, price: bigint): boolean {
  const best = (p.side === 2 ? p.market.asks : p.market.bids).best();
  return best !== undefined && (p.side === 2 ? best.price <= price : best.price >= price);
}

function checkTimeInForce(p: Placement, cmd: OrderLimitCommand): Rejection | null {
  switch (cmd.timeInForce) {
    case 'GTC':
    case 'IOC':
      return null;
    case 'POST_ONLY':
      return crossesBook(p, cmd.price)
        ? reject('post_only_would_take', 'A post-only order must not trade on arrival', 'price')
        : null;
    case 'FOK':
      return canFillCompletely(p, cmd.price, cmd.amount)
        ? null
        : reject('fok_not_filled', 'The order cannot be filled completely now', 'amount');
    default:
      return reject('invalid_command', 'Unknown time in force', 'timeInForce');
  }
}

export function placeLimit(s: State, cmd: OrderLimitCommand): ApplyResult {
  const p = checkPlacement(s, cmd);
  if (!(p instanceof Placement)) return p;
  if (mayRest(cmd.timeInForce)) {
    const tooMany = checkOpenOrderCap(s.openOrdersPerUserMax, p.user.openCount, 1);
    if (tooMany !== null) return tooMany;
  }
  const bad =
    checkPrice(p.market, cmd.price) ??
    checkAmount(p.market, cmd.amount) ??
    checkOrderAmount(p.market, cmd.amount) ??
    checkOrderValue(p.market, cmd.amount, cmd.price);
  if (bad !== null) return bad;
  const need = p.fundsNeeded(cmd.amount, cmd.price);
  if (p.available() < need) return insufficient('amount');
  const badTif = checkTimeInForce(p, cmd);
  if (badTif !== null) return badTif;
  const o = p.order(s, 1, 0, cmd.timeInForce, cmd.source, cmd.amount, 0n, cmd.price, 0n, 0n);
  registerOrder(s, o);
  if (p.freezesFirst()) freezeForOrder(s, o, need);
  executeLimit(s, o, true, need);
  runTriggers(s, p.market);
  return { ok: true, events: s.events, result: { kind: 'order', order: s.viewOf(o) } };
}

/**
 * What buying `amount` from the book would cost at the taker rate: own orders included, as
 * they stop the buy or are left; without them when it cancels them and goes on (cancelOldest).
 */
function marketBuyCost(p: Placement, amount: bigint): bigint {
  const m = p.market;
  const asks = m.asks;
  const skipOwn = p.selfTrade === 'cancelOldest' ? p.user : null;
  let rest = amount;
  let num = 0n;
  for (let i = 0; i < asks.levelCount && rest > 0n; i++) {
    const level = asks.levelAt(i)!;
    const take = minBig(skipOwn === null ? level.total : othersLeft(level, skipOwn), rest);
    num += take * level.price;
    rest -= take;
  }
  return ceilDiv(num, m.scale) + ceilDiv(num * m.takerFee, m.feeScale);
}

/** What a level's orders of users other than `user` have left. */
function othersLeft(level: Level, user: UserState): bigint {
  let left = 0n;
  for (let o = level.head; o !== null; o = o.next) if (o.user !== user) left += o.left;
  return left;
}

function checkMarketTotal(p: Placement, total: unknown): Rejection | null {
  if (p.side !== 2) return reject('invalid_command', 'Only a buy can be placed by total', 'total');
  const bad = checkPositive(total, 'total');
  if (bad !== null) return bad;
  if (p.available() < (total as bigint)) return insufficient('total');
  const m = p.market;
  if (affordable(m, total as bigint, 0n, 0n, m.asks.best()!.price, m.takerFee) === 0n) {
    return reject('amount_too_small', 'The total buys less than one lot', 'total');
  }
  return null;
}

/** Why a market order cannot be placed, or what it needs available: its total, stock or cost. */
function checkMarketFunds(p: Placement, cmd: OrderMarketCommand): Rejection | bigint {
  if (cmd.total !== undefined) return checkMarketTotal(p, cmd.total) ?? (cmd.total as bigint);
  const m = p.market;
  const bad = checkAmount(m, cmd.amount) ?? checkOrderAmount(m, cmd.amount!);
  if (bad !== null) return bad;
  const need = p.side === 1 ? cmd.amount! : marketBuyCost(p, cmd.amount!);
  return p.available() < need ? insufficient('amount') : need;
}

export function placeMarket(s: State, cmd: OrderMarketCommand): ApplyResult {
  const p = checkPlacement(s, cmd);
  if (!(p instanceof Placement)) return p;
  if ((cmd.amount === undefined) === (cmd.total === undefined)) {
    return reject('invalid_command', 'Give exactly one of amount and total', 'amount');
  }
  if ((p.side === 2 ? p.market.asks : p.market.bids).best() === undefined) {
    return reject('not_enough_liquidity', 'Not enough liquidity');
  }
  const need = checkMarketFunds(p, cmd);
  if (typeof need !== 'bigint') return need;
  const amount = cmd.amount ?? 0n;
  const total = cmd.total ?? 0n;
  const o = p.order(s, 2, 0, 'IOC', cmd.source, amount, total, 0n, 0n, 0n);
  registerOrder(s, o);
  if (amount > 0n && p.freezesFirst()) freezeForOrder(s, o, need);
  executeMarket(s, o);
  runTriggers(s, p.market);
  return { ok: true, events: s.events, result: { kind: 'order', order: s.viewOf(o) } };
}
