import { Worker } from 'node:worker_threads';
import { sqliteWalAutocheckpointPages } from '../db/open.js';
import { sqliteDriverPath } from '../db/sqliteDriver.js';
import { WorkerRequests } from './workerRequests.js';

/**
 * The start of a worker program: its own connection to the SQLite file, with the main
 * connection's settings. It waits up to 30 s for the write lock: a failed write halts the host,
 * a wait only delays it. Programs are plain JavaScript in a string so that no bundler or
 * transpiler rewrites them (an ESM bundle turns `require` into a helper the worker would not
 * have). Its page cache is 64 MB instead of SQLite's 2 MB: the commit worker's statements touch
 * index and balance pages all over the file, which then stay in memory instead of being read
 * back from the operating system on each batch.
 */
export const openConnectionSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);
const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 30000');
db.pragma('wal_autocheckpoint = ${sqliteWalAutocheckpointPages}');
db.pragma('cache_size = -65536');
const decoder = new TextDecoder();
`;

/**
 * A worker thread writing to the SQLite file. The program (after `openConnectionSource`)
 * answers each message `{ id, ... }` with `{ id }`, or `{ id, error }` (see `WorkerRequests`).
 */
export class SqliteWorkerThread {
  private readonly requests: WorkerRequests;

  constructor(
    /** Named in the error when the worker exits. */
    name: string,
    program: string,
    file: string,
    workerData: Record<string, unknown> = {},
  ) {
    // The same driver build as the main connection (it differs between Node versions).
    const worker = new Worker(openConnectionSource + program, {
      eval: true,
      workerData: { ...workerData, file, driverPath: sqliteDriverPath() },
    });
    worker.unref();
    this.requests = new WorkerRequests(worker, name);
  }

  /** Resolves when the worker has done what `message` asks; `transfer` is moved, not copied. */
  async request(message: object, transfer: ArrayBuffer[] = []): Promise<void> {
    await this.requests.request(message, transfer);
  }

  async close(): Promise<void> {
    await this.requests.close();
  }
}
