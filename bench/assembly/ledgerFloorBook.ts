// The WebAssembly floor's order rows and its book (ledgerFloor.ts; bench/ledgerFloorBook.ts is
// the JS floor's): the layout of an order's row and the rows themselves, and each side's price
// levels as FIFOs of order slots linked through the rows, with each level's total left and a
// bit per level with orders; with the moves that rest an order at its level and unlink it,
// keeping the best level of each side, and the lookups that find the next best from a level.
// The ledger (ledgerFloorLedger.ts) and the commands build on it. The NOTE in ledgerFloor.ts on
// `unchecked(...)` holds here too.
export const NONE: i32 = -1;
export const SPAN: i32 = 1 << 16;
export const ORDER_SLOTS: i32 = 1 << 15;

// An order's fields, at these offsets in its row (as in the floor).
export const F_ID = 0;
export const F_USER = 1;
export const F_SIDE = 2;
export const F_LEVEL = 3;
export const F_AMOUNT = 4;
export const F_LEFT = 5;
export const F_FROZEN = 6;
export const F_DEAL_STOCK = 7;
export const F_MONEY_UNITS = 8;
export const F_FEE_UNITS = 9;
export const F_DEAL_FEE = 10;
export const F_PREV = 11;
export const F_NEXT = 12;
export const F_CTIME = 13;
export const F_FUNDS = 14;
export const F_TICKS = 15;
export const WIDTH = 16;

// Per level: the first and last order slot of its FIFO, the sum of its orders' left, and a bit
// per level with orders, so the next best is found 32 levels at a time.
export const askHead = new StaticArray<i32>(SPAN);
export const askTail = new StaticArray<i32>(SPAN);
export const bidHead = new StaticArray<i32>(SPAN);
export const bidTail = new StaticArray<i32>(SPAN);
export const askTotal = new StaticArray<i64>(SPAN);
export const bidTotal = new StaticArray<i64>(SPAN);
const askBits = new StaticArray<u32>(SPAN / 32);
const bidBits = new StaticArray<u32>(SPAN / 32);
export let bestAsk: i32 = SPAN;
export let bestBid: i32 = NONE;
export let askCount: i32 = 0;
export let bidCount: i32 = 0;
const rows = new StaticArray<i64>(ORDER_SLOTS * WIDTH);

/** Number `i` of the order rows (slot × WIDTH + a field's offset). */
export function field(i: i32): i64 {
  return unchecked(rows[i]);
}
export function setField(i: i32, v: i64): void {
  unchecked((rows[i] = v));
}

// --- the book --------------------------------------------------------------------------------

export function rest(slot: i32, side: i32, level: i32): void {
  const row = slot * WIDTH;
  const sell = side === 1;
  const last = sell ? unchecked(askTail[level]) : unchecked(bidTail[level]);
  setField(row + F_LEVEL, level);
  setField(row + F_PREV, last);
  setField(row + F_NEXT, NONE);
  if (last === NONE) {
    if (sell) {
      unchecked((askHead[level] = slot));
      unchecked((askBits[level >> 5] |= 1 << (level & 31)));
    } else {
      unchecked((bidHead[level] = slot));
      unchecked((bidBits[level >> 5] |= 1 << (level & 31)));
    }
  } else {
    setField(last * WIDTH + F_NEXT, slot);
  }
  if (sell) {
    unchecked((askTail[level] = slot));
    unchecked((askTotal[level] += field(row + F_LEFT)));
    askCount++;
    if (level < bestAsk) bestAsk = level;
  } else {
    unchecked((bidTail[level] = slot));
    unchecked((bidTotal[level] += field(row + F_LEFT)));
    bidCount++;
    if (level > bestBid) bestBid = level;
  }
}

export function unlink(slot: i32): void {
  const row = slot * WIDTH;
  const level = <i32>field(row + F_LEVEL);
  const prev = <i32>field(row + F_PREV);
  const next = <i32>field(row + F_NEXT);
  const sell = field(row + F_SIDE) === 1;
  if (prev === NONE) {
    if (sell) unchecked((askHead[level] = next));
    else unchecked((bidHead[level] = next));
  } else setField(prev * WIDTH + F_NEXT, next);
  if (next === NONE) {
    if (sell) unchecked((askTail[level] = prev));
    else unchecked((bidTail[level] = prev));
  } else setField(next * WIDTH + F_PREV, prev);
  setField(row + F_LEVEL, NONE);
  if (sell) {
    unchecked((askTotal[level] -= field(row + F_LEFT)));
    askCount--;
    if (unchecked(askHead[level]) !== NONE) return;
    unchecked((askBits[level >> 5] &= ~(1 << (level & 31))));
    if (level === bestAsk) bestAsk = askFrom(level + 1);
  } else {
    unchecked((bidTotal[level] -= field(row + F_LEFT)));
    bidCount--;
    if (unchecked(bidHead[level]) !== NONE) return;
    unchecked((bidBits[level >> 5] &= ~(1 << (level & 31))));
    if (level === bestBid) bestBid = bidFrom(level - 1);
  }
}

export function askFrom(level: i32): i32 {
  if (level >= SPAN) return SPAN;
  let word = level >> 5;
  let w: u32 = unchecked(askBits[word]) & ((<u32>~0) << (level & 31));
  while (w === 0) {
    if (++word === SPAN / 32) return SPAN;
    w = unchecked(askBits[word]);
  }
  return (word << 5) + <i32>ctz(w);
}

function bidFrom(level: i32): i32 {
  if (level < 0) return NONE;
  let word = level >> 5;
  let w: u32 = unchecked(bidBits[word]) & (<u32>~0 >>> (31 - (level & 31)));
  while (w === 0) {
    if (--word < 0) return NONE;
    w = unchecked(bidBits[word]);
  }
  return (word << 5) + 31 - <i32>clz(w);
}
