import { columnTypes, withAutoId } from '../columns.js';
import type { Migration } from '../migrate.js';

/**
 * Crypto withdrawals: while a row is neither successful nor failed, `amount + fee` is held in
 * the engine under the business id `withdrawal:{id}`. A memo is '' when there is none.
 */
export const migration: Migration = {
  name: '0008_withdrawals',
  async up(db, dialect) {
    const { amount } = columnTypes(dialect);
    await withAutoId(db.schema.createTable('withdrawals'), dialect)
      .addColumn('user_id', 'bigint', (col) => col.notNull())
      .addColumn('asset', 'varchar(16)', (col) => col.notNull())
      .addColumn('network', 'varchar(32)', (col) => col.notNull())
      .addColumn('address', 'varchar(128)', (col) => col.notNull())
      .addColumn('memo', 'varchar(64)', (col) => col.notNull())
      .addColumn('amount', amount, (col) => col.notNull())
      .addColumn('fee', amount, (col) => col.notNull())
      .addColumn('status', 'integer', (col) => col.notNull())
      .addColumn('tx_hash', 'varchar(100)')
      .addColumn('reason', 'varchar(200)')
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('updated_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('withdrawals_user')
      .on('withdrawals')
      .columns(['user_id', 'id'])
      .execute();
  },
};
