import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDb, useTestDb } from '../testing/testDb.js';
import { amountColumnMax, amountFromDb, amountToDb } from './amount.js';
import { columnTypes } from './columns.js';
import { type Migration, migrateToLatest } from './migrate.js';
import { migrations } from './migrations/index.js';

const testDb = useTestDb();

describe('migrateToLatest', () => {
  it('has applied every migration once, and a second run applies nothing', async () => {
    const { db, dialect } = testDb.current;
    const rows = await db
      .selectFrom('schema_migrations' as never)
      .select(sql<string>`name`.as('name'))
      .execute();
    expect(rows.map((row) => row.name)).toEqual(migrations.map((migration) => migration.name));
    expect(await migrateToLatest(db, dialect)).toEqual([]);
  });

  it('stores 39-digit amounts and millisecond timestamps exactly', async () => {
    const { db } = testDb.current;
    const now = Date.now();
    await db
      .insertInto('assets')
      .values({
        ticker: 'XAM',
        name: 'Amount test',
        decimals: 8,
        is_fiat: 0,
        is_stable: 0,
        sort_order: 1,
        deposit_enabled: 1,
        withdraw_enabled: 1,
        created_at: now,
      })
      .execute();
    await db
      .insertInto('networks')
      .values({
        code: 'xam_chain',
        name: 'Amount chain',
        native_ticker: 'XAM',
        uses_memo: 0,
        confirmations: 1,
        sort_order: 1,
        created_at: now,
      })
      .execute();
    await db
      .insertInto('asset_networks')
      .values({
        asset_ticker: 'XAM',
        network_code: 'xam_chain',
        contract_address: null,
        withdraw_fee: amountToDb(amountColumnMax),
        withdraw_min: amountToDb(1n),
        sort_order: 1,
      })
      .execute();
    const row = await db
      .selectFrom('asset_networks')
      .innerJoin('assets', 'assets.ticker', 'asset_networks.asset_ticker')
      .select(['withdraw_fee', 'withdraw_min', 'assets.created_at'])
      .where('asset_ticker', '=', 'XAM')
      .executeTakeFirstOrThrow();
    expect(amountFromDb(row.withdraw_fee)).toBe(amountColumnMax);
    expect(amountFromDb(row.withdraw_min)).toBe(1n);
    expect(row.created_at).toBe(now);
  });

  it('rolls a failing migration back whole, and refuses a database newer than the code', async () => {
    const fresh = await createTestDb({ migrate: false });
    try {
      const failing: Migration = {
        name: '9000_failing',
        async up(db, dialect) {
          await db.schema
            .createTable('half_done')
            .addColumn('amount', columnTypes(dialect).amount)
            .execute();
          throw new Error('boom');
        },
      };
      await expect(migrateToLatest(fresh.db, fresh.dialect, [failing])).rejects.toThrow('boom');
      const tables = await fresh.db.introspection.getTables();
      expect(tables.map((table) => table.name)).not.toContain('half_done');

      await migrateToLatest(fresh.db, fresh.dialect, migrations);
      await expect(
        migrateToLatest(fresh.db, fresh.dialect, migrations.slice(0, 1)),
      ).rejects.toThrow(/newer version/);
    } finally {
      await fresh.destroy();
    }
  });

  it('rejects a list out of order', async () => {
    const { db, dialect } = testDb.current;
    const noop = async () => {};
    await expect(
      migrateToLatest(db, dialect, [
        { name: '0002_b', up: noop },
        { name: '0001_a', up: noop },
      ]),
    ).rejects.toThrow(/out of order/);
  });
});
