// The columnar core: the engine's state in typed arrays, every quantity an exact number, for
// limit, market, stop-limit, OCO and cancel commands (docs/decisions/columnar-engine.md).
//
// It does what the bigint core (place.ts, conditional.ts, match.ts, settle.ts, lifecycle.ts)
// does, check for check and event for event; the differential test holds the two to that. What
// it cannot do it *declines* before changing anything, and Engine hands the command, and the
// state, to the bigint core. It declines: turning a user's LTT fee on, or an LTT deposit while
// one is on, when the LTT in the exchange would pass 2^53 (see lttFeesFit); every order of a
// market whose deal fractions are not safe integers; an order whose amount, or whose
// fills' products at the furthest price it can trade at, would pass 2^53; an order that may
// trigger stops whose fills could (see triggersFit); a limit order whose rest could take its
// side of the book's total of amounts past 2^53; a deposit that would take an asset's deposits
// past what two limbs hold (2^104).
//
// Everything else that is rare and touches no order (assets, markets, users, balance commands)
// runs through the bigint core's own handlers on `meta`, a State that holds the registry (assets,
// markets, users, holds, applied business ids, counters, and which balances exist) while the
// balances themselves live in the balance table: the handler's balances are loaded from the
// table before and stored back after.

import { checkOcoPrices, checkStopLimit } from '../conditional.js';
import { applyToState } from '../dispatch.js';
import { InvariantViolation, reject } from '../errors.js';
import { ceilDivN, floorDivN, mulSafe, SAFE_MAX, SAFE_MAX_BIG } from '../fastmath.js';
import { affordable } from '../match.js';
import { insufficient } from '../placement.js';
import { lttFeeFor } from '../settle.js';
import { LTT, State } from '../state.js';
import type {
  ApplyResult,
  Command,
  OrderCancelAllByCoinCommand,
  OrderCancelAllCommand,
  OrderCancelCommand,
  OrderLimitCommand,
  OrderMarketCommand,
  OrderOcoCommand,
  OrderStopLimitCommand,
  Rejection,
} from '../types.js';
import {
  checkAmount,
  checkPositive,
  checkPrice,
  checkSide,
  checkSource,
  knownAsset,
  knownMarket,
  knownUser,
} from '../validate.js';
import { CELL_AVAILABLE, CELL_FROZEN, KIND_MAIN, KIND_TRADE } from './balanceCell.js';
import { BalanceTable } from './balanceTable.js';
import { ColumnarMarket } from './columnarMarket.js';
import { HolderRegistry } from './holders.js';
import { LIMBS_MAX_BIG } from './limbs.js';
import { LOG_CHUNK, LogChunks } from './logChunks.js';
import {
  STOP_FILLED,
  STOP_NO_LIQUIDITY,
  STOP_PRICE,
  STOP_SELF_TRADE,
  TIF_FOK,
  TIF_GTC,
  TIF_IOC,
  TIF_POST_ONLY,
} from './orderCodes.js';
import {
  LINK_NEXT,
  LINK_USER_NEXT,
  LINK_WIDTH,
  NONE,
  O_ALGORITHM,
  O_AMOUNT,
  O_CTIME,
  O_DEAL_FEE,
  O_DEAL_FEE_LTT,
  O_DEAL_MONEY,
  O_DEAL_STOCK,
  O_DIRECTION,
  O_FEE_UNITS,
  O_FINISH_REASON,
  O_FROZEN,
  O_FTIME,
  O_FUNDS_FROZEN,
  O_ID,
  O_LEFT,
  O_LEVEL,
  O_LIMIT_TICKS,
  O_MARKET,
  O_MONEY_UNITS,
  O_MTIME,
  O_OCO_ID,
  O_SIBLING,
  O_SIDE,
  O_SOURCE,
  O_STOP_TICKS,
  O_TICKS,
  O_TIME_IN_FORCE,
  O_TOTAL,
  O_TRIGGERED,
  O_TYPE,
  O_USER,
  ORDER_WIDTH,
} from './orderRow.js';
import { OrderTable } from './orderTable.js';
import {
  BALANCE_HEAD,
  BUSINESS_ORDER_FREEZE,
  BUSINESS_ORDER_RELEASE,
  BUSINESS_TRADE,
  DEAL_MAKER_LTT,
  DEAL_RECORD,
  DEAL_TAKER_LTT,
  EV_FINISH,
  EV_PUT,
  EV_TRIGGERED,
  EV_UPDATE,
  K_BALANCE,
  K_DEAL,
  K_ORDER,
  LEG_RECORD,
  RESULT_ORDER,
  RESULT_ORDERS,
  T_COUNT,
  T_KIND,
  T_OFFSETS,
  T_START,
  T_TIME,
} from './recordLayout.js';
import {
  ColumnarAccepted,
  orderRecordSize,
  type RecordNames,
  writeOrderRecord,
} from './records.js';

/** What `apply` returns for a command the columnar core leaves to the bigint core. */
export const DECLINED = Symbol('declined');
export type CoreResult = ApplyResult | typeof DECLINED;

/** A product the bounds checked before the command began keep below 2^53; a bug otherwise. */
function checked(v: number): number {
  if (v > SAFE_MAX) throw new InvariantViolation('columnar core: a quantity passed 2^53');
  return v;
}

function timeInForceCode(value: unknown): number {
  return value === 'GTC'
    ? TIF_GTC
    : value === 'IOC'
      ? TIF_IOC
      : value === 'FOK'
        ? TIF_FOK
        : value === 'POST_ONLY'
          ? TIF_POST_ONLY
          : NONE;
}

export class ColumnarCore {
  /** The registry the bigint core's handlers run on for the rare commands (see the top). */
  readonly meta: State;
  readonly table = new OrderTable(1 << 12);
  readonly balances = new BalanceTable(64, 8);
  readonly holders: HolderRegistry;
  readonly markets: ColumnarMarket[] = [];
  readonly marketsByName = new Map<string, ColumnarMarket>();
  /** The market of the last order command (marketOf): orders in a row mostly share one. */
  private lastMarket: ColumnarMarket | null = null;
  readonly assetNames: string[] = [];
  /** What reading a result's records needs (shares the arrays above, which only grow). */
  readonly names: RecordNames = { assetNames: this.assetNames, markets: this.markets };
  // The event log: commands append their records to a chunk, and results keep reading their
  // part of it, so a full chunk is not written again until its results are released.
  private readonly chunks = new LogChunks(this.names);
  private chunk = this.chunks.next(LOG_CHUNK);
  /** The current chunk's numbers. */
  private log = this.chunk.data;
  /** Where the command's records start, and the end of what is written. */
  private logStart = 0;
  private logLength = 0;
  private time = 0;
  // The command's own orders (an OCO pair has two) and where, from logStart, the last record of
  // each is: their views in the result.
  private resultId = NONE;
  private resultAt = 0;
  private resultId2 = NONE;
  private resultAt2 = 0;
  /** The holder and market of the order command being placed (checkPlacement). */
  private placedHolder = NONE;
  private placedMarket: ColumnarMarket | null = null;
  /** The balance event being written (endBalance writes its leg count). */
  private balanceAt = 0;

  /** An empty core; with a state, one whose registry it is (see loadRegistry). */
  constructor(meta: State = new State()) {
    this.meta = meta;
    this.holders = new HolderRegistry(this.meta, this.balances);
  }

  /**
   * Take in a registry's assets, markets, users, balances and last prices (a restore; its
   * orders are put in after). False when a balance or an asset's deposits leave the ranges.
   */
  loadRegistry(): boolean {
    const meta = this.meta;
    for (const a of meta.assets.values()) if (a.deposited > LIMBS_MAX_BIG) return false;
    this.registerNew();
    const users = [...meta.users.keys()].sort((a, b) => a - b);
    for (const userId of users) this.holders.registerUser(userId);
    if (!this.holders.storeAll()) return false;
    for (const cm of this.markets) {
      const last = cm.market.last;
      if (last % cm.tickSize !== 0n || last / cm.tickSize > SAFE_MAX_BIG) return false;
      cm.lastTicks = Number(last / cm.tickSize);
    }
    return true;
  }

  /**
   * Apply a command whose time Engine.apply has read and checked; DECLINED changes nothing. The
   * time is passed, not read again: commands come in many shapes, so a read of one of their
   * fields where they all pass is a lookup in V8's cache of shapes rather than a load.
   */
  apply(cmd: Command, time: number): CoreResult {
    this.time = time;
    this.logStart = this.logLength;
    this.resultId = NONE;
    this.resultId2 = NONE;
    switch (cmd.type) {
      case 'order.limit':
        return this.placeLimit(cmd);
      case 'order.cancel':
        return this.cancelOne(cmd);
      case 'order.market':
        return this.placeMarket(cmd);
      case 'order.cancelAll':
        return this.cancelAll(cmd);
      case 'order.cancelAllByCoin':
        return this.cancelAllByCoin(cmd);
      case 'order.stopLimit':
        return this.placeStopLimit(cmd);
      case 'order.oco':
        return this.placeOco(cmd);
      case 'user.setCustomFee': {
        if (cmd.enabled === true && !this.lttFeesFit(0n)) return DECLINED;
        const result = this.applyRare(cmd);
        const h = this.holders.findUser(cmd.userId);
        if (h >= 0) this.holders.syncCustomFee(h);
        return result;
      }
      case 'balance.deposit':
        if (this.depositOverflows(cmd.asset, cmd.amount)) return DECLINED;
        break;
    }
    return this.applyRare(cmd);
  }

  /**
   * Whether fees in LTT keep within the ranges with `more` LTT deposited: while the LTT in the
   * exchange (deposited less withdrawn) stays below 2^53, so does every LTT balance, every fee
   * in LTT (it is taken only when available), and every order's sum of them (the fees account
   * only ever receives, so all fees ever paid in LTT are at most what it holds).
   */
  lttFeesFit(more: bigint): boolean {
    const a = this.meta.assets.get(LTT);
    return a === undefined || a.deposited - a.withdrawn + more <= SAFE_MAX_BIG;
  }

  // --- the rare commands, through the bigint core's handlers ---------------------------------

  private depositOverflows(asset: unknown, amount: unknown): boolean {
    if (typeof asset !== 'string' || typeof amount !== 'bigint') return false;
    const a = this.meta.assets.get(asset);
    if (asset === LTT && this.holders.lttFeeUsers > 0 && !this.lttFeesFit(amount)) return true;
    // Every balance of an asset is at most what was ever deposited of it, and `external` at
    // least minus that: below 2^104, every balance fits two limbs.
    return a !== undefined && a.deposited + amount > LIMBS_MAX_BIG;
  }

  private applyRare(cmd: Command): ApplyResult {
    const meta = this.meta;
    const holders = this.holders;
    // Before: a hold the command ends is gone after it. After: users it made known.
    const before = holders.involved(cmd);
    holders.load(before);
    const result = applyToState(meta, cmd);
    this.registerNew();
    holders.registerUsersOf(cmd);
    holders.store(holders.merged(before, holders.involved(cmd)));
    return result;
  }

  /** Assets and markets a rare command added. */
  private registerNew(): void {
    const meta = this.meta;
    if (this.assetNames.length < meta.assets.size) {
      for (const a of meta.assets.values()) {
        if (a.index < this.assetNames.length) continue;
        this.assetNames.push(a.name);
        this.balances.addAsset();
      }
    }
    if (this.markets.length < meta.markets.size) {
      for (const m of meta.markets.values()) {
        if (this.marketsByName.has(m.name)) continue;
        const cm = new ColumnarMarket(this.markets.length, m, this.table);
        this.markets.push(cm);
        this.marketsByName.set(m.name, cm);
      }
    }
  }

  // --- limit and market orders ---------------------------------------------------------------

  /** The market of an order command, or the bigint core's rejection for its name. */
  private marketOf(name: unknown): ColumnarMarket | Rejection {
    const last = this.lastMarket;
    if (last !== null && name === last.name) return last;
    const cm = typeof name === 'string' ? this.marketsByName.get(name) : undefined;
    if (cm === undefined) return knownMarket(this.meta, name) as Rejection;
    this.lastMarket = cm;
    return cm;
  }

  /**
   * Whether every fill of up to `amount` at up to `ticks` keeps its products, value and fee
   * numerators (fastmath.ts), below 2^53.
   */
  fillsFit(cm: ColumnarMarket, amount: number, ticks: number): boolean {
    // NOTE: mulSafe's checks written out: a call to it that is not inlined boxes the products
    // it returns (see ceilDivN in fastmath.ts), several an order. The market's fractions are
    // never below zero; as in mulSafe, a rounded product above SAFE_MAX means the exact one is.
    if (!(amount >= 0 && ticks >= 0)) return false;
    const lotsTicks = amount * ticks;
    if (lotsTicks > SAFE_MAX) return false;
    const perRate = lotsTicks * cm.feeP;
    return (
      lotsTicks * cm.valueP <= SAFE_MAX && perRate <= SAFE_MAX && perRate * cm.maxRate <= SAFE_MAX
    );
  }

  /** What a buy of amount × ticks freezes: value and fee at the higher rate, rounded up. */
  private buyFreeze(cm: ColumnarMarket, lotsTicks: number): number {
    const value = checked(lotsTicks * cm.valueP);
    const fee = checked(checked(lotsTicks * cm.feeP) * cm.maxRate);
    return ceilDivN(value, cm.valueQ) + ceilDivN(fee, cm.feeQ);
  }

  /**
   * What every order command checks first (placement.ts checkPlacement): its user, its market,
   * its side and source; then DECLINED for a market the core does not trade in. The user's
   * holder and the market are left in placedHolder and placedMarket for the command (no object
   * made per order).
   */
  private checkPlacement(cmd: {
    userId: unknown;
    market: unknown;
    side: unknown;
    source: unknown;
  }): Rejection | typeof DECLINED | null {
    const h = this.holders.findUser(cmd.userId);
    if (h < 0) return knownUser(this.meta, cmd.userId) as Rejection;
    const cm = this.marketOf(cmd.market);
    if (!(cm instanceof ColumnarMarket)) return cm;
    const badSide = checkSide(cmd.side) ?? checkSource(cmd.source);
    if (badSide !== null) return badSide;
    this.placedHolder = h;
    this.placedMarket = cm;
    return cm.fits ? null : DECLINED;
  }

  /** As Placement.available does: the holder's trade balance of the asset exists from here on. */
  private ensureTrade(holder: number, asset: number): void {
    this.holders.ensureAccounts(holder, asset, this.assetNames[asset]!);
  }

  private hasAvailable(holder: number, asset: number, need: number): boolean {
    const b = this.balances;
    return b.hasAvailable(b.cell(holder, asset, KIND_TRADE), need);
  }

  private placeLimit(cmd: OrderLimitCommand): CoreResult {
    const unplaced = this.checkPlacement(cmd);
    if (unplaced !== null) return unplaced;
    const h = this.placedHolder;
    const cm = this.placedMarket!;
    const m = cm.market;
    // The common case in numbers; anything else through the bigint core's checks.
    let ticks = cm.ticksOfPrice(cmd.price);
    let amount = ticks < 0 ? -1 : cm.amountOf(cmd.amount);
    if (amount < 0) {
      const bad = checkPrice(m, cmd.price) ?? checkAmount(m, cmd.amount);
      if (bad !== null) return bad;
      if (cmd.amount > SAFE_MAX_BIG) return DECLINED;
      amount = Number(cmd.amount);
      ticks = m.ticksOf(cmd.price);
    }
    const side = cmd.side;
    // A sell trades at bids at or above its price: at most the best bid's.
    let reach = ticks;
    if (side === 1 && !cm.bids.isEmpty) reach = Math.max(ticks, cm.bids.ticksOf(cm.bids.best()));
    if (!this.fillsFit(cm, amount, reach)) return DECLINED;
    // Its rest may join its side of the book, whose total of amounts stays a safe integer.
    if (cm.ownSide(side).total > SAFE_MAX - amount) return DECLINED;
    if (!this.tradesFit(cm, side, ticks, amount)) return DECLINED;
    const need = side === 1 ? amount : this.buyFreeze(cm, amount * ticks);
    if (need > SAFE_MAX) return DECLINED;
    const funds = side === 1 ? cm.stock : cm.money;
    // As Placement.available does: the balance exists from here on, even on a rejection.
    this.ensureTrade(h, funds);
    if (!this.hasAvailable(h, funds, need)) return insufficient('amount');
    const tif = timeInForceCode(cmd.timeInForce);
    const badTif = this.checkTimeInForce(cm, side, h, tif, ticks, amount);
    if (badTif !== null) return badTif;
    const o = this.newOrder(h, cm, side, 1, tif, cmd.source, amount, 0, ticks);
    this.resultId = this.table.rows[o * ORDER_WIDTH + O_ID]!;
    this.executeLimit(cm, o, true, need);
    this.runTriggers(cm);
    return this.accepted(RESULT_ORDER);
  }

  /**
   * Run a limit order as taker, then rest it, cancel its rest (IOC, FOK, self-trade) or finish
   * it (match.ts executeLimit). A new order that rests is announced with a put; a triggered stop
   * was announced by its trigger, so it reports an update only when it traded.
   */
  private executeLimit(cm: ColumnarMarket, o: number, isNew: boolean, need: number): void {
    const why = this.matchTaker(cm, o);
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    const traded = ord[row + O_DEAL_STOCK]! > 0;
    if (traded && ord[row + O_SIBLING] !== NONE) this.cancelSibling(cm, o, false);
    const tif = ord[row + O_TIME_IN_FORCE];
    if (ord[row + O_LEFT] === 0) {
      this.finishOrder(cm, o, 0);
    } else if (why === STOP_SELF_TRADE || tif === TIF_IOC || tif === TIF_FOK) {
      this.finishOrder(cm, o, 1);
    } else {
      // What a new order must have had available is what it freezes, unless it traded first.
      if (ord[row + O_FUNDS_FROZEN] === 0) {
        this.freezeForOrder(o, traded ? this.remainingNeed(cm, o) : need);
      }
      cm.ownSide(ord[row + O_SIDE]!).add(o);
      if (isNew) this.emitOrder(EV_PUT, o);
      else if (traded) this.emitOrder(EV_UPDATE, o);
    }
  }

  /**
   * Whether a limit order of `amount` at `ticks` keeps within the ranges the stops it may trigger
   * (triggersFit): it triggers none unless it trades on arrival.
   */
  private tradesFit(cm: ColumnarMarket, side: number, ticks: number, amount: number): boolean {
    if (cm.stops.count === 0 || !this.crossesBook(cm, side, ticks)) return true;
    return this.triggersFit(cm, side === 2 ? ticks : 0, amount);
  }

  /**
   * Whether the stops a command that trades may trigger keep every quantity within the ranges.
   * Each fires as a limit order of at most its stops' largest amount: a buy trades at its limit price or
   * below, a sell into bids no higher than the best bid now, the command's own buy price
   * (`buyTicks`, 0 for none) or a triggered buy's limit price. Each may then rest, so both
   * sides' totals must stay safe integers with all of them and the command's own `amount` added.
   */
  private triggersFit(cm: ColumnarMarket, buyTicks: number, amount: number): boolean {
    if (cm.stops.count === 0) return true;
    const bids = cm.bids;
    const bestBid = bids.isEmpty ? 0 : bids.ticksOf(bids.best());
    const reach = Math.max(bestBid, buyTicks, cm.stops.ticksMax);
    if (!this.fillsFit(cm, cm.stops.amountMax, reach)) return false;
    return Math.max(cm.asks.total, bids.total) <= SAFE_MAX - amount - cm.stops.amountSum;
  }

  private checkTimeInForce(
    cm: ColumnarMarket,
    side: number,
    holder: number,
    tif: number,
    ticks: number,
    amount: number,
  ): Rejection | null {
    switch (tif) {
      case TIF_GTC:
      case TIF_IOC:
        return null;
      case TIF_POST_ONLY:
        return this.crossesBook(cm, side, ticks)
          ? reject('post_only_would_take', 'A post-only order must not trade on arrival', 'price')
          : null;
      case TIF_FOK:
        return this.canFillCompletely(cm, side, holder, ticks, amount)
          ? null
          : reject('fok_not_filled', 'The order cannot be filled completely now', 'amount');
      default:
        return reject('invalid_command', 'Unknown time in force', 'timeInForce');
    }
  }

  private crossesBook(cm: ColumnarMarket, side: number, ticks: number): boolean {
    const opposite = cm.oppositeSide(side);
    if (opposite.isEmpty) return false;
    const best = opposite.ticksOf(opposite.best());
    return side === 2 ? best <= ticks : best >= ticks;
  }

  /** Whether a fill-or-kill order can fill completely right now (own orders stop it). */
  private canFillCompletely(
    cm: ColumnarMarket,
    side: number,
    holder: number,
    ticks: number,
    amount: number,
  ): boolean {
    const isBuy = side === 2;
    const opposite = cm.oppositeSide(side);
    const ord = this.table.rows;
    let rest = amount;
    for (let i = 0; i < opposite.levelCount && rest > 0; i++) {
      const level = opposite.levelAt(i);
      const price = opposite.ticksOf(level);
      if (isBuy ? price > ticks : price < ticks) return false;
      for (let o = opposite.headOf(level); o !== NONE && rest > 0; o = this.nextInLevel(o)) {
        if (ord[o * ORDER_WIDTH + O_USER] === holder) return false;
        rest -= Math.min(ord[o * ORDER_WIDTH + O_LEFT]!, rest);
      }
    }
    return rest === 0;
  }

  private nextInLevel(slot: number): number {
    return this.table.links[slot * LINK_WIDTH + LINK_NEXT]!;
  }

  private placeMarket(cmd: OrderMarketCommand): CoreResult {
    // A market that does not fit declines below, after the checks that reject.
    const unplaced = this.checkPlacement(cmd);
    if (unplaced !== null && unplaced !== DECLINED) return unplaced;
    const h = this.placedHolder;
    const cm = this.placedMarket!;
    if ((cmd.amount === undefined) === (cmd.total === undefined)) {
      return reject('invalid_command', 'Give exactly one of amount and total', 'amount');
    }
    const side = cmd.side;
    const opposite = cm.oppositeSide(side);
    if (opposite.isEmpty) return reject('not_enough_liquidity', 'Not enough liquidity');
    if (!cm.fits || !this.triggersFit(cm, 0, 0)) return DECLINED;
    let amount = 0;
    let total = 0;
    if (cmd.total !== undefined) {
      const bad = this.checkMarketTotal(cm, h, side, cmd.total);
      if (bad === DECLINED) return DECLINED;
      if (bad !== null) return bad;
      total = Number(cmd.total);
    } else {
      // The common case in numbers, as for a limit order; anything else through the checks.
      amount = cm.amountOf(cmd.amount);
      if (amount < 0) {
        const bad = checkAmount(cm.market, cmd.amount);
        if (bad !== null) return bad;
        if (cmd.amount! > SAFE_MAX_BIG) return DECLINED;
        amount = Number(cmd.amount);
      }
      // The furthest price it can reach: the opposite side's worst level.
      const worst = opposite.ticksOf(opposite.levelAt(opposite.levelCount - 1));
      const best = opposite.ticksOf(opposite.best());
      if (!this.fillsFit(cm, amount, Math.max(worst, best))) return DECLINED;
      const need = side === 1 ? amount : this.marketBuyCost(cm, amount);
      const funds = side === 1 ? cm.stock : cm.money;
      this.ensureTrade(h, funds);
      if (!this.hasAvailable(h, funds, need)) return insufficient('amount');
    }
    const o = this.newOrder(h, cm, side, 2, TIF_IOC, cmd.source, amount, total, 0);
    this.resultId = this.table.rows[o * ORDER_WIDTH + O_ID]!;
    const why = this.matchTaker(cm, o);
    this.finishOrder(cm, o, why === STOP_FILLED ? 0 : why === STOP_SELF_TRADE ? 1 : 3);
    this.runTriggers(cm);
    return this.accepted(RESULT_ORDER);
  }

  // --- stop-limit and OCO orders (conditional.ts) ---------------------------------------------

  /** The last price into the registry's market, for the bigint core's checks that read it. */
  private syncLast(cm: ColumnarMarket): void {
    cm.market.last = BigInt(cm.lastTicks) * cm.tickSize;
  }

  private placeStopLimit(cmd: OrderStopLimitCommand): CoreResult {
    const unplaced = this.checkPlacement(cmd);
    if (unplaced !== null) return unplaced;
    const h = this.placedHolder;
    const cm = this.placedMarket!;
    const m = cm.market;
    this.syncLast(cm);
    const bad = checkStopLimit(m, cmd);
    if (bad !== null) return bad;
    if (cmd.amount > SAFE_MAX_BIG) return DECLINED;
    const amount = Number(cmd.amount);
    const ticks = m.ticksOf(cmd.price);
    const side = cmd.side;
    // Its fills once triggered are checked by the command that triggers it (triggersFit); what
    // it freezes now, and the waiting stops' sum of amounts, must fit already.
    if (!this.fillsFit(cm, amount, ticks) || cm.stops.amountSum > SAFE_MAX - amount) {
      return DECLINED;
    }
    const need = side === 1 ? amount : this.buyFreeze(cm, amount * ticks);
    if (need > SAFE_MAX) return DECLINED;
    const funds = side === 1 ? cm.stock : cm.money;
    this.ensureTrade(h, funds);
    if (!this.hasAvailable(h, funds, need)) return insufficient('amount');
    const o = this.newOrder(h, cm, side, 1, TIF_GTC, cmd.source, amount, 0, ticks);
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    const stopTicks = m.ticksOf(cmd.stopPrice);
    ord[row + O_ALGORITHM] = 1;
    ord[row + O_STOP_TICKS] = stopTicks;
    ord[row + O_DIRECTION] = stopTicks > cm.lastTicks ? 1 : -1;
    this.resultId = ord[row + O_ID]!;
    this.freezeForOrder(o, need);
    this.parkStop(cm, o);
    return this.accepted(RESULT_ORDER);
  }

  private placeOco(cmd: OrderOcoCommand): CoreResult {
    const unplaced = this.checkPlacement(cmd);
    if (unplaced !== null) return unplaced;
    const h = this.placedHolder;
    const cm = this.placedMarket!;
    const m = cm.market;
    const side = cmd.side;
    this.syncLast(cm);
    const bad = checkOcoPrices(m, side, cmd);
    if (bad !== null) return bad;
    if (cmd.amount > SAFE_MAX_BIG) return DECLINED;
    const amount = Number(cmd.amount);
    const ticks = m.ticksOf(cmd.price);
    const limitTicks = m.ticksOf(cmd.limitPrice);
    // The limit leg trades now (a sell up to the best bid) or rests; the stop leg waits, and
    // cannot fire in this command (a trade of the limit leg cancels it).
    let reach = ticks;
    if (side === 1 && !cm.bids.isEmpty) reach = Math.max(ticks, cm.bids.ticksOf(cm.bids.best()));
    if (
      !this.fillsFit(cm, amount, reach) ||
      !this.fillsFit(cm, amount, limitTicks) ||
      cm.ownSide(side).total > SAFE_MAX - amount ||
      cm.stops.amountSum > SAFE_MAX - amount ||
      !this.tradesFit(cm, side, ticks, amount)
    ) {
      return DECLINED;
    }
    // One freeze covers both legs: enough for whichever of the two prices costs more.
    const need =
      side === 1
        ? amount
        : Math.max(this.buyFreeze(cm, amount * ticks), this.buyFreeze(cm, amount * limitTicks));
    if (need > SAFE_MAX) return DECLINED;
    const funds = side === 1 ? cm.stock : cm.money;
    this.ensureTrade(h, funds);
    if (!this.hasAvailable(h, funds, need)) return insufficient('amount');
    const source = cmd.source;
    const limitLeg = this.newOrder(h, cm, side, 1, TIF_GTC, source, amount, 0, ticks);
    const stopLeg = this.newOrder(h, cm, side, 1, TIF_GTC, source, amount, 0, limitTicks);
    // Read after both: a new order may have grown the table.
    const ord = this.table.rows;
    const stopTicks = m.ticksOf(cmd.stopPrice);
    const ocoId = ord[limitLeg * ORDER_WIDTH + O_ID]!;
    for (const [o, sibling] of [
      [limitLeg, stopLeg],
      [stopLeg, limitLeg],
    ] as const) {
      const row = o * ORDER_WIDTH;
      ord[row + O_ALGORITHM] = 2;
      ord[row + O_STOP_TICKS] = stopTicks;
      ord[row + O_LIMIT_TICKS] = limitTicks;
      ord[row + O_OCO_ID] = ocoId;
      ord[row + O_SIBLING] = sibling;
    }
    const stopRow = stopLeg * ORDER_WIDTH;
    ord[stopRow + O_DIRECTION] = side === 1 ? -1 : 1;
    ord[stopRow + O_FUNDS_FROZEN] = 1;
    this.resultId = ocoId;
    this.resultId2 = ord[stopRow + O_ID]!;
    this.freezeForOrder(limitLeg, need);
    this.parkStop(cm, stopLeg);
    this.executeLimit(cm, limitLeg, true, -1);
    this.runTriggers(cm);
    return this.accepted(RESULT_ORDERS);
  }

  /** Wait for the trigger (the funds are already frozen), announced with a put. */
  private parkStop(cm: ColumnarMarket, o: number): void {
    cm.stops.add(o);
    this.emitOrder(EV_PUT, o);
  }

  /**
   * Fire the stops the command's trades crossed, one at a time (rising ones first, lowest stop
   * first, then oldest), each running as a limit taker whose trades may fire more (match.ts
   * runTriggers); then check that the book is not crossed.
   */
  private runTriggers(cm: ColumnarMarket): void {
    const stops = cm.stops;
    if (stops.count > 0) {
      let o = stops.nextCrossed(cm.runLo, cm.runHi);
      while (o !== NONE) {
        stops.remove(o);
        const row = o * ORDER_WIDTH;
        this.table.rows[row + O_TRIGGERED] = 1;
        this.table.rows[row + O_MTIME] = this.time;
        if (this.table.rows[row + O_SIBLING] !== NONE) this.cancelSibling(cm, o, true);
        this.emitOrder(EV_TRIGGERED, o);
        this.executeLimit(cm, o, false, -1);
        o = stops.nextCrossed(cm.runLo, cm.runHi);
      }
    }
    cm.runLo = -1;
    cm.runHi = -1;
    this.checkNotCrossed(cm);
  }

  /**
   * Cancel the OCO sibling of an order that traded, triggered or was cancelled (lifecycle.ts);
   * a triggered stop leg takes over the funds frozen for the pair. The offset of the sibling's
   * finish record from logStart, -1 when it had none.
   */
  private cancelSibling(cm: ColumnarMarket, o: number, handOverFunds: boolean): number {
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    const sibling = ord[row + O_SIBLING]! | 0;
    if (sibling === NONE) return -1;
    const sib = sibling * ORDER_WIDTH;
    ord[row + O_SIBLING] = NONE;
    ord[sib + O_SIBLING] = NONE;
    if (handOverFunds) {
      ord[row + O_FROZEN]! += ord[sib + O_FROZEN]!;
      ord[row + O_FUNDS_FROZEN] = 1;
      ord[sib + O_FROZEN] = 0;
    }
    this.detach(cm, sibling);
    return this.finishOrder(cm, sibling, 2);
  }

  /** Take an open order off the book or out of the stop lists, wherever it is. */
  private detach(cm: ColumnarMarket, o: number): void {
    if (cm.stops.isWaiting(o)) cm.stops.remove(o);
    else if (this.table.rows[o * ORDER_WIDTH + O_LEVEL] !== NONE) {
      cm.ownSide(this.table.rows[o * ORDER_WIDTH + O_SIDE]!).remove(o);
    }
  }

  /** The checks of a market buy by total (place.ts); a total beyond the ranges declines. */
  private checkMarketTotal(
    cm: ColumnarMarket,
    holder: number,
    side: number,
    total: unknown,
  ): Rejection | typeof DECLINED | null {
    if (side !== 2) return reject('invalid_command', 'Only a buy can be placed by total', 'total');
    const bad = checkPositive(total, 'total');
    if (bad !== null) return bad;
    if ((total as bigint) > SAFE_MAX_BIG) return DECLINED;
    const n = Number(total);
    // What it pays stays within the total, so its money numerator stays within total × valueQ
    // and the sum of its fills' amount × ticks within that / valueP: bound both products.
    const moneyUnits = mulSafe(n, cm.valueQ);
    const lotsTicks = moneyUnits < 0 ? -1 : ceilDivN(moneyUnits, cm.valueP);
    if (lotsTicks < 0 || !this.fillsFit(cm, lotsTicks, 1)) return DECLINED;
    this.ensureTrade(holder, cm.money);
    if (!this.hasAvailable(holder, cm.money, n)) return insufficient('total');
    const asks = cm.asks;
    if (this.affordableAt(cm, n, 0, 0, asks.ticksOf(asks.best())) === 0) {
      return reject('amount_too_small', 'The total buys less than one lot', 'total');
    }
    return null;
  }

  /** affordable (match.ts) for a buy by total with the given numerators, in bigint: rare. */
  private affordableAt(
    cm: ColumnarMarket,
    total: number,
    moneyUnits: number,
    feeUnits: number,
    ticks: number,
  ): number {
    const a = affordable(
      cm.market,
      BigInt(total),
      BigInt(moneyUnits) * cm.moneyUnit,
      BigInt(feeUnits) * cm.feeUnit,
      BigInt(ticks) * cm.tickSize,
    );
    return Number(a);
  }

  /** What buying `amount` from the asks would cost at the taker rate (own orders included). */
  private marketBuyCost(cm: ColumnarMarket, amount: number): number {
    const asks = cm.asks;
    let rest = amount;
    let value = 0;
    let fee = 0;
    for (let i = 0; i < asks.levelCount && rest > 0; i++) {
      const level = asks.levelAt(i);
      const take = Math.min(asks.totalOf(level), rest);
      const lotsTicks = checked(take * asks.ticksOf(level));
      value = checked(value + checked(lotsTicks * cm.valueP));
      fee = checked(fee + checked(checked(lotsTicks * cm.feeP) * cm.takerRate));
      rest -= take;
    }
    return ceilDivN(value, cm.valueQ) + ceilDivN(fee, cm.feeQ);
  }

  private newOrder(
    holder: number,
    cm: ColumnarMarket,
    side: number,
    type: number,
    tif: number,
    source: unknown,
    amount: number,
    total: number,
    ticks: number,
  ): number {
    const id = this.meta.nextOrderId++;
    // As the Order constructor does: both of the market's trade balances exist from now on.
    this.ensureTrade(holder, cm.stock);
    this.ensureTrade(holder, cm.money);
    const o = this.table.allocate(id);
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    ord[row + O_USER] = holder;
    ord[row + O_SIDE] = side;
    ord[row + O_TICKS] = ticks;
    ord[row + O_LEFT] = total > 0 ? total : amount;
    ord[row + O_MARKET] = cm.index;
    ord[row + O_TYPE] = type;
    ord[row + O_TIME_IN_FORCE] = tif;
    ord[row + O_SOURCE] = source === 'web' ? 0 : 1;
    ord[row + O_AMOUNT] = amount;
    ord[row + O_TOTAL] = total;
    ord[row + O_CTIME] = this.time;
    ord[row + O_MTIME] = this.time;
    this.table.linkUser(o);
    return o;
  }

  // --- matching and settling ------------------------------------------------------------------

  /** Match a taker until it is filled, the book runs out or stops crossing, or it meets itself. */
  private matchTaker(cm: ColumnarMarket, t: number): number {
    const ord = this.table.rows;
    const row = t * ORDER_WIDTH;
    const isBuy = ord[row + O_SIDE] === 2;
    const opposite = isBuy ? cm.asks : cm.bids;
    const isLimit = ord[row + O_TYPE] === 1;
    const total = ord[row + O_TOTAL]!;
    const byTotal = total > 0;
    const tTicks = ord[row + O_TICKS]!;
    const tUser = ord[row + O_USER]!;
    for (;;) {
      if (!byTotal && ord[row + O_LEFT] === 0) return STOP_FILLED;
      const level = opposite.best();
      if (level === NONE) return STOP_NO_LIQUIDITY;
      const ticks = opposite.ticksOf(level);
      if (isLimit && (isBuy ? ticks > tTicks : ticks < tTicks)) return STOP_PRICE;
      const maker = opposite.headOf(level);
      // Self-trade prevention, cancel newest: the taker stops here and its rest is cancelled.
      if (ord[maker * ORDER_WIDTH + O_USER] === tUser) return STOP_SELF_TRADE;
      const makerLeft = ord[maker * ORDER_WIDTH + O_LEFT]!;
      let amount = Math.min(makerLeft, ord[row + O_LEFT]!);
      if (byTotal) {
        amount = this.affordableAt(
          cm,
          total,
          ord[row + O_MONEY_UNITS]!,
          ord[row + O_FEE_UNITS]!,
          ticks,
        );
        if (amount > makerLeft) amount = makerLeft;
        if (amount === 0) return STOP_FILLED;
      }
      this.settleFill(cm, t, maker, ticks, amount);
      opposite.reduceTotal(level, amount);
      cm.noteTrade(ticks);
      if (ord[maker * ORDER_WIDTH + O_LEFT] === 0) {
        opposite.remove(maker);
        // Its OCO sibling, if any, goes first (finishOrder).
        this.finishOrder(cm, maker, 0);
      } else {
        if (ord[maker * ORDER_WIDTH + O_SIBLING] !== NONE) this.cancelSibling(cm, maker, false);
        this.emitOrder(EV_UPDATE, maker);
      }
    }
  }

  /** One fill (settle.ts, its fast path): money, fees and rounding, with its events. */
  private settleFill(
    cm: ColumnarMarket,
    t: number,
    maker: number,
    ticks: number,
    amount: number,
  ): void {
    const ord = this.table.rows;
    const takerBuys = ord[t * ORDER_WIDTH + O_SIDE] === 2;
    const buyer = takerBuys ? t : maker;
    const seller = takerBuys ? maker : t;
    const b = buyer * ORDER_WIDTH;
    const s = seller * ORDER_WIDTH;
    const lotsTicks = checked(amount * ticks);
    const value = checked(lotsTicks * cm.valueP);
    const perRate = checked(lotsTicks * cm.feeP);
    const buyerFeeNum = checked(perRate * (takerBuys ? cm.takerRate : cm.makerRate));
    const sellerFeeNum = checked(perRate * (takerBuys ? cm.makerRate : cm.takerRate));
    const holders = this.holders;
    // A fee in LTT, for a user who asked for it and has it (settle.ts); -1 for one in money.
    let buyerLtt = -1;
    let sellerLtt = -1;
    if (holders.lttFeeUsers > 0) {
      buyerLtt = this.lttFee(cm, ord[b + O_USER]!, buyerFeeNum);
      sellerLtt = this.lttFee(cm, ord[s + O_USER]!, sellerFeeNum);
    }
    const moneyUnitsBefore = ord[b + O_MONEY_UNITS]!;
    const moneyUnits = checked(moneyUnitsBefore + value);
    const gross = floorDivN(value, cm.valueQ);
    const paidTotal = ceilDivN(moneyUnits, cm.valueQ);
    const paid = paidTotal - ceilDivN(moneyUnitsBefore, cm.valueQ);
    ord[b + O_MONEY_UNITS] = moneyUnits;
    ord[b + O_DEAL_MONEY] = paidTotal;
    let buyerFee = buyerLtt;
    if (buyerLtt < 0) {
      const feeUnitsBefore = ord[b + O_FEE_UNITS]!;
      const feeUnits = checked(feeUnitsBefore + buyerFeeNum);
      const buyerFeeTotal = ceilDivN(feeUnits, cm.feeQ);
      buyerFee = buyerFeeTotal - ceilDivN(feeUnitsBefore, cm.feeQ);
      ord[b + O_FEE_UNITS] = feeUnits;
      ord[b + O_DEAL_FEE] = buyerFeeTotal;
    }
    let sellerFee = sellerLtt;
    if (sellerLtt < 0) {
      sellerFee = ceilDivN(sellerFeeNum, cm.feeQ);
      if (sellerFee > gross) sellerFee = gross;
    }

    const dealId = this.meta.nextDealId++;
    const at = this.reserve(DEAL_RECORD);
    const log = this.log;
    log[at] = K_DEAL;
    log[at + 1] = ++this.meta.lastEventSeq;
    log[at + 2] = dealId;
    log[at + 3] = cm.index;
    log[at + 4] = ticks;
    log[at + 5] = amount;
    log[at + 6] = gross;
    const makerLtt = takerBuys ? sellerLtt : buyerLtt;
    const takerLtt = takerBuys ? buyerLtt : sellerLtt;
    log[at + 7] =
      ord[t * ORDER_WIDTH + O_SIDE]! +
      (makerLtt >= 0 ? DEAL_MAKER_LTT : 0) +
      (takerLtt >= 0 ? DEAL_TAKER_LTT : 0);
    log[at + 8] = ord[maker * ORDER_WIDTH + O_ID]!;
    log[at + 9] = ord[t * ORDER_WIDTH + O_ID]!;
    log[at + 10] = holders.ownerCode(ord[maker * ORDER_WIDTH + O_USER]!);
    log[at + 11] = holders.ownerCode(ord[t * ORDER_WIDTH + O_USER]!);
    log[at + 12] = takerBuys ? sellerFee : buyerFee;
    log[at + 13] = takerBuys ? buyerFee : sellerFee;

    this.beginBalance(BUSINESS_TRADE, ord[t * ORDER_WIDTH + O_ID]!, dealId);
    if (buyerLtt > 0) this.payLtt(buyer, buyerLtt);
    this.spend(buyer, cm.money, buyerLtt >= 0 ? paid : paid + buyerFee);
    this.move(ord[b + O_USER]!, cm.stock, KIND_TRADE, amount, 0);
    if (sellerLtt > 0) this.payLtt(seller, sellerLtt);
    const sellerMoneyFee = sellerLtt >= 0 ? 0 : sellerFee;
    if (sellerMoneyFee !== 0) ord[s + O_DEAL_FEE]! += sellerMoneyFee;
    this.spend(seller, cm.stock, amount);
    ord[s + O_DEAL_MONEY]! += gross;
    this.move(ord[s + O_USER]!, cm.money, KIND_TRADE, gross - sellerMoneyFee, 0);
    const fees = (buyerLtt >= 0 ? 0 : buyerFee) + sellerMoneyFee;
    if (fees > 0) {
      holders.ensureAccounts(holders.fees, cm.money, cm.moneyName);
      this.move(holders.fees, cm.money, KIND_MAIN, fees, 0);
    }
    const remainder = paid - gross;
    if (remainder < 0) {
      throw new InvariantViolation(`negative rounding on order ${ord[b + O_ID]}`);
    }
    if (remainder > 0) {
      holders.ensureAccounts(holders.rounding, cm.money, cm.moneyName);
      this.move(holders.rounding, cm.money, KIND_MAIN, remainder, 0);
    }
    this.endBalance();

    ord[t * ORDER_WIDTH + O_DEAL_STOCK]! += amount;
    ord[maker * ORDER_WIDTH + O_DEAL_STOCK]! += amount;
    ord[maker * ORDER_WIDTH + O_LEFT]! -= amount;
    const tr = t * ORDER_WIDTH;
    const total = ord[tr + O_TOTAL]!;
    if (total > 0) ord[tr + O_LEFT] = total - ord[tr + O_DEAL_MONEY]! - ord[tr + O_DEAL_FEE]!;
    else ord[tr + O_LEFT]! -= amount;
    ord[tr + O_MTIME] = this.time;
    ord[maker * ORDER_WIDTH + O_MTIME] = this.time;
  }

  /**
   * The fee in LTT of a user who pays fees in LTT, for a fee of `feeUnits` in money (units of
   * DealRatios.feeUnit), when LTT has a price and the user has it available; else -1, the fee
   * being paid in money (settle.ts takeLttFee). Rare: in bigint.
   */
  private lttFee(cm: ColumnarMarket, holder: number, feeUnits: number): number {
    if (!this.holders.paysLtt(holder)) return -1;
    const m = cm.market;
    const lttMarket = this.marketsByName.get(m.lttMarketName);
    if (lttMarket !== undefined) this.syncLast(lttMarket);
    const fee = lttFeeFor(this.meta, m, BigInt(feeUnits) * cm.feeUnit);
    if (fee < 0n) return -1;
    const ltt = this.meta.assets.get(LTT)!.index;
    // As the bigint core's does, asking for the balance makes it exist.
    this.holders.ensureAccounts(holder, ltt, LTT);
    // Every LTT balance is below 2^53 (lttFeesFit): a larger fee cannot be available.
    if (fee > SAFE_MAX_BIG || !this.hasAvailable(holder, ltt, Number(fee))) return -1;
    return Number(fee);
  }

  /** Move an order's fee in LTT from its user's trade balance to the fees account. */
  private payLtt(o: number, fee: number): void {
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    const ltt = this.meta.assets.get(LTT)!.index;
    this.move(ord[row + O_USER]!, ltt, KIND_TRADE, -fee, 0);
    this.holders.ensureAccounts(this.holders.fees, ltt, LTT);
    this.move(this.holders.fees, ltt, KIND_MAIN, fee, 0);
    ord[row + O_DEAL_FEE_LTT] = checked(ord[row + O_DEAL_FEE_LTT]! + fee);
  }

  /** Take funds for a fill: from the order's frozen funds, or from available for a taker. */
  private spend(o: number, asset: number, amount: number): void {
    if (amount === 0) return;
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    if (ord[row + O_FUNDS_FROZEN] === 1) {
      ord[row + O_FROZEN]! -= amount;
      this.move(ord[row + O_USER]!, asset, KIND_TRADE, 0, -amount);
    } else {
      this.move(ord[row + O_USER]!, asset, KIND_TRADE, -amount, 0);
    }
  }

  /** What an open order may still pay from its frozen funds (lifecycle.ts remainingNeed). */
  private remainingNeed(cm: ColumnarMarket, o: number): number {
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    if (ord[row + O_SIDE] === 1) return ord[row + O_LEFT]!;
    const lotsTicks = checked(ord[row + O_LEFT]! * ord[row + O_TICKS]!);
    const money = checked(ord[row + O_MONEY_UNITS]! + checked(lotsTicks * cm.valueP));
    const fee = checked(
      ord[row + O_FEE_UNITS]! + checked(checked(lotsTicks * cm.feeP) * cm.maxRate),
    );
    return (
      ceilDivN(money, cm.valueQ) +
      ceilDivN(fee, cm.feeQ) -
      ord[row + O_DEAL_MONEY]! -
      ord[row + O_DEAL_FEE]!
    );
  }

  private freezeForOrder(o: number, amount: number): void {
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    ord[row + O_FUNDS_FROZEN] = 1;
    if (amount === 0) return;
    const cm = this.markets[ord[row + O_MARKET]! | 0]!;
    const asset = ord[row + O_SIDE] === 1 ? cm.stock : cm.money;
    this.beginBalance(BUSINESS_ORDER_FREEZE, ord[row + O_ID]!, 0);
    this.move(ord[row + O_USER]!, asset, KIND_TRADE, -amount, amount);
    this.endBalance();
    ord[row + O_FROZEN]! += amount;
  }

  /**
   * Close an order already off the book and out of the stop lists (and its OCO sibling): release
   * its funds, announce it, free its slot. The offset of its finish record from logStart.
   */
  private finishOrder(cm: ColumnarMarket, o: number, reason: number): number {
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    // An OCO leg that ends for any reason takes the other leg with it.
    if (ord[row + O_SIBLING] !== NONE) this.cancelSibling(cm, o, false);
    const frozen = ord[row + O_FROZEN]!;
    if (frozen !== 0) {
      const asset = ord[row + O_SIDE] === 1 ? cm.stock : cm.money;
      this.beginBalance(BUSINESS_ORDER_RELEASE, ord[row + O_ID]!, 0);
      this.move(ord[row + O_USER]!, asset, KIND_TRADE, frozen, -frozen);
      this.endBalance();
      ord[row + O_FROZEN] = 0;
    }
    ord[row + O_FINISH_REASON] = reason;
    ord[row + O_FTIME] = this.time;
    ord[row + O_MTIME] = this.time;
    this.table.unlinkUser(o);
    const at = this.emitOrder(EV_FINISH, o);
    // Its record holds all its event needs: the slot is free at once.
    this.table.release(o);
    return at;
  }

  private checkNotCrossed(cm: ColumnarMarket): void {
    const asks = cm.asks;
    const bids = cm.bids;
    if (asks.isEmpty || bids.isEmpty) return;
    if (bids.ticksOf(bids.best()) >= asks.ticksOf(asks.best())) {
      throw new InvariantViolation(`crossed book ${cm.name}`);
    }
  }

  // --- cancels --------------------------------------------------------------------------------

  private cancelOne(cmd: OrderCancelCommand): CoreResult {
    const h = this.holders.findUser(cmd.userId);
    if (h < 0) return knownUser(this.meta, cmd.userId) as Rejection;
    const id = cmd.orderId;
    const o = typeof id === 'number' ? this.table.slotOf(id) : NONE;
    // Another user's order is reported as not found, like a missing one.
    if (o === NONE || this.table.rows[o * ORDER_WIDTH + O_USER] !== h) {
      return reject('order_not_found', 'Order does not exist', 'orderId');
    }
    this.resultId = id;
    this.cancelOrder(o, null);
    return this.accepted(RESULT_ORDER);
  }

  /**
   * Take an open order off the book or out of the stop lists and finish it as cancelled, with
   * its OCO sibling. With `listed`, the offsets (from logStart) of the order's finish record and
   * its sibling's go there, in that order.
   */
  private cancelOrder(o: number, listed: number[] | null): void {
    const cm = this.markets[this.table.rows[o * ORDER_WIDTH + O_MARKET]! | 0]!;
    this.detach(cm, o);
    const siblingAt = this.cancelSibling(cm, o, false);
    const at = this.finishOrder(cm, o, 1);
    if (listed === null) return;
    listed.push(at);
    if (siblingAt >= 0) listed.push(siblingAt);
  }

  /**
   * Cancel the user's open orders in the markets `matches` accepts, oldest first; the offsets of
   * the finish records of what was cancelled, in the result's order (cancel.ts).
   */
  private cancelMatching(holder: number, matches: (cm: ColumnarMarket) => boolean): number[] {
    const ord = this.table.rows;
    const links = this.table.links;
    const targets: number[] = [];
    for (
      let o = this.table.firstOfUser(holder);
      o !== NONE;
      o = links[o * LINK_WIDTH + LINK_USER_NEXT]!
    ) {
      targets.push(ord[o * ORDER_WIDTH + O_ID]!);
    }
    targets.sort((a, b) => a - b);
    const listed: number[] = [];
    for (const id of targets) {
      // An OCO sibling cancelled earlier in this loop is already closed.
      const o = this.table.slotOf(id);
      if (o === NONE) continue;
      if (matches(this.markets[this.table.rows[o * ORDER_WIDTH + O_MARKET]!]!)) {
        this.cancelOrder(o, listed);
      }
    }
    return listed;
  }

  private cancelAll(cmd: OrderCancelAllCommand): CoreResult {
    const h = this.holders.findUser(cmd.userId);
    if (h < 0) return knownUser(this.meta, cmd.userId) as Rejection;
    let market: ColumnarMarket | undefined;
    if (cmd.market !== undefined) {
      const found = this.marketOf(cmd.market);
      if (!(found instanceof ColumnarMarket)) return found;
      market = found;
    }
    const listed = this.cancelMatching(h, (cm) => market === undefined || cm === market);
    return this.accepted(RESULT_ORDERS, listed);
  }

  private cancelAllByCoin(cmd: OrderCancelAllByCoinCommand): CoreResult {
    const h = this.holders.findUser(cmd.userId);
    if (h < 0) return knownUser(this.meta, cmd.userId) as Rejection;
    const bad = knownAsset(this.meta, cmd.asset);
    if (bad !== null) return bad;
    const asset = this.meta.assets.get(cmd.asset)!.index;
    const listed = this.cancelMatching(h, (cm) => cm.stock === asset || cm.money === asset);
    return this.accepted(RESULT_ORDERS, listed);
  }

  // --- the event log --------------------------------------------------------------------------
  // NOTE: the writers stay methods of the core, though they are a job of their own. Moved into a
  // class of their own (the log, its chunks and the result's records behind one field), the engine
  // ran at 0.853 to 0.949 of this code's rate per CPU second on the bench's workload (six runs,
  // both engines in one process, in alternating chunks); with the balance legs still written
  // here, 0.954 to 0.972 (three runs). The bench measures exactly this path.

  /**
   * The command's result: RESULT_ORDER shows the command's order; RESULT_ORDERS the records at
   * `listed` (offsets from logStart), or else the OCO pair's.
   */
  private accepted(resultKind: number, listed?: number[]): ApplyResult {
    const offsets =
      resultKind === RESULT_ORDERS ? (listed ?? [this.resultAt, this.resultAt2]) : null;
    const count = offsets === null ? 1 : offsets.length;
    // The trailer follows the records (records.ts); a full chunk may move them first.
    const at = this.reserve(T_OFFSETS + count);
    const start = this.logStart;
    const log = this.log;
    log[at + T_START] = start;
    log[at + T_TIME] = this.time;
    log[at + T_KIND] = resultKind;
    log[at + T_COUNT] = count;
    if (offsets === null) log[at + T_OFFSETS] = start + this.resultAt;
    else for (let k = 0; k < count; k++) log[at + T_OFFSETS + k] = start + offsets[k]!;
    return new ColumnarAccepted(this.chunk, at);
  }

  /**
   * No result returned so far will be read again: the log may reuse their memory, the current
   * chunk's too. The next command writes from the chunk's start, so a host that releases after
   * every batch writes its events into the same few tens of kilobytes, which stay in the cache,
   * instead of walking through megabytes of chunks (on the bench's workload, with the baseline
   * in the same process, the ratio rose from 3.14–3.36 to 3.39–3.51; columnar-engine.md).
   */
  releaseResults(): void {
    this.chunks.release();
    // A result made in this chunk reads its records no more (ColumnarAccepted checks).
    this.chunk.generation++;
    this.logStart = 0;
    this.logLength = 0;
  }

  /** Room for `n` numbers at the end of the log; a full chunk moves the command to a new one. */
  private reserve(n: number): number {
    const at = this.logLength;
    if (at + n > this.log.length) return this.reserveInNewChunk(n);
    this.logLength = at + n;
    return at;
  }

  /**
   * `reserve` when the chunk is full: the command's records so far move to a new chunk. NOTE:
   * apart from `reserve`, which every record's writer inlines: with this in it, `reserve` was
   * 193 bytes of bytecode, each inlined copy spending that much of what the compiler inlines
   * into one function ("Rare paths out of inlined functions",
   * docs/decisions/columnar-engine.md).
   */
  private reserveInNewChunk(n: number): number {
    const at = this.logLength;
    const start = this.logStart;
    const written = at - start;
    const next = this.chunks.next(Math.max(LOG_CHUNK, 2 * (written + n)));
    next.data.set(this.log.subarray(start, at));
    this.chunks.retire(this.chunk);
    this.chunk = next;
    this.log = next.data;
    this.logStart = 0;
    this.balanceAt -= start;
    this.logLength = written + n;
    return written;
  }

  /**
   * Record an order event with the order's current view; the record's offset from logStart (a
   * full chunk moves the command's records, not their offsets from its start).
   */
  private emitOrder(type: number, o: number): number {
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    const at = this.reserve(orderRecordSize(ord, row));
    const log = this.log;
    log[at] = K_ORDER;
    log[at + 1] = ++this.meta.lastEventSeq;
    log[at + 2] = type;
    writeOrderRecord(log, at, ord, row, this.holders.ownerCode(ord[row + O_USER]!));
    const fromStart = at - this.logStart;
    const id = ord[row + O_ID];
    if (id === this.resultId) this.resultAt = fromStart;
    else if (id === this.resultId2) this.resultAt2 = fromStart;
    return fromStart;
  }

  /** Start a balance event; its legs follow, and endBalance writes their count. */
  private beginBalance(business: number, orderId: number, dealId: number): void {
    const at = this.reserve(BALANCE_HEAD);
    this.balanceAt = at;
    const log = this.log;
    log[at] = K_BALANCE;
    log[at + 1] = ++this.meta.lastEventSeq;
    log[at + 2] = business;
    log[at + 3] = orderId;
    log[at + 4] = dealId;
  }

  private endBalance(): void {
    const at = this.balanceAt;
    this.log[at + 5] = (this.logLength - at - BALANCE_HEAD) / LEG_RECORD;
  }

  /** Move a balance and record the leg; a balance below zero is a bug, never input. */
  private move(
    holder: number,
    asset: number,
    kind: 0 | 1 | 2,
    availableDelta: number,
    frozenDelta: number,
  ): void {
    const balances = this.balances;
    const cell = balances.cell(holder, asset, kind);
    if (!balances.move(cell, availableDelta, frozenDelta)) {
      this.refusedMove(holder, asset, cell, availableDelta, frozenDelta);
    }
    const values = balances.values;
    const at = this.reserve(LEG_RECORD);
    const log = this.log;
    log[at] = this.holders.ownerCode(holder);
    log[at + 1] = kind;
    log[at + 2] = asset;
    log[at + 3] = availableDelta;
    log[at + 4] = frozenDelta;
    log[at + 5] = values[cell + CELL_AVAILABLE]!;
    log[at + 6] = values[cell + CELL_AVAILABLE + 1]!;
    log[at + 7] = values[cell + CELL_FROZEN]!;
    log[at + 8] = values[cell + CELL_FROZEN + 1]!;
  }

  /**
   * A move the balance table refused: a balance below zero is a bug, never input. Apart from
   * `move`, whose calls the settlement needs inlined (see ceilDivN in fastmath.ts).
   */
  private refusedMove(
    holder: number,
    asset: number,
    cell: number,
    availableDelta: number,
    frozenDelta: number,
  ): never {
    const balances = this.balances;
    throw new InvariantViolation(
      `negative balance: holder ${holder} asset ${asset} ` +
        `available ${balances.available(cell)} + ${availableDelta} ` +
        `frozen ${balances.frozen(cell)} + ${frozenDelta}`,
    );
  }
}
