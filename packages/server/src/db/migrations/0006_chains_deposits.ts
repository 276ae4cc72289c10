import { columnTypes, withAutoId } from '../columns.js';
import type { Migration } from '../migrate.js';

/**
 * Chains and deposits: the simulated chains' blocks and transfers, how far the deposit watcher
 * has read each network, users' deposit addresses, and deposits with their confirmations.
 * A memo is stored as '' when there is none, so that uniqueness holds on both dialects.
 */
export const migration: Migration = {
  name: '0006_chains_deposits',
  async up(db, dialect) {
    const { amount } = columnTypes(dialect);
    await db.schema
      .createTable('sim_chain_blocks')
      .addColumn('network', 'varchar(32)', (col) => col.primaryKey())
      .addColumn('height', 'bigint', (col) => col.notNull())
      .addColumn('time', 'bigint', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('sim_chain_transfers')
      .addColumn('network', 'varchar(32)', (col) => col.notNull())
      .addColumn('tx_hash', 'varchar(100)', (col) => col.notNull())
      .addColumn('output', 'integer', (col) => col.notNull())
      .addColumn('asset', 'varchar(16)', (col) => col.notNull())
      .addColumn('address', 'varchar(128)', (col) => col.notNull())
      .addColumn('memo', 'varchar(64)', (col) => col.notNull())
      .addColumn('amount', amount, (col) => col.notNull())
      .addColumn('block_height', 'bigint', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('sim_chain_transfers_pk', ['network', 'tx_hash', 'output'])
      .execute();
    await db.schema
      .createIndex('sim_chain_transfers_block')
      .on('sim_chain_transfers')
      .columns(['network', 'block_height'])
      .execute();

    await db.schema
      .createTable('chain_scan_cursors')
      .addColumn('network', 'varchar(32)', (col) => col.primaryKey())
      .addColumn('height', 'bigint', (col) => col.notNull())
      .execute();

    await withAutoId(db.schema.createTable('deposit_addresses'), dialect)
      .addColumn('user_id', 'bigint', (col) => col.notNull())
      .addColumn('network', 'varchar(32)', (col) => col.notNull())
      .addColumn('address', 'varchar(128)', (col) => col.notNull())
      .addColumn('memo', 'varchar(64)', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addUniqueConstraint('deposit_addresses_target', ['network', 'address', 'memo'])
      .execute();
    await db.schema
      .createIndex('deposit_addresses_user')
      .on('deposit_addresses')
      .columns(['user_id', 'network', 'id'])
      .execute();

    await withAutoId(db.schema.createTable('deposits'), dialect)
      .addColumn('user_id', 'bigint', (col) => col.notNull())
      .addColumn('asset', 'varchar(16)', (col) => col.notNull())
      .addColumn('network', 'varchar(32)', (col) => col.notNull())
      .addColumn('tx_hash', 'varchar(100)', (col) => col.notNull())
      .addColumn('output', 'integer', (col) => col.notNull())
      .addColumn('address', 'varchar(128)', (col) => col.notNull())
      .addColumn('memo', 'varchar(64)', (col) => col.notNull())
      .addColumn('amount', amount, (col) => col.notNull())
      .addColumn('block_height', 'bigint', (col) => col.notNull())
      .addColumn('confirmations_required', 'integer', (col) => col.notNull())
      .addColumn('status', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('credited_at', 'bigint')
      .addUniqueConstraint('deposits_output', ['network', 'tx_hash', 'output'])
      .execute();
    await db.schema
      .createIndex('deposits_user')
      .on('deposits')
      .columns(['user_id', 'id'])
      .execute();
    await db.schema
      .createIndex('deposits_pending')
      .on('deposits')
      .columns(['status', 'network'])
      .execute();
  },
};
