// What the engine shows of the columnar core's state: the queries, and the snapshot in the
// bigint core's format (snapshot.ts), so both cores give the same snapshot and hash.
import { ACCOUNT_KINDS } from '../ledger.js';
import { snapshotState } from '../snapshot.js';
import type {
  AssetTotal,
  DepthView,
  EngineSnapshot,
  OrderView,
  SnapshotOrderRow,
  UserBalances,
} from '../types.js';
import { SELF_TRADE_MODES } from '../validate.js';
import type { BookSide } from './bookSide.js';
import type { ColumnarCore } from './core.js';
import { STP_CANCEL_NEWEST } from './orderCodes.js';
import {
  LINK_NEXT,
  LINK_USER_NEXT,
  LINK_WIDTH,
  NONE,
  O_ALGORITHM,
  O_AMOUNT,
  O_CTIME,
  O_DEAL_FEE,
  O_DEAL_FEE_LTT,
  O_DEAL_MONEY,
  O_DEAL_STOCK,
  O_DIRECTION,
  O_FROZEN,
  O_ID,
  O_LEFT,
  O_LIMIT_TICKS,
  O_MARKET,
  O_MTIME,
  O_OCO_ID,
  O_SELF_TRADE,
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
import { SOURCE_CODES, TIME_IN_FORCE_CODES } from './orderTable.js';
import { ORDER_RECORD_EXTENDED } from './recordLayout.js';
import { viewOfRecord, writeOrderRecord } from './records.js';

/** An open order's view, from its row. */
export function viewOfSlot(core: ColumnarCore, slot: number): OrderView {
  const ord = core.table.rows;
  const row = slot * ORDER_WIDTH;
  const r = new Float64Array(ORDER_RECORD_EXTENDED);
  writeOrderRecord(r, 0, ord, row, core.holders.ownerCode(ord[row + O_USER]!));
  return viewOfRecord(r, 0, core.names);
}

export function orderOf(core: ColumnarCore, orderId: number): OrderView | undefined {
  const slot = typeof orderId === 'number' ? core.table.slotOf(orderId) : NONE;
  return slot === NONE ? undefined : viewOfSlot(core, slot);
}

/** A user's open orders, newest first. */
export function openOrdersOf(core: ColumnarCore, userId: number, market?: string): OrderView[] {
  const holder = core.holders.findUser(userId);
  if (holder < 0) return [];
  const ord = core.table.rows;
  const links = core.table.links;
  const out: OrderView[] = [];
  for (
    let o = core.table.firstOfUser(holder);
    o !== NONE;
    o = links[o * LINK_WIDTH + LINK_USER_NEXT]!
  ) {
    const name = core.markets[ord[o * ORDER_WIDTH + O_MARKET]!]!.name;
    if (market === undefined || name === market) out.push(viewOfSlot(core, o));
  }
  return out.sort((a, b) => b.id - a.id);
}

/** Up to `limit` levels of one side, best first, merged to multiples of `step` (queries.ts). */
function sideDepth(side: BookSide, tickSize: bigint, limit: number, step: bigint) {
  const out: [bigint, bigint][] = [];
  for (let i = 0; i < side.levelCount; i++) {
    const level = side.levelAt(i);
    let price = BigInt(side.ticksOf(level)) * tickSize;
    if (step > 0n) {
      const down = price - (price % step);
      price = side.isAsk && down !== price ? down + step : down;
    }
    const total = BigInt(side.unitsOf(level)) * BigInt(side.amountUnit);
    const last = out[out.length - 1];
    if (last !== undefined && last[0] === price) {
      last[1] += total;
      continue;
    }
    if (out.length === limit) break;
    out.push([price, total]);
  }
  return out;
}

export function depthOf(
  core: ColumnarCore,
  market: string,
  limit: number,
  mergeStep?: bigint,
): DepthView {
  const cm = core.marketsByName.get(market);
  if (cm === undefined) return { asks: [], bids: [] };
  const n = Number.isSafeInteger(limit) && limit > 0 ? limit : 0;
  const step = mergeStep !== undefined && mergeStep > 0n ? mergeStep : 0n;
  return {
    asks: sideDepth(cm.asks, cm.tickSize, n, step),
    bids: sideDepth(cm.bids, cm.tickSize, n, step),
  };
}

export function lastPriceOf(core: ColumnarCore, market: string): bigint {
  const cm = core.marketsByName.get(market);
  return cm === undefined ? 0n : BigInt(cm.lastTicks) * cm.tickSize;
}

/** A user's balances of every asset that has a balance for them, in the order assets were added. */
export function balancesOf(core: ColumnarCore, userId: number): UserBalances {
  const out: UserBalances = {};
  const holder = core.holders.findUser(userId);
  if (holder < 0) return out;
  const table = core.balances;
  for (const asset of core.meta.assets.values()) {
    if (!core.holders.hasAccounts(holder, asset.index)) continue;
    const entry = {} as UserBalances[string];
    for (let k = 0; k < 3; k++) {
      const cell = table.cell(holder, k as 0 | 1 | 2);
      entry[ACCOUNT_KINDS[k]!] = {
        available: table.available(asset.index, cell),
        frozen: table.frozen(asset.index, cell),
      };
    }
    out[asset.name] = entry;
  }
  return out;
}

/** Per asset: the sum over every account but `external`, and what came in and went out. */
export function assetTotalsOf(core: ColumnarCore): AssetTotal[] {
  const table = core.balances;
  return [...core.meta.assets.values()].map((a) => {
    let total = 0n;
    for (let h = 0; h < core.holders.count; h++) {
      if (h === core.holders.external) continue;
      for (let k = 0; k < 3; k++) {
        const cell = table.cell(h, k as 0 | 1 | 2);
        if (!table.isZero(a.index, cell)) {
          total += table.available(a.index, cell) + table.frozen(a.index, cell);
        }
      }
    }
    return { asset: a.name, total, deposited: a.deposited, withdrawn: a.withdrawn };
  });
}

/** Decimal text of a number or bigint; zero without a conversion. */
function text(v: number | bigint): string {
  return v === 0 || v === 0n ? '0' : v.toString();
}

function snapshotRow(core: ColumnarCore, slot: number): SnapshotOrderRow {
  const ord = core.table.rows;
  const row = slot * ORDER_WIDTH;
  const cm = core.markets[ord[row + O_MARKET]!]!;
  const out: SnapshotOrderRow = [
    ord[row + O_ID]!,
    core.holders.ownerCode(ord[row + O_USER]!),
    cm.name,
    ord[row + O_SIDE]! as 1 | 2,
    ord[row + O_TYPE]! as 1 | 2,
    ord[row + O_ALGORITHM]! as 0 | 1 | 2,
    TIME_IN_FORCE_CODES[ord[row + O_TIME_IN_FORCE]!]!,
    SOURCE_CODES[ord[row + O_SOURCE]!]!,
    text(ord[row + O_AMOUNT]!),
    text(ord[row + O_TOTAL]!),
    text(BigInt(ord[row + O_TICKS]!) * cm.tickSize),
    text(BigInt(ord[row + O_STOP_TICKS]!) * cm.tickSize),
    text(BigInt(ord[row + O_LIMIT_TICKS]!) * cm.tickSize),
    text(ord[row + O_LEFT]!),
    text(ord[row + O_DEAL_STOCK]!),
    text(ord[row + O_DEAL_MONEY]!),
    text(ord[row + O_DEAL_FEE]!),
    text(ord[row + O_DEAL_FEE_LTT]!),
    ord[row + O_TRIGGERED]! as 0 | 1,
    ord[row + O_OCO_ID]!,
    ord[row + O_CTIME]!,
    ord[row + O_MTIME]!,
    text(ord[row + O_FROZEN]!),
    text(core.moneyNumOf(cm, slot)),
    text(core.feeNumOf(cm, slot)),
    ord[row + O_DIRECTION]!,
  ];
  // As snapshot.ts writes it: only when not the default.
  const selfTrade = ord[row + O_SELF_TRADE]!;
  if (selfTrade !== STP_CANCEL_NEWEST) out.push(SELF_TRADE_MODES[selfTrade]!);
  return out;
}

/**
 * The open orders' slots as snapshot.ts lists them: by market name, bids then asks, best level
 * first, then the waiting stops in firing order, rising then falling.
 */
export function openSlots(core: ColumnarCore): number[] {
  const out: number[] = [];
  const links = core.table.links;
  const markets = [...core.markets].sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const cm of markets) {
    for (const side of [cm.bids, cm.asks]) {
      for (let i = 0; i < side.levelCount; i++) {
        const level = side.levelAt(i);
        for (let o = side.headOf(level); o !== NONE; o = links[o * LINK_WIDTH + LINK_NEXT]!) {
          out.push(o);
        }
      }
    }
    for (const o of cm.stops.up) out.push(o);
    for (const o of cm.stops.down) out.push(o);
  }
  return out;
}

/** The registry's markets' last prices, from the core's. */
function syncLastPrices(core: ColumnarCore): void {
  for (const cm of core.markets) cm.market.last = BigInt(cm.lastTicks) * cm.tickSize;
}

/**
 * Bring the registry (core.meta) up to date for the bigint core to take it: every user in it,
 * every balance that exists made in it, every last price.
 */
export function syncMeta(core: ColumnarCore): void {
  core.holders.lendAll();
  core.holders.loadAll();
  syncLastPrices(core);
}

/**
 * The balances as snapshot.ts writes them, from the table: its holders' order, each one's
 * assets by name, only balances that are not zero.
 */
function balanceRowsOf(core: ColumnarCore): EngineSnapshot['balances'] {
  const holders = core.holders;
  const table = core.balances;
  const assets = [...core.meta.assets.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  const out: EngineSnapshot['balances'] = [];
  const ordered = [...holders.usersById(), holders.external, holders.fees, holders.rounding];
  for (const h of ordered) {
    const owner = holders.ownerOf(h);
    for (const asset of assets) {
      if (!holders.hasAccounts(h, asset.index)) continue;
      for (let k = 0; k < 3; k++) {
        const cell = table.cell(h, k as 0 | 1 | 2);
        // A value has one form in limbs: zero is all four limbs zero.
        if (table.isZero(asset.index, cell)) continue;
        out.push([
          owner,
          ACCOUNT_KINDS[k]!,
          asset.name,
          table.available(asset.index, cell).toString(),
          table.frozen(asset.index, cell).toString(),
        ]);
      }
    }
  }
  return out;
}

/**
 * The whole state in the bigint core's snapshot format: the registry's parts from it, the
 * balances and orders from the core's tables (no account set is made for it).
 */
export function snapshotOf(core: ColumnarCore): EngineSnapshot {
  syncLastPrices(core);
  const snapshot = snapshotState(core.meta, { done: true, orders: false, balances: false });
  // `meta` holds no user between commands: the users are the registry's.
  snapshot.users = core.holders.userRows();
  snapshot.balances = balanceRowsOf(core);
  snapshot.orders = openSlots(core).map((slot) => snapshotRow(core, slot));
  return snapshot;
}
