import { type Compilable, CompiledQuery } from 'kysely';
import type { Db } from './database.js';
import { sqliteConnectionOf } from './open.js';

/** A read run on every request: its parameters in, its first row out. */
export type PreparedRead<Row> = (parameters: readonly unknown[]) => Promise<Row | undefined>;

/**
 * A hot read compiled by Kysely once instead of per call. On SQLite the statement is also
 * prepared once on the connection (better-sqlite3 would otherwise prepare it on every run) and
 * run while holding Kysely's connection, so it never reads inside another caller's open
 * transaction. `query` is built with placeholder values; each call binds its own, in order.
 */
export function preparedRead<Row>(db: Db, query: Compilable<Row>): PreparedRead<Row> {
  const { sql } = query.compile();
  const sqlite = sqliteConnectionOf(db);
  if (sqlite === undefined) {
    return async (parameters) => {
      const result = await db.executeQuery<Row>(CompiledQuery.raw(sql, [...parameters]));
      return result.rows[0];
    };
  }
  const statement = sqlite.prepare(sql);
  return (parameters) =>
    db.connection().execute(async () => statement.get(...parameters) as Row | undefined);
}
