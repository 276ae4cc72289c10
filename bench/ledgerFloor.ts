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
//
// This file holds the commands: their checks, matching and settlement. The rest is beside it:
// ledgerFloorBook.ts (the order rows and the book's price levels), ledgerFloorLedger.ts (the
// balances and the log, and the moves that record them) and ledgerFloorBase.ts (the set-up and
// the reading of a command's fields, shared with the WebAssembly floor).
import type { Command } from '@lattice/engine';
import type { LedgerFloorSetup } from './ledgerFloorBase.js';
import {
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
  NONE,
  ORDER_SLOTS,
  SPAN,
  WIDTH,
} from './ledgerFloorBook.js';
import { LedgerFloorLedger, MONEY, R_FINISH, R_PUT, R_UPDATE, STOCK } from './ledgerFloorLedger.js';

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function safe(v: number): number {
  if (v > Number.MAX_SAFE_INTEGER) throw new Error('ledger floor: a quantity passed 2^53');
  return v;
}

export class LedgerFloor extends LedgerFloorLedger {
  /** value = amount × ticks / valueQ; fee = amount × ticks × units / feeQ. */
  private readonly valueQ: number;
  private readonly feeQ: number;
  private readonly makerUnits: number;
  private readonly takerUnits: number;
  /** A buy freezes its fee at the higher of the two rates (the engine's buyFreeze). */
  private readonly maxUnits: number;
  private readonly feesHolder = 0;
  private freeSlots = new Int32Array(ORDER_SLOTS);
  private freeCount = 0;
  private slotsUsed = 0;
  /** Order id → slot while it rests (ids are dense: the engine counts them from 1). */
  private slotOfId = new Int32Array(1 << 20).fill(NONE);
  private nextOrderId: number;
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
}
