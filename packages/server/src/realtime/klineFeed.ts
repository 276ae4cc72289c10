import type { KlineInterval } from '@lattice/contracts';
import type { Candle } from '../domains/marketData/candles.js';
import type { MarketData } from '../domains/marketData/marketData.js';
import { presentCandle } from '../domains/marketData/marketData.present.js';
import type { MarketDirectory, MarketInfo } from '../domains/orders/markets.js';
import type { Connection } from './connection.js';
import type { PushBatch } from './pushBatch.js';
import { pushFrame } from './rpc.js';
import { Topics } from './topics.js';

/**
 * `kline.subscribe` and `kline.update`: the current candle of (market, interval) after each
 * change, with the previous one too when a new bucket began since the last push.
 */
export class KlineFeed {
  readonly topics = new Topics('kline', { closed: (key) => this.sent.delete(key) });
  private readonly dirtyMarkets = new Set<string>();
  /** Per key: the candle last sent, as it was then. */
  private readonly sent = new Map<string, Candle>();

  constructor(
    private readonly data: MarketData,
    private readonly markets: MarketDirectory,
  ) {}

  subscribe(connection: Connection, info: MarketInfo, interval: KlineInterval): void {
    const key = `${info.market.name}|${interval}`;
    this.topics.replace(connection, [key]);
    const current = this.data.klines.current(info.market.name, interval);
    if (current !== undefined && !this.sent.has(key)) this.sent.set(key, { ...current });
  }

  tradesAdded(market: string): void {
    this.dirtyMarkets.add(market);
  }

  get pending(): boolean {
    return this.dirtyMarkets.size > 0;
  }

  flush(batch: PushBatch): void {
    if (this.dirtyMarkets.size === 0) return;
    for (const key of this.topics.keys()) {
      const [market = '', intervalText = ''] = key.split('|');
      if (!this.dirtyMarkets.has(market)) continue;
      const interval = Number(intervalText) as KlineInterval;
      const info = this.markets.find(market);
      const current = this.data.klines.current(market, interval);
      if (info === undefined || current === undefined) continue;
      const last = this.sent.get(key);
      const rows: Candle[] = [];
      if (last !== undefined && last.time < current.time) {
        const previous = this.data.klines.previous(market, interval);
        if (previous !== undefined && previous.time === last.time) rows.push(previous);
      }
      rows.push(current);
      this.sent.set(key, { ...current });
      const frame = pushFrame(
        'kline.update',
        rows.map((row) => presentCandle(row, info)),
      );
      this.topics.fanOut(key, frame, batch);
    }
    this.dirtyMarkets.clear();
  }
}
