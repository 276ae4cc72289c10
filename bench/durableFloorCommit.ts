// How the durable floor (bench/durableFloor.ts) makes a request's rows durable before it
// answers: group commit, every row queued in one turn of the event loop written in one
// transaction on the main thread, in SQLite opened as `openDatabase` opens it (WAL mode,
// synchronous=FULL), so the commit returns once synced; each request then resolves.
import { type openDatabase, sqliteConnectionOf } from '../packages/server/src/db/open.js';
import { batchStatements } from '../packages/server/src/engineHost/sqliteBatchSql.js';
import type { Rows } from './durableFloorState.js';

/** What one request queued for the next commit, and how to answer it after. */
interface Pending {
  rows: Rows;
  done: () => void;
}

/** Group commit over `commit`: returns `durable`, which queues a command's rows. */
export function groupCommit(commit: (batch: Rows[]) => void): (rows: Rows) => Promise<void> {
  let pending: Pending[] = [];
  let flushing = false;

  // The commit blocks the event loop, so what arrives meanwhile is read after it: the next batch.
  const flush = () => {
    flushing = false;
    const batch = pending;
    pending = [];
    commit(batch.map((entry) => entry.rows));
    for (const entry of batch) entry.done();
  };

  /** Queues a command's rows; resolves once they are committed. */
  const durable = (rows: Rows) =>
    new Promise<void>((done) => {
      pending.push({ rows, done });
      if (!flushing) {
        flushing = true;
        setImmediate(flush);
      }
    });
  return durable;
}

/** Writes a batch's rows in one transaction on this thread. */
export function committer(database: ReturnType<typeof openDatabase>): (batch: Rows[]) => void {
  const sqlite = sqliteConnectionOf(database.db)!;
  // As the engine host's commit worker keeps it.
  sqlite.pragma('cache_size = -65536');
  const statements = {
    journal: sqlite.prepare(batchStatements.journal),
    order: sqlite.prepare(batchStatements.order),
    balance: sqlite.prepare(batchStatements.balance),
    history: sqlite.prepare(batchStatements.history),
  };
  return sqlite.transaction((batch: Rows[]) => {
    for (const rows of batch) {
      statements.journal.run(rows.journal);
      statements.order.run(rows.order);
      statements.balance.run(rows.balance);
      statements.history.run(rows.history);
    }
  });
}
