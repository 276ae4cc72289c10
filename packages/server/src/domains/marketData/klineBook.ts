import { type KlineInterval, klineIntervals } from '@lattice/contracts';
import type { Db } from '../../db/database.js';
import {
  bucketStart,
  type Candle,
  candleOf,
  filledCandles,
  foldTrade,
  type TradeTick,
} from './candles.js';
import {
  candleBefore,
  candlesBetween,
  klineCursorOf,
  latestCandles,
  type StoredCandle,
  saveCandles,
} from './klines.repo.js';
import { tradesAfter } from './trades.repo.js';

const catchUpPage = 5_000;

/**
 * Candles of every market and interval, built from trades. The newest candle of each (market,
 * interval) lives in memory; changed candles are written with the id of the last trade they
 * include, in one transaction, so a restart resumes from the trades table exactly where the
 * stored candles end (trades are durable before they are published).
 */
export class KlineBook {
  private readonly latest = new Map<string, StoredCandle>();
  /** The candle before the newest, once a newer bucket began, as it ended. */
  private readonly before = new Map<string, Candle>();
  private readonly dirty = new Map<string, StoredCandle>();
  private tradeId = 0;
  private savedTradeId = 0;
  private saving: Promise<void> | null = null;

  private constructor(private readonly db: Db) {}

  /** Loads the newest stored candles and folds in the trades stored after them. */
  static async open(db: Db): Promise<KlineBook> {
    const book = new KlineBook(db);
    book.tradeId = await klineCursorOf(db);
    book.savedTradeId = book.tradeId;
    for (const interval of klineIntervals) {
      for (const stored of await latestCandles(db, interval)) {
        book.latest.set(keyOf(stored.market, interval), stored);
      }
    }
    for (;;) {
      const trades = await tradesAfter(db, book.tradeId, catchUpPage);
      for (const trade of trades) book.add(trade);
      await book.save();
      if (trades.length < catchUpPage) break;
    }
    return book;
  }

  /** The last trade id folded in. */
  get lastTradeId(): number {
    return this.tradeId;
  }

  /** Folds a trade into every interval; trades arrive in id (and time) order. */
  add(trade: TradeTick): void {
    if (trade.id <= this.tradeId) return;
    this.tradeId = trade.id;
    for (const interval of klineIntervals) {
      const key = keyOf(trade.market, interval);
      const time = bucketStart(trade.time, interval);
      const current = this.latest.get(key);
      let stored: StoredCandle;
      // NOTE: the host's clock never runs backwards, so a trade is never older than the newest
      // candle; an equal bucket folds, a later one opens a new candle.
      if (current !== undefined && current.candle.time >= time) {
        foldTrade(current.candle, trade);
        stored = current;
      } else {
        if (current !== undefined) this.before.set(key, current.candle);
        stored = { market: trade.market, interval, candle: candleOf(time, trade) };
        this.latest.set(key, stored);
      }
      this.dirty.set(`${key}|${stored.candle.time}`, stored);
    }
  }

  /** The newest candle of a market and interval, if it ever traded. */
  current(market: string, interval: KlineInterval): Candle | undefined {
    return this.latest.get(keyOf(market, interval))?.candle;
  }

  /** The candle before the newest one, if a newer bucket began while running. */
  previous(market: string, interval: KlineInterval): Candle | undefined {
    return this.before.get(keyOf(market, interval));
  }

  /** Writes the changed candles; concurrent calls share one write. */
  async save(): Promise<void> {
    while (this.saving !== null) await this.saving;
    if (this.dirty.size === 0 && this.savedTradeId === this.tradeId) return;
    // Copies: candles keep changing in memory while the transaction runs.
    const batch = [...this.dirty.values()].map((s) => ({ ...s, candle: { ...s.candle } }));
    const tradeId = this.tradeId;
    this.dirty.clear();
    this.saving = saveCandles(this.db, batch, tradeId)
      .then(() => {
        this.savedTradeId = tradeId;
      })
      .catch((error: unknown) => {
        // Put them back unless a newer version was marked meanwhile; the next save retries.
        for (const stored of batch) {
          const key = `${keyOf(stored.market, stored.interval)}|${stored.candle.time}`;
          if (!this.dirty.has(key)) this.dirty.set(key, this.latestOr(stored));
        }
        throw error;
      })
      .finally(() => {
        this.saving = null;
      });
    await this.saving;
  }

  /**
   * Candles from `startMs` to `endMs` (both bucket starts after rounding down), at most
   * `rowsMax` of the newest, gaps filled with flat candles once there is earlier data.
   */
  async range(
    market: string,
    interval: KlineInterval,
    startMs: number,
    endMs: number,
    rowsMax: number,
  ): Promise<Candle[]> {
    const end = bucketStart(endMs, interval);
    const earliest = end - (rowsMax - 1) * interval * 1000;
    const start = Math.max(bucketStart(startMs, interval), earliest);
    if (start > end) return [];
    const [rows, stored] = await Promise.all([
      candlesBetween(this.db, market, interval, start, end),
      candleBefore(this.db, market, interval, start),
    ]);
    const newest = this.current(market, interval);
    // The newest candle may not be written yet; it is the freshest of all.
    const before =
      newest !== undefined && newest.time < start && newest.time > (stored?.time ?? -1)
        ? newest
        : stored;
    const merged = rows.filter((row) => row.time !== newest?.time);
    if (newest !== undefined && newest.time >= start && newest.time <= end) {
      merged.push({ ...newest });
    }
    merged.sort((a, b) => a.time - b.time);
    return filledCandles(merged, before, { startMs: start, endMs: end, interval });
  }

  private latestOr(stored: StoredCandle): StoredCandle {
    const latest = this.latest.get(keyOf(stored.market, stored.interval));
    return latest !== undefined && latest.candle.time === stored.candle.time ? latest : stored;
  }
}

function keyOf(market: string, interval: KlineInterval): string {
  return `${market}|${interval}`;
}
