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
 * index and balance pages all over the file. Measured with the engine host alone (128
 * submitters, 8 s runs): with the checkpoint interval at 10,000 pages it took 12,872-13,193
 * commands/s to 13,655-13,690; alone, at SQLite's interval, it gained nothing (10,510-10,953
 * against 11,179-11,537).
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
// Hands each request to the program; a close request closes the connection first, so the
// connection is closed (its share of the WAL checkpointed, when it is the last) before the
// thread is stopped.
function serve(handle) {
  parentPort.on('message', (message) => {
    if (message.close !== true) return handle(message);
    db.close();
    parentPort.postMessage({ id: message.id });
  });
}
`;

/**
 * A worker thread writing to the SQLite file. The program (after `openConnectionSource`)
 * answers each message `{ id, ... }` it gets through `serve` with `{ id }`, or `{ id, error }`
 * (see `WorkerRequests`).
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

  /** Closes the worker's connection after the requests before this one, then stops it. */
  async close(): Promise<void> {
    try {
      await this.requests.request({ close: true });
    } catch {
      // The worker had already failed: its connection went with it.
    } finally {
      await this.requests.close();
    }
  }
}
