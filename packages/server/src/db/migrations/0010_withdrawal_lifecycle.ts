import { sql } from 'kysely';
import { columnTypes } from '../columns.js';
import type { Migration } from '../migrate.js';

/**
 * The withdrawal life cycle beyond "confirmed, sent": the e-mail confirmation (status 5) keeps
 * the hash of its link's token and when the link expires; `needs_review` marks a request
 * above the operator threshold (status 6 once the user confirmed); `hold_settled_at` is set
 * once the engine completed or released the hold, so a restart knows which holds are still
 * open. Rows written before this migration are finished: their holds are settled.
 *
 * `withdrawal_fee_rules` adds the flex part of a currency fee (SPEC.md §3 "Currency fee") per
 * asset and network: `flex_percent_ppm` (parts per million of the amount) kept between
 * `flex_min` and `flex_max` (0: no maximum), on top of the network's fixed fee.
 */
export const migration: Migration = {
  name: '0010_withdrawal_lifecycle',
  async up(db, dialect) {
    const { amount } = columnTypes(dialect);
    // SQLite adds one column per ALTER TABLE.
    await db.schema
      .alterTable('withdrawals')
      .addColumn('confirm_token_hash', 'varchar(64)')
      .execute();
    await db.schema.alterTable('withdrawals').addColumn('confirm_expires_at', 'bigint').execute();
    await db.schema
      .alterTable('withdrawals')
      .addColumn('needs_review', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('withdrawals').addColumn('hold_settled_at', 'bigint').execute();
    await sql`UPDATE withdrawals SET hold_settled_at = updated_at WHERE status IN (3, 4)`.execute(
      db,
    );
    await db.schema
      .createIndex('withdrawals_status')
      .on('withdrawals')
      .columns(['status', 'id'])
      .execute();
    await db.schema
      .createTable('withdrawal_fee_rules')
      .addColumn('asset', 'varchar(16)', (col) => col.notNull())
      .addColumn('network', 'varchar(32)', (col) => col.notNull())
      .addColumn('flex_percent_ppm', 'integer', (col) => col.notNull())
      .addColumn('flex_min', amount, (col) => col.notNull())
      .addColumn('flex_max', amount, (col) => col.notNull())
      .addPrimaryKeyConstraint('withdrawal_fee_rules_pk', ['asset', 'network'])
      .execute();
    // An ERC-20 transfer's cost grows with the gas price: 0.1% on top of the fixed 5 USDT,
    // at most 20 USDT more (minor units: USDT has 6 decimals).
    await db
      .insertInto('withdrawal_fee_rules')
      .values({
        asset: 'USDT',
        network: 'ethereum',
        flex_percent_ppm: 1000,
        flex_min: '0',
        flex_max: '20000000',
      })
      .execute();
  },
};
