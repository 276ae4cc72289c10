import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database, Db, SqlDialect } from './database.js';
import { loadSqliteDriver } from './sqliteDriver.js';

export interface DatabaseOptions {
  /** PostgreSQL when set; otherwise SQLite. */
  databaseUrl: string | null;
  /** Directory of the SQLite file (`lattice.sqlite`). */
  dataDir: string;
  /** SQLite file path, overriding `dataDir` (tests use a temporary file). */
  sqliteFile?: string;
  /** PostgreSQL schema to work in (sets `search_path`); tests use a fresh one each. */
  pgSchema?: string;
  /** PostgreSQL connections at most. */
  pgPoolSizeMax?: number;
}

export interface DatabaseHandle {
  db: Db;
  dialect: SqlDialect;
  /** Closes every connection. */
  close(): Promise<void>;
}

export const sqliteFileName = 'lattice.sqlite';
const busyTimeoutMs = 5_000;
/**
 * WAL pages after which a committing connection copies the WAL back into the database file
 * (SQLite's default is 1,000, about 4 MB). Every connection to the file uses the same value:
 * the one that commits past it runs the checkpoint, and a lower value on the main connection
 * would put checkpoints on the event loop.
 */
// NOTE: 4,000 pages (about 16 MB of WAL). The engine host's batches rewrite the same index and
// balance pages again and again, and a checkpoint copies each distinct page once however often
// it was rewritten. 128 submitters straight into the engine host, 20 s, two runs each: with
// SQLite's 1,000 (and its 2 MB page cache) 11,058-11,197 commands/s at 0.073-0.074 ms of CPU
// each, p99 23.5-24.0 ms; with 4,000 (and the commit worker's 64 MB) 14,319-14,692 at
// 0.059-0.060 ms, p99 21.5-22.4 ms; with 10,000 15,026-15,155 but p99 26.4-26.5 ms: a longer
// interval makes each checkpoint, which the commit that runs it waits for, longer.
export const sqliteWalAutocheckpointPages = 4_000;
const pgBigintOid = 20;

/** Opens the configured database: PostgreSQL when `databaseUrl` is set, else the SQLite file. */
export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  const handle = options.databaseUrl
    ? { dialect: 'postgres' as const, db: openPostgres(options.databaseUrl, options) }
    : { dialect: 'sqlite' as const, db: openSqlite(options) };
  return { ...handle, close: () => handle.db.destroy() };
}

function openSqlite(options: DatabaseOptions): Db {
  const file = options.sqliteFile ?? join(options.dataDir, sqliteFileName);
  if (!options.sqliteFile) mkdirSync(options.dataDir, { recursive: true });
  const Driver = loadSqliteDriver();
  const sqlite = new Driver(file);
  // WAL lets readers run beside the writer; FULL makes each commit durable before it returns.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
  sqlite.pragma(`wal_autocheckpoint = ${sqliteWalAutocheckpointPages}`);
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  sqliteConnections.set(db, sqlite);
  return db;
}

const sqliteConnections = new WeakMap<Db, SQLite.Database>();

/**
 * The better-sqlite3 connection under a SQLite `Db` (undefined on PostgreSQL), for a hot path
 * that keeps its prepared statements (the engine host's batch commit). NOTE: use it only while
 * holding Kysely's connection (`db.connection().execute(...)`), so no Kysely transaction is open
 * on it meanwhile.
 */
export function sqliteConnectionOf(db: Db): SQLite.Database | undefined {
  return sqliteConnections.get(db);
}

function openPostgres(connectionString: string, options: DatabaseOptions): Db {
  const pool = new pg.Pool({
    connectionString,
    max: options.pgPoolSizeMax ?? 10,
    ...(options.pgSchema
      ? { options: `-c search_path=${checkedSchemaName(options.pgSchema)}` }
      : {}),
    // NOTE: bigint columns (ids, millisecond timestamps, counts) come back as numbers, as on
    // SQLite; amounts are NUMERIC and stay strings. A bigint beyond 2^53 is a bug, so it throws.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === pgBigintOid
          ? parseSafeInteger
          : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

function parseSafeInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`bigint column beyond 2^53: ${text}`);
  return value;
}

/** Returns the name when it is a plain lower-case identifier, safe unquoted in SQL and options. */
export function checkedSchemaName(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`unsafe schema name: ${name}`);
  return name;
}
