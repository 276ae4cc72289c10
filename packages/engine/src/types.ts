// The engine's public vocabulary: events and results out, read-only views, snapshots (the
// commands are in commands.ts and re-exported here).
// Amounts and prices are bigint minor units. A price is money-asset minor units per one whole
// stock unit; an amount is stock minor units. Times are Unix milliseconds from the command.

export * from './commands.js';

/** A user id, as the host's database assigns it (a positive safe integer). */
export type UserId = number;

/** Owners that are not users: collected fees, rounding remainders, the outside world. */
export type SystemOwner = 'fees' | 'rounding' | 'external';
export type Owner = UserId | SystemOwner;

/** A user's separate balances per asset (SPEC.md §3: main, trade, margin). */
export type AccountKind = 'main' | 'trade' | 'margin';

export type Side = 1 | 2; // 1 sell, 2 buy (API.md)
export const SIDE_SELL = 1;
export const SIDE_BUY = 2;
export type OrderType = 1 | 2; // 1 limit, 2 market
export type Algorithm = 0 | 1 | 2; // 0 plain, 1 stop-limit, 2 OCO leg
/** 0 filled, 1 cancelled, 2 cancelled because the OCO sibling acted, 3 market ran out of book. */
export type FinishReason = 0 | 1 | 2 | 3;
export type TimeInForce = 'GTC' | 'IOC' | 'FOK' | 'POST_ONLY';
export type OrderSource = 'web' | 'api';
/**
 * What happens when a taker (a new order, or a stop as it fires) reaches a resting order of its
 * own user, by the taker's choice: `cancelNewest` (the default) cancels the taker's rest and
 * leaves the resting order; `cancelOldest` cancels the resting order and the taker goes on
 * matching; `cancelBoth` cancels both.
 */
export type SelfTradePrevention = 'cancelNewest' | 'cancelOldest' | 'cancelBoth';

// ---------------------------------------------------------------------------------------------
// Views

/** The order object of API.md with bigint amounts; times in Unix milliseconds. */
export interface OrderView {
  id: number;
  userId: UserId;
  platform: OrderSource;
  algorithm: Algorithm;
  market: string;
  /** 0 spot (trade account), 1 margin. */
  account: 0 | 1;
  side: Side;
  type: OrderType;
  timeInForce: TimeInForce;
  /** Stock amount; 0 for a market buy placed by total. */
  amount: bigint;
  /** Money to spend for a market buy by total, else 0. */
  total: bigint;
  /** Limit price; 0 for a market order. */
  price: bigint;
  stop_price: bigint;
  limit_price: bigint;
  /** Stock not yet filled (for a market buy by total: money not yet spent). */
  left: bigint;
  deal_stock: bigint;
  deal_money: bigint;
  /** Fee paid in the market's money asset. */
  deal_fee: bigint;
  /** Fee paid in LTT instead (custom fee on). */
  deal_fee_ltt: bigint;
  triggered: boolean;
  oco_id: number;
  ctime: number;
  mtime: number;
  /** 0 while active. */
  ftime: number;
  /** null while active. */
  finish_reason: FinishReason | null;
}

export interface BalancePair {
  available: bigint;
  frozen: bigint;
}

/** A user's balances: per asset, per account kind. Assets never touched are absent. */
export type UserBalances = Record<string, Record<AccountKind, BalancePair>>;

/** What a market is made of, as market.add gives it (commands.ts) and a query shows it. */
export interface MarketRules {
  /** STOCK_MONEY, e.g. "BTC_USDT". */
  name: string;
  stock: string;
  money: string;
  /** In money minor units (per whole stock unit). */
  tickSize: bigint;
  /** In stock minor units. */
  lotSize: bigint;
  /** In stock minor units. */
  minAmount: bigint;
  /** Decimals allowed in a price as shown to users (at most the money asset's decimals). */
  pricePrecision: number;
  /** Decimals allowed in an amount (at most the stock asset's decimals). */
  amountPrecision: number;
  /** Parts per million: 1000 = 0.1%. */
  makerFeePpm: number;
  takerFeePpm: number;
}

export interface MarketView extends MarketRules {
  /** The most one order may be worth, in money minor units (market.setLimits); absent: none. */
  orderValueMax?: bigint;
  /** The largest amount of one order, in stock minor units (market.setLimits); absent: none. */
  orderAmountMax?: bigint;
}

export interface AssetView {
  asset: string;
  decimals: number;
}

export interface AssetTotal {
  asset: string;
  /** Sum over every account (users and system accounts other than `external`). */
  total: bigint;
  deposited: bigint;
  withdrawn: bigint;
}

/** Funds a product set aside with `balance.freeze`, not yet released or settled. */
export interface FreezeView {
  businessId: string;
  userId: UserId;
  asset: string;
  account: AccountKind;
  amount: bigint;
  purpose: string;
}

/** Price levels, best first; amounts are the sum of resting orders at that (merged) price. */
export interface DepthView {
  asks: [price: bigint, amount: bigint][];
  bids: [price: bigint, amount: bigint][];
}

// ---------------------------------------------------------------------------------------------
// Events

interface EventBase {
  /** Global, increasing by one across every event the engine emits. */
  seq: number;
  time: number;
}

export interface OrderEvent extends EventBase {
  type: 'order.put' | 'order.update' | 'order.finish' | 'order.triggered';
  order: OrderView;
}

export interface DealEvent extends EventBase {
  type: 'deal';
  id: number;
  market: string;
  price: bigint;
  amount: bigint;
  /** amount × price in money minor units, exact before rounding, rounded down. */
  total: bigint;
  takerSide: Side;
  makerOrderId: number;
  takerOrderId: number;
  makerUserId: UserId;
  takerUserId: UserId;
  makerFee: bigint;
  makerFeeAsset: string;
  takerFee: bigint;
  takerFeeAsset: string;
}

/** One side of a double-entry movement. Per asset, the deltas of one event sum to zero. */
export interface BalanceLeg {
  owner: Owner;
  account: AccountKind;
  asset: string;
  availableDelta: bigint;
  frozenDelta: bigint;
  /** The owner's resulting balances on that account. */
  available: bigint;
  frozen: bigint;
}

export interface BalanceEvent extends EventBase {
  type: 'balance';
  /** deposit, withdraw, transfer, freeze, unfreeze, settle, order (freeze/release), trade, ... */
  business: string;
  /** The command's business id, or null for movements made by orders and trades. */
  businessId: string | null;
  /** The order that caused it, or 0. */
  orderId: number;
  /** The deal that caused it, or 0. */
  dealId: number;
  legs: BalanceLeg[];
}

export type EngineEvent = OrderEvent | DealEvent | BalanceEvent;

// ---------------------------------------------------------------------------------------------
// Results

export type RejectCode =
  | 'invalid_command'
  | 'invalid_time'
  | 'asset_exists'
  | 'asset_not_found'
  | 'invalid_decimals'
  | 'market_exists'
  | 'market_not_found'
  | 'invalid_market'
  | 'user_not_found'
  | 'invalid_user'
  | 'invalid_amount'
  | 'amount_precision'
  | 'amount_off_lot'
  | 'amount_too_small'
  | 'amount_too_large'
  | 'invalid_price'
  | 'price_precision'
  | 'price_off_tick'
  | 'price_too_large'
  | 'invalid_stop_price'
  | 'invalid_oco_prices'
  | 'insufficient_balance'
  | 'not_enough_liquidity'
  | 'fok_not_filled'
  | 'post_only_would_take'
  | 'order_not_found'
  | 'invalid_account'
  | 'invalid_business_id'
  | 'business_id_conflict'
  | 'withdraw_not_found'
  | 'withdraw_finished'
  | 'freeze_not_found'
  | 'freeze_finished'
  | 'invalid_fee'
  | 'too_many_orders'
  | 'order_value_too_large'
  | 'order_amount_too_large';

export interface Rejection {
  ok: false;
  code: RejectCode;
  message: string;
  field?: string;
}

/** What a successful command returns besides its events. */
export type CommandResult =
  | { kind: 'none' }
  | { kind: 'order'; order: OrderView }
  | { kind: 'orders'; orders: OrderView[] }
  | { kind: 'balance'; userId: UserId; asset: string; balances: Record<AccountKind, BalancePair> };

export interface Accepted {
  ok: true;
  events: EngineEvent[];
  result: CommandResult;
}

export type ApplyResult = Accepted | Rejection;

// ---------------------------------------------------------------------------------------------
// Snapshot: plain JSON, bigints as decimal strings.

export interface EngineSnapshot {
  version: 3;
  counters: { lastEventSeq: number; nextOrderId: number; nextDealId: number };
  assets: { asset: string; decimals: number; deposited: string; withdrawn: string }[];
  markets: SnapshotMarket[];
  /** The limits of limits.set; absent when none is set. */
  limits?: { openOrdersPerUserMax: number };
  users: { userId: UserId; customFee: boolean }[];
  /** Every non-zero balance: [owner, account, asset, available, frozen]. */
  balances: [Owner, AccountKind, string, string, string][];
  /** Open orders (book orders in price-time order, then untriggered stops), by market. */
  orders: SnapshotOrderRow[];
  holds: SnapshotHold[];
  /** Business ids already applied, by key, with the first result, for idempotent repeats. */
  done: SnapshotDoneRow[];
}

/**
 * An applied business id as a row: its key (`${command type}:${businessId}`), the request's
 * fingerprint and its first result. A balance result (what every balance command returns) is
 * the array [userId, asset, then available and frozen of main, trade and margin as decimal
 * strings]; any other result is its plain JSON.
 */
export type SnapshotDoneRow = [key: string, fingerprint: string, result: unknown];

/** The second format: each applied id a keyed entry, its result as plain JSON. Restore reads it. */
export interface EngineSnapshotV2 extends Omit<EngineSnapshot, 'version' | 'done'> {
  version: 2;
  done: { key: string; fingerprint: string; result: unknown }[];
}

/** The first format: as the second, with each open order a keyed order view. Restore reads it. */
export interface EngineSnapshotV1 extends Omit<EngineSnapshotV2, 'version' | 'orders'> {
  version: 1;
  orders: SnapshotOrder[];
}

export interface SnapshotMarket {
  name: string;
  stock: string;
  money: string;
  tickSize: string;
  lotSize: string;
  minAmount: string;
  pricePrecision: number;
  amountPrecision: number;
  makerFeePpm: number;
  takerFeePpm: number;
  /** Last trade price, "0" before the first trade. */
  last: string;
  /** market.setLimits' cap on an order's value, only when one is set. */
  orderValueMax?: string;
  /** market.setLimits' cap on an order's amount, only when one is set. */
  orderAmountMax?: string;
}

/**
 * An open order as a row of plain values (bigints as decimal strings), in this order: the
 * order view's fields (id, userId, market, side, type, algorithm, timeInForce, platform,
 * amount, total, price, stop_price, limit_price, left, deal_stock, deal_money, deal_fee,
 * deal_fee_ltt, triggered as 0/1, oco_id, ctime, mtime), then the accounting needed to resume
 * it exactly (frozen, moneyNum, feeNum, direction), and its self-trade prevention when it is
 * not the default cancelNewest (so that a state without any has the same snapshot, and hash,
 * as before the field existed). A row instead of keyed objects keeps a snapshot of a large book
 * short and quick to write and read.
 */
export type SnapshotOrderRow = [
  id: number,
  userId: UserId,
  market: string,
  side: Side,
  type: OrderType,
  algorithm: Algorithm,
  timeInForce: TimeInForce,
  platform: OrderSource,
  amount: string,
  total: string,
  price: string,
  stopPrice: string,
  limitPrice: string,
  left: string,
  dealStock: string,
  dealMoney: string,
  dealFee: string,
  dealFeeLtt: string,
  triggered: 0 | 1,
  ocoId: number,
  ctime: number,
  mtime: number,
  frozen: string,
  moneyNum: string,
  feeNum: string,
  direction: number,
  selfTrade?: SelfTradePrevention,
];

/** An open order in the version 1 format, with the internal accounting needed to resume it. */
export interface SnapshotOrder {
  view: Record<string, unknown>;
  /** Funds still frozen for this order (stock for a sell, money for a buy). */
  frozen: string;
  /** Exact money numerator so far (money minor units × 10^stock decimals). */
  moneyNum: string;
  /** Exact money-fee numerator so far (× 10^6 more). */
  feeNum: string;
  /** For an untriggered stop: 1 fires when last ≥ stop, -1 when last ≤ stop. */
  direction: number;
}

export interface SnapshotHold {
  businessId: string;
  kind: 'withdraw' | 'freeze';
  userId: UserId;
  asset: string;
  account: AccountKind;
  amount: string;
  purpose: string;
}
