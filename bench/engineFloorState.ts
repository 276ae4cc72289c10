// The engine floor's state (engineFloor.ts): the market's constants, the balance table, the
// order table and the book's two sides, and the event log of the command being applied; with
// the moves that change them and record what changed as the engine's events would: balance
// legs, an order's funds frozen and released, an order made, finished and its slot freed. The
// layout of the log's records, which engineFloorEvents.ts reads back, is set here.
import type { MarketView } from '@lattice/engine';
import { CELL_AVAILABLE, CELL_FROZEN } from '../packages/engine/src/columnar/balanceCell.js';
import { BalanceTable } from '../packages/engine/src/columnar/balanceTable.js';
import { BookSide } from '../packages/engine/src/columnar/bookSide.js';
import {
  O_AMOUNT,
  O_CTIME,
  O_DEAL_FEE,
  O_DEAL_MONEY,
  O_DEAL_STOCK,
  O_FEE_UNITS,
  O_FINISH_REASON,
  O_FROZEN,
  O_FUNDS_FROZEN,
  O_ID,
  O_LEFT,
  O_MONEY_UNITS,
  O_MTIME,
  O_SIDE,
  O_SOURCE,
  O_TICKS,
  O_TYPE,
  O_USER,
  ORDER_WIDTH,
} from '../packages/engine/src/columnar/orderRow.js';
import { OrderTable } from '../packages/engine/src/columnar/orderTable.js';
import { ceilDiv, checked, gcd, SAFE_BIG, small } from './engineFloorMath.js';

// Event record kinds in the log, and the order event types they stand for.
export const EV_ORDER = 1;
export const EV_DEAL = 2;
export const EV_BALANCE = 3;
export const ORDER_EVENT_TYPES = ['order.put', 'order.update', 'order.finish'] as const;
export const PUT = 0;
export const UPDATE = 1;
export const FINISH = 2;
export const BUSINESSES = ['trade', 'order_freeze', 'order_release'] as const;
export const TRADE = 0;
export const ORDER_FREEZE = 1;
export const ORDER_RELEASE = 2;

// Account kinds in the balance table (ACCOUNT_KINDS in ledger.ts).
const MAIN_ACCOUNT = 0;
const TRADE_ACCOUNT = 1;

/** The engine's view of the market, and 10^stock decimals. */
export interface FloorMarket extends MarketView {
  scale: bigint;
}

export interface FloorStart {
  users: number;
  /** Each user's trade balances of stock and money (equal for every user). */
  stockBalance: bigint;
  moneyBalance: bigint;
  lastEventSeq: number;
  nextOrderId: number;
  nextDealId: number;
}

export interface FloorResult {
  ok: boolean;
  code: string;
}

export abstract class EngineFloorState {
  // Market constants (fastmath.ts: value = lotsTicks × valueP / valueQ, fee likewise).
  protected readonly marketName: string;
  protected readonly stock: string;
  protected readonly money: string;
  protected readonly tickSize: bigint;
  protected readonly tickN: number;
  protected readonly lotN: number;
  protected readonly minAmountN: number;
  protected readonly priceMaxBig: bigint;
  protected readonly valueP: number;
  protected readonly valueQ: number;
  protected readonly feeP: number;
  protected readonly feeQ: number;
  protected readonly makerRate: number;
  protected readonly takerRate: number;
  private readonly maxRate: number;
  /** The last trade's price in ticks (the engine's Market.last), 0 before the first. */
  protected lastTicks = 0;

  // Balances: holder h (users 1..n, then fees, then rounding) × asset a (0 stock, 1 money).
  protected readonly nUsers: number;
  protected readonly feesHolder: number;
  protected readonly roundingHolder: number;
  /** Holders 1..users, then fees and rounding (0 unused); assets 0 stock, 1 money. */
  private readonly balances = new BalanceTable();

  // Orders, by slot, and the book's two sides (0 asks, 1 bids): the columnar core's tables.
  protected readonly table = new OrderTable(1 << 14);
  /** The table's rows, re-read after every allocate (which may replace them). */
  protected ord = this.table.rows;
  /** Slots of orders finished by the command before: their events may still be read. */
  private retired = new Int32Array(64);
  private retiredCount = 0;
  protected readonly sides = [
    new BookSide(this.table, true, 1 << 12),
    new BookSide(this.table, false, 1 << 12),
  ] as const;

  // The event log of the command being applied.
  protected log = new Float64Array(1 << 12);
  protected logLength = 0;
  protected eventSeq: number;
  private nextOrderId: number;
  protected nextDealId: number;
  protected time = 0;
  protected readonly result: FloorResult = { ok: true, code: '' };

  constructor(m: FloorMarket, start: FloorStart) {
    this.marketName = m.name;
    this.stock = m.stock;
    this.money = m.money;
    this.tickSize = m.tickSize;
    this.tickN = small(m.tickSize);
    this.lotN = small(m.lotSize);
    this.minAmountN = small(m.minAmount);
    this.priceMaxBig = m.tickSize * SAFE_BIG;
    const g =
      m.makerFeePpm === 0 && m.takerFeePpm === 0
        ? 1n
        : gcd(BigInt(m.makerFeePpm), BigInt(m.takerFeePpm));
    const moneyUnit = gcd(m.tickSize, m.scale);
    const feeTop = m.tickSize * g;
    const feeBottom = m.scale * 1_000_000n;
    const feeUnit = gcd(feeTop, feeBottom);
    this.valueP = small(m.tickSize / moneyUnit);
    this.valueQ = small(m.scale / moneyUnit);
    this.feeP = small(feeTop / feeUnit);
    this.feeQ = small(feeBottom / feeUnit);
    this.makerRate = Number(BigInt(m.makerFeePpm) / g);
    this.takerRate = Number(BigInt(m.takerFeePpm) / g);
    this.maxRate = Math.max(this.makerRate, this.takerRate);

    this.nUsers = start.users;
    this.feesHolder = start.users + 1;
    this.roundingHolder = start.users + 2;
    const balances = this.balances;
    balances.addAsset();
    balances.addAsset();
    for (let h = 0; h <= this.roundingHolder; h++) balances.addHolder(false);
    for (let u = 1; u <= start.users; u++) {
      balances.setAvailable(0, balances.cell(u, TRADE_ACCOUNT), start.stockBalance);
      balances.setAvailable(1, balances.cell(u, TRADE_ACCOUNT), start.moneyBalance);
    }
    this.eventSeq = start.lastEventSeq;
    this.nextOrderId = start.nextOrderId;
    this.nextDealId = start.nextDealId;
  }

  // --- balances -----------------------------------------------------------------------------

  /** Whether a user's trade balance of an asset has `need` (< 2^53) available. */
  protected hasAvailable(u: number, asset: number, need: number): boolean {
    return this.balances.hasAvailable(asset, this.balances.cell(u, TRADE_ACCOUNT), need);
  }

  /**
   * Move a holder's balance of an asset (a user's trade account, the exchange's main one) and
   * record the leg (owner, deltas, resulting limbs).
   */
  protected move(holder: number, asset: number, availDelta: number, frozenDelta: number): void {
    const balances = this.balances;
    const cell = balances.cell(holder, holder <= this.nUsers ? TRADE_ACCOUNT : MAIN_ACCOUNT);
    if (!balances.move(asset, cell, availDelta, frozenDelta)) {
      throw new Error('engine floor: a balance below zero');
    }
    const values = balances.valuesOf(asset);
    const at = this.reserve(8);
    const log = this.log;
    log[at] = holder;
    log[at + 1] = asset;
    log[at + 2] = availDelta;
    log[at + 3] = frozenDelta;
    log[at + 4] = values[cell + CELL_AVAILABLE]!;
    log[at + 5] = values[cell + CELL_AVAILABLE + 1]!;
    log[at + 6] = values[cell + CELL_FROZEN]!;
    log[at + 7] = values[cell + CELL_FROZEN + 1]!;
  }

  /** Start a balance event; its legs follow, and endBalance writes their count. */
  protected beginBalance(business: number, orderId: number, dealId: number): number {
    const at = this.reserve(6);
    const log = this.log;
    log[at] = EV_BALANCE;
    log[at + 1] = ++this.eventSeq;
    log[at + 2] = business;
    log[at + 3] = orderId;
    log[at + 4] = dealId;
    return at;
  }

  protected endBalance(at: number): void {
    this.log[at + 5] = (this.logLength - at - 6) / 8;
  }

  /** Take funds for a fill: from the order's frozen funds, or from available for a taker. */
  protected spend(o: number, asset: number, amount: number): void {
    if (amount === 0) return;
    if (this.ord[o * ORDER_WIDTH + O_FUNDS_FROZEN] === 1) {
      this.ord[o * ORDER_WIDTH + O_FROZEN]! -= amount;
      this.move(this.ord[o * ORDER_WIDTH + O_USER]!, asset, 0, -amount);
    } else {
      this.move(this.ord[o * ORDER_WIDTH + O_USER]!, asset, -amount, 0);
    }
  }

  // --- orders -------------------------------------------------------------------------------

  protected buyFreeze(lotsTicks: number): number {
    const value = checked(lotsTicks * this.valueP);
    const fee = checked(checked(lotsTicks * this.feeP) * this.maxRate);
    return checked(ceilDiv(value, this.valueQ) + ceilDiv(fee, this.feeQ));
  }

  /** What a resting buy may still pay from its frozen funds (lifecycle.ts remainingNeed). */
  protected remainingNeed(o: number): number {
    if (this.ord[o * ORDER_WIDTH + O_SIDE] === 1) return this.ord[o * ORDER_WIDTH + O_LEFT]!;
    const lotsTicks = checked(
      this.ord[o * ORDER_WIDTH + O_LEFT]! * this.ord[o * ORDER_WIDTH + O_TICKS]!,
    );
    const money = checked(
      this.ord[o * ORDER_WIDTH + O_MONEY_UNITS]! + checked(lotsTicks * this.valueP),
    );
    const fee = checked(
      this.ord[o * ORDER_WIDTH + O_FEE_UNITS]! + checked(lotsTicks * this.feeP * this.maxRate),
    );
    return (
      ceilDiv(money, this.valueQ) +
      ceilDiv(fee, this.feeQ) -
      this.ord[o * ORDER_WIDTH + O_DEAL_MONEY]! -
      this.ord[o * ORDER_WIDTH + O_DEAL_FEE]!
    );
  }

  /** What buying `amount` from the asks would cost at the taker rate. */
  protected marketBuyCost(amount: number): number {
    const asks = this.sides[0];
    let rest = amount;
    let value = 0;
    let fee = 0;
    for (let i = 0; i < asks.levelCount && rest > 0; i++) {
      const lv = asks.levelAt(i);
      const take = asks.leftOf(lv, rest);
      const lotsTicks = checked(take * asks.ticksOf(lv));
      value = checked(value + checked(lotsTicks * this.valueP));
      fee = checked(fee + checked(lotsTicks * this.feeP * this.takerRate));
      rest -= take;
    }
    return ceilDiv(value, this.valueQ) + ceilDiv(fee, this.feeQ);
  }

  protected newOrder(
    u: number,
    side: number,
    type: number,
    source: number,
    ticks: number,
    amount: number,
  ): number {
    const id = this.nextOrderId++;
    // The row starts cleared (numbers 0, links NONE, open): set what differs.
    const o = this.table.allocate(id);
    const ord = this.table.rows;
    this.ord = ord;
    ord[o * ORDER_WIDTH + O_USER] = u;
    ord[o * ORDER_WIDTH + O_SIDE] = side;
    ord[o * ORDER_WIDTH + O_TYPE] = type;
    ord[o * ORDER_WIDTH + O_SOURCE] = source;
    ord[o * ORDER_WIDTH + O_TICKS] = ticks;
    ord[o * ORDER_WIDTH + O_AMOUNT] = amount;
    ord[o * ORDER_WIDTH + O_LEFT] = amount;
    ord[o * ORDER_WIDTH + O_CTIME] = this.time;
    ord[o * ORDER_WIDTH + O_MTIME] = this.time;
    this.table.linkUser(o);
    return o;
  }

  protected freezeForOrder(o: number, amount: number): void {
    this.ord[o * ORDER_WIDTH + O_FUNDS_FROZEN] = 1;
    if (amount === 0) return;
    const at = this.beginBalance(ORDER_FREEZE, this.ord[o * ORDER_WIDTH + O_ID]!, 0);
    this.move(
      this.ord[o * ORDER_WIDTH + O_USER]!,
      this.ord[o * ORDER_WIDTH + O_SIDE] === 1 ? 0 : 1,
      -amount,
      amount,
    );
    this.endBalance(at);
    this.ord[o * ORDER_WIDTH + O_FROZEN]! += amount;
  }

  protected finishOrder(o: number, reason: number): void {
    const frozen = this.ord[o * ORDER_WIDTH + O_FROZEN]!;
    if (frozen !== 0) {
      const at = this.beginBalance(ORDER_RELEASE, this.ord[o * ORDER_WIDTH + O_ID]!, 0);
      this.move(
        this.ord[o * ORDER_WIDTH + O_USER]!,
        this.ord[o * ORDER_WIDTH + O_SIDE] === 1 ? 0 : 1,
        frozen,
        -frozen,
      );
      this.endBalance(at);
      this.ord[o * ORDER_WIDTH + O_FROZEN] = 0;
    }
    this.ord[o * ORDER_WIDTH + O_FINISH_REASON] = reason;
    this.ord[o * ORDER_WIDTH + O_MTIME] = this.time;
    this.table.unlinkUser(o);
    this.emitOrder(FINISH, o);
    // Its events may be read until the next command: free the slot then.
    if (this.retiredCount === this.retired.length)
      this.retired = grown(this.retired, this.retiredCount * 2);
    this.retired[this.retiredCount++] = o;
  }

  protected releaseRetired(): void {
    for (let i = 0; i < this.retiredCount; i++) this.table.release(this.retired[i]!);
    this.retiredCount = 0;
  }

  protected emitOrder(type: number, o: number): void {
    const at = this.reserve(10);
    const log = this.log;
    log[at] = EV_ORDER;
    log[at + 1] = ++this.eventSeq;
    log[at + 2] = type;
    log[at + 3] = o;
    log[at + 4] = this.ord[o * ORDER_WIDTH + O_LEFT]!;
    log[at + 5] = this.ord[o * ORDER_WIDTH + O_DEAL_STOCK]!;
    log[at + 6] = this.ord[o * ORDER_WIDTH + O_DEAL_MONEY]!;
    log[at + 7] = this.ord[o * ORDER_WIDTH + O_DEAL_FEE]!;
    log[at + 8] = this.ord[o * ORDER_WIDTH + O_MTIME]!;
    log[at + 9] = this.ord[o * ORDER_WIDTH + O_FINISH_REASON]!;
  }

  protected reserve(n: number): number {
    const at = this.logLength;
    if (at + n > this.log.length) this.log = grown(this.log, this.log.length * 2);
    this.logLength = at + n;
    return at;
  }
}

/** A copy of a typed array at a new length; new cells hold 0. */
function grown<T extends Float64Array | Int32Array>(a: T, length: number): T {
  const next = new (a.constructor as new (length: number) => T)(length);
  next.set(a);
  return next;
}
