import type { EngineEvent } from '@lattice/engine';
import type { Db } from '../../db/database.js';
import type { EngineHost } from '../../engineHost/engineHost.js';
import type { HostLogger } from '../../engineHost/hostLogger.js';
import type { TradeTick } from './candles.js';
import { KlineBook } from './klineBook.js';
import { candlesBetween } from './klines.repo.js';
import { type DayStats, dayMs, RollingDay } from './rollingDay.js';
import { marketTrades } from './trades.repo.js';

/** Recent trades kept per market for the socket's backlog and `deals.query`. */
export const recentTradesMax = 100;

/** Told of every committed batch of trades of a market, after the market data took them in. */
export type TradesListener = (market: string, trades: readonly TradeTick[]) => void;

export interface MarketDataOptions {
  db: Db;
  host: EngineHost;
  logger: HostLogger;
  /** How often changed candles are written (ms). */
  saveEveryMs: number;
  now?: () => number;
}

/**
 * Market data derived from trades: candles, the rolling 24 h statistics, the last trades of
 * each market. It follows the engine host's committed events and can be rebuilt at any time
 * from the trades table.
 */
export class MarketData {
  readonly klines: KlineBook;
  private readonly days = new Map<string, RollingDay>();
  private readonly recent = new Map<string, TradeTick[]>();
  private readonly listeners = new Set<TradesListener>();
  private readonly now: () => number;
  private unsubscribe: () => void = () => {};
  private timer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly options: MarketDataOptions,
    klines: KlineBook,
  ) {
    this.klines = klines;
    this.now = options.now ?? Date.now;
  }

  static async open(options: MarketDataOptions): Promise<MarketData> {
    // Events published while the history loads wait here; those already loaded are skipped.
    const early: EngineEvent[] = [];
    // A loop, not push(...events): a batch can hold more events than a call takes arguments.
    const stopEarly = options.host.bus.subscribe((events) => {
      for (const event of events) early.push(event);
    });
    let data: MarketData;
    try {
      data = new MarketData(options, await KlineBook.open(options.db));
      await data.loadHistory();
    } finally {
      stopEarly();
    }
    data.take(early);
    data.unsubscribe = options.host.bus.subscribe((events) => data.take(events));
    data.timer = setInterval(() => void data.saveQuietly(), options.saveEveryMs);
    data.timer.unref();
    return data;
  }

  /** Subscribes to trades; returns the function that ends the subscription. */
  listen(listener: TradesListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The rolling 24 h statistics of a market. */
  today(market: string): DayStats {
    return this.dayOf(market).stats(this.now());
  }

  /** The last trade price of a market, 0 before its first trade. */
  lastPrice(market: string): bigint {
    return this.dayOf(market).last;
  }

  /**
   * A market's trades newest first: those above `afterId` (0: the latest), at most `limit`.
   * Served from memory when the recent list covers the request.
   */
  async trades(market: string, limit: number, afterId = 0): Promise<TradeTick[]> {
    const recent = this.recent.get(market) ?? [];
    const oldestKept = recent[0];
    const covered =
      recent.length < recentTradesMax || (oldestKept !== undefined && oldestKept.id <= afterId);
    if (covered && limit <= recentTradesMax) {
      const newer = recent.filter((trade) => trade.id > afterId);
      return newer.slice(-limit).reverse();
    }
    return marketTrades(this.options.db, market, { offset: 0, limit, afterId });
  }

  /** Stops following the host and writes what is pending. */
  async close(): Promise<void> {
    this.unsubscribe();
    if (this.timer) clearInterval(this.timer);
    await this.klines.save();
  }

  private async loadHistory(): Promise<void> {
    const { db } = this.options;
    const upTo = this.klines.lastTradeId;
    const since = this.now() - dayMs;
    const markets = (await db.selectFrom('markets').select('name').execute()).map((m) => m.name);
    for (const market of markets) {
      const day = this.dayOf(market);
      const minutes = await candlesBetween(db, market, 60, since, Number.MAX_SAFE_INTEGER);
      for (const minute of minutes) {
        day.addMinute(
          {
            time: minute.time,
            open: minute.open,
            high: minute.high,
            low: minute.low,
            volume: minute.volume,
            deal: minute.amount,
          },
          minute.close,
        );
      }
      const latest = await marketTrades(db, market, { offset: 0, limit: recentTradesMax });
      const kept = latest.filter((trade) => trade.id <= upTo).reverse();
      this.recent.set(market, kept);
      // A market whose last trade is older than a day still has a last price.
      const lastKept = kept[kept.length - 1];
      if (lastKept !== undefined) day.seedLast(lastKept.price);
    }
  }

  private take(events: readonly EngineEvent[]): void {
    const byMarket = new Map<string, TradeTick[]>();
    for (const event of events) {
      if (event.type !== 'deal' || event.id <= this.klines.lastTradeId) continue;
      const tick: TradeTick = {
        id: event.id,
        market: event.market,
        time: event.time,
        price: event.price,
        amount: event.amount,
        total: event.total,
        takerSide: event.takerSide,
      };
      this.klines.add(tick);
      this.dayOf(tick.market).add(tick);
      const recent = this.recent.get(tick.market) ?? [];
      recent.push(tick);
      if (recent.length > recentTradesMax) recent.shift();
      this.recent.set(tick.market, recent);
      const list = byMarket.get(tick.market) ?? [];
      list.push(tick);
      byMarket.set(tick.market, list);
    }
    for (const [market, trades] of byMarket) {
      for (const listener of this.listeners) {
        try {
          listener(market, trades);
        } catch (error) {
          this.options.logger.error({ err: error }, 'a trades listener failed');
        }
      }
    }
  }

  private dayOf(market: string): RollingDay {
    let day = this.days.get(market);
    if (day === undefined) {
      day = new RollingDay();
      this.days.set(market, day);
    }
    return day;
  }

  private async saveQuietly(): Promise<void> {
    try {
      await this.klines.save();
    } catch (error) {
      // The trades table holds everything; the next save (or the next start) catches up.
      this.options.logger.error({ err: error }, 'saving candles failed');
    }
  }
}
