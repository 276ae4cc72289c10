import { columnTypes, withAutoId } from '../columns.js';
import type { Migration } from '../migrate.js';

/**
 * The engine host: the command journal, engine snapshots, idempotency records, and the
 * projections written from engine events in the same transaction as the journal (balances,
 * orders, trades, balance history). See docs/decisions/engine-host.md.
 */
export const migration: Migration = {
  name: '0004_engine_host',
  async up(db, dialect) {
    const { amount } = columnTypes(dialect);
    await db.schema
      .createTable('engine_journal')
      .addColumn('seq', 'bigint', (col) => col.primaryKey())
      .addColumn('time', 'bigint', (col) => col.notNull())
      .addColumn('type', 'varchar(40)', (col) => col.notNull())
      .addColumn('command', 'text', (col) => col.notNull())
      .addColumn('event_seq_end', 'bigint', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('engine_snapshots')
      .addColumn('journal_seq', 'bigint', (col) => col.primaryKey())
      .addColumn('event_seq', 'bigint', (col) => col.notNull())
      .addColumn('state_hash', 'varchar(128)', (col) => col.notNull())
      .addColumn('data', 'text', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('idempotency_keys')
      .addColumn('user_id', 'bigint', (col) => col.notNull())
      .addColumn('key', 'varchar(200)', (col) => col.notNull())
      .addColumn('fingerprint', 'varchar(64)', (col) => col.notNull())
      .addColumn('reply', 'text', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
      .execute();
    await db.schema
      .createIndex('idempotency_keys_created_at')
      .on('idempotency_keys')
      .column('created_at')
      .execute();

    await db.schema
      .createTable('balances')
      .addColumn('user_id', 'bigint', (col) => col.notNull())
      .addColumn('asset', 'varchar(16)', (col) => col.notNull())
      .addColumn('account', 'varchar(8)', (col) => col.notNull())
      .addColumn('available', amount, (col) => col.notNull())
      .addColumn('frozen', amount, (col) => col.notNull())
      .addColumn('updated_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('balances_pk', ['user_id', 'asset', 'account'])
      .execute();

    await db.schema
      .createTable('system_balances')
      .addColumn('owner', 'varchar(16)', (col) => col.notNull())
      .addColumn('asset', 'varchar(16)', (col) => col.notNull())
      .addColumn('account', 'varchar(8)', (col) => col.notNull())
      .addColumn('available', amount, (col) => col.notNull())
      .addColumn('frozen', amount, (col) => col.notNull())
      .addColumn('updated_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('system_balances_pk', ['owner', 'asset', 'account'])
      .execute();

    await withAutoId(db.schema.createTable('balance_history'), dialect)
      .addColumn('event_seq', 'bigint', (col) => col.notNull())
      .addColumn('time', 'bigint', (col) => col.notNull())
      .addColumn('user_id', 'bigint', (col) => col.notNull())
      .addColumn('asset', 'varchar(16)', (col) => col.notNull())
      .addColumn('account', 'varchar(8)', (col) => col.notNull())
      .addColumn('business', 'varchar(32)', (col) => col.notNull())
      .addColumn('business_id', 'varchar(200)')
      .addColumn('order_id', 'bigint', (col) => col.notNull())
      .addColumn('deal_id', 'bigint', (col) => col.notNull())
      .addColumn('available_delta', amount, (col) => col.notNull())
      .addColumn('frozen_delta', amount, (col) => col.notNull())
      .addColumn('available', amount, (col) => col.notNull())
      .addColumn('frozen', amount, (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('balance_history_user_asset')
      .on('balance_history')
      .columns(['user_id', 'asset', 'id'])
      .execute();

    await db.schema
      .createTable('orders')
      .addColumn('id', 'bigint', (col) => col.primaryKey())
      .addColumn('user_id', 'bigint', (col) => col.notNull())
      .addColumn('market', 'varchar(40)', (col) => col.notNull())
      .addColumn('platform', 'varchar(8)', (col) => col.notNull())
      .addColumn('algorithm', 'integer', (col) => col.notNull())
      .addColumn('account', 'integer', (col) => col.notNull())
      .addColumn('side', 'integer', (col) => col.notNull())
      .addColumn('type', 'integer', (col) => col.notNull())
      .addColumn('time_in_force', 'varchar(10)', (col) => col.notNull())
      .addColumn('amount', amount, (col) => col.notNull())
      .addColumn('total', amount, (col) => col.notNull())
      .addColumn('price', amount, (col) => col.notNull())
      .addColumn('stop_price', amount, (col) => col.notNull())
      .addColumn('limit_price', amount, (col) => col.notNull())
      .addColumn('left', amount, (col) => col.notNull())
      .addColumn('deal_stock', amount, (col) => col.notNull())
      .addColumn('deal_money', amount, (col) => col.notNull())
      .addColumn('deal_fee', amount, (col) => col.notNull())
      .addColumn('deal_fee_ltt', amount, (col) => col.notNull())
      .addColumn('triggered', 'integer', (col) => col.notNull())
      .addColumn('oco_id', 'bigint', (col) => col.notNull())
      .addColumn('ctime', 'bigint', (col) => col.notNull())
      .addColumn('mtime', 'bigint', (col) => col.notNull())
      .addColumn('ftime', 'bigint', (col) => col.notNull())
      .addColumn('finish_reason', 'integer')
      .execute();
    // Active orders of a user (ftime 0) and finished ones, newest first, per market.
    await db.schema
      .createIndex('orders_user_ftime')
      .on('orders')
      .columns(['user_id', 'ftime', 'id'])
      .execute();

    await db.schema
      .createTable('trades')
      .addColumn('id', 'bigint', (col) => col.primaryKey())
      .addColumn('time', 'bigint', (col) => col.notNull())
      .addColumn('market', 'varchar(40)', (col) => col.notNull())
      .addColumn('price', amount, (col) => col.notNull())
      .addColumn('amount', amount, (col) => col.notNull())
      .addColumn('total', amount, (col) => col.notNull())
      .addColumn('taker_side', 'integer', (col) => col.notNull())
      .addColumn('maker_order_id', 'bigint', (col) => col.notNull())
      .addColumn('taker_order_id', 'bigint', (col) => col.notNull())
      .addColumn('maker_user_id', 'bigint', (col) => col.notNull())
      .addColumn('taker_user_id', 'bigint', (col) => col.notNull())
      .addColumn('maker_fee', amount, (col) => col.notNull())
      .addColumn('maker_fee_asset', 'varchar(16)', (col) => col.notNull())
      .addColumn('taker_fee', amount, (col) => col.notNull())
      .addColumn('taker_fee_asset', 'varchar(16)', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('trades_market').on('trades').columns(['market', 'id']).execute();
    await db.schema
      .createIndex('trades_maker_user')
      .on('trades')
      .columns(['maker_user_id', 'id'])
      .execute();
    await db.schema
      .createIndex('trades_taker_user')
      .on('trades')
      .columns(['taker_user_id', 'id'])
      .execute();
  },
};
