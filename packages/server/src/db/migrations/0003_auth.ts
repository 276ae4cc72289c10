import { withAutoId } from '../columns.js';
import type { Migration } from '../migrate.js';

/** Accounts and security: user settings, sessions, devices, e-mailed tokens, API keys, mail. */
export const migration: Migration = {
  name: '0003_auth',
  async up(db, dialect) {
    const userColumns: [
      string,
      'varchar(8)' | 'varchar(16)' | 'text' | 'bigint' | 'integer',
      unknown,
    ][] = [
      ['language', 'varchar(8)', 'en'],
      ['kyc_status', 'varchar(16)', 'unverified'],
      ['totp_secret', 'text', null],
      ['totp_pending_secret', 'text', null],
      ['totp_last_step', 'bigint', null],
      ['anti_phishing_code', 'text', null],
      ['anti_phishing_enabled', 'integer', 0],
      ['custom_fee_enabled', 'integer', 0],
      ['nickname_changed_at', 'bigint', null],
      ['logout_minutes', 'integer', 60],
      ['withdrawals_blocked_until', 'bigint', null],
      ['google_subject', 'text', null],
    ];
    for (const [name, type, fallback] of userColumns) {
      await db.schema
        .alterTable('users')
        .addColumn(name, type, (col) =>
          fallback === null ? col : col.notNull().defaultTo(fallback),
        )
        .execute();
    }
    await db.schema
      .createIndex('users_google_subject_unique')
      .on('users')
      .column('google_subject')
      .unique()
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'varchar(32)', (col) => col.primaryKey())
      .addColumn('token_hash', 'varchar(64)', (col) => col.notNull().unique())
      .addColumn('user_id', 'bigint', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('stage', 'varchar(16)', (col) => col.notNull())
      .addColumn('csrf_token', 'varchar(64)', (col) => col.notNull())
      .addColumn('ip_address', 'varchar(64)', (col) => col.notNull())
      .addColumn('user_agent', 'varchar(512)', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('last_seen_at', 'bigint', (col) => col.notNull())
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

    await withAutoId(db.schema.createTable('user_devices'), dialect)
      .addColumn('user_id', 'bigint', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('device_hash', 'varchar(64)', (col) => col.notNull())
      .addColumn('confirmed_at', 'bigint')
      .addColumn('code_hash', 'varchar(64)')
      .addColumn('code_expires_at', 'bigint')
      .addColumn('code_attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('user_agent', 'varchar(512)', (col) => col.notNull())
      .addColumn('ip_address', 'varchar(64)', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('last_seen_at', 'bigint', (col) => col.notNull())
      .addUniqueConstraint('user_devices_user_device_unique', ['user_id', 'device_hash'])
      .execute();

    await db.schema
      .createTable('email_tokens')
      .addColumn('token_hash', 'varchar(64)', (col) => col.primaryKey())
      .addColumn('user_id', 'bigint', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('purpose', 'varchar(32)', (col) => col.notNull())
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('email_tokens_user_id')
      .on('email_tokens')
      .column('user_id')
      .execute();

    await withAutoId(db.schema.createTable('api_keys'), dialect)
      .addColumn('user_id', 'bigint', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('name', 'varchar(64)', (col) => col.notNull())
      .addColumn('api_key', 'varchar(64)', (col) => col.notNull().unique())
      .addColumn('secret_sealed', 'text', (col) => col.notNull())
      .addColumn('scopes', 'varchar(64)', (col) => col.notNull())
      .addColumn('ip_allow_list', 'text', (col) => col.notNull())
      .addColumn('is_enabled', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('last_used_at', 'bigint')
      .execute();
    await db.schema.createIndex('api_keys_user_id').on('api_keys').column('user_id').execute();

    await db.schema
      .createTable('api_signatures')
      .addColumn('signature', 'varchar(64)', (col) => col.primaryKey())
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('api_signatures_expires_at')
      .on('api_signatures')
      .column('expires_at')
      .execute();

    await withAutoId(db.schema.createTable('mail_outbox'), dialect)
      .addColumn('to_address', 'varchar(254)', (col) => col.notNull())
      .addColumn('subject', 'varchar(255)', (col) => col.notNull())
      .addColumn('text_body', 'text', (col) => col.notNull())
      .addColumn('html_body', 'text', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('sent_at', 'bigint')
      .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .execute();
    await db.schema
      .createIndex('mail_outbox_to_created')
      .on('mail_outbox')
      .columns(['to_address', 'created_at'])
      .execute();
  },
};
