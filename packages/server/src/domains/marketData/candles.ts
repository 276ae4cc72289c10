import type { KlineInterval } from '@lattice/contracts';

/** One candle in minor units; `time` is the bucket's start in Unix milliseconds. */
export interface Candle {
  time: number;
  open: bigint;
  close: bigint;
  high: bigint;
  low: bigint;
  /** Stock traded. */
  volume: bigint;
  /** Money traded. */
  amount: bigint;
  trades: number;
}

/** A trade as the market data needs it: minor units, Unix milliseconds. */
export interface TradeTick {
  id: number;
  market: string;
  time: number;
  price: bigint;
  amount: bigint;
  total: bigint;
  /** The taker's side: 1 sell, 2 buy. */
  takerSide: number;
}

const weekMs = 7 * 86_400_000;
// 1970-01-01 was a Thursday; the first Monday, 00:00 UTC, was four days later.
const firstMondayMs = 4 * 86_400_000;

/** The start of the bucket holding `timeMs`: UTC days, weeks starting on Monday. */
export function bucketStart(timeMs: number, interval: KlineInterval): number {
  if (interval === 604800) {
    return Math.floor((timeMs - firstMondayMs) / weekMs) * weekMs + firstMondayMs;
  }
  const size = interval * 1000;
  return Math.floor(timeMs / size) * size;
}

/** A candle holding one trade. */
export function candleOf(time: number, trade: TradeTick): Candle {
  return {
    time,
    open: trade.price,
    close: trade.price,
    high: trade.price,
    low: trade.price,
    volume: trade.amount,
    amount: trade.total,
    trades: 1,
  };
}

/** Adds a later trade of the same bucket to a candle, in place. */
export function foldTrade(candle: Candle, trade: TradeTick): void {
  candle.close = trade.price;
  if (trade.price > candle.high) candle.high = trade.price;
  if (trade.price < candle.low) candle.low = trade.price;
  candle.volume += trade.amount;
  candle.amount += trade.total;
  candle.trades += 1;
}

/** A candle without trades that carries the previous close. */
export function flatCandle(time: number, close: bigint): Candle {
  return { time, open: close, close, high: close, low: close, volume: 0n, amount: 0n, trades: 0 };
}

/**
 * Candles from `startMs` to `endMs` (bucket starts), gaps after the first known candle filled
 * with flat ones; `before` is the last candle earlier than the range, if any.
 */
export function filledCandles(
  rows: readonly Candle[],
  before: Candle | undefined,
  range: { startMs: number; endMs: number; interval: KlineInterval },
): Candle[] {
  const byTime = new Map(rows.map((row) => [row.time, row]));
  const out: Candle[] = [];
  let close = before?.close;
  for (let time = range.startMs; time <= range.endMs; time = nextBucket(time, range.interval)) {
    const row = byTime.get(time);
    if (row !== undefined) {
      out.push(row);
      close = row.close;
    } else if (close !== undefined) {
      out.push(flatCandle(time, close));
    }
  }
  return out;
}

function nextBucket(time: number, interval: KlineInterval): number {
  return time + interval * 1000;
}
