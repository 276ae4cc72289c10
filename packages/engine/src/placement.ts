// What every order command checks first, and how a new order is made.
import { reject } from './errors.js';
import { UserState } from './ledger.js';
import { buyFreezeFor } from './lifecycle.js';
import { Market } from './market.js';
import { Order } from './order.js';
import { LTT, type State } from './state.js';
import type {
  Algorithm,
  OrderLimitCommand,
  OrderMarketCommand,
  OrderOcoCommand,
  OrderSource,
  OrderStopLimitCommand,
  OrderType,
  Rejection,
  SelfTradePrevention,
  Side,
  TimeInForce,
} from './types.js';
import { checkSelfTrade, checkSide, checkSource, knownMarket, knownUser } from './validate.js';

export const INSUFFICIENT = 'Not enough on balance';

/** Who places an order where, once those are known to be valid. */
export class Placement {
  constructor(
    readonly user: UserState,
    readonly market: Market,
    readonly side: Side,
    /** The command's self-trade prevention, given to every order it makes. */
    readonly selfTrade: SelfTradePrevention,
  ) {}

  /** Trade balance available for this side: stock to sell, money to buy with. */
  available(): bigint {
    const m = this.market;
    const trade =
      this.side === 1 ? this.user.accounts(m.stock).trade : this.user.accounts(m.money).trade;
    return trade.available;
  }

  /**
   * Whether the order's funds are LTT (a sell of LTT, a buy on a market priced in LTT) and its
   * user pays fees in LTT: such an order freezes its funds before it trades, as a resting
   * order's are, so that its fees in LTT come only from the LTT beyond them.
   * NOTE: taking them from the LTT the order was about to sell or pay with, a user selling all
   * their LTT, or buying with all of it in many small fills (each fee in LTT rounded up on its
   * own, where the funds check rounds the fee in money up once), spent more LTT than they had,
   * and the negative balance halted the engine.
   */
  freezesFirst(): boolean {
    const m = this.market;
    return this.user.customFee && (this.side === 1 ? m.stock : m.money) === LTT;
  }

  /** What an order of `amount` at `price` must have available. */
  fundsNeeded(amount: bigint, price: bigint): bigint {
    return this.side === 1 ? amount : buyFreezeFor(this.market, amount, price);
  }

  /** A new order with the next id (price 0 for a market order). */
  order(
    s: State,
    type: OrderType,
    algorithm: Algorithm,
    timeInForce: TimeInForce,
    source: OrderSource,
    amount: bigint,
    total: bigint,
    price: bigint,
    stopPrice: bigint,
    limitPrice: bigint,
  ): Order {
    const id = s.nextOrderId++;
    const { user, market, side } = this;
    const o = new Order(
      id,
      user,
      market,
      side,
      type,
      algorithm,
      timeInForce,
      source,
      amount,
      total,
      price,
      stopPrice,
      limitPrice,
      s.time,
    );
    o.selfTrade = this.selfTrade;
    return o;
  }
}

type OrderCommand =
  | OrderLimitCommand
  | OrderMarketCommand
  | OrderStopLimitCommand
  | OrderOcoCommand;

/** The checks every order command shares: user, market, side, source. */
export function checkPlacement(s: State, cmd: OrderCommand): Placement | Rejection {
  const user = knownUser(s, cmd.userId);
  if (!(user instanceof UserState)) return user;
  const market = knownMarket(s, cmd.market);
  if (!(market instanceof Market)) return market;
  const bad =
    checkSide(cmd.side) ?? checkSource(cmd.source) ?? checkSelfTrade(cmd.selfTradePrevention);
  if (bad !== null) return bad;
  return new Placement(user, market, cmd.side, cmd.selfTradePrevention ?? 'cancelNewest');
}

/** Whether a limit order with this time in force may rest on the book (IOC and FOK never do). */
export function mayRest(timeInForce: unknown): boolean {
  return timeInForce === 'GTC' || timeInForce === 'POST_ONLY';
}

/**
 * Null when a user with `open` open orders may place an order that opens `adding` more (2 for
 * an OCO) under the cap of limits.set (`cap`, 0 for none); else the rejection.
 */
export function checkOpenOrderCap(cap: number, open: number, adding: number): Rejection | null {
  if (cap === 0 || open + adding <= cap) return null;
  return reject('too_many_orders', `At most ${cap} open orders per user: cancel some first`);
}

export function insufficient(field: string): Rejection {
  return reject('insufficient_balance', INSUFFICIENT, field);
}
