// Order commands: validate everything first (a rejection leaves the state untouched), then act.
import { ceilDiv, maxBig, minBig } from './bigmath.js';
import { reject } from './errors.js';
import type { UserState } from './ledger.js';
import { buyFreezeFor, freezeForOrder, registerOrder } from './lifecycle.js';
import type { Market } from './market.js';
import { affordable, executeLimit, executeMarket, parkStop, runTriggers } from './match.js';
import { Order, type OrderInit, orderView } from './order.js';
import type { State } from './state.js';
import type {
  ApplyResult,
  OrderLimitCommand,
  OrderMarketCommand,
  OrderOcoCommand,
  OrderStopLimitCommand,
  Rejection,
  Side,
} from './types.js';
import {
  checkAmount,
  checkPositive,
  checkPrice,
  checkSide,
  checkSource,
  isRejection,
  knownMarket,
  knownUser,
} from './validate.js';

interface Placement {
  user: UserState;
  market: Market;
  side: Side;
}

/** The checks every order command shares: user, market, side, source. */
function checkPlacement(
  s: State,
  cmd: OrderLimitCommand | OrderMarketCommand | OrderStopLimitCommand | OrderOcoCommand,
): Placement | Rejection {
  const user = knownUser(s, cmd.userId);
  if (isRejection(user)) return user;
  const market = knownMarket(s, cmd.market);
  if (isRejection(market)) return market;
  const side = checkSide(cmd.side);
  if (isRejection(side)) return side;
  return checkSource(cmd.source) ?? { user, market, side };
}

function newOrder(
  s: State,
  p: Placement,
  fields: Omit<OrderInit, 'id' | 'user' | 'market' | 'side' | 'time'>,
): Order {
  return new Order({
    id: s.nextOrderId++,
    user: p.user,
    market: p.market,
    side: p.side,
    time: s.time,
    ...fields,
  });
}

/** What an order of `amount` at `price` must have available: stock to sell, money to buy. */
function fundsNeeded(p: Placement, amount: bigint, price: bigint): bigint {
  return p.side === 1 ? amount : buyFreezeFor(p.market, amount, price);
}

function available(p: Placement): bigint {
  const asset = p.side === 1 ? p.market.stock : p.market.money;
  return p.user.balance(asset, 'trade').available;
}

const INSUFFICIENT = 'Not enough on balance';

/** Whether a fill-or-kill order can fill completely right now (own orders stop it). */
function canFillCompletely(p: Placement, price: bigint, amount: bigint): boolean {
  const isBuy = p.side === 2;
  const levels = (isBuy ? p.market.asks : p.market.bids).levels;
  let rest = amount;
  for (let i = levels.length - 1; i >= 0 && rest > 0n; i--) {
    const level = levels[i]!;
    if (isBuy ? level.price > price : level.price < price) return false;
    for (let o = level.head; o !== null && rest > 0n; o = o.next) {
      if (o.user === p.user) return false;
      rest -= minBig(o.left, rest);
    }
  }
  return rest === 0n;
}

function crossesBook(p: Placement, price: bigint): boolean {
  const best = (p.side === 2 ? p.market.asks : p.market.bids).best();
  return best !== undefined && (p.side === 2 ? best.price <= price : best.price >= price);
}

const TIME_IN_FORCE = new Set(['GTC', 'IOC', 'FOK', 'POST_ONLY']);

export function placeLimit(s: State, cmd: OrderLimitCommand): ApplyResult {
  const p = checkPlacement(s, cmd);
  if (isRejection(p)) return p;
  if (!TIME_IN_FORCE.has(cmd.timeInForce)) {
    return reject('invalid_command', 'Unknown time in force', 'timeInForce');
  }
  const bad = checkPrice(p.market, cmd.price) ?? checkAmount(p.market, cmd.amount);
  if (bad !== null) return bad;
  if (available(p) < fundsNeeded(p, cmd.amount, cmd.price)) {
    return reject('insufficient_balance', INSUFFICIENT, 'amount');
  }
  if (cmd.timeInForce === 'POST_ONLY' && crossesBook(p, cmd.price)) {
    return reject('post_only_would_take', 'A post-only order must not trade on arrival', 'price');
  }
  if (cmd.timeInForce === 'FOK' && !canFillCompletely(p, cmd.price, cmd.amount)) {
    return reject('fok_not_filled', 'The order cannot be filled completely now', 'amount');
  }
  const o = newOrder(s, p, {
    type: 1,
    algorithm: 0,
    timeInForce: cmd.timeInForce,
    source: cmd.source,
    amount: cmd.amount,
    total: 0n,
    price: cmd.price,
    stopPrice: 0n,
    limitPrice: 0n,
  });
  registerOrder(s, o);
  executeLimit(s, o, true);
  runTriggers(s, p.market);
  return { ok: true, events: s.events, result: { kind: 'order', order: orderView(o) } };
}

/** What buying `amount` from the book would cost at the taker rate (own orders included). */
function marketBuyCost(m: Market, amount: bigint): bigint {
  const levels = m.asks.levels;
  let rest = amount;
  let num = 0n;
  for (let i = levels.length - 1; i >= 0 && rest > 0n; i--) {
    const level = levels[i]!;
    const take = minBig(level.total, rest);
    num += take * level.price;
    rest -= take;
  }
  return ceilDiv(num, m.scale) + ceilDiv(num * m.takerFee, m.feeScale);
}

function checkMarketFunds(s: State, p: Placement, cmd: OrderMarketCommand): Rejection | null {
  const m = p.market;
  if (cmd.total !== undefined) {
    if (p.side !== 2)
      return reject('invalid_command', 'Only a buy can be placed by total', 'total');
    const bad = checkPositive(cmd.total, 'total');
    if (bad !== null) return bad;
    if (available(p) < cmd.total) return reject('insufficient_balance', INSUFFICIENT, 'total');
    const probe = newProbe(s, p, cmd.total);
    if (affordable(probe, m.asks.best()!.price) === 0n) {
      return reject('amount_too_small', 'The total buys less than one lot', 'total');
    }
    return null;
  }
  const bad = checkAmount(m, cmd.amount);
  if (bad !== null) return bad;
  const need = p.side === 1 ? cmd.amount! : marketBuyCost(m, cmd.amount!);
  return available(p) < need ? reject('insufficient_balance', INSUFFICIENT, 'amount') : null;
}

/** An order object used only to evaluate a budget; it is never registered. */
function newProbe(s: State, p: Placement, total: bigint): Order {
  return new Order({
    id: 0,
    user: p.user,
    market: p.market,
    side: p.side,
    type: 2,
    algorithm: 0,
    timeInForce: 'IOC',
    source: 'web',
    amount: 0n,
    total,
    price: 0n,
    stopPrice: 0n,
    limitPrice: 0n,
    time: s.time,
  });
}

export function placeMarket(s: State, cmd: OrderMarketCommand): ApplyResult {
  const p = checkPlacement(s, cmd);
  if (isRejection(p)) return p;
  if ((cmd.amount === undefined) === (cmd.total === undefined)) {
    return reject('invalid_command', 'Give exactly one of amount and total', 'amount');
  }
  if ((p.side === 2 ? p.market.asks : p.market.bids).best() === undefined) {
    return reject('not_enough_liquidity', 'Not enough liquidity');
  }
  const bad = checkMarketFunds(s, p, cmd);
  if (bad !== null) return bad;
  const o = newOrder(s, p, {
    type: 2,
    algorithm: 0,
    timeInForce: 'IOC',
    source: cmd.source,
    amount: cmd.amount ?? 0n,
    total: cmd.total ?? 0n,
    price: 0n,
    stopPrice: 0n,
    limitPrice: 0n,
  });
  registerOrder(s, o);
  executeMarket(s, o);
  runTriggers(s, p.market);
  return { ok: true, events: s.events, result: { kind: 'order', order: orderView(o) } };
}

export function placeStopLimit(s: State, cmd: OrderStopLimitCommand): ApplyResult {
  const p = checkPlacement(s, cmd);
  if (isRejection(p)) return p;
  const m = p.market;
  const bad =
    checkPrice(m, cmd.stopPrice, 'stopPrice') ??
    checkPrice(m, cmd.price) ??
    checkAmount(m, cmd.amount);
  if (bad !== null) return bad;
  if (m.last === 0n) return reject('invalid_stop_price', 'No last price yet', 'stopPrice');
  if (cmd.stopPrice === m.last) {
    return reject('invalid_stop_price', 'Stop price must differ from the last price', 'stopPrice');
  }
  const need = fundsNeeded(p, cmd.amount, cmd.price);
  if (available(p) < need) return reject('insufficient_balance', INSUFFICIENT, 'amount');
  const o = newOrder(s, p, {
    type: 1,
    algorithm: 1,
    timeInForce: 'GTC',
    source: cmd.source,
    amount: cmd.amount,
    total: 0n,
    price: cmd.price,
    stopPrice: cmd.stopPrice,
    limitPrice: 0n,
  });
  o.direction = cmd.stopPrice > m.last ? 1 : -1;
  registerOrder(s, o);
  freezeForOrder(s, o, need);
  parkStop(s, o);
  return { ok: true, events: s.events, result: { kind: 'order', order: orderView(o) } };
}

function checkOcoPrices(m: Market, side: Side, cmd: OrderOcoCommand): Rejection | null {
  const bad =
    checkPrice(m, cmd.price) ??
    checkPrice(m, cmd.stopPrice, 'stopPrice') ??
    checkPrice(m, cmd.limitPrice, 'limitPrice') ??
    checkAmount(m, cmd.amount);
  if (bad !== null) return bad;
  const last = m.last;
  if (last === 0n) return reject('invalid_oco_prices', 'No last price yet', 'stopPrice');
  const ok =
    side === 1
      ? cmd.stopPrice < last && last < cmd.price
      : cmd.price < last && last < cmd.stopPrice;
  if (ok) return null;
  const rule = side === 1 ? 'stop price < last price < price' : 'price < last price < stop price';
  return reject(
    'invalid_oco_prices',
    `An OCO ${side === 1 ? 'sell' : 'buy'} needs ${rule}`,
    'stopPrice',
  );
}

export function placeOco(s: State, cmd: OrderOcoCommand): ApplyResult {
  const p = checkPlacement(s, cmd);
  if (isRejection(p)) return p;
  const bad = checkOcoPrices(p.market, p.side, cmd);
  if (bad !== null) return bad;
  const a = fundsNeeded(p, cmd.amount, cmd.price);
  const b = fundsNeeded(p, cmd.amount, cmd.limitPrice);
  const need = maxBig(a, b);
  if (available(p) < need) return reject('insufficient_balance', INSUFFICIENT, 'amount');
  const legFields = {
    type: 1 as const,
    algorithm: 2 as const,
    timeInForce: 'GTC' as const,
    source: cmd.source,
    amount: cmd.amount,
    total: 0n,
    stopPrice: cmd.stopPrice,
    limitPrice: cmd.limitPrice,
  };
  const limitLeg = newOrder(s, p, { ...legFields, price: cmd.price });
  const stopLeg = newOrder(s, p, { ...legFields, price: cmd.limitPrice });
  limitLeg.ocoId = limitLeg.id;
  stopLeg.ocoId = limitLeg.id;
  limitLeg.sibling = stopLeg;
  stopLeg.sibling = limitLeg;
  stopLeg.direction = p.side === 1 ? -1 : 1;
  stopLeg.fundsFrozen = true;
  registerOrder(s, limitLeg);
  registerOrder(s, stopLeg);
  freezeForOrder(s, limitLeg, need);
  parkStop(s, stopLeg);
  executeLimit(s, limitLeg, true);
  runTriggers(s, p.market);
  const orders = [orderView(limitLeg), orderView(stopLeg)];
  return { ok: true, events: s.events, result: { kind: 'orders', orders } };
}
