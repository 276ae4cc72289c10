import { withAutoId } from '../columns.js';
import type { Migration } from '../migrate.js';

/** Accounts: e-mail, password hash and the fields every later concern builds on. */
export const migration: Migration = {
  name: '0002_users',
  async up(db, dialect) {
    await withAutoId(db.schema.createTable('users'), dialect)
      .addColumn('email', 'varchar(254)', (col) => col.notNull().unique())
      .addColumn('password_hash', 'varchar(255)', (col) => col.notNull())
      .addColumn('nickname', 'varchar(64)')
      .addColumn('country', 'varchar(2)')
      .addColumn('email_verified_at', 'bigint')
      .addColumn('is_demo', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('updated_at', 'bigint', (col) => col.notNull())
      .execute();
  },
};
