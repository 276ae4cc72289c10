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
//
// This file holds the commands: their checks, matching and settlement. The rest is beside it:
// engineFloorState.ts (the tables, the log, and the moves that record events),
// engineFloorEvents.ts (the log read back as the engine's events) and engineFloorMath.ts (its
// integer arithmetic).
import type {
  Command,
  OrderCancelCommand,
  OrderLimitCommand,
  OrderMarketCommand,
} from '@lattice/engine';
import {
  NONE,
  O_DEAL_FEE,
  O_DEAL_MONEY,
  O_DEAL_STOCK,
  O_FEE_UNITS,
  O_ID,
  O_LEFT,
  O_MONEY_UNITS,
  O_MTIME,
  O_SIDE,
  O_TICKS,
  O_TYPE,
  O_USER,
  ORDER_WIDTH,
} from '../packages/engine/src/columnar/orderRow.js';
import { EngineFloorEvents } from './engineFloorEvents.js';
import { ceilDiv, checked, floorDiv, SAFE_BIG } from './engineFloorMath.js';
import { EV_DEAL, type FloorResult, PUT, TRADE, UPDATE } from './engineFloorState.js';

const STOP_FILLED = 0;
const STOP_NO_LIQUIDITY = 1;
const STOP_PRICE = 2;
const STOP_SELF_TRADE = 3;

export class EngineFloor extends EngineFloorEvents {
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
}
