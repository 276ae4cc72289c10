import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { Db, SqlDialect } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { checkedSchemaName, openDatabase } from '../db/open.js';

export interface TestDb {
  db: Db;
  dialect: SqlDialect;
  /** The connection string tests use, or null on SQLite. */
  databaseUrl: string | null;
  /** The PostgreSQL schema of this database, or null on SQLite. */
  pgSchema: string | null;
  /** The SQLite file of this database, or null on PostgreSQL. */
  sqliteFile: string | null;
  /** Closes the connections and deletes the database. */
  destroy(): Promise<void>;
}

/**
 * A fresh, migrated database of its own: a temporary SQLite file, or, when `DATABASE_URL` is
 * set, a new schema in that PostgreSQL database (dropped by `destroy`).
 */
export async function createTestDb(options: { migrate?: boolean } = {}): Promise<TestDb> {
  const databaseUrl = process.env.DATABASE_URL || null;
  const testDb = databaseUrl ? await createPgSchema(databaseUrl) : createSqliteFile();
  if (options.migrate !== false) await migrateToLatest(testDb.db, testDb.dialect);
  return testDb;
}

/**
 * Gives the calling test file a fresh, migrated database, created before its tests and
 * deleted after them. Read `.current` inside tests and hooks.
 */
export function useTestDb(): { readonly current: TestDb } {
  let testDb: TestDb | undefined;
  beforeAll(async () => {
    testDb = await createTestDb();
  });
  afterAll(async () => {
    await testDb?.destroy();
  });
  return {
    get current() {
      if (!testDb) throw new Error('useTestDb: the database exists only inside tests and hooks');
      return testDb;
    },
  };
}

function createSqliteFile(): TestDb {
  const dir = mkdtempSync(join(tmpdir(), 'lattice-test-'));
  const sqliteFile = join(dir, 'test.sqlite');
  const handle = openDatabase({ databaseUrl: null, dataDir: dir, sqliteFile });
  return {
    ...handle,
    databaseUrl: null,
    pgSchema: null,
    sqliteFile,
    async destroy() {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function createPgSchema(databaseUrl: string): Promise<TestDb> {
  const pgSchema = checkedSchemaName(`test_${randomBytes(6).toString('hex')}`);
  await runAdminStatement(databaseUrl, `create schema ${pgSchema}`);
  const handle = openDatabase({ databaseUrl, dataDir: tmpdir(), pgSchema, pgPoolSizeMax: 4 });
  return {
    ...handle,
    databaseUrl,
    pgSchema,
    sqliteFile: null,
    async destroy() {
      await handle.close();
      await runAdminStatement(databaseUrl, `drop schema if exists ${pgSchema} cascade`);
    },
  };
}

async function runAdminStatement(databaseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
