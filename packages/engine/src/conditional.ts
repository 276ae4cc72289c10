// Conditional orders: stop-limit, and OCO (a limit leg plus a stop-limit leg sharing funds).
import { maxBig } from './bigmath.js';
import { reject } from './errors.js';
import { freezeForOrder, registerOrder } from './lifecycle.js';
import type { Market } from './market.js';
import { executeLimit, parkStop, runTriggers } from './match.js';
import { orderView } from './order.js';
import { checkOpenOrderCap, checkPlacement, insufficient, Placement } from './placement.js';
import type { State } from './state.js';
import type {
  ApplyResult,
  OrderOcoCommand,
  OrderStopLimitCommand,
  Rejection,
  Side,
} from './types.js';
import { checkAmount, checkOrderAmount, checkOrderValue, checkPrice } from './validate.js';

/** The prices and amount of a stop-limit order, against the market's last price (`m.last`). */
export function checkStopLimit(m: Market, cmd: OrderStopLimitCommand): Rejection | null {
  const bad =
    checkPrice(m, cmd.stopPrice, 'stopPrice') ??
    checkPrice(m, cmd.price) ??
    checkAmount(m, cmd.amount) ??
    checkOrderAmount(m, cmd.amount) ??
    checkOrderValue(m, cmd.amount, cmd.price);
  if (bad !== null) return bad;
  if (m.last === 0n) return reject('invalid_stop_price', 'No last price yet', 'stopPrice');
  if (cmd.stopPrice === m.last) {
    return reject('invalid_stop_price', 'Stop price must differ from the last price', 'stopPrice');
  }
  return null;
}

export function placeStopLimit(s: State, cmd: OrderStopLimitCommand): ApplyResult {
  const p = checkPlacement(s, cmd);
  if (!(p instanceof Placement)) return p;
  const tooMany = checkOpenOrderCap(s.openOrdersPerUserMax, p.user.openCount, 1);
  if (tooMany !== null) return tooMany;
  const m = p.market;
  const bad = checkStopLimit(m, cmd);
  if (bad !== null) return bad;
  const need = p.fundsNeeded(cmd.amount, cmd.price);
  if (p.available() < need) return insufficient('amount');
  const o = p.order(s, 1, 1, 'GTC', cmd.source, cmd.amount, 0n, cmd.price, cmd.stopPrice, 0n);
  o.direction = cmd.stopPrice > m.last ? 1 : -1;
  registerOrder(s, o);
  freezeForOrder(s, o, need);
  parkStop(s, o);
  return { ok: true, events: s.events, result: { kind: 'order', order: s.viewOf(o) } };
}

/** The prices and amount of an OCO pair, against the market's last price (`m.last`). */
export function checkOcoPrices(m: Market, side: Side, cmd: OrderOcoCommand): Rejection | null {
  const bad =
    checkPrice(m, cmd.price) ??
    checkPrice(m, cmd.stopPrice, 'stopPrice') ??
    checkPrice(m, cmd.limitPrice, 'limitPrice') ??
    checkAmount(m, cmd.amount) ??
    checkOrderAmount(m, cmd.amount) ??
    checkOrderValue(m, cmd.amount, cmd.price) ??
    checkOrderValue(m, cmd.amount, cmd.limitPrice);
  if (bad !== null) return bad;
  const last = m.last;
  if (last === 0n) return reject('invalid_oco_prices', 'No last price yet', 'stopPrice');
  const ok =
    side === 1
      ? cmd.stopPrice < last && last < cmd.price
      : cmd.price < last && last < cmd.stopPrice;
  if (ok) return null;
  const rule = side === 1 ? 'stop price < last price < price' : 'price < last price < stop price';
  const sideName = side === 1 ? 'sell' : 'buy';
  return reject('invalid_oco_prices', `An OCO ${sideName} needs ${rule}`, 'stopPrice');
}

export function placeOco(s: State, cmd: OrderOcoCommand): ApplyResult {
  const p = checkPlacement(s, cmd);
  if (!(p instanceof Placement)) return p;
  const tooMany = checkOpenOrderCap(s.openOrdersPerUserMax, p.user.openCount, 2);
  if (tooMany !== null) return tooMany;
  const bad = checkOcoPrices(p.market, p.side, cmd);
  if (bad !== null) return bad;
  // One freeze covers both legs: enough for whichever of the two prices costs more.
  const need = maxBig(
    p.fundsNeeded(cmd.amount, cmd.price),
    p.fundsNeeded(cmd.amount, cmd.limitPrice),
  );
  if (p.available() < need) return insufficient('amount');
  const { amount, source, stopPrice, limitPrice } = cmd;
  const limitLeg = p.order(s, 1, 2, 'GTC', source, amount, 0n, cmd.price, stopPrice, limitPrice);
  const stopLeg = p.order(s, 1, 2, 'GTC', source, amount, 0n, limitPrice, stopPrice, limitPrice);
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
  executeLimit(s, limitLeg, true, -1n);
  runTriggers(s, p.market);
  const orders = [orderView(limitLeg), orderView(stopLeg)];
  return { ok: true, events: s.events, result: { kind: 'orders', orders } };
}
