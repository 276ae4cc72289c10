import { type Kysely, sql } from 'kysely';
import type { SqlDialect } from './database.js';
import { migrations as allMigrations } from './migrations/index.js';

/**
 * A schema change. `up` runs inside the migration transaction; it receives the dialect so it
 * can choose the column types of `columnTypes(dialect)`. There is no `down`: a change is undone
 * by a new migration.
 */
export interface Migration {
  /** `NNNN_concern`, the file name without extension; applied in this order. */
  name: string;
  // biome-ignore lint/suspicious/noExplicitAny: a migration sees the schema as it was at its time, not today's `Database`.
  up(db: Kysely<any>, dialect: SqlDialect): Promise<void>;
}

/**
 * Applies the migrations not yet applied, in name order, all in one transaction; returns the
 * names applied. Concurrent starts on PostgreSQL wait for each other (an advisory lock per
 * schema); on SQLite the write lock does the same.
 */
export async function migrateToLatest(
  // biome-ignore lint/suspicious/noExplicitAny: runs before and across every version of the schema.
  db: Kysely<any>,
  dialect: SqlDialect,
  migrations: readonly Migration[] = allMigrations,
): Promise<string[]> {
  assertOrdered(migrations);
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') {
      await sql`select pg_advisory_xact_lock(hashtext(current_schema()))`.execute(trx);
    }
    await trx.schema
      .createTable('schema_migrations')
      .ifNotExists()
      .addColumn('name', 'varchar(200)', (col) => col.primaryKey())
      .addColumn('applied_at', 'bigint', (col) => col.notNull())
      .execute();
    const rows = await trx.selectFrom('schema_migrations').select('name').execute();
    const applied = new Set(rows.map((row: { name: string }) => row.name));
    const known = new Set(migrations.map((migration) => migration.name));
    const unknown = [...applied].filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new Error(
        `The database has migrations this version does not know (${unknown.join(', ')}): it was written by a newer version.`,
      );
    }
    const pending = migrations.filter((migration) => !applied.has(migration.name));
    for (const migration of pending) {
      await migration.up(trx, dialect);
      await trx
        .insertInto('schema_migrations')
        .values({ name: migration.name, applied_at: Date.now() })
        .execute();
    }
    return pending.map((migration) => migration.name);
  });
}

function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (!/^\d{4}_[a-z0-9_]+$/.test(migration.name)) {
      throw new Error(`migration name must be NNNN_concern: ${migration.name}`);
    }
    const previous = migrations[index - 1];
    if (previous && previous.name >= migration.name) {
      throw new Error(`migrations out of order: ${previous.name} before ${migration.name}`);
    }
  });
}
