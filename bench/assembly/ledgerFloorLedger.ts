// The WebAssembly floor's ledger and log (ledgerFloor.ts; bench/ledgerFloorLedger.ts is the JS
// floor's): every holder's balances as two exact limbs, and the log of numbers that records
// each balance change as a leg and each order change and deal as a record, each with the next
// global sequence number and the time of the command being applied; with the moves that change
// a balance and record it, and the records of an order and a deal. The layout of the log's
// records and their kinds are set here. The NOTE in ledgerFloor.ts on `unchecked(...)` holds
// here too.
import {
  F_AMOUNT,
  F_CTIME,
  F_DEAL_FEE,
  F_DEAL_STOCK,
  F_ID,
  F_LEFT,
  F_LEVEL,
  F_MONEY_UNITS,
  F_SIDE,
  F_USER,
  field,
  WIDTH,
} from './ledgerFloorBook';

const LOG_NUMBERS: i32 = 1 << 16;
/** The weight of a balance's high limb, as in the engine's limbs.ts. */
const LIMB: i64 = (<i64>1) << 52;

// Record kinds in the log.
const R_LEG: f64 = 1;
export const R_PUT: f64 = 2;
export const R_UPDATE: f64 = 3;
export const R_FINISH: f64 = 4;
const R_DEAL: f64 = 5;

// Per holder and asset, (holder * 2 + asset) * 4: available hi, lo, frozen hi, lo.
export let balances = new StaticArray<i64>(8);
const log = new StaticArray<f64>(LOG_NUMBERS);
let logLength: i32 = 0;
let seq: i64 = 0;
let dealId: i64 = 0;
export let time: i64 = 0;

/** Each user's opening balances (init): both assets, as the set-up's balance in its limbs. */
export function openBalances(nUsers: i32, balHi: f64, balLo: f64): void {
  balances = new StaticArray<i64>((nUsers + 2) * 8);
  for (let u = 1; u <= nUsers; u++) {
    for (let a = 0; a < 2; a++) {
      const cell = (u * 2 + a) * 4;
      balances[cell] = <i64>balHi;
      balances[cell + 1] = <i64>balLo;
    }
  }
}

/** As Engine.releaseResults: no result so far will be read, so the log starts over. */
export function release(): void {
  logLength = 0;
}

/** The time of the command being applied, as its records carry it. */
export function setTime(t: f64): void {
  time = <i64>t;
}

// --- the ledger and the log ------------------------------------------------------------------

function reserve(numbers: i32): i32 {
  const at = logLength;
  if (at + numbers > LOG_NUMBERS) unreachable();
  logLength = at + numbers;
  return at;
}

export function hasAvailable(holder: i32, asset: i32, need: i64): bool {
  const cell = (holder * 2 + asset) * 4;
  return (
    <f64>unchecked(balances[cell]) * <f64>LIMB + <f64>unchecked(balances[cell + 1]) >= <f64>need
  );
}

/** Add a delta to the two limbs at `at` (lo kept in [0, LIMB)); false when the value is below zero. */
function addLimbs(at: i32, delta: i64): bool {
  let lo = unchecked(balances[at + 1]) + delta;
  let hi = unchecked(balances[at]);
  if (lo < 0 || lo >= LIMB) {
    const carry = lo >= 0 ? lo / LIMB : -((-lo + LIMB - 1) / LIMB);
    hi += carry;
    lo -= carry * LIMB;
  }
  unchecked((balances[at] = hi));
  unchecked((balances[at + 1] = lo));
  return hi >= 0;
}

export function move(holder: i32, asset: i32, availableDelta: i64, frozenDelta: i64): void {
  const cell = (holder * 2 + asset) * 4;
  if (
    (availableDelta !== 0 && !addLimbs(cell, availableDelta)) ||
    (frozenDelta !== 0 && !addLimbs(cell + 2, frozenDelta))
  ) {
    unreachable();
  }
  const at = reserve(10);
  unchecked((log[at] = R_LEG));
  unchecked((log[at + 1] = <f64>++seq));
  unchecked((log[at + 2] = holder));
  unchecked((log[at + 3] = asset));
  unchecked((log[at + 4] = <f64>availableDelta));
  unchecked((log[at + 5] = <f64>frozenDelta));
  unchecked((log[at + 6] = <f64>unchecked(balances[cell])));
  unchecked((log[at + 7] = <f64>unchecked(balances[cell + 1])));
  unchecked((log[at + 8] = <f64>unchecked(balances[cell + 2])));
  unchecked((log[at + 9] = <f64>unchecked(balances[cell + 3])));
}

export function record(kind: f64, slot: i32): void {
  const row = slot * WIDTH;
  const at = reserve(13);
  unchecked((log[at] = kind));
  unchecked((log[at + 1] = <f64>++seq));
  unchecked((log[at + 2] = <f64>field(row + F_ID)));
  unchecked((log[at + 3] = <f64>field(row + F_USER)));
  unchecked((log[at + 4] = <f64>field(row + F_SIDE)));
  unchecked((log[at + 5] = <f64>field(row + F_LEVEL)));
  unchecked((log[at + 6] = <f64>field(row + F_AMOUNT)));
  unchecked((log[at + 7] = <f64>field(row + F_LEFT)));
  unchecked((log[at + 8] = <f64>field(row + F_DEAL_STOCK)));
  unchecked((log[at + 9] = <f64>field(row + F_MONEY_UNITS)));
  unchecked((log[at + 10] = <f64>field(row + F_DEAL_FEE)));
  unchecked((log[at + 11] = <f64>field(row + F_CTIME)));
  unchecked((log[at + 12] = <f64>time));
}

export function recordDeal(
  taker: i32,
  maker: i32,
  ticks: i32,
  qty: i64,
  money: i64,
  buyerFee: i64,
  sellerFee: i64,
): void {
  const at = reserve(10);
  unchecked((log[at] = R_DEAL));
  unchecked((log[at + 1] = <f64>++seq));
  unchecked((log[at + 2] = <f64>++dealId));
  unchecked((log[at + 3] = <f64>field(taker * WIDTH + F_ID)));
  unchecked((log[at + 4] = <f64>field(maker * WIDTH + F_ID)));
  unchecked((log[at + 5] = ticks));
  unchecked((log[at + 6] = <f64>qty));
  unchecked((log[at + 7] = <f64>money));
  unchecked((log[at + 8] = <f64>buyerFee));
  unchecked((log[at + 9] = <f64>sellerFee));
}
