// The whole engine state and the event log of the command being applied.
import { AppliedIds } from './appliedIds.js';
import { checkDoubleEntry } from './doubleEntry.js';
import { Holder, UserState } from './ledger.js';
import type { Market } from './market.js';
import { type Order, orderView } from './order.js';
import { OrderIndex } from './orderIndex.js';
import type {
  AccountKind,
  BalanceLeg,
  EngineEvent,
  OrderEvent,
  OrderView,
  UserId,
} from './types.js';
import { UserIndex } from './userIndex.js';

export interface AssetState {
  readonly name: string;
  /** Position in the order assets were added: indexes per-holder account sets. */
  readonly index: number;
  readonly decimals: number;
  deposited: bigint;
  withdrawn: bigint;
}

/** Funds set aside by a balance command: a withdrawal in progress or a product's freeze. */
export interface Hold {
  readonly kind: 'withdraw' | 'freeze';
  readonly businessId: string;
  /**
   * Its user's id, not the user: the columnar core keeps no user object between commands, and
   * lends one to a command's handler only while it runs (columnar/holders.ts).
   */
  readonly userId: UserId;
  readonly asset: string;
  readonly account: AccountKind;
  readonly amount: bigint;
  readonly purpose: string;
}

export const LTT = 'LTT';

export class State {
  readonly assets = new Map<string, AssetState>();
  readonly markets = new Map<string, Market>();
  readonly users = new UserIndex<UserState>();
  readonly fees = new Holder('fees');
  readonly rounding = new Holder('rounding');
  readonly external = new Holder('external');
  /** Open orders (resting, and stops not yet triggered). */
  readonly orders = new OrderIndex<Order>();
  /** Holds by `${kind}:${businessId}`, removed once completed or released. */
  readonly holds = new Map<string, Hold>();
  /** Applied business ids by `${command type}:${businessId}`. */
  readonly done = new AppliedIds();
  /** Open orders a user may have at once (limits.set); 0: no cap. */
  openOrdersPerUserMax = 0;
  lastEventSeq = 0;
  nextOrderId = 1;
  nextDealId = 1;
  /** The time of the command being applied. */
  time = 0;
  /** Events of the command being applied. */
  events: EngineEvent[] = [];
  /**
   * The view in the last order event and its order, while still current: a command's result
   * shares it instead of making another. NOTE: settleFill clears it, as a fill changes views.
   */
  lastView: OrderView | null = null;
  lastViewOrder: Order | null = null;

  /** The order's current view (shared with its last event when that is still current). */
  viewOf(o: Order): OrderView {
    return this.lastViewOrder === o ? this.lastView! : orderView(o);
  }

  user(userId: UserId): UserState {
    let user = this.users.get(userId);
    if (user === undefined) {
      user = new UserState(userId);
      this.users.set(userId, user);
    }
    return user;
  }

  emitOrder(type: OrderEvent['type'], o: Order): void {
    const order = orderView(o);
    this.lastView = order;
    this.lastViewOrder = o;
    this.events.push({ seq: ++this.lastEventSeq, time: this.time, type, order });
  }

  emitBalance(
    business: string,
    businessId: string | null,
    orderId: number,
    dealId: number,
    legs: BalanceLeg[],
  ): void {
    checkDoubleEntry(legs, business, orderId);
    this.events.push({
      seq: ++this.lastEventSeq,
      time: this.time,
      type: 'balance',
      business,
      businessId,
      orderId,
      dealId,
      legs,
    });
  }
}
