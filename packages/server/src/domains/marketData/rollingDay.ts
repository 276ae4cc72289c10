import type { TradeTick } from './candles.js';

/** The rolling 24 h statistics of a market, in minor units. */
export interface DayStats {
  open: bigint;
  last: bigint;
  high: bigint;
  low: bigint;
  volume: bigint;
  deal: bigint;
}

interface Minute {
  time: number;
  open: bigint;
  high: bigint;
  low: bigint;
  volume: bigint;
  deal: bigint;
}

const minuteMs = 60_000;
export const dayMs = 24 * 60 * minuteMs;

/**
 * A market's trades of the last 24 hours, kept per minute: the window slides a minute at a
 * time, so "the last 24 h" means the current minute and the 1,439 before it.
 */
export class RollingDay {
  private readonly minutes: Minute[] = [];
  private lastPrice = 0n;

  /** Folds a trade; trades arrive in time order. */
  add(trade: TradeTick): void {
    this.lastPrice = trade.price;
    const time = trade.time - (trade.time % minuteMs);
    const newest = this.minutes[this.minutes.length - 1];
    if (newest !== undefined && newest.time >= time) {
      if (trade.price > newest.high) newest.high = trade.price;
      if (trade.price < newest.low) newest.low = trade.price;
      newest.volume += trade.amount;
      newest.deal += trade.total;
      return;
    }
    this.minutes.push({
      time,
      open: trade.price,
      high: trade.price,
      low: trade.price,
      volume: trade.amount,
      deal: trade.total,
    });
  }

  /** Seeds a whole minute from a stored one-minute candle (at start). */
  addMinute(minute: Minute, close: bigint): void {
    this.minutes.push({ ...minute });
    this.lastPrice = close;
  }

  /** Sets the last price from a trade older than the window (at start). */
  seedLast(price: bigint): void {
    if (this.minutes.length === 0) this.lastPrice = price;
  }

  /** The last trade price ever seen (0 before the first trade). */
  get last(): bigint {
    return this.lastPrice;
  }

  /**
   * The statistics at `nowMs`. Without a trade in the window, open, high and low equal the last
   * price (0 when the market never traded), and the sums are 0.
   */
  stats(nowMs: number): DayStats {
    const from = nowMs - (nowMs % minuteMs) - dayMs + minuteMs;
    let drop = 0;
    while (drop < this.minutes.length && this.minutes[drop]!.time < from) drop++;
    if (drop > 0) this.minutes.splice(0, drop);
    const first = this.minutes[0];
    if (first === undefined) {
      const last = this.lastPrice;
      return { open: last, last, high: last, low: last, volume: 0n, deal: 0n };
    }
    const stats = { ...first, last: this.lastPrice };
    for (let i = 1; i < this.minutes.length; i++) {
      const minute = this.minutes[i]!;
      if (minute.high > stats.high) stats.high = minute.high;
      if (minute.low < stats.low) stats.low = minute.low;
      stats.volume += minute.volume;
      stats.deal += minute.deal;
    }
    return {
      open: stats.open,
      last: stats.last,
      high: stats.high,
      low: stats.low,
      volume: stats.volume,
      deal: stats.deal,
    };
  }
}
