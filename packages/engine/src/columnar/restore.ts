// A columnar core from a snapshot, when the snapshot fits it: every market's fractions and every
// order's quantities within the ranges the core checks when an order is placed, every balance
// within two limbs, and the LTT in the exchange below 2^53 when a user pays fees in LTT.
// Otherwise null, and the engine restores into the bigint core.
import { SAFE_MAX, SAFE_MAX_BIG, toSafe } from '../fastmath.js';
import { restoreState } from '../snapshot.js';
import type { DoneEntry } from '../state.js';
import type { EngineSnapshot, SnapshotOrderRow } from '../types.js';
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

/** The number of a snapshot's decimal text when it is a safe integer ≥ 0, else -1. */
function safe(text: string): number {
  return toSafe(BigInt(text));
}

/** `text` / unit when exact and a safe integer, else -1. */
function units(text: string, unit: bigint): number {
  const v = BigInt(text);
  if (v < 0n || v % unit !== 0n) return -1;
  return toSafe(v / unit);
}

/**
 * A resting order or waiting stop the core can hold: a limit order, plain, stop-limit or OCO
 * leg; anything else is the bigint core's.
 */
function isFittingRow(row: SnapshotOrderRow): boolean {
  const [, , , side, type, algorithm] = row;
  const direction = row[25];
  const plain = algorithm === 0 && row[11] === '0' && row[18] === 0 && direction === 0;
  const conditional =
    (algorithm === 1 || algorithm === 2) &&
    (direction === 1 || direction === -1 || (algorithm === 2 && direction === 0)) &&
    (row[18] === 0 || row[18] === 1);
  return (
    (plain || conditional) &&
    type === 1 &&
    (side === 1 || side === 2) &&
    (algorithm === 2 ? Number.isSafeInteger(row[19]) && row[19] > 0 : row[19] === 0) &&
    (algorithm === 2 || row[12] === '0')
  );
}

/** Put one open order into the core: its slot, or NONE when it does not fit. */
function restoreOrder(core: ColumnarCore, row: SnapshotOrderRow): number {
  const cm: ColumnarMarket | undefined = core.marketsByName.get(row[2]);
  const holder = core.holders.findUser(row[1]);
  const tif = TIME_IN_FORCE_CODES.indexOf(row[6]);
  if (cm === undefined || !cm.fits || holder < 0 || tif < 0) return NONE;
  const price = BigInt(row[10]);
  if (price <= 0n || price % cm.tickSize !== 0n) return NONE;
  const ticks = units(row[10], cm.tickSize);
  const amount = safe(row[8]);
  const left = safe(row[13]);
  const dealStock = safe(row[14]);
  const dealMoney = safe(row[15]);
  const dealFee = safe(row[16]);
  const frozen = safe(row[22]);
  // Its numerators as counts of their units while those are safe integers, else in bigint.
  const moneyNum = BigInt(row[23]);
  const feeNum = BigInt(row[24]);
  const moneyUnits = units(row[23], cm.moneyUnit);
  const feeUnits = units(row[24], cm.feeUnit);
  const bigUnits = moneyUnits < 0 || feeUnits < 0;
  const dealFeeLtt = safe(row[17]);
  const stopTicks = units(row[11], cm.tickSize);
  const limitTicks = units(row[12], cm.tickSize);
  const values = [ticks, amount, left, dealStock, dealMoney, dealFee, frozen];
  values.push(dealFeeLtt, stopTicks, limitTicks);
  if (values.some((v) => v < 0) || row[9] !== '0' || moneyNum < 0n || feeNum < 0n) return NONE;
  // Whole lots, as placing and filling keep them: the fills' products count lots (lotsTicks).
  if ([amount, left, dealStock].some((v) => v % cm.amountUnit !== 0)) return NONE;
  // As placing it checked: its fills at its own price move less than 2^53; and the sums of its
  // fills so far and to come stay exact.
  if (!core.fillsFit(cm, amount, ticks)) return NONE;
  const valueLeft = (BigInt(left) * BigInt(ticks) * cm.tickSize) / cm.market.scale;
  if (BigInt(dealMoney) + BigInt(dealFee) + valueLeft + 1n > SAFE_MAX_BIG) return NONE;
  // As the Order constructor does in the bigint core's restore: the user's trade balances of
  // both assets exist from here on (a user's balances list them).
  core.holders.ensureAccounts(holder, cm.stock, core.assetNames[cm.stock]!);
  core.holders.ensureAccounts(holder, cm.money, core.assetNames[cm.money]!);
  const o = core.table.allocate(row[0]);
  const ord = core.table.rows;
  const at = o * ORDER_WIDTH;
  ord[at + O_USER] = holder;
  ord[at + O_SIDE] = row[3];
  ord[at + O_TICKS] = ticks;
  ord[at + O_LEFT] = left;
  ord[at + O_DEAL_STOCK] = dealStock;
  ord[at + O_DEAL_MONEY] = dealMoney;
  ord[at + O_DEAL_FEE] = dealFee;
  ord[at + O_DEAL_FEE_LTT] = dealFeeLtt;
  ord[at + O_MONEY_UNITS] = bigUnits ? BIG_UNITS : moneyUnits;
  ord[at + O_FEE_UNITS] = bigUnits ? BIG_UNITS : feeUnits;
  if (bigUnits) core.table.bigUnits.set(o, { moneyNum, feeNum });
  ord[at + O_FROZEN] = frozen;
  ord[at + O_FUNDS_FROZEN] = 1;
  ord[at + O_MTIME] = row[21];
  ord[at + O_MARKET] = cm.index;
  ord[at + O_TYPE] = 1;
  ord[at + O_TIME_IN_FORCE] = tif;
  ord[at + O_SOURCE] = row[7] === 'web' ? 0 : 1;
  ord[at + O_AMOUNT] = amount;
  ord[at + O_TOTAL] = 0;
  ord[at + O_CTIME] = row[20];
  ord[at + O_ALGORITHM] = row[5];
  ord[at + O_STOP_TICKS] = stopTicks;
  ord[at + O_LIMIT_TICKS] = limitTicks;
  ord[at + O_TRIGGERED] = row[18];
  ord[at + O_OCO_ID] = row[19];
  ord[at + O_DIRECTION] = row[25];
  // The rows of one side come best level first, each level's orders oldest first; a waiting
  // stop takes its place in the market's firing order.
  if (row[25] !== 0 && row[18] === 0) cm.stops.add(o);
  else cm.ownSide(row[3]).add(o);
  core.table.linkUser(o);
  return o;
}

/**
 * A columnar core holding the snapshot's state, or null when the state does not fit it or the
 * snapshot is not well formed (the bigint core's restore then says why). `done`, the applied
 * business ids of a live state, stands for the snapshot's when given (a move back from the
 * bigint core: they grow with the exchange's history, and their entries never change).
 */
export function restoreColumnar(
  snap: EngineSnapshot,
  done?: ReadonlyMap<string, DoneEntry>,
): ColumnarCore | null {
  try {
    return restoreFitting(snap, done);
  } catch {
    return null;
  }
}

function restoreFitting(
  snap: EngineSnapshot,
  done: ReadonlyMap<string, DoneEntry> | undefined,
): ColumnarCore | null {
  if (snap.version !== 2) return null;

  if (!snap.orders.every(isFittingRow)) return null;
  // The bigint core's restore gives the registry: everything but the orders.
  const registry = restoreState({ ...snap, orders: [] });
  if (done !== undefined) for (const [key, entry] of done) registry.done.set(key, entry);
  const core = new ColumnarCore(registry);
  if (!core.loadRegistry()) return null;
  if (core.holders.lttFeeUsers > 0 && !core.lttFeesFit(0n)) return null;
  // OCO legs are paired as the bigint core's restore pairs them: by id, in the rows' order.
  const byOco = new Map<number, number>();
  for (const row of snap.orders) {
    const o = restoreOrder(core, row);
    if (o === NONE) return null;
    const ocoId = row[19];
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
  // Each side's total of amounts, as placing an order keeps it (the sum is exact while it is).
  for (const cm of core.markets) {
    if (cm.asks.total > SAFE_MAX || cm.bids.total > SAFE_MAX) return null;
    if (cm.stops.amountSum > SAFE_MAX) return null;
  }
  return core;
}
