import { columnTypes } from '../columns.js';
import type { Migration } from '../migrate.js';

/**
 * Market data built from trades: candles per market and interval, the trade id up to which they
 * are built, and each user's favorite markets. See docs/decisions/realtime.md.
 */
export const migration: Migration = {
  name: '0005_market_data',
  async up(db, dialect) {
    const { amount } = columnTypes(dialect);
    await db.schema
      .createTable('klines')
      .addColumn('market', 'varchar(40)', (col) => col.notNull())
      .addColumn('interval', 'integer', (col) => col.notNull())
      .addColumn('time', 'bigint', (col) => col.notNull())
      .addColumn('open', amount, (col) => col.notNull())
      .addColumn('close', amount, (col) => col.notNull())
      .addColumn('high', amount, (col) => col.notNull())
      .addColumn('low', amount, (col) => col.notNull())
      .addColumn('volume', amount, (col) => col.notNull())
      .addColumn('amount', amount, (col) => col.notNull())
      .addColumn('trades', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('klines_pk', ['market', 'interval', 'time'])
      .execute();

    await db.schema
      .createTable('market_data_cursors')
      .addColumn('name', 'varchar(40)', (col) => col.primaryKey())
      .addColumn('trade_id', 'bigint', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('favorite_markets')
      .addColumn('user_id', 'bigint', (col) => col.notNull())
      .addColumn('market', 'varchar(40)', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('favorite_markets_pk', ['user_id', 'market'])
      .execute();
  },
};
