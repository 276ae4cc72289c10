// A columnar core from a snapshot, when the snapshot fits it: no stop or OCO order, no LTT fee
// turned on, every market's fractions and every order's quantities within the ranges the core
// checks when an order is placed, every balance within two limbs. Otherwise null, and the
// engine restores into the bigint core.
import { SAFE_MAX, SAFE_MAX_BIG } from '../fastmath.js';
import { restoreState } from '../snapshot.js';
import type { EngineSnapshot, SnapshotOrderRow } from '../types.js';
import type { ColumnarMarket } from './columnarMarket.js';
import { ColumnarCore } from './core.js';
import {
  O_AMOUNT,
  O_CTIME,
  O_DEAL_FEE,
  O_DEAL_MONEY,
  O_DEAL_STOCK,
  O_FEE_UNITS,
  O_FROZEN,
  O_FUNDS_FROZEN,
  O_LEFT,
  O_MARKET,
  O_MONEY_UNITS,
  O_MTIME,
  O_SIDE,
  O_SOURCE,
  O_TICKS,
  O_TIME_IN_FORCE,
  O_TOTAL,
  O_TYPE,
  O_USER,
  ORDER_WIDTH,
  TIME_IN_FORCE_CODES,
} from './orderTable.js';

/** The number of a snapshot's decimal text when it is a safe integer ≥ 0, else -1. */
function safe(text: string): number {
  const v = BigInt(text);
  return v >= 0n && v <= SAFE_MAX_BIG ? Number(v) : -1;
}

/** `text` / unit when exact and a safe integer, else -1. */
function units(text: string, unit: bigint): number {
  const v = BigInt(text);
  if (v < 0n || v % unit !== 0n) return -1;
  const n = v / unit;
  return n <= SAFE_MAX_BIG ? Number(n) : -1;
}

/** A plain resting order of a market the core trades in; anything else is the bigint core's. */
function isPlainRow(row: SnapshotOrderRow): boolean {
  const [, , , side, type, algorithm] = row;
  return (
    algorithm === 0 &&
    type === 1 &&
    (side === 1 || side === 2) &&
    row[18] === 0 &&
    row[19] === 0 &&
    row[25] === 0 &&
    row[17] === '0' &&
    row[11] === '0' &&
    row[12] === '0'
  );
}

/** Put one resting order into the core; false when it does not fit. */
function restoreOrder(core: ColumnarCore, row: SnapshotOrderRow): boolean {
  const cm: ColumnarMarket | undefined = core.marketsByName.get(row[2]);
  const holder = core.holders.findUser(row[1]);
  const tif = TIME_IN_FORCE_CODES.indexOf(row[6]);
  if (cm === undefined || !cm.fits || holder < 0 || tif < 0) return false;
  const price = BigInt(row[10]);
  if (price <= 0n || price % cm.tickSize !== 0n) return false;
  const ticks = units(row[10], cm.tickSize);
  const amount = safe(row[8]);
  const left = safe(row[13]);
  const dealStock = safe(row[14]);
  const dealMoney = safe(row[15]);
  const dealFee = safe(row[16]);
  const frozen = safe(row[22]);
  const moneyUnits = units(row[23], cm.moneyUnit);
  const feeUnits = units(row[24], cm.feeUnit);
  const values = [ticks, amount, left, dealStock, dealMoney, dealFee, frozen, moneyUnits, feeUnits];
  if (values.some((v) => v < 0) || row[9] !== '0') return false;
  // As placing it checked: its fills at its own price keep their products below 2^53.
  if (!core.fillsFit(cm, amount, ticks)) return false;
  // As the Order constructor does in the bigint core's restore: the user's trade balances of
  // both assets exist from here on (a user's balances list them).
  const user = core.holders.metaHolder(holder);
  user.tradeAt(cm.stock, core.assetNames[cm.stock]!);
  user.tradeAt(cm.money, core.assetNames[cm.money]!);
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
  ord[at + O_MONEY_UNITS] = moneyUnits;
  ord[at + O_FEE_UNITS] = feeUnits;
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
  // The rows of one side come best level first, each level's orders oldest first.
  cm.ownSide(row[3]).add(o);
  core.table.linkUser(o);
  return true;
}

/**
 * A columnar core holding the snapshot's state, or null when the state does not fit it or the
 * snapshot is not well formed (the bigint core's restore then says why).
 */
export function restoreColumnar(snap: EngineSnapshot): ColumnarCore | null {
  try {
    return restoreFitting(snap);
  } catch {
    return null;
  }
}

function restoreFitting(snap: EngineSnapshot): ColumnarCore | null {
  if (snap.version !== 2) return null;
  if (snap.users.some((u) => u.customFee)) return null;
  if (!snap.orders.every(isPlainRow)) return null;
  // The bigint core's restore gives the registry: everything but the orders.
  const core = new ColumnarCore(restoreState({ ...snap, orders: [] }));
  if (!core.loadRegistry()) return null;
  for (const row of snap.orders) if (!restoreOrder(core, row)) return null;
  // Each side's total of amounts, as placing an order keeps it (the sum is exact while it is).
  for (const cm of core.markets) {
    if (cm.asks.total > SAFE_MAX || cm.bids.total > SAFE_MAX) return null;
  }
  return core;
}
