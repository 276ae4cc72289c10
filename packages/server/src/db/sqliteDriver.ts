import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The better-sqlite3 build for the running Node. Version 12 (the last for Node 20) is built on
 * `node::ObjectWrap`, which on Node 24 aborts the process when a statement is collected after
 * its environment is gone ("Assertion failed: (env) != nullptr"); version 13 (node-addon-api)
 * fixes that but needs Node 22. Both have the same API; `better-sqlite3-napi` is version 13
 * installed under another name.
 */
export const sqliteDriverName =
  Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';

const require = createRequire(import.meta.url);

/** The driver's `Database` class. */
export function loadSqliteDriver(): typeof BetterSqlite3 {
  return require(sqliteDriverName) as typeof BetterSqlite3;
}

/** The driver's entry file, for code that loads it elsewhere (a worker thread). */
export function sqliteDriverPath(): string {
  return require.resolve(sqliteDriverName);
}
