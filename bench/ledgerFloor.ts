// The ledger floor: the engine's work on the engine bench's workload, done by a program written
// for that workload alone. It answers how fast the work itself can go in JavaScript here, apart
// from the engine's generality.
//
// Per command it validates the fields it reads (user, market, side, source, time in force, the
// price on its tick, the amount at least the minimum), checks funds (a market buy, as the
// engine does, at what the book would charge for its whole amount), matches in price-time order
// with self-trade prevention (cancel the newest), and settles every fill as the engine does
// (settle.ts): the buyer's money and fee rounded up cumulatively per order, the seller's value
// rounded down less a fee rounded up, the difference to a rounding account, fees to a fee
// account. A new order trades from available and freezes what its rest needs; a finished order
// gives back what it still has frozen. Balances are two exact limbs, as in the engine. Every
// balance change is recorded as a leg (holder, asset, both deltas, both new values), and every
// order change and deal as a record, each with the next global sequence number, in a log of
// numbers reused once its results are released (as the engine's log is).
//
// It leaves out what the workload does not use: one market, two assets, one account per user,
// GTC limit orders, market orders by amount and cancels, prices within SPAN / 2 ticks of the
// starting mid; no stops, OCO, LTT fees, per-user order lists, business ids on legs, snapshots,
// hashes, or event objects to read. It throws on anything outside that.
// `bench/engine.ts --ledger-floor` runs the whole workload through it and through the engine
// before it times anything, and checks that the book, every user's balances and each asset's
// total come out the same.
import type { Command } from '@lattice/engine';
import {
  addToLimbs,
  limbsAtLeast,
  limbsToBigInt,
  setLimbs,
} from '../packages/engine/src/columnar/limbs.js';
import { FLOOR_SPAN, LedgerFloorBase, type LedgerFloorSetup } from './ledgerFloorBase.js';

const NONE = -1;
/** Price levels the book can hold, centred on the mid it starts from (ledgerFloorBase.ts). */
const SPAN = FLOOR_SPAN;
const LOG_NUMBERS = 1 << 16;
const ORDER_SLOTS = 1 << 15;
const STOCK = 0;
const MONEY = 1;

// An order's fields, at these offsets in its row.
const F_ID = 0;
const F_USER = 1;
const F_SIDE = 2;
const F_LEVEL = 3;
const F_AMOUNT = 4;
const F_LEFT = 5;
const F_FROZEN = 6;
const F_DEAL_STOCK = 7;
/** Σ amount × ticks over its fills: its money is this over the value divisor. */
const F_MONEY_UNITS = 8;
/** Σ amount × ticks × fee units over its fills: its fee is this over the fee divisor. */
const F_FEE_UNITS = 9;
const F_DEAL_FEE = 10;
const F_PREV = 11;
const F_NEXT = 12;
const F_CTIME = 13;
/** 1 once it has frozen its funds (a resting order); a taker pays from available until then. */
const F_FUNDS = 14;
const F_TICKS = 15;
const WIDTH = 16;

// Record kinds in the log.
const R_LEG = 1;
const R_PUT = 2;
const R_UPDATE = 3;
const R_FINISH = 4;
const R_DEAL = 5;

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function safe(v: number): number {
  if (v > Number.MAX_SAFE_INTEGER) throw new Error('ledger floor: a quantity passed 2^53');
  return v;
}

export class LedgerFloor extends LedgerFloorBase {
  /** value = amount × ticks / valueQ; fee = amount × ticks × units / feeQ. */
  private readonly valueQ: number;
  private readonly feeQ: number;
  private readonly makerUnits: number;
  private readonly takerUnits: number;
  /** A buy freezes its fee at the higher of the two rates (the engine's buyFreeze). */
  private readonly maxUnits: number;
  private readonly feesHolder = 0;
  // Per level: the first and last order slot of its FIFO; the best level of each side.
  private readonly askHead = new Int32Array(SPAN).fill(NONE);
  private readonly askTail = new Int32Array(SPAN).fill(NONE);
  private readonly bidHead = new Int32Array(SPAN).fill(NONE);
  private readonly bidTail = new Int32Array(SPAN).fill(NONE);
  /** Per level: the sum of its orders' left. */
  private readonly askTotal = new Float64Array(SPAN);
  private readonly bidTotal = new Float64Array(SPAN);
  /** One bit per level with orders, so the next best is found 32 levels at a time. */
  private readonly askBits = new Uint32Array(SPAN / 32);
  private readonly bidBits = new Uint32Array(SPAN / 32);
  private bestAsk = SPAN;
  private bestBid = NONE;
  private askCount = 0;
  private bidCount = 0;
  private rows = new Float64Array(ORDER_SLOTS * WIDTH);
  private freeSlots = new Int32Array(ORDER_SLOTS);
  private freeCount = 0;
  private slotsUsed = 0;
  /** Order id → slot while it rests (ids are dense: the engine counts them from 1). */
  private slotOfId = new Int32Array(1 << 20).fill(NONE);
  /**
   * Per holder and asset, (holder × 2 + asset) × 4: available and frozen, each two exact limbs
   * (hi × 2^52 + lo, lo in [0, 2^52)) as the engine keeps them, so 10^20 needs no bigint.
   */
  private readonly balances: Float64Array;
  private readonly log = new Float64Array(LOG_NUMBERS);
  private logLength = 0;
  private seq = 0;
  private dealId = 0;
  private nextOrderId: number;
  private time = 0;
  private readonly accepted = { ok: true };

  constructor(setup: LedgerFloorSetup) {
    super(setup);
    this.valueQ = setup.stockScale / setup.tickSize;
    if (!Number.isInteger(this.valueQ))
      throw new Error('ledger floor: tick does not divide the scale');
    const g = gcd(gcd(setup.makerFeePpm, setup.takerFeePpm), 1_000_000);
    this.makerUnits = setup.makerFeePpm / g;
    this.takerUnits = setup.takerFeePpm / g;
    this.maxUnits = Math.max(this.makerUnits, this.takerUnits);
    this.feeQ = this.valueQ * (1_000_000 / g);
    this.nextOrderId = setup.nextOrderId;
    this.balances = new Float64Array((setup.users + 2) * 8);
    for (let user = 1; user <= setup.users; user++) {
      for (const asset of [STOCK, MONEY]) {
        if (!setLimbs(this.balances, (user * 2 + asset) * 4, setup.balance)) {
          throw new Error('ledger floor: an opening balance beyond the limbs');
        }
      }
    }
  }

  /** As Engine.releaseResults: no result so far will be read, so the log starts over. */
  releaseResults(): void {
    this.logLength = 0;
  }

  apply(cmd: Command): { ok: boolean } {
    this.time = cmd.time;
    switch (cmd.type) {
      case 'order.limit': {
        const user = this.userOf(cmd.userId);
        this.checkOrder(cmd.market, cmd.side, cmd.source);
        if (cmd.timeInForce !== 'GTC') throw new Error('ledger floor: GTC only');
        this.placeLimit(user, cmd.side, this.ticksOf(cmd.price), this.amountOf(cmd.amount));
        return this.accepted;
      }
      case 'order.market': {
        const user = this.userOf(cmd.userId);
        this.checkOrder(cmd.market, cmd.side, cmd.source);
        this.placeMarket(user, cmd.side, this.amountOf(cmd.amount));
        return this.accepted;
      }
      case 'order.cancel': {
        const user = this.userOf(cmd.userId);
        const id = cmd.orderId;
        const slot =
          typeof id === 'number' && id >= 0 && id < this.slotOfId.length
            ? this.slotOfId[id]!
            : NONE;
        if (slot === NONE || this.rows[slot * WIDTH + F_USER] !== user) {
          throw new Error('ledger floor: no such open order of the user');
        }
        this.unlink(slot);
        this.finish(slot);
        return this.accepted;
      }
      default:
        throw new Error(`ledger floor: ${cmd.type} is not in the workload`);
    }
  }

  protected levelTotal(side: 1 | 2, level: number): number {
    return (side === 1 ? this.askTotal : this.bidTotal)[level]!;
  }

  balance(user: number, asset: 0 | 1): [bigint, bigint] {
    const cell = (user * 2 + asset) * 4;
    return [limbsToBigInt(this.balances, cell), limbsToBigInt(this.balances, cell + 2)];
  }

  // --- orders --------------------------------------------------------------------------------

  private placeLimit(user: number, side: number, ticks: number, amount: number): void {
    const units = safe(amount * ticks);
    const asset = side === 1 ? STOCK : MONEY;
    const need = side === 1 ? amount : this.costOf(units, this.maxUnits);
    if (!this.hasAvailable(user, asset, need)) throw new Error('ledger floor: insufficient');
    const slot = this.newOrder(user, side, amount, ticks);
    // As the engine does: it trades first from available, then freezes what its rest needs.
    const level = ticks - this.base;
    if (!this.take(slot, user, side, level) || this.rows[slot * WIDTH + F_LEFT] === 0) {
      this.finish(slot);
      return;
    }
    const row = slot * WIDTH;
    const traded = this.rows[row + F_DEAL_STOCK]! > 0;
    const frozen = traded ? this.remainingNeed(slot) : need;
    this.move(user, asset, -frozen, frozen);
    this.rows[row + F_FROZEN] = frozen;
    this.rows[row + F_FUNDS] = 1;
    this.rest(slot, side, level);
    this.record(R_PUT, slot);
  }

  private placeMarket(user: number, side: number, amount: number): void {
    if (side === 1 ? this.bidCount === 0 : this.askCount === 0)
      throw new Error('ledger floor: empty book');
    // As the engine does: what the whole amount would cost at the book's prices, before any fill.
    const need = side === 1 ? amount : this.marketBuyCost(amount);
    if (!this.hasAvailable(user, side === 1 ? STOCK : MONEY, need)) {
      throw new Error('ledger floor: insufficient');
    }
    const slot = this.newOrder(user, side, amount, 0);
    this.take(slot, user, side, side === 2 ? SPAN - 1 : 0);
    this.finish(slot);
  }

  private marketBuyCost(amount: number): number {
    let left = amount;
    let units = 0;
    for (let level = this.bestAsk; left > 0 && level < SPAN; level = this.askFrom(level + 1)) {
      const qty = Math.min(left, this.askTotal[level]!);
      units = safe(units + qty * (level + this.base));
      left -= qty;
    }
    return this.costOf(units, this.takerUnits);
  }

  /** What a buy of `units` (amount × ticks) pays, value and fee at `rateUnits`, rounded up. */
  private costOf(units: number, rateUnits: number): number {
    return Math.ceil(units / this.valueQ) + Math.ceil(safe(units * rateUnits) / this.feeQ);
  }

  /** What a buy's rest freezes after it traded: its whole cost at its price, less what it paid. */
  private remainingNeed(slot: number): number {
    const row = slot * WIDTH;
    const rows = this.rows;
    if (rows[row + F_SIDE] === 1) return rows[row + F_LEFT]!;
    const units = safe(rows[row + F_LEFT]! * rows[row + F_TICKS]!);
    const money = safe(rows[row + F_MONEY_UNITS]! + units);
    const fee = safe(rows[row + F_FEE_UNITS]! + safe(units * this.maxUnits));
    const paid = Math.ceil(rows[row + F_MONEY_UNITS]! / this.valueQ) + rows[row + F_DEAL_FEE]!;
    return Math.ceil(money / this.valueQ) + Math.ceil(fee / this.feeQ) - paid;
  }

  private newOrder(user: number, side: number, amount: number, ticks: number): number {
    let slot: number;
    if (this.freeCount > 0) slot = this.freeSlots[--this.freeCount]!;
    else {
      slot = this.slotsUsed++;
      if (slot === this.freeSlots.length) throw new Error('ledger floor: order slots full');
    }
    const id = this.nextOrderId++;
    if (id >= this.slotOfId.length) throw new Error('ledger floor: order ids beyond its map');
    this.slotOfId[id] = slot;
    const row = slot * WIDTH;
    const rows = this.rows;
    for (let f = 0; f < WIDTH; f++) rows[row + f] = 0;
    rows[row + F_ID] = id;
    rows[row + F_USER] = user;
    rows[row + F_SIDE] = side;
    rows[row + F_LEVEL] = NONE;
    rows[row + F_AMOUNT] = amount;
    rows[row + F_LEFT] = amount;
    rows[row + F_TICKS] = ticks;
    rows[row + F_CTIME] = this.time;
    return slot;
  }

  /** Matches the taker against the other side up to `limit` (a level); false on a self-trade. */
  private take(taker: number, user: number, side: number, limit: number): boolean {
    const rows = this.rows;
    const leftAt = taker * WIDTH + F_LEFT;
    while (rows[leftAt]! > 0) {
      const level = side === 2 ? this.bestAsk : this.bestBid;
      if (side === 2 ? level > limit : level < limit) return true;
      const maker = side === 2 ? this.askHead[level]! : this.bidHead[level]!;
      if (rows[maker * WIDTH + F_USER] === user) return false;
      const qty = Math.min(rows[leftAt]!, rows[maker * WIDTH + F_LEFT]!);
      this.fill(taker, maker, side, qty, level + this.base);
    }
    return true;
  }

  private fill(taker: number, maker: number, takerSide: number, qty: number, ticks: number): void {
    const buyer = takerSide === 2 ? taker : maker;
    const seller = takerSide === 2 ? maker : taker;
    const units = safe(qty * ticks);
    const buyerUnits = takerSide === 2 ? this.takerUnits : this.makerUnits;
    const sellerUnits = takerSide === 2 ? this.makerUnits : this.takerUnits;
    const rows = this.rows;
    const b = buyer * WIDTH;
    const s = seller * WIDTH;
    // The buyer's money and fee, rounded up over the whole order so far.
    const moneyBefore = rows[b + F_MONEY_UNITS]!;
    const feeBefore = rows[b + F_FEE_UNITS]!;
    const moneyAfter = safe(moneyBefore + units);
    const feeAfter = safe(feeBefore + safe(units * buyerUnits));
    const pay = Math.ceil(moneyAfter / this.valueQ) - Math.ceil(moneyBefore / this.valueQ);
    const buyerFee = Math.ceil(feeAfter / this.feeQ) - Math.ceil(feeBefore / this.feeQ);
    rows[b + F_MONEY_UNITS] = moneyAfter;
    rows[b + F_FEE_UNITS] = feeAfter;
    // The seller's value rounded down, less a fee rounded up.
    const value = Math.floor(units / this.valueQ);
    const sellerFee = Math.ceil(safe(units * sellerUnits) / this.feeQ);
    const buyerUser = rows[b + F_USER]!;
    const sellerUser = rows[s + F_USER]!;
    this.spend(buyer, buyerUser, MONEY, pay + buyerFee);
    this.move(buyerUser, STOCK, qty, 0);
    this.spend(seller, sellerUser, STOCK, qty);
    this.move(sellerUser, MONEY, value - sellerFee, 0);
    this.move(this.feesHolder, MONEY, buyerFee + sellerFee, 0);
    if (pay !== value) this.move(this.roundingHolder, MONEY, pay - value, 0);
    rows[b + F_DEAL_FEE]! += buyerFee;
    rows[s + F_DEAL_FEE]! += sellerFee;
    rows[b + F_LEFT]! -= qty;
    rows[s + F_LEFT]! -= qty;
    rows[b + F_DEAL_STOCK]! += qty;
    rows[s + F_DEAL_STOCK]! += qty;
    rows[s + F_MONEY_UNITS]! += units;
    if (takerSide === 2) this.askTotal[ticks - this.base]! -= qty;
    else this.bidTotal[ticks - this.base]! -= qty;
    this.recordDeal(taker, maker, ticks, qty, pay, buyerFee, sellerFee);
    if (rows[maker * WIDTH + F_LEFT] === 0) {
      this.unlink(maker);
      this.finish(maker);
    } else {
      this.record(R_UPDATE, maker);
    }
  }

  /** Takes a fill's funds from what the order froze, or from available when it froze none. */
  private spend(slot: number, user: number, asset: number, amount: number): void {
    const at = slot * WIDTH + F_FROZEN;
    if (this.rows[slot * WIDTH + F_FUNDS] === 1) {
      this.rows[at]! -= amount;
      this.move(user, asset, 0, -amount);
    } else {
      this.move(user, asset, -amount, 0);
    }
  }

  /** A finished order gives back what it has frozen still, and its slot. */
  private finish(slot: number): void {
    const row = slot * WIDTH;
    const frozen = this.rows[row + F_FROZEN]!;
    if (frozen > 0) {
      this.move(
        this.rows[row + F_USER]!,
        this.rows[row + F_SIDE] === 1 ? STOCK : MONEY,
        frozen,
        -frozen,
      );
      this.rows[row + F_FROZEN] = 0;
    }
    this.record(R_FINISH, slot);
    this.slotOfId[this.rows[row + F_ID]!] = NONE;
    this.freeSlots[this.freeCount++] = slot;
  }

  // --- the book ------------------------------------------------------------------------------

  private rest(slot: number, side: number, level: number): void {
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

  private unlink(slot: number): void {
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
  private askFrom(level: number): number {
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

  // --- the ledger and the log ----------------------------------------------------------------

  private reserve(numbers: number): number {
    const at = this.logLength;
    if (at + numbers > LOG_NUMBERS) throw new Error('ledger floor: results not released');
    this.logLength = at + numbers;
    return at;
  }

  private hasAvailable(holder: number, asset: number, need: number): boolean {
    const cell = (holder * 2 + asset) * 4;
    return limbsAtLeast(this.balances, cell, need);
  }

  /** Moves a balance and records the leg; a balance below zero is a bug. */
  private move(holder: number, asset: number, availableDelta: number, frozenDelta: number): void {
    const cell = (holder * 2 + asset) * 4;
    const balances = this.balances;
    // The limbs hold negative values too (the engine's external account); here none may be.
    if (
      (availableDelta !== 0 && !addToLimbs(balances, cell, availableDelta)) ||
      (frozenDelta !== 0 && !addToLimbs(balances, cell + 2, frozenDelta)) ||
      balances[cell]! < 0 ||
      balances[cell + 2]! < 0
    ) {
      throw new Error('ledger floor: negative balance');
    }
    const at = this.reserve(10);
    const log = this.log;
    log[at] = R_LEG;
    log[at + 1] = ++this.seq;
    log[at + 2] = holder;
    log[at + 3] = asset;
    log[at + 4] = availableDelta;
    log[at + 5] = frozenDelta;
    log[at + 6] = balances[cell]!;
    log[at + 7] = balances[cell + 1]!;
    log[at + 8] = balances[cell + 2]!;
    log[at + 9] = balances[cell + 3]!;
  }

  private record(kind: number, slot: number): void {
    const rows = this.rows;
    const row = slot * WIDTH;
    const at = this.reserve(13);
    const log = this.log;
    log[at] = kind;
    log[at + 1] = ++this.seq;
    log[at + 2] = rows[row + F_ID]!;
    log[at + 3] = rows[row + F_USER]!;
    log[at + 4] = rows[row + F_SIDE]!;
    log[at + 5] = rows[row + F_LEVEL]!;
    log[at + 6] = rows[row + F_AMOUNT]!;
    log[at + 7] = rows[row + F_LEFT]!;
    log[at + 8] = rows[row + F_DEAL_STOCK]!;
    log[at + 9] = rows[row + F_MONEY_UNITS]!;
    log[at + 10] = rows[row + F_DEAL_FEE]!;
    log[at + 11] = rows[row + F_CTIME]!;
    log[at + 12] = this.time;
  }

  private recordDeal(
    taker: number,
    maker: number,
    ticks: number,
    qty: number,
    money: number,
    buyerFee: number,
    sellerFee: number,
  ): void {
    const at = this.reserve(10);
    const log = this.log;
    log[at] = R_DEAL;
    log[at + 1] = ++this.seq;
    log[at + 2] = ++this.dealId;
    log[at + 3] = this.rows[taker * WIDTH + F_ID]!;
    log[at + 4] = this.rows[maker * WIDTH + F_ID]!;
    log[at + 5] = ticks;
    log[at + 6] = qty;
    log[at + 7] = money;
    log[at + 8] = buyerFee;
    log[at + 9] = sellerFee;
  }
}
