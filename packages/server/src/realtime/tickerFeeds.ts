import { amountToDecimal } from '@lattice/contracts';
import type { Candle } from '../domains/marketData/candles.js';
import type { MarketData } from '../domains/marketData/marketData.js';
import { presentToday } from '../domains/marketData/marketData.present.js';
import type { DayStats } from '../domains/marketData/rollingDay.js';
import type { MarketDirectory, MarketInfo } from '../domains/orders/markets.js';
import type { Connection } from './connection.js';
import type { PushBatch } from './pushBatch.js';
import { pushFrame } from './rpc.js';
import { Topics } from './topics.js';

const minuteMs = 60_000;
/** `state.*` periods: up to the 24 h the rolling statistics keep. */
export const statePeriodMax = 86_400;

/**
 * `today.*` (rolling 24 h statistics), `state.*` (the same with `close` and `period`, as
 * upstream) and `price.*` (last price): pushed when the value a market's subscribers last
 * received changes.
 */
export class TickerFeeds {
  readonly today = new Topics('today', { closed: (key) => this.todaySent.delete(key) });
  readonly state = new Topics('state', { closed: (key) => this.stateSent.delete(key) });
  readonly price = new Topics('price', { closed: (key) => this.priceSent.delete(key) });
  private readonly todaySent = new Map<string, string>();
  private readonly stateSent = new Map<string, string>();
  private readonly priceSent = new Map<string, string>();
  private readonly dirtyMarkets = new Set<string>();

  constructor(
    private readonly data: MarketData,
    private readonly markets: MarketDirectory,
  ) {}

  todayOf(info: MarketInfo) {
    return presentToday(this.data.today(info.market.name), info);
  }

  /**
   * The statistics of the last `periodSeconds`, with the minute resolution of the 24 h ones:
   * the current minute and the ones before it that the period reaches into.
   */
  async stateOf(info: MarketInfo, periodSeconds: number) {
    const minutes = Math.ceil(periodSeconds / 60);
    if (minutes * 60 >= statePeriodMax) return this.dayStateOf(info, periodSeconds);
    const name = info.market.name;
    const nowMs = Date.now();
    const fromMs = nowMs - (nowMs % minuteMs) - (minutes - 1) * minuteMs;
    const candles = await this.data.klines.range(name, 60, fromMs, nowMs, minutes);
    const stats = statsOf(candles, this.data.lastPrice(name));
    return presentState(stats, info, periodSeconds);
  }

  private dayStateOf(info: MarketInfo, periodSeconds = statePeriodMax) {
    return presentState(this.data.today(info.market.name), info, periodSeconds);
  }

  priceOf(info: MarketInfo): string {
    return amountToDecimal(this.data.lastPrice(info.market.name), info.moneyDecimals);
  }

  /** Subscribes; the current values follow the reply. */
  subscribeToday(connection: Connection, infos: readonly MarketInfo[]): () => void {
    this.today.replace(
      connection,
      infos.map((info) => info.market.name),
    );
    return () => {
      for (const info of infos) {
        connection.sendFrame(pushFrame('today.update', [info.market.name, this.todayOf(info)]));
      }
    };
  }

  /** Subscribes; the current 24 h statistics follow the reply. */
  subscribeState(connection: Connection, infos: readonly MarketInfo[]): () => void {
    this.state.replace(
      connection,
      infos.map((info) => info.market.name),
    );
    return () => {
      for (const info of infos) {
        connection.sendFrame(pushFrame('state.update', [info.market.name, this.dayStateOf(info)]));
      }
    };
  }

  subscribePrice(connection: Connection, infos: readonly MarketInfo[]): () => void {
    this.price.replace(
      connection,
      infos.map((info) => info.market.name),
    );
    return () => {
      for (const info of infos) {
        if (this.data.lastPrice(info.market.name) === 0n) continue;
        connection.sendFrame(pushFrame('price.update', [info.market.name, this.priceOf(info)]));
      }
    };
  }

  tradesAdded(market: string): void {
    this.dirtyMarkets.add(market);
  }

  /** The rolling window moves with the clock: every subscribed market is looked at again. */
  windowMoved(): void {
    for (const market of this.today.keys()) this.dirtyMarkets.add(market);
    for (const market of this.state.keys()) this.dirtyMarkets.add(market);
  }

  get pending(): boolean {
    return this.dirtyMarkets.size > 0;
  }

  flush(batch: PushBatch): void {
    for (const market of this.dirtyMarkets) {
      const info = this.markets.find(market);
      if (info === undefined) continue;
      if (this.today.subscribers(market) !== undefined) {
        const today = this.todayOf(info);
        const text = JSON.stringify(today);
        if (this.todaySent.get(market) !== text) {
          this.todaySent.set(market, text);
          this.today.fanOut(market, pushFrame('today.update', [market, today]), batch);
        }
      }
      if (this.state.subscribers(market) !== undefined) {
        const state = this.dayStateOf(info);
        const text = JSON.stringify(state);
        if (this.stateSent.get(market) !== text) {
          this.stateSent.set(market, text);
          this.state.fanOut(market, pushFrame('state.update', [market, state]), batch);
        }
      }
      if (this.price.subscribers(market) !== undefined) {
        const price = this.priceOf(info);
        if (this.priceSent.get(market) !== price) {
          this.priceSent.set(market, price);
          this.price.fanOut(market, pushFrame('price.update', [market, price]), batch);
        }
      }
    }
    this.dirtyMarkets.clear();
  }
}

/** Rolled-up one-minute candles; minutes without trades (flat fills) count for nothing. */
function statsOf(candles: readonly Candle[], last: bigint): DayStats {
  const traded = candles.filter((candle) => candle.trades > 0);
  const first = traded[0];
  if (first === undefined) return { open: last, last, high: last, low: last, volume: 0n, deal: 0n };
  const stats = { open: first.open, last, high: first.high, low: first.low, volume: 0n, deal: 0n };
  for (const candle of traded) {
    if (candle.high > stats.high) stats.high = candle.high;
    if (candle.low < stats.low) stats.low = candle.low;
    stats.volume += candle.volume;
    stats.deal += candle.amount;
  }
  return stats;
}

/** `{period, last, open, close, high, low, volume, deal}` (protocol-ws.md §5.6). */
function presentState(stats: DayStats, info: MarketInfo, period: number) {
  const { open, last, high, low, volume, deal } = presentToday(stats, info);
  return { period, last, open, close: last, high, low, volume, deal };
}
