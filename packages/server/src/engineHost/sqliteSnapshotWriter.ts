import type { SnapshotRow } from './snapshots.js';
import { SqliteWorkerThread } from './sqliteWorkerThread.js';

/**
 * Writes snapshots to the SQLite file from a worker thread with its own connection. Storing a
 * snapshot's text (17 MB at 100,000 resting orders) and its fsync took 0.12 to 0.15 s on the
 * main connection, during which the event loop served no request; in the worker only the
 * write lock is held meanwhile (the commit worker waits for it, the event loop does not).
 */
export class SqliteSnapshotWriter {
  private readonly worker: SqliteWorkerThread;

  constructor(file: string) {
    this.worker = new SqliteWorkerThread('snapshot writer', snapshotWorkerSource, file);
  }

  /**
   * Stores the row and drops all but the newest `keep` in one transaction. With `beforeCommit`
   * the transaction waits, open, until it has run, and is rolled back if it throws.
   */
  async write(row: SnapshotRow, keep: number, beforeCommit?: () => Promise<void>): Promise<void> {
    const header = {
      journal_seq: row.journal_seq,
      event_seq: row.event_seq,
      state_hash: row.state_hash,
      created_at: row.created_at,
    };
    // NOTE: the compressed text is moved to the worker, not copied.
    const message = { kind: 'write', row: header, gzip: row.gzip, keep, hold: !!beforeCommit };
    await this.worker.request(message, [row.gzip.buffer as ArrayBuffer]);
    if (!beforeCommit) return;
    try {
      await beforeCommit();
    } catch (error) {
      await this.worker.request({ kind: 'rollback' });
      throw error;
    }
    await this.worker.request({ kind: 'commit' });
  }

  async close(): Promise<void> {
    await this.worker.close();
  }
}

/**
 * The worker's program after `openConnectionSource`. A `write` with `hold` leaves its
 * transaction open until a `commit` or `rollback` message; without, it commits at once.
 * NOTE: the batch commits wait for the write lock while a snapshot is written, so the row is
 * made ready before the transaction begins: the compressed text is bound as the bytes it
 * arrived in (a Buffer over the same memory), and `data` is left empty.
 */
const snapshotWorkerSource = `
const insert = db.prepare(
  'INSERT INTO engine_snapshots (journal_seq, event_seq, state_hash, data, data_gzip, created_at) ' +
  "VALUES (@journal_seq, @event_seq, @state_hash, '', @data_gzip, @created_at)"
);
const newest = db.prepare('SELECT journal_seq FROM engine_snapshots ORDER BY journal_seq DESC LIMIT ?').pluck();
const dropBefore = db.prepare('DELETE FROM engine_snapshots WHERE journal_seq < ?');
function write(message) {
  const gzip = message.gzip;
  const data_gzip = Buffer.from(gzip.buffer, gzip.byteOffset, gzip.byteLength);
  db.exec('BEGIN IMMEDIATE');
  try {
    insert.run({ ...message.row, data_gzip });
    const kept = newest.all(message.keep);
    dropBefore.run(kept.length > 0 ? kept[kept.length - 1] : message.row.journal_seq);
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  if (!message.hold) db.exec('COMMIT');
}
serve((message) => {
  try {
    if (message.kind === 'write') write(message);
    else if (message.kind === 'commit') db.exec('COMMIT');
    else if (db.inTransaction) db.exec('ROLLBACK');
    parentPort.postMessage({ id: message.id });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String(error && error.message) });
  }
});
`;
