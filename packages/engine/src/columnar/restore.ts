// A columnar core from a snapshot, when the snapshot fits it: every market's fractions and every
// order's quantities within the ranges the core checks when an order is placed, and every
// balance within two limbs. Otherwise null, and the engine restores into the bigint core.

import type { AppliedIds } from '../appliedIds.js';
import { SAFE_MAX, SAFE_MAX_BIG, toSafe } from '../fastmath.js';
import { restoreState } from '../snapshot.js';
import { type OpenOrder, openOrderOfRow } from '../snapshotRows.js';
import type { EngineSnapshot, EngineSnapshotV2 } from '../types.js';
import { SELF_TRADE_MODES } from '../validate.js';
import type { ColumnarMarket } from './columnarMarket.js';
import { ColumnarCore } from './core.js';
import {
  NONE,
  O_ALGORITHM,
  O_AMOUNT,
  O_CTIME,
  O_DEAL_FEE,
  O_DEAL_FEE_LTT,
  O_DEAL_MONEY,
  O_DEAL_STOCK,
  O_DIRECTION,
  O_FEE_UNITS,
  O_FROZEN,
  O_FUNDS_FROZEN,
  O_LEFT,
  O_LIMIT_TICKS,
  O_MARKET,
  O_MONEY_UNITS,
  O_MTIME,
  O_OCO_ID,
  O_SELF_TRADE,
  O_SIBLING,
  O_SIDE,
  O_SOURCE,
  O_STOP_TICKS,
  O_TICKS,
  O_TIME_IN_FORCE,
  O_TOTAL,
  O_TRIGGERED,
  O_TYPE,
  O_USER,
  ORDER_WIDTH,
} from './orderRow.js';
import { BIG_UNITS, TIME_IN_FORCE_CODES } from './orderTable.js';

/** v / unit when exact and a safe integer ≥ 0, else -1. */
function units(v: bigint, unit: bigint): number {
  if (v < 0n || v % unit !== 0n) return -1;
  return toSafe(v / unit);
}

/**
 * A resting order or waiting stop the core can hold: a limit order, plain, stop-limit or OCO
 * leg; anything else is the bigint core's.
 */
function isFitting(o: OpenOrder): boolean {
  const { side, type, algorithm, direction, triggered } = o;
  const plain = algorithm === 0 && o.stopPrice === 0n && !triggered && direction === 0;
  const conditional =
    (algorithm === 1 || algorithm === 2) &&
    (direction === 1 || direction === -1 || (algorithm === 2 && direction === 0));
  return (
    (plain || conditional) &&
    type === 1 &&
    (side === 1 || side === 2) &&
    o.total === 0n &&
    (algorithm === 2 ? Number.isSafeInteger(o.ocoId) && o.ocoId > 0 : o.ocoId === 0) &&
    (algorithm === 2 || o.limitPrice === 0n)
  );
}

/** An open order's quantities in the core's units, as restoreOrder reads and then writes them. */
interface Quantities {
  readonly ticks: number;
  readonly amount: number;
  readonly left: number;
  readonly dealStock: number;
  readonly dealMoney: number;
  readonly dealFee: number;
  readonly dealFeeLtt: number;
  readonly frozen: number;
  readonly stopTicks: number;
  readonly limitTicks: number;
  readonly moneyUnits: number;
  readonly feeUnits: number;
  readonly bigUnits: boolean;
}

/** An order's quantities, or null when one is not a safe count of its unit. */
function readQuantities(cm: ColumnarMarket, o: OpenOrder): Quantities | null {
  if (o.price <= 0n) return null;
  // Its numerators as counts of their units while those are safe integers, else in bigint.
  const { moneyNum, feeNum } = o;
  const moneyUnits = units(moneyNum, cm.moneyUnit);
  const feeUnits = units(feeNum, cm.feeUnit);
  const q: Quantities = {
    ticks: units(o.price, cm.tickSize),
    amount: toSafe(o.amount),
    left: toSafe(o.left),
    dealStock: toSafe(o.dealStock),
    dealMoney: toSafe(o.dealMoney),
    dealFee: toSafe(o.dealFee),
    dealFeeLtt: toSafe(o.dealFeeLtt),
    frozen: toSafe(o.frozen),
    stopTicks: units(o.stopPrice, cm.tickSize),
    limitTicks: units(o.limitPrice, cm.tickSize),
    moneyUnits,
    feeUnits,
    bigUnits: moneyUnits < 0 || feeUnits < 0,
  };
  if (q.ticks < 0 || q.amount < 0 || q.left < 0 || q.dealStock < 0 || q.dealMoney < 0) return null;
  if (q.dealFee < 0 || q.dealFeeLtt < 0 || q.frozen < 0 || q.stopTicks < 0) return null;
  if (q.limitTicks < 0 || moneyNum < 0n || feeNum < 0n) return null;
  // Whole lots, as placing and filling keep them: the fills' products count lots (lotsTicks).
  const lot = cm.amountUnit;
  return q.amount % lot === 0 && q.left % lot === 0 && q.dealStock % lot === 0 ? q : null;
}

/** Put one open order into the core: its slot, or NONE when it does not fit. */
function restoreOrder(core: ColumnarCore, o: OpenOrder): number {
  const cm: ColumnarMarket | undefined = core.marketsByName.get(o.market.name);
  const holder = core.holders.findUser(o.user.userId);
  const tif = TIME_IN_FORCE_CODES.indexOf(o.timeInForce);
  if (cm === undefined || !cm.fits || holder < 0 || tif < 0) return NONE;
  const q = readQuantities(cm, o);
  if (q === null) return NONE;
  // As placing it checked: its fills at its own price move less than 2^53; and the sums of its
  // fills so far and to come stay exact.
  if (!core.fillsFit(cm, q.amount, q.ticks)) return NONE;
  const valueLeft = (o.left * o.price) / cm.market.scale;
  if (BigInt(q.dealMoney) + BigInt(q.dealFee) + valueLeft + 1n > SAFE_MAX_BIG) return NONE;
  // As the Order constructor does in the bigint core's restore: the user's trade balances of
  // both assets exist from here on (a user's balances list them).
  core.holders.ensureAccounts(holder, cm.stock);
  core.holders.ensureAccounts(holder, cm.money);
  const slot = core.table.allocate(o.id);
  writeRow(core, cm, slot, holder, tif, o, q);
  if (q.bigUnits) core.table.bigUnits.set(slot, { moneyNum: o.moneyNum, feeNum: o.feeNum });
  // The orders of one side come best level first, each level's orders oldest first; a waiting
  // stop takes its place in the market's firing order.
  if (o.direction !== 0 && !o.triggered) cm.stops.add(slot);
  else cm.ownSide(o.side).add(slot);
  core.table.linkUser(slot);
  return slot;
}

/** An open order's row: its quantities as read, the rest of its fields as codes. */
function writeRow(
  core: ColumnarCore,
  cm: ColumnarMarket,
  slot: number,
  holder: number,
  tif: number,
  o: OpenOrder,
  q: Quantities,
): void {
  const ord = core.table.rows;
  const at = slot * ORDER_WIDTH;
  ord[at + O_USER] = holder;
  ord[at + O_SIDE] = o.side;
  ord[at + O_TICKS] = q.ticks;
  ord[at + O_LEFT] = q.left;
  ord[at + O_DEAL_STOCK] = q.dealStock;
  ord[at + O_DEAL_MONEY] = q.dealMoney;
  ord[at + O_DEAL_FEE] = q.dealFee;
  ord[at + O_DEAL_FEE_LTT] = q.dealFeeLtt;
  ord[at + O_MONEY_UNITS] = q.bigUnits ? BIG_UNITS : q.moneyUnits;
  ord[at + O_FEE_UNITS] = q.bigUnits ? BIG_UNITS : q.feeUnits;
  ord[at + O_FROZEN] = q.frozen;
  ord[at + O_FUNDS_FROZEN] = 1;
  ord[at + O_MTIME] = o.mtime;
  ord[at + O_MARKET] = cm.index;
  ord[at + O_TYPE] = 1;
  ord[at + O_TIME_IN_FORCE] = tif;
  ord[at + O_SOURCE] = o.source === 'web' ? 0 : 1;
  ord[at + O_AMOUNT] = q.amount;
  ord[at + O_TOTAL] = 0;
  ord[at + O_CTIME] = o.ctime;
  ord[at + O_ALGORITHM] = o.algorithm;
  ord[at + O_STOP_TICKS] = q.stopTicks;
  ord[at + O_LIMIT_TICKS] = q.limitTicks;
  ord[at + O_TRIGGERED] = o.triggered ? 1 : 0;
  ord[at + O_OCO_ID] = o.ocoId;
  ord[at + O_DIRECTION] = o.direction;
  ord[at + O_SELF_TRADE] = SELF_TRADE_MODES.indexOf(o.selfTrade);
}

/** What a move back from the bigint core passes over as it is instead of in the snapshot. */
export interface LiveParts {
  /** The applied business ids (they grow with history, and their entries never change). */
  readonly done: AppliedIds;
  /** The open orders, in a snapshot's order (snapshot.ts openOrders). */
  readonly orders: readonly OpenOrder[];
}

/**
 * A columnar core holding the snapshot's state, or null when the state does not fit it or the
 * snapshot is not well formed (the bigint core's restore then says why). `live`, from the bigint
 * core's state, stands for the snapshot's applied business ids and open orders (a move back from
 * that core, whose snapshot leaves them out).
 */
export function restoreColumnar(
  snap: EngineSnapshot | EngineSnapshotV2,
  live?: LiveParts,
): ColumnarCore | null {
  try {
    return restoreFitting(snap, live);
  } catch {
    return null;
  }
}

function restoreFitting(
  snap: EngineSnapshot | EngineSnapshotV2,
  live: LiveParts | undefined,
): ColumnarCore | null {
  // Both formats write orders as rows; they differ in the applied ids, which restoreState reads.
  if (snap.version !== 2 && snap.version !== 3) return null;
  // A row's triggered flag is 0 or 1 here; the bigint core's restore reads any other as 0.
  if (live === undefined && !snap.orders.every((row) => row[18] === 0 || row[18] === 1)) {
    return null;
  }
  const orders = live?.orders ?? snap.orders.map(openOrderOfRow);
  if (!orders.every(isFitting)) return null;
  // The bigint core's restore gives the registry: everything but the orders.
  const registry = restoreState({ ...snap, orders: [] });
  if (live !== undefined) registry.done.copyFrom(live.done);
  const core = new ColumnarCore(registry);
  if (!core.loadRegistry()) return null;
  core.table.reserve(orders.length);
  // OCO legs are paired as the bigint core's restore pairs them: by id, in the orders' order.
  const byOco = new Map<number, number>();
  for (const order of orders) {
    const o = restoreOrder(core, order);
    if (o === NONE) return null;
    const ocoId = order.ocoId;
    if (ocoId === 0) continue;
    const other = byOco.get(ocoId);
    if (other === undefined) {
      byOco.set(ocoId, o);
    } else {
      const rows = core.table.rows;
      rows[o * ORDER_WIDTH + O_SIBLING] = other;
      rows[other * ORDER_WIDTH + O_SIBLING] = o;
    }
  }
  // Each side's total of amounts in lots, and the stops', as placing an order keeps them (the
  // sums are exact while they are).
  for (const cm of core.markets) {
    if (cm.asks.units > SAFE_MAX || cm.bids.units > SAFE_MAX) return null;
    if (cm.stops.amountUnits > SAFE_MAX) return null;
  }
  return core;
}
