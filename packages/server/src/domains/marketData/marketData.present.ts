import {
  amountToDecimal,
  type DepthJson,
  type KlineRow,
  type PublicTradeJson,
  type TickerJson,
  type TodayJson,
} from '@lattice/contracts';
import type { DepthView } from '@lattice/engine';
import type { MarketInfo } from '../orders/markets.js';
import type { Candle, TradeTick } from './candles.js';
import type { DayStats } from './rollingDay.js';

/** Decimal strings of one market: prices and totals in money, amounts in stock. */
export function decimalsOf(info: MarketInfo) {
  return {
    money: (value: bigint) => amountToDecimal(value, info.moneyDecimals),
    stock: (value: bigint) => amountToDecimal(value, info.stockDecimals),
  };
}

export function presentDepth(depth: DepthView, info: MarketInfo): DepthJson {
  const { money, stock } = decimalsOf(info);
  const side = (levels: DepthView['asks']) =>
    levels.map(([price, amount]): [string, string] => [money(price), stock(amount)]);
  return { asks: side(depth.asks), bids: side(depth.bids) };
}

/** `[time, open, close, high, low, volume, amount, market]`, time in Unix seconds. */
export function presentCandle(candle: Candle, info: MarketInfo): KlineRow {
  const { money, stock } = decimalsOf(info);
  return [
    candle.time / 1000,
    money(candle.open),
    money(candle.close),
    money(candle.high),
    money(candle.low),
    stock(candle.volume),
    money(candle.amount),
    info.market.name,
  ];
}

export function presentToday(stats: DayStats, info: MarketInfo): TodayJson {
  const { money, stock } = decimalsOf(info);
  return {
    open: money(stats.open),
    last: money(stats.last),
    high: money(stats.high),
    low: money(stats.low),
    volume: stock(stats.volume),
    deal: money(stats.deal),
  };
}

/**
 * Percent from open to last with 2 decimals, rounded toward zero (SPEC.md §3): 0 when both are
 * zero, 100 when only open is.
 */
export function changePercent(open: bigint, last: bigint): string {
  if (open === 0n) return last === 0n ? '0' : '100';
  return amountToDecimal(((last - open) * 10_000n) / open, 2);
}

export function presentTicker(stats: DayStats, info: MarketInfo): TickerJson {
  return {
    name: info.market.name,
    ...presentToday(stats, info),
    change: changePercent(stats.open, stats.last),
  };
}

/** A public trade; `type` is the taker's side. */
export function presentTrade(trade: TradeTick, info: MarketInfo): PublicTradeJson {
  const { money, stock } = decimalsOf(info);
  return {
    id: trade.id,
    time: trade.time / 1000,
    price: money(trade.price),
    amount: stock(trade.amount),
    total: money(trade.total),
    type: trade.takerSide === 2 ? 'buy' : 'sell',
  };
}
