// The ledger floor's order rows and its book (ledgerFloor.ts): the layout of an order's row, the
// rows themselves, and each side's price levels as FIFOs of order slots linked through the rows,
// with each level's total left and a bit per level with orders; with the moves that rest an
// order at its level and unlink it, keeping the best level of each side, and the lookups that
// find the next best from a level. The ledger (ledgerFloorLedger.ts) and the commands build on
// it.
import { FLOOR_SPAN, LedgerFloorBase } from './ledgerFloorBase.js';

export const NONE = -1;
/** Price levels the book can hold, centred on the mid it starts from (ledgerFloorBase.ts). */
export const SPAN = FLOOR_SPAN;
export const ORDER_SLOTS = 1 << 15;

// An order's fields, at these offsets in its row.
export const F_ID = 0;
export const F_USER = 1;
export const F_SIDE = 2;
export const F_LEVEL = 3;
export const F_AMOUNT = 4;
export const F_LEFT = 5;
export const F_FROZEN = 6;
export const F_DEAL_STOCK = 7;
/** Σ amount × ticks over its fills: its money is this over the value divisor. */
export const F_MONEY_UNITS = 8;
/** Σ amount × ticks × fee units over its fills: its fee is this over the fee divisor. */
export const F_FEE_UNITS = 9;
export const F_DEAL_FEE = 10;
export const F_PREV = 11;
export const F_NEXT = 12;
export const F_CTIME = 13;
/** 1 once it has frozen its funds (a resting order); a taker pays from available until then. */
export const F_FUNDS = 14;
export const F_TICKS = 15;
export const WIDTH = 16;

export abstract class LedgerFloorBook extends LedgerFloorBase {
  // Per level: the first and last order slot of its FIFO; the best level of each side.
  protected readonly askHead = new Int32Array(SPAN).fill(NONE);
  private readonly askTail = new Int32Array(SPAN).fill(NONE);
  protected readonly bidHead = new Int32Array(SPAN).fill(NONE);
  private readonly bidTail = new Int32Array(SPAN).fill(NONE);
  /** Per level: the sum of its orders' left. */
  protected readonly askTotal = new Float64Array(SPAN);
  protected readonly bidTotal = new Float64Array(SPAN);
  /** One bit per level with orders, so the next best is found 32 levels at a time. */
  private readonly askBits = new Uint32Array(SPAN / 32);
  private readonly bidBits = new Uint32Array(SPAN / 32);
  protected bestAsk = SPAN;
  protected bestBid = NONE;
  protected askCount = 0;
  protected bidCount = 0;
  protected rows = new Float64Array(ORDER_SLOTS * WIDTH);

  protected levelTotal(side: 1 | 2, level: number): number {
    return (side === 1 ? this.askTotal : this.bidTotal)[level]!;
  }

  // --- the book ------------------------------------------------------------------------------

  protected rest(slot: number, side: number, level: number): void {
    const rows = this.rows;
    const row = slot * WIDTH;
    const sell = side === 1;
    const head = sell ? this.askHead : this.bidHead;
    const tail = sell ? this.askTail : this.bidTail;
    const last = tail[level]!;
    rows[row + F_LEVEL] = level;
    rows[row + F_PREV] = last;
    rows[row + F_NEXT] = NONE;
    if (last === NONE) {
      head[level] = slot;
      (sell ? this.askBits : this.bidBits)[level >> 5]! |= 1 << (level & 31);
    } else {
      rows[last * WIDTH + F_NEXT] = slot;
    }
    tail[level] = slot;
    (sell ? this.askTotal : this.bidTotal)[level]! += rows[row + F_LEFT]!;
    if (sell) {
      this.askCount++;
      if (level < this.bestAsk) this.bestAsk = level;
    } else {
      this.bidCount++;
      if (level > this.bestBid) this.bestBid = level;
    }
  }

  protected unlink(slot: number): void {
    const rows = this.rows;
    const row = slot * WIDTH;
    const level = rows[row + F_LEVEL]!;
    const prev = rows[row + F_PREV]!;
    const next = rows[row + F_NEXT]!;
    const sell = rows[row + F_SIDE] === 1;
    const head = sell ? this.askHead : this.bidHead;
    const tail = sell ? this.askTail : this.bidTail;
    if (prev === NONE) head[level] = next;
    else rows[prev * WIDTH + F_NEXT] = next;
    if (next === NONE) tail[level] = prev;
    else rows[next * WIDTH + F_PREV] = prev;
    rows[row + F_LEVEL] = NONE;
    (sell ? this.askTotal : this.bidTotal)[level]! -= rows[row + F_LEFT]!;
    if (sell) this.askCount--;
    else this.bidCount--;
    if (head[level] !== NONE) return;
    // An emptied level; when it was the best, the next best is the nearest level with orders.
    (sell ? this.askBits : this.bidBits)[level >> 5]! &= ~(1 << (level & 31));
    if (sell && level === this.bestAsk) this.bestAsk = this.askFrom(level + 1);
    if (!sell && level === this.bestBid) this.bestBid = this.bidFrom(level - 1);
  }

  /** The lowest ask level at or above `level`, SPAN when none. */
  protected askFrom(level: number): number {
    if (level >= SPAN) return SPAN;
    const bits = this.askBits;
    let word = level >> 5;
    let w = bits[word]! & (~0 << (level & 31));
    while (w === 0) {
      if (++word === bits.length) return SPAN;
      w = bits[word]!;
    }
    return (word << 5) + 31 - Math.clz32(w & -w);
  }

  /** The highest bid level at or below `level`, NONE when none. */
  private bidFrom(level: number): number {
    if (level < 0) return NONE;
    const bits = this.bidBits;
    let word = level >> 5;
    let w = bits[word]! & (~0 >>> (31 - (level & 31)));
    while (w === 0) {
      if (--word < 0) return NONE;
      w = bits[word]!;
    }
    return (word << 5) + 31 - Math.clz32(w);
  }
}
