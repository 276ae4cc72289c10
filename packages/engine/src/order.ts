// An order's mutable record and its public view.
import { toSafe } from './fastmath.js';
import type { Balance, UserState } from './ledger.js';
import type { Level, Market } from './market.js';
import type {
  Algorithm,
  FinishReason,
  OrderSource,
  OrderType,
  OrderView,
  SelfTradePrevention,
  Side,
  TimeInForce,
} from './types.js';

/** Every field is set in the constructor so all orders share one hidden class. */
export class Order {
  readonly id: number;
  readonly user: UserState;
  readonly market: Market;
  readonly side: Side;
  readonly type: OrderType;
  readonly algorithm: Algorithm;
  readonly timeInForce: TimeInForce;
  readonly source: OrderSource;
  readonly amount: bigint;
  /** Market buy by total: the money budget, fee included. */
  readonly total: bigint;
  /** The price this order trades at (0 for a market order). */
  readonly price: bigint;
  /** price / tickSize, for fast comparisons. */
  readonly ticks: number;
  readonly stopPrice: bigint;
  readonly limitPrice: bigint;
  /** Stock not yet filled; for a market buy by total, money not yet spent. */
  left: bigint;
  dealStock = 0n;
  dealMoney = 0n;
  dealFee = 0n;
  dealFeeLtt = 0n;
  // NOTE: moneyUnits, feeUnits, ctime, mtime and ftime have no initializer here; the
  // constructor sets them. A field that V8 first sees holding a small integer becomes a double
  // field once some order stores a number beyond 2^31 in it (a time in ms, a large count), and
  // from then on every order keeps that field in a heap number of its own, even a 0: three more
  // objects for the collector to mark per resting order. A field declared without a value
  // starts as undefined, so it stays a tagged field: a small integer is stored in place, and a
  // time is the command's own heap number, shared.
  /**
   * moneyNum in the market's DealRatios.moneyUnit while that count is a safe integer, else -1
   * (then moneyBig holds moneyNum); likewise feeUnits and feeBig for feeNum.
   */
  moneyUnits: number;
  moneyBig = 0n;
  feeUnits: number;
  feeBig = 0n;
  /** Funds held for this order on the trade account (stock for a sell, money for a buy). */
  frozen = 0n;
  /** Whether fills are paid from `frozen` (resting or stop orders) or from available. */
  fundsFrozen = false;
  triggered = false;
  ocoId = 0;
  sibling: Order | null = null;
  /** Untriggered stop: 1 fires when last ≥ stop, -1 when last ≤ stop. */
  direction = 0;
  /** What it does as a taker on meeting its user's resting order (a stop, once fired). */
  selfTrade: SelfTradePrevention = 'cancelNewest';
  readonly ctime: number;
  mtime: number;
  ftime: number;
  finishReason: FinishReason | null = null;
  level: Level | null = null;
  prev: Order | null = null;
  next: Order | null = null;
  /** Links in the user's list of open orders. */
  userPrev: Order | null = null;
  userNext: Order | null = null;
  /** The user's trade balances for the market's assets, cached for the hot path. */
  readonly stockBal: Balance;
  readonly moneyBal: Balance;

  // NOTE: positional, so that making an order allocates nothing besides the order.
  constructor(
    id: number,
    user: UserState,
    market: Market,
    side: Side,
    type: OrderType,
    algorithm: Algorithm,
    timeInForce: TimeInForce,
    source: OrderSource,
    amount: bigint,
    total: bigint,
    price: bigint,
    stopPrice: bigint,
    limitPrice: bigint,
    time: number,
  ) {
    this.id = id;
    this.user = user;
    this.market = market;
    this.side = side;
    this.type = type;
    this.algorithm = algorithm;
    this.timeInForce = timeInForce;
    this.source = source;
    this.amount = amount;
    this.total = total;
    this.price = price;
    this.ticks = price === 0n ? 0 : market.ticksOf(price);
    this.stopPrice = stopPrice;
    this.limitPrice = limitPrice;
    this.left = total > 0n ? total : amount;
    this.ctime = time;
    this.mtime = time;
    this.stockBal = user.accounts(market.stock).trade;
    this.moneyBal = user.accounts(market.money).trade;
    this.ftime = 0;
    const units = market.ratios === null ? -1 : 0;
    this.moneyUnits = units;
    this.feeUnits = units;
  }

  /** Exact Σ amount × price of the fills (money minor units × 10^stock decimals). */
  get moneyNum(): bigint {
    const units = this.moneyUnits;
    return units >= 0 ? BigInt(units) * this.market.ratios!.moneyUnit : this.moneyBig;
  }
  set moneyNum(value: bigint) {
    this.moneyUnits = unitsOf(value, this.market.ratios?.moneyUnit);
    this.moneyBig = this.moneyUnits >= 0 ? 0n : value;
  }

  /** Exact Σ amount × price × fee ppm of the fills whose fee was paid in money. */
  get feeNum(): bigint {
    const units = this.feeUnits;
    return units >= 0 ? BigInt(units) * this.market.ratios!.feeUnit : this.feeBig;
  }
  set feeNum(value: bigint) {
    this.feeUnits = unitsOf(value, this.market.ratios?.feeUnit);
    this.feeBig = this.feeUnits >= 0 ? 0n : value;
  }

  /** The balance this order's funds are held on (stock to sell, money to buy with). */
  get fundingBalance(): Balance {
    return this.side === 1 ? this.stockBal : this.moneyBal;
  }

  get isStopWaiting(): boolean {
    return this.direction !== 0 && !this.triggered;
  }
}

/** value / unit when that is a whole safe integer, else -1. */
function unitsOf(value: bigint, unit: bigint | undefined): number {
  if (unit === undefined || value < 0n || value % unit !== 0n) return -1;
  return toSafe(value / unit);
}

/** The order object of API.md (bigint amounts, times in ms). */
export function orderView(o: Order): OrderView {
  return {
    id: o.id,
    userId: o.user.userId,
    platform: o.source,
    algorithm: o.algorithm,
    market: o.market.name,
    account: 0,
    side: o.side,
    type: o.type,
    timeInForce: o.timeInForce,
    amount: o.amount,
    total: o.total,
    price: o.price,
    stop_price: o.stopPrice,
    limit_price: o.limitPrice,
    left: o.left,
    deal_stock: o.dealStock,
    deal_money: o.dealMoney,
    deal_fee: o.dealFee,
    deal_fee_ltt: o.dealFeeLtt,
    triggered: o.triggered,
    oco_id: o.ocoId,
    ctime: o.ctime,
    mtime: o.mtime,
    ftime: o.ftime,
    finish_reason: o.finishReason,
  };
}
