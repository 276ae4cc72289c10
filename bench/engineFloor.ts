// The engine floor: how fast an engine in the columnar representation could run the bench's
// workload, measured with a prototype that does the same work as the engine on it and no more.
//
// It is not the engine. It knows one market whose deal ratios are small integers (fastmath.ts
// in the engine), GTC limit orders, market orders by amount and cancels, and it stops with an
// error on anything else or on any quantity beyond 2^53 (where the engine takes its bigint
// path). Within that, it does what the engine does: validates every field, checks funds,
// matches in price-time order with self-trade prevention (cancel newest), settles each fill
// with the engine's rounding and fees, freezes and releases funds, keeps the per-user list of
// open orders, checks the book is not crossed, and records every event the engine emits with
// the same sequence numbers. What differs is the representation:
// - orders and price levels live in typed arrays, addressed by slot (the columnar core's
//   OrderTable and BookSide, packages/engine/src/columnar/);
// - balances are two exact number limbs (hi × 2^52 + lo) in its BalanceTable, so 10^20 needs
//   no bigint;
// - events are written as numbers into a reused log and become the engine's event objects
//   only when read (`events()`), as the host would read them.
// `bench/engine.ts --floor` checks that `events()` equals the engine's events, operation by
// operation, before it times anything.
import type {
  BalanceLeg,
  Command,
  EngineEvent,
  MarketView,
  OrderCancelCommand,
  OrderLimitCommand,
  OrderMarketCommand,
  OrderView,
  Owner,
} from '@lattice/engine';
import { CELL_AVAILABLE, CELL_FROZEN } from '../packages/engine/src/columnar/balanceCell.js';
import { BalanceTable } from '../packages/engine/src/columnar/balanceTable.js';
import { BookSide } from '../packages/engine/src/columnar/bookSide.js';
import { limbsToBigInt } from '../packages/engine/src/columnar/limbs.js';
import {
  NONE,
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
import { grown, OrderTable } from '../packages/engine/src/columnar/orderTable.js';

const SAFE = Number.MAX_SAFE_INTEGER;
const SAFE_BIG = BigInt(SAFE);

// Event record kinds in the log, and the order event types they stand for.
const EV_ORDER = 1;
const EV_DEAL = 2;
const EV_BALANCE = 3;
const ORDER_EVENT_TYPES = ['order.put', 'order.update', 'order.finish'] as const;
const PUT = 0;
const UPDATE = 1;
const FINISH = 2;
const BUSINESSES = ['trade', 'order_freeze', 'order_release'] as const;
const TRADE = 0;
const ORDER_FREEZE = 1;
const ORDER_RELEASE = 2;

// Account kinds in the balance table (ACCOUNT_KINDS in ledger.ts).
const MAIN_ACCOUNT = 0;
const TRADE_ACCOUNT = 1;

const STOP_FILLED = 0;
const STOP_NO_LIQUIDITY = 1;
const STOP_PRICE = 2;
const STOP_SELF_TRADE = 3;

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

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function small(v: bigint): number {
  if (v < 0n || v > SAFE_BIG) throw new Error('engine floor: a market ratio beyond 2^53');
  return Number(v);
}

/** Beyond this the engine takes its bigint path, which the floor does not have. */
function checked(v: number): number {
  if (v > SAFE) throw new Error('engine floor: a quantity beyond 2^53');
  return v;
}

function floorDiv(a: number, b: number): number {
  return (a - (a % b)) / b;
}

function ceilDiv(a: number, b: number): number {
  const r = a % b;
  return r === 0 ? a / b : (a - r) / b + 1;
}

export class EngineFloor {
  // Market constants (fastmath.ts: value = lotsTicks × valueP / valueQ, fee likewise).
  private readonly marketName: string;
  private readonly stock: string;
  private readonly money: string;
  private readonly tickSize: bigint;
  private readonly tickN: number;
  private readonly lotN: number;
  private readonly minAmountN: number;
  private readonly priceMaxBig: bigint;
  private readonly valueP: number;
  private readonly valueQ: number;
  private readonly feeP: number;
  private readonly feeQ: number;
  private readonly makerRate: number;
  private readonly takerRate: number;
  private readonly maxRate: number;
  /** The last trade's price in ticks (the engine's Market.last), 0 before the first. */
  private lastTicks = 0;

  // Balances: holder h (users 1..n, then fees, then rounding) × asset a (0 stock, 1 money).
  private readonly nUsers: number;
  private readonly feesHolder: number;
  private readonly roundingHolder: number;
  /** Holders 1..users, then fees and rounding (0 unused); assets 0 stock, 1 money. */
  private readonly balances = new BalanceTable(1024, 2);

  // Orders, by slot, and the book's two sides (0 asks, 1 bids): the columnar core's tables.
  private readonly table = new OrderTable(1 << 14);
  /** The table's rows, re-read after every allocate (which may replace them). */
  private ord = this.table.rows;
  /** Slots of orders finished by the command before: their events may still be read. */
  private retired = new Int32Array(64);
  private retiredCount = 0;
  private readonly sides = [
    new BookSide(this.table, true, 1 << 12),
    new BookSide(this.table, false, 1 << 12),
  ] as const;

  // The event log of the command being applied.
  private log = new Float64Array(1 << 12);
  private logLength = 0;
  private eventSeq: number;
  private nextOrderId: number;
  private nextDealId: number;
  private time = 0;
  private readonly result: FloorResult = { ok: true, code: '' };

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
      balances.setAvailable(balances.cell(u, 0, TRADE_ACCOUNT), start.stockBalance);
      balances.setAvailable(balances.cell(u, 1, TRADE_ACCOUNT), start.moneyBalance);
    }
    this.eventSeq = start.lastEventSeq;
    this.nextOrderId = start.nextOrderId;
    this.nextDealId = start.nextDealId;
  }

  apply(cmd: Command): FloorResult {
    if (typeof cmd !== 'object' || cmd === null) return this.reject('invalid_command');
    const time = cmd.time;
    if (typeof time !== 'number' || !Number.isSafeInteger(time) || time < 0) {
      return this.reject('invalid_time');
    }
    this.time = time;
    this.logLength = 0;
    this.releaseRetired();
    switch (cmd.type) {
      case 'order.limit':
        return this.placeLimit(cmd);
      case 'order.market':
        return this.placeMarket(cmd);
      case 'order.cancel':
        return this.cancel(cmd);
      default:
        throw new Error(`engine floor: no ${String(cmd.type)}`);
    }
  }

  private reject(code: string): FloorResult {
    const r = this.result;
    r.ok = false;
    r.code = code;
    return r;
  }

  private accept(): FloorResult {
    const r = this.result;
    r.ok = true;
    r.code = '';
    return r;
  }

  private knownUser(userId: unknown): number {
    if (typeof userId !== 'number' || !Number.isSafeInteger(userId) || userId <= 0) return NONE;
    return userId <= this.nUsers ? userId : NONE;
  }

  /** The checks every order command shares; 0 when they pass, else a rejection's code. */
  private checkOrder(cmd: OrderLimitCommand | OrderMarketCommand): string {
    if (this.knownUser(cmd.userId) === NONE) return 'user_not_found';
    if (cmd.market !== this.marketName) return 'market_not_found';
    if (cmd.side !== 1 && cmd.side !== 2) return 'invalid_command';
    if (cmd.source !== 'web' && cmd.source !== 'api') return 'invalid_command';
    return '';
  }

  /** An amount's number after the engine's checks, or -1 with the rejection in `result`. */
  private amountOf(value: unknown): number {
    if (typeof value !== 'bigint' || value <= 0n) return -1;
    if (value > SAFE_BIG) throw new Error('engine floor: an amount beyond 2^53');
    const n = Number(value);
    if (n % this.lotN !== 0 || n < this.minAmountN) return -1;
    return n;
  }

  private ticksOf(value: unknown): number {
    if (typeof value !== 'bigint' || value <= 0n) return -1;
    if (value > SAFE_BIG) throw new Error('engine floor: a price beyond 2^53');
    const n = Number(value);
    if (n % this.tickN !== 0 || value > this.priceMaxBig) return -1;
    return n / this.tickN;
  }

  private placeLimit(cmd: OrderLimitCommand): FloorResult {
    const bad = this.checkOrder(cmd);
    if (bad !== '') return this.reject(bad);
    if (cmd.timeInForce !== 'GTC') throw new Error('engine floor: GTC only');
    const ticks = this.ticksOf(cmd.price);
    if (ticks < 0) return this.reject('invalid_price');
    const amount = this.amountOf(cmd.amount);
    if (amount < 0) return this.reject('invalid_amount');
    const side = cmd.side;
    const need = side === 1 ? amount : this.buyFreeze(checked(amount * ticks));
    const u = cmd.userId;
    if (!this.hasAvailable(u, side === 1 ? 0 : 1, need)) {
      return this.reject('insufficient_balance');
    }
    const o = this.newOrder(u, side, 1, cmd.source === 'web' ? 0 : 1, ticks, amount);
    const why = this.matchTaker(o);
    if (this.ord[o * ORDER_WIDTH + O_LEFT] === 0) {
      this.finishOrder(o, 0);
    } else if (why === STOP_SELF_TRADE) {
      this.finishOrder(o, 1);
    } else {
      this.freezeForOrder(
        o,
        this.ord[o * ORDER_WIDTH + O_DEAL_STOCK] === 0 ? need : this.remainingNeed(o),
      );
      this.rest(o);
      this.emitOrder(PUT, o);
    }
    this.checkNotCrossed();
    return this.accept();
  }

  private placeMarket(cmd: OrderMarketCommand): FloorResult {
    const bad = this.checkOrder(cmd);
    if (bad !== '') return this.reject(bad);
    if (cmd.total !== undefined) throw new Error('engine floor: no market buy by total');
    const side = cmd.side;
    if (this.sides[side === 2 ? 0 : 1].isEmpty) return this.reject('not_enough_liquidity');
    const amount = this.amountOf(cmd.amount);
    if (amount < 0) return this.reject('invalid_amount');
    const need = side === 1 ? amount : this.marketBuyCost(amount);
    if (!this.hasAvailable(cmd.userId, side === 1 ? 0 : 1, need)) {
      return this.reject('insufficient_balance');
    }
    const o = this.newOrder(cmd.userId, side, 2, cmd.source === 'web' ? 0 : 1, 0, amount);
    const why = this.matchTaker(o);
    this.finishOrder(o, why === STOP_FILLED ? 0 : why === STOP_SELF_TRADE ? 1 : 3);
    this.checkNotCrossed();
    return this.accept();
  }

  private cancel(cmd: OrderCancelCommand): FloorResult {
    const u = this.knownUser(cmd.userId);
    if (u === NONE) return this.reject('user_not_found');
    const id = cmd.orderId;
    const slot =
      typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? this.table.slotOf(id) : NONE;
    if (slot === NONE || this.ord[slot * ORDER_WIDTH + O_USER] !== u)
      return this.reject('order_not_found');
    this.unlinkFromLevel(slot);
    this.finishOrder(slot, 1);
    return this.accept();
  }

  // --- balances -----------------------------------------------------------------------------

  /** Whether a user's trade balance of an asset has `need` (< 2^53) available. */
  private hasAvailable(u: number, asset: number, need: number): boolean {
    return this.balances.hasAvailable(this.balances.cell(u, asset, TRADE_ACCOUNT), need);
  }

  /**
   * Move a holder's balance of an asset (a user's trade account, the exchange's main one) and
   * record the leg (owner, deltas, resulting limbs).
   */
  private move(holder: number, asset: number, availDelta: number, frozenDelta: number): void {
    const balances = this.balances;
    const cell = balances.cell(holder, asset, holder <= this.nUsers ? TRADE_ACCOUNT : MAIN_ACCOUNT);
    if (!balances.move(cell, availDelta, frozenDelta)) {
      throw new Error('engine floor: a balance below zero');
    }
    const values = balances.values;
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
  private beginBalance(business: number, orderId: number, dealId: number): number {
    const at = this.reserve(6);
    const log = this.log;
    log[at] = EV_BALANCE;
    log[at + 1] = ++this.eventSeq;
    log[at + 2] = business;
    log[at + 3] = orderId;
    log[at + 4] = dealId;
    return at;
  }

  private endBalance(at: number): void {
    this.log[at + 5] = (this.logLength - at - 6) / 8;
  }

  /** Take funds for a fill: from the order's frozen funds, or from available for a taker. */
  private spend(o: number, asset: number, amount: number): void {
    if (amount === 0) return;
    if (this.ord[o * ORDER_WIDTH + O_FUNDS_FROZEN] === 1) {
      this.ord[o * ORDER_WIDTH + O_FROZEN]! -= amount;
      this.move(this.ord[o * ORDER_WIDTH + O_USER]!, asset, 0, -amount);
    } else {
      this.move(this.ord[o * ORDER_WIDTH + O_USER]!, asset, -amount, 0);
    }
  }

  // --- orders -------------------------------------------------------------------------------

  private buyFreeze(lotsTicks: number): number {
    const value = checked(lotsTicks * this.valueP);
    const fee = checked(checked(lotsTicks * this.feeP) * this.maxRate);
    return checked(ceilDiv(value, this.valueQ) + ceilDiv(fee, this.feeQ));
  }

  /** What a resting buy may still pay from its frozen funds (lifecycle.ts remainingNeed). */
  private remainingNeed(o: number): number {
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
  private marketBuyCost(amount: number): number {
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

  private newOrder(
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

  private freezeForOrder(o: number, amount: number): void {
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

  private finishOrder(o: number, reason: number): void {
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

  private releaseRetired(): void {
    for (let i = 0; i < this.retiredCount; i++) this.table.release(this.retired[i]!);
    this.retiredCount = 0;
  }

  private emitOrder(type: number, o: number): void {
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

  private reserve(n: number): number {
    const at = this.logLength;
    if (at + n > this.log.length) this.log = grown(this.log, this.log.length * 2);
    this.logLength = at + n;
    return at;
  }

  // --- the book -----------------------------------------------------------------------------

  /** Put an order at the back of its price level, creating the level when new. */
  private rest(o: number): void {
    this.sides[this.ord[o * ORDER_WIDTH + O_SIDE] === 1 ? 0 : 1].add(o);
  }

  /** Take an order off its level; an emptied level leaves its side. */
  private unlinkFromLevel(o: number): void {
    this.sides[this.ord[o * ORDER_WIDTH + O_SIDE] === 1 ? 0 : 1].remove(o);
  }

  private checkNotCrossed(): void {
    const asks = this.sides[0];
    const bids = this.sides[1];
    const ask = asks.best();
    const bid = bids.best();
    if (ask === NONE || bid === NONE) return;
    if (bids.ticksOf(bid) >= asks.ticksOf(ask)) throw new Error('engine floor: crossed book');
  }

  // --- matching -----------------------------------------------------------------------------

  private matchTaker(t: number): number {
    const isBuy = this.ord[t * ORDER_WIDTH + O_SIDE] === 2;
    const side = this.sides[isBuy ? 0 : 1];
    const isLimit = this.ord[t * ORDER_WIDTH + O_TYPE] === 1;
    const tTicks = this.ord[t * ORDER_WIDTH + O_TICKS]!;
    const tUser = this.ord[t * ORDER_WIDTH + O_USER]!;
    for (;;) {
      if (this.ord[t * ORDER_WIDTH + O_LEFT] === 0) return STOP_FILLED;
      const lv = side.best();
      if (lv === NONE) return STOP_NO_LIQUIDITY;
      const ticks = side.ticksOf(lv);
      if (isLimit && (isBuy ? ticks > tTicks : ticks < tTicks)) return STOP_PRICE;
      const maker = side.headOf(lv);
      if (this.ord[maker * ORDER_WIDTH + O_USER] === tUser) return STOP_SELF_TRADE;
      const amount = Math.min(
        this.ord[maker * ORDER_WIDTH + O_LEFT]!,
        this.ord[t * ORDER_WIDTH + O_LEFT]!,
      );
      this.settleFill(t, maker, ticks, amount);
      side.reduceTotal(lv, amount);
      this.lastTicks = ticks;
      if (this.ord[maker * ORDER_WIDTH + O_LEFT] === 0) {
        this.unlinkFromLevel(maker);
        this.finishOrder(maker, 0);
      } else {
        this.emitOrder(UPDATE, maker);
      }
    }
  }

  /** One fill: the engine's fast path (settle.ts, fastmath.ts) in numbers, legs in order. */
  private settleFill(t: number, maker: number, ticks: number, amount: number): void {
    const takerBuys = this.ord[t * ORDER_WIDTH + O_SIDE] === 2;
    const buyer = takerBuys ? t : maker;
    const seller = takerBuys ? maker : t;
    const lotsTicks = checked(amount * ticks);
    const value = checked(lotsTicks * this.valueP);
    const perRate = checked(lotsTicks * this.feeP);
    const buyerFeeNum = checked(perRate * (takerBuys ? this.takerRate : this.makerRate));
    const sellerFeeNum = checked(perRate * (takerBuys ? this.makerRate : this.takerRate));
    const moneyUnitsBefore = this.ord[buyer * ORDER_WIDTH + O_MONEY_UNITS]!;
    const feeUnitsBefore = this.ord[buyer * ORDER_WIDTH + O_FEE_UNITS]!;
    const moneyUnits = checked(moneyUnitsBefore + value);
    const feeUnits = checked(feeUnitsBefore + buyerFeeNum);
    const gross = floorDiv(value, this.valueQ);
    const paidTotal = ceilDiv(moneyUnits, this.valueQ);
    const paid = paidTotal - ceilDiv(moneyUnitsBefore, this.valueQ);
    const buyerFeeTotal = ceilDiv(feeUnits, this.feeQ);
    const buyerFee = buyerFeeTotal - ceilDiv(feeUnitsBefore, this.feeQ);
    let sellerFee = ceilDiv(sellerFeeNum, this.feeQ);
    if (sellerFee > gross) sellerFee = gross;
    this.ord[buyer * ORDER_WIDTH + O_MONEY_UNITS] = moneyUnits;
    this.ord[buyer * ORDER_WIDTH + O_FEE_UNITS] = feeUnits;
    this.ord[buyer * ORDER_WIDTH + O_DEAL_MONEY] = paidTotal;
    this.ord[buyer * ORDER_WIDTH + O_DEAL_FEE] = buyerFeeTotal;

    const dealId = this.nextDealId++;
    const at = this.reserve(11);
    const log = this.log;
    log[at] = EV_DEAL;
    log[at + 1] = ++this.eventSeq;
    log[at + 2] = dealId;
    log[at + 3] = ticks;
    log[at + 4] = amount;
    log[at + 5] = gross;
    log[at + 6] = t;
    log[at + 7] = maker;
    log[at + 8] = takerBuys ? sellerFee : buyerFee;
    log[at + 9] = takerBuys ? buyerFee : sellerFee;
    log[at + 10] = this.ord[t * ORDER_WIDTH + O_SIDE]!;

    const b = this.beginBalance(TRADE, this.ord[t * ORDER_WIDTH + O_ID]!, dealId);
    this.spend(buyer, 1, paid + buyerFee);
    this.move(this.ord[buyer * ORDER_WIDTH + O_USER]!, 0, amount, 0);
    if (sellerFee !== 0) this.ord[seller * ORDER_WIDTH + O_DEAL_FEE]! += sellerFee;
    this.spend(seller, 0, amount);
    this.ord[seller * ORDER_WIDTH + O_DEAL_MONEY]! += gross;
    this.move(this.ord[seller * ORDER_WIDTH + O_USER]!, 1, gross - sellerFee, 0);
    const fees = buyerFee + sellerFee;
    if (fees > 0) this.move(this.feesHolder, 1, fees, 0);
    const remainder = paid - gross;
    if (remainder < 0) throw new Error('engine floor: negative rounding');
    if (remainder > 0) this.move(this.roundingHolder, 1, remainder, 0);
    this.endBalance(b);

    this.ord[t * ORDER_WIDTH + O_DEAL_STOCK]! += amount;
    this.ord[maker * ORDER_WIDTH + O_DEAL_STOCK]! += amount;
    this.ord[maker * ORDER_WIDTH + O_LEFT]! -= amount;
    this.ord[t * ORDER_WIDTH + O_LEFT]! -= amount;
    this.ord[t * ORDER_WIDTH + O_MTIME] = this.time;
    this.ord[maker * ORDER_WIDTH + O_MTIME] = this.time;
  }

  get lastPrice(): bigint {
    return BigInt(this.lastTicks) * this.tickSize;
  }

  // --- reading the log ----------------------------------------------------------------------

  /** The command's events as the engine's objects (valid until the next apply). */
  events(): EngineEvent[] {
    const out: EngineEvent[] = [];
    const log = this.log;
    let at = 0;
    while (at < this.logLength) {
      const kind = log[at]!;
      const seq = log[at + 1]!;
      if (kind === EV_ORDER) {
        const type = ORDER_EVENT_TYPES[log[at + 2]!]!;
        out.push({ seq, time: this.time, type, order: this.viewAt(at) });
        at += 10;
      } else if (kind === EV_DEAL) {
        const t = log[at + 6]!;
        const maker = log[at + 7]!;
        out.push({
          seq,
          time: this.time,
          type: 'deal',
          id: log[at + 2]!,
          market: this.marketName,
          price: BigInt(log[at + 3]!) * this.tickSize,
          amount: BigInt(log[at + 4]!),
          total: BigInt(log[at + 5]!),
          takerSide: log[at + 10]! as 1 | 2,
          makerOrderId: this.ord[maker * ORDER_WIDTH + O_ID]!,
          takerOrderId: this.ord[t * ORDER_WIDTH + O_ID]!,
          makerUserId: this.ord[maker * ORDER_WIDTH + O_USER]!,
          takerUserId: this.ord[t * ORDER_WIDTH + O_USER]!,
          makerFee: BigInt(log[at + 8]!),
          makerFeeAsset: this.assetName(1),
          takerFee: BigInt(log[at + 9]!),
          takerFeeAsset: this.assetName(1),
        });
        at += 11;
      } else {
        const count = log[at + 5]!;
        const legs: BalanceLeg[] = [];
        for (let k = 0; k < count; k++) legs.push(this.legAt(at + 6 + k * 8));
        out.push({
          seq,
          time: this.time,
          type: 'balance',
          business: BUSINESSES[log[at + 2]!]!,
          businessId: null,
          orderId: log[at + 3]!,
          dealId: log[at + 4]!,
          legs,
        });
        at += 6 + count * 8;
      }
    }
    return out;
  }

  private assetName(asset: number): string {
    return asset === 0 ? this.stock : this.money;
  }

  private legAt(at: number): BalanceLeg {
    const log = this.log;
    const holder = log[at]!;
    const owner: Owner =
      holder === this.feesHolder ? 'fees' : holder === this.roundingHolder ? 'rounding' : holder;
    return {
      owner,
      account: typeof owner === 'number' ? 'trade' : 'main',
      asset: this.assetName(log[at + 1]!),
      availableDelta: BigInt(log[at + 2]!),
      frozenDelta: BigInt(log[at + 3]!),
      available: limbsToBigInt(log, at + 4),
      frozen: limbsToBigInt(log, at + 6),
    };
  }

  private viewAt(at: number): OrderView {
    const log = this.log;
    const o = log[at + 3]!;
    const finish = log[at + 9]!;
    const type = this.ord[o * ORDER_WIDTH + O_TYPE] as 1 | 2;
    return {
      id: this.ord[o * ORDER_WIDTH + O_ID]!,
      userId: this.ord[o * ORDER_WIDTH + O_USER]!,
      platform: this.ord[o * ORDER_WIDTH + O_SOURCE] === 0 ? 'web' : 'api',
      algorithm: 0,
      market: this.marketName,
      account: 0,
      side: this.ord[o * ORDER_WIDTH + O_SIDE] as 1 | 2,
      type,
      timeInForce: type === 1 ? 'GTC' : 'IOC',
      amount: BigInt(this.ord[o * ORDER_WIDTH + O_AMOUNT]!),
      total: 0n,
      price: BigInt(this.ord[o * ORDER_WIDTH + O_TICKS]!) * this.tickSize,
      stop_price: 0n,
      limit_price: 0n,
      left: BigInt(log[at + 4]!),
      deal_stock: BigInt(log[at + 5]!),
      deal_money: BigInt(log[at + 6]!),
      deal_fee: BigInt(log[at + 7]!),
      deal_fee_ltt: 0n,
      triggered: false,
      oco_id: 0,
      ctime: this.ord[o * ORDER_WIDTH + O_CTIME]!,
      mtime: log[at + 8]!,
      ftime: finish === NONE ? 0 : this.time,
      finish_reason: finish === NONE ? null : (finish as 0 | 1 | 2 | 3),
    };
  }
}
