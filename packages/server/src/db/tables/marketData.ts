/**
 * Market data (migration 0005_market_data). Amount columns are integer minor units as strings;
 * times are Unix milliseconds.
 */
export interface MarketDataTables {
  klines: KlinesTable;
  market_data_cursors: MarketDataCursorsTable;
  favorite_markets: FavoriteMarketsTable;
}

/** One candle: the trades of `market` in [time, time + interval). */
export interface KlinesTable {
  market: string;
  /** Seconds: 60, 300, ..., 604800. */
  interval: number;
  /** The bucket's start. */
  time: number;
  open: string;
  close: string;
  high: string;
  low: string;
  /** Stock traded. */
  volume: string;
  /** Money traded (Σ amount × price). */
  amount: string;
  trades: number;
}

/** How far a builder of derived data has read the trades table. */
export interface MarketDataCursorsTable {
  name: string;
  /** Every trade with an id up to this one is included. */
  trade_id: number;
}

export interface FavoriteMarketsTable {
  user_id: number;
  market: string;
  created_at: number;
}
