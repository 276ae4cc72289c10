import { Worker } from 'node:worker_threads';
import { sqliteDriverPath } from '../db/sqliteDriver.js';

interface Pending {
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * The start of a worker program: its own connection to the SQLite file, with the main
 * connection's settings. It waits up to 30 s for the write lock: a failed write halts the host,
 * a wait only delays it. Programs are plain JavaScript in a string so that no bundler or
 * transpiler rewrites them (an ESM bundle turns `require` into a helper the worker would not
 * have).
 */
export const openConnectionSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);
const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 30000');
const decoder = new TextDecoder();
`;

/**
 * A worker thread writing to the SQLite file, and the requests waiting for its answers. The
 * program (after `openConnectionSource`) answers each message `{ id, ... }` with `{ id }`, or
 * `{ id, error }`. Once the worker fails or exits, every request waiting or made after is
 * refused with that failure.
 */
export class SqliteWorkerThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | null = null;

  constructor(
    /** Named in the error when the worker exits. */
    name: string,
    program: string,
    file: string,
    workerData: Record<string, unknown> = {},
  ) {
    // The same driver build as the main connection (it differs between Node versions).
    this.worker = new Worker(openConnectionSource + program, {
      eval: true,
      workerData: { ...workerData, file, driverPath: sqliteDriverPath() },
    });
    this.worker.unref();
    this.worker.on('message', (message: { id: number; error?: string }) => {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error === undefined) waiting?.resolve();
      else waiting?.reject(new Error(message.error));
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the ${name} exited (${code})`)));
  }

  /** Resolves when the worker has done what `message` asks; `transfer` is moved, not copied. */
  request(message: object, transfer: ArrayBuffer[] = []): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id }, transfer);
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
