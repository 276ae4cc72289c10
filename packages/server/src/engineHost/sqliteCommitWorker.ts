import type { BatchRecord } from './hostStore.js';
import { batchStatements, positionalBatch } from './sqliteBatchSql.js';
import { SqliteWorkerThread } from './sqliteWorkerThread.js';

const jsonEncoder = new TextEncoder();

/**
 * Commits batches to the SQLite file from a worker thread with its own connection and
 * statements prepared once. The commit's fsync then blocks the worker, not the event loop:
 * requests keep arriving and being parsed, and form the next batch, while one is made durable.
 */
export class SqliteCommitWorker {
  private readonly worker: SqliteWorkerThread;

  constructor(file: string) {
    this.worker = new SqliteWorkerThread('commit worker', commitWorkerSource, file, {
      statements: batchStatements,
    });
  }

  /** Resolves once the batch is durable; rejects when nothing of it was written. */
  commit(batch: BatchRecord): Promise<void> {
    // NOTE: the batch crosses as JSON, encoded into a buffer that is moved, not copied: about
    // half the main thread's time of the structured clone of its many small row objects, and
    // less than posting the text (which is copied). Rows hold only strings, numbers and nulls
    // (the tables' column types), which JSON keeps; they cross as arrays of their statement's
    // parameters (see `positionalBatch`).
    const bytes = jsonEncoder.encode(JSON.stringify(positionalBatch(batch)));
    return this.worker.request({ batch: bytes }, [bytes.buffer]);
  }

  async close(): Promise<void> {
    await this.worker.close();
  }
}

/**
 * The worker's program after `openConnectionSource`: it prepares the statements once and writes
 * each batch it receives (a `PositionalBatch`) in one transaction.
 */
const commitWorkerSource = `
const sql = workerData.statements;
const journal = db.prepare(sql.journal);
const order = db.prepare(sql.order);
const trade = db.prepare(sql.trade);
const balance = db.prepare(sql.balance);
const systemBalance = db.prepare(sql.systemBalance);
const history = db.prepare(sql.history);
const key = db.prepare(sql.key);
const write = db.transaction((batch) => {
  for (const row of batch.journal) journal.run(row);
  for (const row of batch.order) order.run(row);
  for (const row of batch.trade) trade.run(row);
  for (const row of batch.balance) balance.run(row);
  for (const row of batch.systemBalance) systemBalance.run(row);
  for (const row of batch.history) history.run(row);
  for (const row of batch.key) key.run(row);
});
serve((message) => {
  try {
    write(JSON.parse(decoder.decode(message.batch)));
    parentPort.postMessage({ id: message.id });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String(error && error.message) });
  }
});
`;
