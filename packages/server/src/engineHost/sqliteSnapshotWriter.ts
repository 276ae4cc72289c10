import type { EngineSnapshotsTable } from '../db/tables/engineHost.js';
import { encodeInSlices } from './slicedWork.js';
import type { EncodedSnapshotRow } from './snapshots.js';
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
  async write(
    row: EngineSnapshotsTable | EncodedSnapshotRow,
    keep: number,
    beforeCommit?: () => Promise<void>,
  ): Promise<void> {
    // NOTE: the text crosses as UTF-8 in buffers that are moved, not copied; encoding or
    // posting 17 MB in one piece took 15 to 30 ms of the event loop.
    const pieces = 'pieces' in row ? row.pieces : await encodeInSlices(row.data);
    const header = {
      journal_seq: row.journal_seq,
      event_seq: row.event_seq,
      state_hash: row.state_hash,
      created_at: row.created_at,
    };
    const message = { kind: 'write', row: header, data: pieces, keep, hold: !!beforeCommit };
    await this.worker.request(
      message,
      pieces.map((piece) => piece.buffer as ArrayBuffer),
    );
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
 * NOTE: the batch commits wait for the write lock while a snapshot is written, so nothing is
 * done under it that can be done before: the text is bound as its UTF-8 bytes, joined before
 * the transaction begins, and stored as TEXT by the cast (the bytes are the database's own
 * encoding, so nothing is converted). Decoding 16 MB of pieces to one string, as before, took
 * 23 to 26 ms on the development VM (joining the bytes 9 to 11 ms), and binding a string
 * converts it back to UTF-8.
 */
const snapshotWorkerSource = `
const insert = db.prepare(
  'INSERT INTO engine_snapshots (journal_seq, event_seq, state_hash, data, created_at) ' +
  'VALUES (@journal_seq, @event_seq, @state_hash, CAST(@data AS TEXT), @created_at)'
);
const newest = db.prepare('SELECT journal_seq FROM engine_snapshots ORDER BY journal_seq DESC LIMIT ?').pluck();
const dropBefore = db.prepare('DELETE FROM engine_snapshots WHERE journal_seq < ?');
function write(message) {
  const data = Buffer.concat(message.data);
  db.exec('BEGIN IMMEDIATE');
  try {
    insert.run({ ...message.row, data });
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
