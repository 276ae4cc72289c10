import { z } from 'zod';

/**
 * Trading over HTTP (API.md "Trading"): the order object, the bodies of the conditional orders,
 * the history filters, and the messages of SPEC.md §5 (price rules) and §8 (notices).
 */

/** The order object of API.md, the same over HTTP and the socket. */
export interface OrderJson {
  id: number;
  platform: string;
  /** 0 plain, 1 stop-limit, 2 OCO leg. */
  algorithm: number;
  market: string;
  /** 0 spot, 1 margin. */
  account: number;
  /** 1 sell, 2 buy. */
  side: number;
  /** 1 limit, 2 market. */
  type: number;
  amount: string;
  total: string;
  price: string;
  stop_price: string;
  limit_price: string;
  left: string;
  deal_stock: string;
  deal_money: string;
  deal_fee: string;
  deal_fee_ltt: string;
  triggered: boolean;
  oco_id: number;
  ctime: number;
  mtime: number;
  ftime: number;
  /** Finished orders only: 0 filled, 1 cancelled, 2 OCO sibling, 3 no liquidity. */
  finish_reason?: number;
}

/** One of the caller's own trades (SPEC.md §3 "Trade record"). */
export interface OwnTradeJson {
  id: number;
  time: number;
  market: string;
  /** 1 sell, 2 buy: the caller's side. */
  side: number;
  /** 1 maker, 2 taker. */
  role: number;
  price: string;
  amount: string;
  /** amount × price, in the money asset. */
  deal: string;
  fee: string;
  fee_asset: string;
  deal_order_id: number;
}

/** A public trade (SPEC.md §3 "Trade history item"); `type` is the taker's side. */
export interface PublicTradeJson {
  id: number;
  time: number;
  price: string;
  amount: string;
  total: string;
  type: 'buy' | 'sell';
}

/** A page of a list (API.md "Lists"). */
export interface Page<T> {
  records: T[];
  total: number;
  offset: number;
  limit: number;
}

/** The messages of the price rules (SPEC.md §5) and the notices of SPEC.md §8. */
export const tradingMessages = {
  greaterThanLast: 'Must be greater than last market price',
  lessThanLast: 'Must be less than last market price',
  differentFromLast: 'Must differ from last market price',
  noLastPrice: 'The market has no last price yet',
  marginNotAvailable: 'Margin trading is not available yet',
  orderDeleted: (pair: string) => `${pair} order was successfully deleted`,
  allOrdersDeleted: (pair: string) =>
    pair === ''
      ? 'All orders were successfully deleted'
      : `All ${pair} orders were successfully deleted`,
  noOrdersToDelete: 'Error deleting orders',
} as const;

const required = 'Field is required';
const text = z.string({ error: required }).min(1, required);
const direction = z.enum(['buy', 'sell'], { error: 'Must be buy or sell' });
const clientId = z.string().min(1).max(200).optional();

/**
 * Optional on every order body: what the order does when, as taker, it reaches a resting order
 * of the same user. `cancel_newest` (the default) cancels the rest of the taking order;
 * `cancel_oldest` cancels the resting order and the taking one goes on; `cancel_both` both.
 */
export const selfTradePrevention = z
  .enum(['cancel_newest', 'cancel_oldest', 'cancel_both'], {
    error: 'Must be cancel_newest, cancel_oldest or cancel_both',
  })
  .optional();
export type SelfTradePreventionJson = z.infer<typeof selfTradePrevention>;

/** `POST /api/v2/stop-limit-order`. Amounts stay strings: their decimals depend on the market. */
export const stopLimitOrderBody = z.object({
  pair: text,
  direction,
  stop_price: text,
  price: text,
  amount: text,
  client_id: clientId,
  self_trade_prevention: selfTradePrevention,
});
export type StopLimitOrderBody = z.infer<typeof stopLimitOrderBody>;

/** `POST /api/v2/oco-order`: a limit leg at `price`, a stop leg at `stop_price`/`limit_price`. */
export const ocoOrderBody = z.object({
  pair: text,
  direction,
  price: text,
  stop_price: text,
  limit_price: text,
  amount: text,
  client_id: clientId,
  self_trade_prevention: selfTradePrevention,
});
export type OcoOrderBody = z.infer<typeof ocoOrderBody>;

const offset = z.coerce.number({ error: 'Must be a whole number' }).int().min(0).default(0);
const limit = (max: number, fallback: number) =>
  z.coerce.number({ error: 'Must be a whole number' }).int().min(1).max(max).default(fallback);
/** The last second of year 9999: later is no date, and in milliseconds overflows a bigint. */
const unixSecondsMax = 253_402_300_799;
/** Unix seconds, as a query parameter. */
const seconds = z.coerce
  .number({ error: 'Must be Unix seconds' })
  .min(0)
  .max(unixSecondsMax, 'Must be Unix seconds')
  .optional();
const format = z.enum(['json', 'csv']).default('json');

/** Page sizes of the history lists. */
export const historyPageMax = 100;
export const historyPageDefault = 50;
/** Rows of one CSV export at most. */
export const historyExportMax = 10_000;

/** `GET /api/v2/order/finished?pair&side&type&from&to&offset&limit&format`. */
export const finishedOrdersQuery = z.object({
  pair: z.string().optional(),
  side: z.enum(['buy', 'sell']).optional(),
  /** limit, market, stop_limit, oco (the labels of SPEC.md §3). */
  type: z.enum(['limit', 'market', 'stop_limit', 'oco']).optional(),
  from: seconds,
  to: seconds,
  offset,
  limit: limit(historyPageMax, historyPageDefault),
  format,
});
export type FinishedOrdersQuery = z.infer<typeof finishedOrdersQuery>;

/** `GET /api/v2/history?pair&side&from&to&offset&limit&format`: the caller's trades. */
export const ownTradesQuery = z.object({
  pair: z.string().optional(),
  side: z.enum(['buy', 'sell']).optional(),
  from: seconds,
  to: seconds,
  offset,
  limit: limit(historyPageMax, historyPageDefault),
  format,
});
export type OwnTradesQuery = z.infer<typeof ownTradesQuery>;

/** `GET /api/v2/history/{pair}?offset&limit`: public trades, newest first. */
export const publicTradesQuery = z.object({
  offset,
  limit: limit(historyPageMax, historyPageDefault),
});

/** Trading fees of `GET /api/v2/trade/settings`, as fractions ("0.002" is 0.2%). */
export interface TradeSettingsJson {
  /** The taker rate: what an order placed now pays at most. */
  fee: string;
  /** The rate when the fee is paid in the platform token (50% off). */
  fee_plc: string;
  /** The same for buys. */
  fee_plc_buy: string;
  maker_fee: string;
  taker_fee: string;
  /** Whether the caller pays fees in the platform token when it can (signed in only). */
  isCustomFeeEnabled: boolean;
}
