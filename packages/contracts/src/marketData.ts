import { z } from 'zod';

/**
 * Market data over HTTP and the socket: the market list, depth, klines, 24 h statistics.
 * Amounts and prices are plain decimal strings; times are Unix seconds.
 */

/** Kline intervals in seconds: 1m, 5m, 15m, 30m, 1h, 4h, 1d, 1w (weeks start on Monday, UTC). */
export const klineIntervals = [60, 300, 900, 1800, 3600, 14400, 86400, 604800] as const;
export type KlineInterval = (typeof klineIntervals)[number];

export function isKlineInterval(value: unknown): value is KlineInterval {
  return typeof value === 'number' && (klineIntervals as readonly number[]).includes(value);
}

/** Candles one query returns at most. */
export const klineRowsMax = 2000;

/** `[time, open, close, high, low, volume (stock), amount (money), market]`. */
export type KlineRow = [number, string, string, string, string, string, string, string];

/** Price levels: `[price, amount]`, best first. */
export interface DepthJson {
  asks: [string, string][];
  bids: [string, string][];
}

/** Levels one side of `GET /api/v2/depth/{pair}` returns at most (SPEC.md §9: 50). */
export const depthHttpLimitMax = 100;
export const depthHttpLimitDefault = 50;
/** Levels a socket depth subscription may ask for (protocol-ws.md §5.1). */
export const depthSocketLimits = [1, 5, 10, 20, 30, 50, 100] as const;

/** Rolling 24 h statistics of a market (the socket's `today`). */
export interface TodayJson {
  open: string;
  last: string;
  high: string;
  low: string;
  /** Stock traded. */
  volume: string;
  /** Money traded. */
  deal: string;
}

/** One row of `GET /api/v2/ticker`. */
export interface TickerJson extends TodayJson {
  name: string;
  /** Percent from open to last, 2 decimals (SPEC.md §3 rule for "change"). */
  change: string;
}

/** An item of `GET /api/v2/market-list` (API.md, plus the Pair fields of SPEC.md §3). */
export interface MarketListItemJson {
  name: string;
  stock: string;
  money: string;
  min_amount: string;
  tick_size: string;
  lot_size: string;
  price_precision: number;
  amount_precision: number;
  maker_fee: string;
  taker_fee: string;
  tabs: string[];
  favorite: boolean;
  isDefi: boolean;
  margin: boolean;
  market: { volume: string; volumeInMoney: string; price: string; change: string };
}

export interface MarketListJson {
  items: MarketListItemJson[];
  /** Ticker → display name. */
  currenciesMap: Record<string, string>;
  /** Ticker → image path. */
  currenciesImages: Record<string, string>;
  /** Tickers shown first (SPEC.md §9: BTC, ETH, USDT, LTT). */
  currenciesTopList: string[];
  /** The tabs of the pair list in their order, each with its pairs. */
  tabs: { name: string; order: number; pairs: string[] }[];
}

const pairName = z.string().regex(/^[A-Z0-9]{1,16}_[A-Z0-9]{1,16}$/, 'Market not found');

/** `GET /api/v2/depth/{pair}?limit&offset`. */
export const depthQuery = z.object({
  limit: z.coerce.number().int().min(1).max(depthHttpLimitMax).default(depthHttpLimitDefault),
  offset: z.coerce.number().int().min(0).max(depthHttpLimitMax).default(0),
});

/** `GET /api/v2/kline/{pair}?interval&start&end` (Unix seconds). */
export const klineQuery = z.object({
  interval: z.coerce
    .number()
    .refine(isKlineInterval, `One of ${klineIntervals.join(', ')} seconds`)
    .default(60),
  start: z.coerce.number().int().min(0).optional(),
  end: z.coerce.number().int().min(0).optional(),
});

export const pairParams = z.object({ pair: pairName });

/** `POST /api/v2/favorites?pair=` (or `{ pair }`), `DELETE /api/v2/favorites/{pair}`. */
export const favoriteBody = z.object({ pair: pairName });
