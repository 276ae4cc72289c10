import { amountToDecimal } from '@lattice/contracts';
import type { DepthView } from '@lattice/engine';
import type { Market, ReferenceData } from '../../reference/reference.types.js';
import { changePercent } from '../marketData/marketData.present.js';
import type { DayStats } from '../marketData/rollingDay.js';

/** What the aggregator formats need of one market. */
export interface MarketSnapshot {
  market: Market;
  stats: DayStats;
  book: DepthView;
}

function formatters(reference: ReferenceData, market: Market) {
  const decimalsOf = (ticker: string) =>
    reference.assets.find((asset) => asset.ticker === ticker)?.decimals ?? 8;
  return {
    money: (value: bigint) => amountToDecimal(value, decimalsOf(market.money)),
    stock: (value: bigint) => amountToDecimal(value, decimalsOf(market.stock)),
  };
}

/** CoinGecko's exchange tickers format (`/v2/coingecko/stats`). */
export function coinGeckoTickers(reference: ReferenceData, snapshots: readonly MarketSnapshot[]) {
  return snapshots.map(({ market, stats, book }) => {
    const { money, stock } = formatters(reference, market);
    return {
      ticker_id: market.name,
      base_currency: market.stock,
      target_currency: market.money,
      last_price: money(stats.last),
      base_volume: stock(stats.volume),
      target_volume: money(stats.deal),
      bid: money(book.bids[0]?.[0] ?? 0n),
      ask: money(book.asks[0]?.[0] ?? 0n),
      high: money(stats.high),
      low: money(stats.low),
    };
  });
}

/** CoinMarketCap's spot summary format (`/v2/coinmarketcap/stats`). */
export function coinMarketCapSummary(
  reference: ReferenceData,
  snapshots: readonly MarketSnapshot[],
) {
  return snapshots.map(({ market, stats, book }) => {
    const { money, stock } = formatters(reference, market);
    return {
      trading_pairs: market.name,
      base_currency: market.stock,
      quote_currency: market.money,
      last_price: money(stats.last),
      lowest_ask: money(book.asks[0]?.[0] ?? 0n),
      highest_bid: money(book.bids[0]?.[0] ?? 0n),
      base_volume: stock(stats.volume),
      quote_volume: money(stats.deal),
      price_change_percent_24h: changePercent(stats.open, stats.last),
      highest_price_24h: money(stats.high),
      lowest_price_24h: money(stats.low),
    };
  });
}
