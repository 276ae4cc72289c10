// The baseline, nodejs-order-book (v10), driven through the engine bench's operations: the
// engine bench times it beside the engine, and the engine A/B bench (`--baseline`) drives it
// untimed beside each engine, so that the engines share their heap as they do in the bench.
import { OrderBook, SelfTradePreventionMode, Side } from 'nodejs-order-book';
import { type Amounts, CANCEL, MARKET_ORDER, type Ops, type Workload } from './engineWorkload.js';

/** Operation `i` through the book: integer ticks and minor units as numbers. */
function driveBaseline(book: OrderBook, ops: Ops, amounts: Amounts, i: number): void {
  const kind = ops.kind[i];
  if (kind === CANCEL) {
    book.cancel(String(ops.orderId[i]));
    return;
  }
  const side = ops.side[i] === 2 ? Side.BUY : Side.SELL;
  const size = amounts.sizes[ops.size[i]!]!;
  const accountId = String(ops.user[i]);
  const stpMode = SelfTradePreventionMode.EXPIRE_TAKER;
  if (kind === MARKET_ORDER) {
    book.market({ side, size, accountId, stpMode });
    return;
  }
  const id = String(ops.orderId[i]);
  book.limit({ id, side, size, price: ops.ticks[i]!, accountId, stpMode });
}

/** The workload's operations `from` to `to` (not included) through the book. */
export function driveBaselineThrough(book: OrderBook, w: Workload, from: number, to: number): void {
  for (let i = from; i < to; i++) driveBaseline(book, w.ops, w.amounts, i);
}

/** A book holding the workload's seed orders, as a fresh engine seeded with them does. */
export function freshBaseline(w: Workload): OrderBook {
  const book = new OrderBook();
  for (let i = 0; i < w.seed.length; i++) driveBaseline(book, w.seed, w.amounts, i);
  return book;
}
