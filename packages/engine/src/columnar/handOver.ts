// The columnar core's state as the bigint core's, for a hand-over: the registry itself, with its
// balances loaded, and each open order made from its row as a bigint core's order, without the
// snapshot's text between them (writing and parsing it was most of a hand-over's time at a book
// of 100,000 orders).
import { Order } from '../order.js';
import { putBackOrders } from '../snapshot.js';
import type { State } from '../state.js';
import type { Algorithm, OrderType, Side } from '../types.js';
import { SELF_TRADE_MODES } from '../validate.js';
import type { ColumnarCore } from './core.js';
import {
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
import { openSlots, syncMeta } from './views.js';

/**
 * A row's number as a bigint; 0 as the shared literal, since most of an open order's fields are
 * 0 and a bigint made per field is an object per field for the collector.
 */
function big(v: number): bigint {
  return v === 0 ? 0n : BigInt(v);
}

/** A price in ticks as the bigint core holds it, 0 (no stop or limit price) shared too. */
function priceOf(ticks: number, tickSize: bigint): bigint {
  return ticks === 0 ? 0n : BigInt(ticks) * tickSize;
}

/** An open order's row as the bigint core's order, as snapshot.ts restores it from its row. */
function bigintOrderOf(core: ColumnarCore, s: State, slot: number): Order {
  const ord = core.table.rows;
  const row = slot * ORDER_WIDTH;
  const cm = core.markets[ord[row + O_MARKET]!]!;
  const o = new Order(
    ord[row + O_ID]!,
    s.user(core.holders.ownerCode(ord[row + O_USER]!)),
    cm.market,
    ord[row + O_SIDE]! as Side,
    ord[row + O_TYPE]! as OrderType,
    ord[row + O_ALGORITHM]! as Algorithm,
    TIME_IN_FORCE_CODES[ord[row + O_TIME_IN_FORCE]!]!,
    SOURCE_CODES[ord[row + O_SOURCE]!]!,
    big(ord[row + O_AMOUNT]!),
    big(ord[row + O_TOTAL]!),
    priceOf(ord[row + O_TICKS]!, cm.tickSize),
    priceOf(ord[row + O_STOP_TICKS]!, cm.tickSize),
    priceOf(ord[row + O_LIMIT_TICKS]!, cm.tickSize),
    ord[row + O_CTIME]!,
  );
  o.left = big(ord[row + O_LEFT]!);
  o.dealStock = big(ord[row + O_DEAL_STOCK]!);
  o.dealMoney = big(ord[row + O_DEAL_MONEY]!);
  o.dealFee = big(ord[row + O_DEAL_FEE]!);
  o.dealFeeLtt = big(ord[row + O_DEAL_FEE_LTT]!);
  o.triggered = ord[row + O_TRIGGERED] === 1;
  o.ocoId = ord[row + O_OCO_ID]!;
  o.mtime = ord[row + O_MTIME]!;
  o.frozen = big(ord[row + O_FROZEN]!);
  o.moneyNum = core.moneyNumOf(cm, slot);
  o.feeNum = core.feeNumOf(cm, slot);
  o.fundsFrozen = true;
  o.direction = ord[row + O_DIRECTION]!;
  o.selfTrade = SELF_TRADE_MODES[ord[row + O_SELF_TRADE]!]!;
  return o;
}

/**
 * The whole state as the bigint core's, as restoring snapshotOf's snapshot would give, but
 * without its text (the applied business ids and their results, the holds and the balances grow
 * with the exchange's history; the orders with its book). The core must not be used after: its
 * registry is the bigint core's state now.
 */
export function handedOverState(core: ColumnarCore): State {
  syncMeta(core);
  const s = core.meta;
  putBackOrders(
    s,
    openSlots(core).map((slot) => bigintOrderOf(core, s, slot)),
  );
  return s;
}
