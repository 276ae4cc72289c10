import { Worker } from 'node:worker_threads';
import { sqliteDriverPath } from '../db/sqliteDriver.js';
import type { BatchRecord } from './hostStore.js';
import { batchStatements } from './sqliteBatchSql.js';

const jsonEncoder = new TextEncoder();

interface Pending {
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * Commits batches to the SQLite file from a worker thread with its own connection and
 * statements prepared once. The commit's fsync then blocks the worker, not the event loop:
 * requests keep arriving and being parsed, and form the next batch, while one is made durable.
 */
export class SqliteCommitWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | null = null;

  constructor(file: string) {
    // The same driver build as the main connection (it differs between Node versions).
    const driverPath = sqliteDriverPath();
    this.worker = new Worker(commitWorkerSource, {
      eval: true,
      workerData: { file, driverPath, statements: batchStatements },
    });
    this.worker.unref();
    this.worker.on('message', (message: { id: number; error?: string }) => {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error === undefined) waiting?.resolve();
      else waiting?.reject(new Error(message.error));
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the commit worker exited (${code})`)));
  }

  /** Resolves once the batch is durable; rejects when nothing of it was written. */
  commit(batch: BatchRecord): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    // NOTE: the batch crosses as JSON, encoded into a buffer that is moved, not copied: about
    // half the main thread's time of the structured clone of its many small row objects, and
    // less than posting the text (which is copied). Rows hold only strings, numbers and nulls
    // (the tables' column types), which JSON keeps.
    const bytes = jsonEncoder.encode(JSON.stringify(batch));
    return new Promise<void>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, batch: bytes }, [bytes.buffer]);
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.pending.values()) waiting.reject(this.failure);
    this.pending.clear();
  }
}

/**
 * The worker's program, plain JavaScript in a string so that no bundler or transpiler rewrites
 * it (an ESM bundle turns `require` into a helper the worker would not have). It opens the file,
 * prepares the statements once and writes each batch it receives in one transaction. It waits
 * up to 30 s for the write lock (held meanwhile by a transaction on the main connection, such as
 * a snapshot): a failed commit halts the host, a wait only delays it.
 */
const commitWorkerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);
const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 30000');
const sql = workerData.statements;
const decoder = new TextDecoder();
const journal = db.prepare(sql.journal);
const order = db.prepare(sql.order);
const trade = db.prepare(sql.trade);
const balance = db.prepare(sql.balance);
const systemBalance = db.prepare(sql.systemBalance);
const history = db.prepare(sql.history);
const key = db.prepare(sql.key);
const write = db.transaction((batch) => {
  for (const row of batch.journal) journal.run(row);
  const rows = batch.projections;
  for (const row of rows.orders) order.run(row);
  for (const row of rows.trades) trade.run(row);
  for (const row of rows.balances) balance.run(row);
  for (const row of rows.systemBalances) systemBalance.run(row);
  for (const row of rows.history) history.run(row);
  for (const record of batch.idempotency) {
    key.run({
      user_id: record.userId,
      key: record.key,
      fingerprint: record.fingerprint,
      reply: record.reply,
      created_at: batch.time,
    });
  }
});
parentPort.on('message', (message) => {
  try {
    write(JSON.parse(decoder.decode(message.batch)));
    parentPort.postMessage({ id: message.id });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String(error && error.message) });
  }
});
`;
