// The columnar core: the engine's state in typed arrays, every quantity an exact number, for
// limit, market, stop-limit, OCO and cancel commands (docs/decisions/columnar-engine.md).
//
// It does what the bigint core (place.ts, conditional.ts, match.ts, settle.ts, lifecycle.ts)
// does, check for check and event for event; the differential test holds the two to that. What
// it cannot do it *declines* before changing anything, and Engine hands the command, and the
// state, to the bigint core. It declines: every order of a market whose deal fractions are not
// safe integers; an order whose amount passes 2^53, or whose fills at the furthest price it can
// trade at could move 2^53 minor units or more (a fill whose numerators pass 2^53 is settled in
// bigint: settleBig); an order that may trigger stops whose fills could (see triggersFit); a
// limit order whose rest could take its side of the book's total of amounts past 2^53 lots; a
// deposit that would take an asset's deposits past what two limbs hold (2^104).
//
// Everything else that is rare and touches no order (assets, markets, users, balance commands)
// runs through the bigint core's own handlers on `meta`, a State that holds the registry (assets,
// markets, holds, applied business ids, counters) while the users and their balances live in the
// HolderRegistry's columns and the balance table: the command's users are lent to `meta` and
// their balances made there from the table before the handler, and stored back and taken back
// after it.

import { applyToState } from '../dispatch.js';
import { reject } from '../errors.js';
import { SAFE_MAX_BIG } from '../fastmath.js';
import { State } from '../state.js';
import type {
  ApplyResult,
  Command,
  OrderCancelAllByCoinCommand,
  OrderCancelAllCommand,
  OrderCancelCommand,
  Rejection,
} from '../types.js';
import { knownAsset, knownUser } from '../validate.js';
import { ColumnarMarket } from './columnarMarket.js';
import { ConditionalOrders } from './conditionalOrders.js';
import { LIMBS_MAX_BIG } from './limbs.js';
import { type CoreResult, DECLINED } from './orderBounds.js';
import {
  LINK_USER_NEXT,
  LINK_WIDTH,
  NONE,
  O_ID,
  O_MARKET,
  O_USER,
  ORDER_WIDTH,
} from './orderRow.js';
import { RESULT_ORDER, RESULT_ORDERS } from './recordLayout.js';

export { type CoreResult, DECLINED } from './orderBounds.js';

/**
 * The columnar core: its state and event log, settlement, matching and order placement come
 * from the layers it extends (recordedState.ts); here, what a command does.
 */
export class ColumnarCore extends ConditionalOrders {
  /** An empty core; with a state, one whose registry it is (see loadRegistry). */
  constructor(meta: State = new State()) {
    super(meta);
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
    this.holders.takeBackAll();
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
      case 'balance.deposit':
        if (this.depositOverflows(cmd.asset, cmd.amount)) return DECLINED;
        break;
      case 'market.setLimits': {
        const result = this.applyRare(cmd);
        if (typeof cmd.market === 'string') this.marketsByName.get(cmd.market)?.syncLimits();
        return result;
      }
    }
    return this.applyRare(cmd);
  }

  // --- the rare commands, through the bigint core's handlers ---------------------------------

  private depositOverflows(asset: unknown, amount: unknown): boolean {
    if (typeof asset !== 'string' || typeof amount !== 'bigint') return false;
    const a = this.meta.assets.get(asset);
    // Every balance of an asset is at most what was ever deposited of it, and `external` at
    // least minus that: below 2^104, every balance fits two limbs.
    return a !== undefined && a.deposited + amount > LIMBS_MAX_BIG;
  }

  private applyRare(cmd: Command): ApplyResult {
    const meta = this.meta;
    const holders = this.holders;
    // Before: a hold the command ends is gone after it. After: users it made known.
    const before = holders.involved(cmd);
    holders.lend(before);
    holders.load(before);
    const result = applyToState(meta, cmd);
    this.registerNew();
    holders.registerUsersOf(cmd);
    const after = holders.merged(before, holders.involved(cmd));
    holders.store(after);
    holders.takeBack(after);
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

  /** Cancel an open order in its market (cancelOpen). */
  private cancelOrder(o: number, listed: number[] | null): void {
    this.cancelOpen(this.markets[this.table.rows[o * ORDER_WIDTH + O_MARKET]! | 0]!, o, listed);
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
}
