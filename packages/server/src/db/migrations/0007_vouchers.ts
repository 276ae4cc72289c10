import { columnTypes, withAutoId } from '../columns.js';
import type { Migration } from '../migrate.js';

/**
 * Transfer codes (vouchers): the amount stays frozen in the engine under the business id
 * `voucher:{code}` while the row is active; the row records who redeemed or cancelled it.
 */
export const migration: Migration = {
  name: '0007_vouchers',
  async up(db, dialect) {
    const { amount } = columnTypes(dialect);
    await withAutoId(db.schema.createTable('vouchers'), dialect)
      .addColumn('code', 'varchar(64)', (col) => col.notNull().unique())
      .addColumn('user_id', 'bigint', (col) => col.notNull())
      .addColumn('asset', 'varchar(16)', (col) => col.notNull())
      .addColumn('amount', amount, (col) => col.notNull())
      .addColumn('status', 'varchar(16)', (col) => col.notNull())
      .addColumn('activated_by', 'bigint')
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('finished_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('vouchers_user')
      .on('vouchers')
      .columns(['user_id', 'id'])
      .execute();
    await db.schema
      .createIndex('vouchers_activated_by')
      .on('vouchers')
      .columns(['activated_by', 'id'])
      .execute();
  },
};
