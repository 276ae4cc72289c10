import { columnTypes } from '../columns.js';
import type { Migration } from '../migrate.js';

/** Assets, networks, the asset-on-network pairs and the markets. */
export const migration: Migration = {
  name: '0001_reference_data',
  async up(db, dialect) {
    const { amount } = columnTypes(dialect);
    await db.schema
      .createTable('assets')
      .addColumn('ticker', 'varchar(16)', (col) => col.primaryKey())
      .addColumn('name', 'varchar(100)', (col) => col.notNull())
      .addColumn('decimals', 'integer', (col) => col.notNull())
      .addColumn('is_fiat', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('is_stable', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('sort_order', 'integer', (col) => col.notNull())
      .addColumn('deposit_enabled', 'integer', (col) => col.notNull().defaultTo(1))
      .addColumn('withdraw_enabled', 'integer', (col) => col.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('networks')
      .addColumn('code', 'varchar(32)', (col) => col.primaryKey())
      .addColumn('name', 'varchar(100)', (col) => col.notNull())
      .addColumn('native_ticker', 'varchar(16)', (col) => col.notNull().references('assets.ticker'))
      .addColumn('uses_memo', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('confirmations', 'integer', (col) => col.notNull())
      .addColumn('sort_order', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('asset_networks')
      .addColumn('asset_ticker', 'varchar(16)', (col) => col.notNull().references('assets.ticker'))
      .addColumn('network_code', 'varchar(32)', (col) => col.notNull().references('networks.code'))
      .addColumn('contract_address', 'varchar(128)')
      .addColumn('withdraw_fee', amount, (col) => col.notNull())
      .addColumn('withdraw_min', amount, (col) => col.notNull())
      .addColumn('sort_order', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('asset_networks_pk', ['asset_ticker', 'network_code'])
      .execute();

    await db.schema
      .createTable('markets')
      .addColumn('name', 'varchar(40)', (col) => col.primaryKey())
      .addColumn('stock', 'varchar(16)', (col) => col.notNull().references('assets.ticker'))
      .addColumn('money', 'varchar(16)', (col) => col.notNull().references('assets.ticker'))
      .addColumn('tick_size', amount, (col) => col.notNull())
      .addColumn('lot_size', amount, (col) => col.notNull())
      .addColumn('min_amount', amount, (col) => col.notNull())
      .addColumn('price_precision', 'integer', (col) => col.notNull())
      .addColumn('amount_precision', 'integer', (col) => col.notNull())
      .addColumn('maker_fee_ppm', 'integer', (col) => col.notNull())
      .addColumn('taker_fee_ppm', 'integer', (col) => col.notNull())
      .addColumn('margin_enabled', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('enabled', 'integer', (col) => col.notNull().defaultTo(1))
      .addColumn('sort_order', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addUniqueConstraint('markets_stock_money_unique', ['stock', 'money'])
      .execute();
  },
};
