// The ledger floor (bench/ledgerFloor.ts) in AssemblyScript, compiled to WebAssembly: the same
// work on the engine bench's workload, with the same results, in 64-bit integers instead of
// doubles. It answers whether the gap between the floor and the goal is the work or the
// language it runs in (docs/decisions/columnar-engine-speed.md, "The ledger floor in
// WebAssembly").
//
// bench/wasmLedgerFloor.ts compiles it when the bench starts and reads each command in
// JavaScript, as the floor does, before it calls in here with plain numbers. Everything the
// floor leaves out, this leaves out too; what it throws on, this refuses with a code (see the
// exports), and its JavaScript side throws.
//
// NOTE: `unchecked(...)` drops AssemblyScript's bounds checks, on arrays whose indexes the code
// keeps in range (levels within SPAN, slots below ORDER_SLOTS, ids below IDS, each checked where
// it enters). The JS floor's typed arrays check every access: that is part of what this measures.
// A store is written inside it, `unchecked((a[i] = v))`, which is why biome.json lets this folder
// assign in expressions. Quantities are i64, each below 2^53 as in the floor. AssemblyScript's
// `===` compares values, as `==` does.
//
// This file holds the set-up and the commands: their matching and settlement, and the module's
// exports. The rest is beside it: ledgerFloorBook.ts (the order rows and the book's price
// levels) and ledgerFloorLedger.ts (the balances and the log, and the moves that record them).
import {
  askCount,
  askFrom,
  askHead,
  askTail,
  askTotal,
  bestAsk,
  bestBid,
  bidCount,
  bidHead,
  bidTail,
  bidTotal,
  F_AMOUNT,
  F_CTIME,
  F_DEAL_FEE,
  F_DEAL_STOCK,
  F_FEE_UNITS,
  F_FROZEN,
  F_FUNDS,
  F_ID,
  F_LEFT,
  F_LEVEL,
  F_MONEY_UNITS,
  F_SIDE,
  F_TICKS,
  F_USER,
  field,
  NONE,
  ORDER_SLOTS,
  rest,
  SPAN,
  setField,
  unlink,
  WIDTH,
} from './ledgerFloorBook';
import {
  balances,
  hasAvailable,
  move,
  openBalances,
  R_FINISH,
  R_PUT,
  R_UPDATE,
  record,
  recordDeal,
  setTime,
  time,
} from './ledgerFloorLedger';

/** Order ids below this (the engine counts them from 1; the workload stays far below). */
const IDS: i32 = 1 << 20;
const STOCK: i32 = 0;
const MONEY: i32 = 1;

let valueQ: i64 = 1;
let feeQ: i64 = 1;
let makerUnits: i64 = 0;
let takerUnits: i64 = 0;
let maxUnits: i64 = 0;
let base: i32 = 0;
const feesHolder: i32 = 0;
let roundingHolder: i32 = 0;

const freeSlots = new StaticArray<i32>(ORDER_SLOTS);
let freeCount: i32 = 0;
let slotsUsed: i32 = 0;
const slotOfId = new StaticArray<i32>(IDS);
let nextOrderId: i64 = 0;

function gcd(a: i64, b: i64): i64 {
  while (b !== 0) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/** a / b rounded up, for a ≥ 0 and b > 0. */
function ceilDiv(a: i64, b: i64): i64 {
  return (a + b - 1) / b;
}

/** The floor's set-up (LedgerFloorSetup); the balance as its two limbs. */
export function init(
  nUsers: i32,
  tickSize: f64,
  stockScale: f64,
  makerPpm: i32,
  takerPpm: i32,
  balHi: f64,
  balLo: f64,
  midTicks: i32,
  firstOrderId: f64,
): void {
  valueQ = <i64>stockScale / <i64>tickSize;
  const g = gcd(gcd(makerPpm, takerPpm), 1_000_000);
  makerUnits = makerPpm / g;
  takerUnits = takerPpm / g;
  maxUnits = max(makerUnits, takerUnits);
  feeQ = valueQ * (1_000_000 / g);
  base = midTicks - SPAN / 2;
  roundingHolder = nUsers + 1;
  nextOrderId = <i64>firstOrderId;
  for (let i = 0; i < SPAN; i++) {
    unchecked((askHead[i] = NONE));
    unchecked((askTail[i] = NONE));
    unchecked((bidHead[i] = NONE));
    unchecked((bidTail[i] = NONE));
  }
  for (let i = 0; i < IDS; i++) unchecked((slotOfId[i] = NONE));
  openBalances(nUsers, balHi, balLo);
}

// The log's release (ledgerFloorLedger.ts), as Engine.releaseResults.
export { release } from './ledgerFloorLedger';

// --- orders ----------------------------------------------------------------------------------

// The commands, whose fields the caller has read and checked (a user in 1..users, a side, a
// price on its tick, an amount of at least the minimum, an integer id). Each returns 0 when
// done, else why not: 1 funds short, 2 a price beyond the window, 3 a market order on an empty
// side, 4 no such open order of the user. What the floor throws on as a bug (a balance below
// zero, its slots or ids or log full) traps here (`unreachable`).

/** A GTC limit order: it trades, then rests what is left. */
export function limit(user: i32, side: i32, ticks: i32, amount: f64, t: f64): i32 {
  setTime(t);
  if (ticks < base || ticks >= base + SPAN) return 2;
  const n = <i64>amount;
  const units = n * ticks;
  const asset = side === 1 ? STOCK : MONEY;
  const need = side === 1 ? n : costOf(units, maxUnits);
  if (!hasAvailable(user, asset, need)) return 1;
  const slot = newOrder(user, side, n, ticks);
  const level = ticks - base;
  const row = slot * WIDTH;
  if (!take(slot, user, side, level) || field(row + F_LEFT) === 0) {
    finish(slot);
    return 0;
  }
  const traded = field(row + F_DEAL_STOCK) > 0;
  const frozen = traded ? remainingNeed(slot) : need;
  move(user, asset, -frozen, frozen);
  setField(row + F_FROZEN, frozen);
  setField(row + F_FUNDS, 1);
  rest(slot, side, level);
  record(R_PUT, slot);
  return 0;
}

/** A market order by amount, bounded by the book; a buy's funds checked at its whole cost. */
export function market(user: i32, side: i32, amount: f64, t: f64): i32 {
  setTime(t);
  if (side === 1 ? bidCount === 0 : askCount === 0) return 3;
  const n = <i64>amount;
  const need = side === 1 ? n : marketBuyCost(n);
  if (!hasAvailable(user, side === 1 ? STOCK : MONEY, need)) return 1;
  const slot = newOrder(user, side, n, 0);
  take(slot, user, side, side === 2 ? SPAN - 1 : 0);
  finish(slot);
  return 0;
}

/** Cancel one of the user's open orders. */
export function cancel(user: i32, id: f64, t: f64): i32 {
  setTime(t);
  const i = <i32>id;
  const slot = id >= 0 && id < IDS ? unchecked(slotOfId[i]) : NONE;
  if (slot === NONE || field(slot * WIDTH + F_USER) !== user) return 4;
  unlink(slot);
  finish(slot);
  return 0;
}

function marketBuyCost(amount: i64): i64 {
  let left = amount;
  let units: i64 = 0;
  for (let level = bestAsk; left > 0 && level < SPAN; level = askFrom(level + 1)) {
    const qty = min(left, unchecked(askTotal[level]));
    units += qty * (level + base);
    left -= qty;
  }
  return costOf(units, takerUnits);
}

function costOf(units: i64, rateUnits: i64): i64 {
  return ceilDiv(units, valueQ) + ceilDiv(units * rateUnits, feeQ);
}

function remainingNeed(slot: i32): i64 {
  const row = slot * WIDTH;
  if (field(row + F_SIDE) === 1) return field(row + F_LEFT);
  const units = field(row + F_LEFT) * field(row + F_TICKS);
  const money = field(row + F_MONEY_UNITS) + units;
  const fee = field(row + F_FEE_UNITS) + units * maxUnits;
  const paid = ceilDiv(field(row + F_MONEY_UNITS), valueQ) + field(row + F_DEAL_FEE);
  return ceilDiv(money, valueQ) + ceilDiv(fee, feeQ) - paid;
}

function newOrder(user: i32, side: i32, amount: i64, ticks: i32): i32 {
  let slot: i32;
  if (freeCount > 0) slot = unchecked(freeSlots[--freeCount]);
  else {
    slot = slotsUsed++;
    if (slot === ORDER_SLOTS) unreachable();
  }
  const id = nextOrderId++;
  if (id >= IDS) unreachable();
  unchecked((slotOfId[<i32>id] = slot));
  const row = slot * WIDTH;
  for (let f = 0; f < WIDTH; f++) setField(row + f, 0);
  setField(row + F_ID, id);
  setField(row + F_USER, user);
  setField(row + F_SIDE, side);
  setField(row + F_LEVEL, NONE);
  setField(row + F_AMOUNT, amount);
  setField(row + F_LEFT, amount);
  setField(row + F_TICKS, ticks);
  setField(row + F_CTIME, time);
  return slot;
}

function take(taker: i32, user: i32, side: i32, lim: i32): bool {
  const leftAt = taker * WIDTH + F_LEFT;
  while (field(leftAt) > 0) {
    const level = side === 2 ? bestAsk : bestBid;
    if (side === 2 ? level > lim : level < lim) return true;
    const maker = side === 2 ? unchecked(askHead[level]) : unchecked(bidHead[level]);
    if (field(maker * WIDTH + F_USER) === user) return false;
    const qty = min(field(leftAt), field(maker * WIDTH + F_LEFT));
    fill(taker, maker, side, qty, level + base);
  }
  return true;
}

function fill(taker: i32, maker: i32, takerSide: i32, qty: i64, ticks: i32): void {
  const buyer = takerSide === 2 ? taker : maker;
  const seller = takerSide === 2 ? maker : taker;
  const units = qty * ticks;
  const buyerUnits = takerSide === 2 ? takerUnits : makerUnits;
  const sellerUnits = takerSide === 2 ? makerUnits : takerUnits;
  const b = buyer * WIDTH;
  const s = seller * WIDTH;
  const moneyBefore = field(b + F_MONEY_UNITS);
  const feeBefore = field(b + F_FEE_UNITS);
  const moneyAfter = moneyBefore + units;
  const feeAfter = feeBefore + units * buyerUnits;
  const pay = ceilDiv(moneyAfter, valueQ) - ceilDiv(moneyBefore, valueQ);
  const buyerFee = ceilDiv(feeAfter, feeQ) - ceilDiv(feeBefore, feeQ);
  setField(b + F_MONEY_UNITS, moneyAfter);
  setField(b + F_FEE_UNITS, feeAfter);
  const value = units / valueQ;
  const sellerFee = ceilDiv(units * sellerUnits, feeQ);
  const buyerUser = <i32>field(b + F_USER);
  const sellerUser = <i32>field(s + F_USER);
  spend(buyer, buyerUser, MONEY, pay + buyerFee);
  move(buyerUser, STOCK, qty, 0);
  spend(seller, sellerUser, STOCK, qty);
  move(sellerUser, MONEY, value - sellerFee, 0);
  move(feesHolder, MONEY, buyerFee + sellerFee, 0);
  if (pay !== value) move(roundingHolder, MONEY, pay - value, 0);
  setField(b + F_DEAL_FEE, field(b + F_DEAL_FEE) + buyerFee);
  setField(s + F_DEAL_FEE, field(s + F_DEAL_FEE) + sellerFee);
  setField(b + F_LEFT, field(b + F_LEFT) - qty);
  setField(s + F_LEFT, field(s + F_LEFT) - qty);
  setField(b + F_DEAL_STOCK, field(b + F_DEAL_STOCK) + qty);
  setField(s + F_DEAL_STOCK, field(s + F_DEAL_STOCK) + qty);
  setField(s + F_MONEY_UNITS, field(s + F_MONEY_UNITS) + units);
  if (takerSide === 2) unchecked((askTotal[ticks - base] -= qty));
  else unchecked((bidTotal[ticks - base] -= qty));
  recordDeal(taker, maker, ticks, qty, pay, buyerFee, sellerFee);
  if (field(maker * WIDTH + F_LEFT) === 0) {
    unlink(maker);
    finish(maker);
  } else {
    record(R_UPDATE, maker);
  }
}

function spend(slot: i32, user: i32, asset: i32, amount: i64): void {
  const at = slot * WIDTH + F_FROZEN;
  if (field(slot * WIDTH + F_FUNDS) === 1) {
    setField(at, field(at) - amount);
    move(user, asset, 0, -amount);
  } else {
    move(user, asset, -amount, 0);
  }
}

function finish(slot: i32): void {
  const row = slot * WIDTH;
  const frozen = field(row + F_FROZEN);
  if (frozen > 0) {
    move(<i32>field(row + F_USER), field(row + F_SIDE) === 1 ? STOCK : MONEY, frozen, -frozen);
    setField(row + F_FROZEN, 0);
  }
  record(R_FINISH, slot);
  unchecked((slotOfId[<i32>field(row + F_ID)] = NONE));
  unchecked((freeSlots[freeCount++] = slot));
}

// --- reading back, for the bench's check against the engine ---------------------------------

/** The total left at a level (side 1 the asks, else the bids), as a number. */
export function levelTotal(side: i32, level: i32): f64 {
  return <f64>(side === 1 ? askTotal[level] : bidTotal[level]);
}
/** One of a balance's four limbs (available hi, lo, frozen hi, lo), as a number. */
export function balanceLimb(holder: i32, asset: i32, k: i32): f64 {
  return <f64>balances[(holder * 2 + asset) * 4 + k];
}
