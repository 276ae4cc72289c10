import { withAutoId } from '../columns.js';
import type { Migration } from '../migrate.js';

/**
 * The withdrawal whitelist: saved addresses per user, and the users who turned whitelist mode
 * on (a row present means on). A memo is '' when there is none.
 */
export const migration: Migration = {
  name: '0009_whitelist',
  async up(db, dialect) {
    await withAutoId(db.schema.createTable('whitelist_addresses'), dialect)
      .addColumn('user_id', 'bigint', (col) => col.notNull())
      .addColumn('name', 'varchar(64)', (col) => col.notNull())
      .addColumn('asset', 'varchar(16)', (col) => col.notNull())
      .addColumn('address', 'varchar(128)', (col) => col.notNull())
      .addColumn('memo', 'varchar(64)', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('whitelist_addresses_user')
      .on('whitelist_addresses')
      .columns(['user_id', 'asset', 'address'])
      .execute();
    await db.schema
      .createTable('whitelist_mode')
      .addColumn('user_id', 'bigint', (col) => col.primaryKey())
      .addColumn('enabled_at', 'bigint', (col) => col.notNull())
      .execute();
  },
};
