import type { KlineInterval } from '@lattice/contracts';
import { amountFromDb, amountToDb } from '../../db/amount.js';
import type { Db } from '../../db/database.js';
import type { KlinesTable } from '../../db/tables/marketData.js';
import type { Candle } from './candles.js';

/** The name under which the candle builder records how far it has read the trades. */
const klineCursor = 'klines';

export interface StoredCandle {
  market: string;
  interval: KlineInterval;
  candle: Candle;
}

function candleFromRow(row: KlinesTable): Candle {
  return {
    time: row.time,
    open: amountFromDb(row.open),
    close: amountFromDb(row.close),
    high: amountFromDb(row.high),
    low: amountFromDb(row.low),
    volume: amountFromDb(row.volume),
    amount: amountFromDb(row.amount),
    trades: row.trades,
  };
}

/** The last trade id the stored candles include (0 before the first). */
export async function klineCursorOf(db: Db): Promise<number> {
  const row = await db
    .selectFrom('market_data_cursors')
    .select('trade_id')
    .where('name', '=', klineCursor)
    .executeTakeFirst();
  return row ? Number(row.trade_id) : 0;
}

/** The newest stored candle of every market for one interval. */
export async function latestCandles(db: Db, interval: KlineInterval): Promise<StoredCandle[]> {
  const rows = await db
    .selectFrom('klines as k')
    .selectAll()
    .where('k.interval', '=', interval)
    .where('k.time', '=', (eb) =>
      eb
        .selectFrom('klines as k2')
        .select((inner) => inner.fn.max('k2.time').as('t'))
        .whereRef('k2.market', '=', 'k.market')
        .whereRef('k2.interval', '=', 'k.interval'),
    )
    .execute();
  return rows.map((row) => ({ market: row.market, interval, candle: candleFromRow(row) }));
}

/** Stored candles of a market with `startMs <= time <= endMs`, oldest first. */
export async function candlesBetween(
  db: Db,
  market: string,
  interval: KlineInterval,
  startMs: number,
  endMs: number,
): Promise<Candle[]> {
  const rows = await db
    .selectFrom('klines')
    .selectAll()
    .where('market', '=', market)
    .where('interval', '=', interval)
    .where('time', '>=', startMs)
    .where('time', '<=', endMs)
    .orderBy('time')
    .execute();
  return rows.map(candleFromRow);
}

/** The newest stored candle before `timeMs`, if any. */
export async function candleBefore(
  db: Db,
  market: string,
  interval: KlineInterval,
  timeMs: number,
): Promise<Candle | undefined> {
  const row = await db
    .selectFrom('klines')
    .selectAll()
    .where('market', '=', market)
    .where('interval', '=', interval)
    .where('time', '<', timeMs)
    .orderBy('time', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? candleFromRow(row) : undefined;
}

const upsertChunk = 200;

/** Writes candles (whole rows) and the cursor in one transaction. */
export async function saveCandles(
  db: Db,
  candles: readonly StoredCandle[],
  tradeId: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < candles.length; i += upsertChunk) {
      const rows = candles.slice(i, i + upsertChunk).map(({ market, interval, candle }) => ({
        market,
        interval,
        time: candle.time,
        open: amountToDb(candle.open),
        close: amountToDb(candle.close),
        high: amountToDb(candle.high),
        low: amountToDb(candle.low),
        volume: amountToDb(candle.volume),
        amount: amountToDb(candle.amount),
        trades: candle.trades,
      }));
      await trx
        .insertInto('klines')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['market', 'interval', 'time']).doUpdateSet((eb) => ({
            open: eb.ref('excluded.open'),
            close: eb.ref('excluded.close'),
            high: eb.ref('excluded.high'),
            low: eb.ref('excluded.low'),
            volume: eb.ref('excluded.volume'),
            amount: eb.ref('excluded.amount'),
            trades: eb.ref('excluded.trades'),
          })),
        )
        .execute();
    }
    await trx
      .insertInto('market_data_cursors')
      .values({ name: klineCursor, trade_id: tradeId })
      .onConflict((oc) => oc.column('name').doUpdateSet({ trade_id: tradeId }))
      .execute();
  });
}
