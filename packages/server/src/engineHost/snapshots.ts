import { promisify } from 'node:util';
import { gunzip, gzipSync } from 'node:zlib';
import type { Engine, EngineSnapshot } from '@lattice/engine';
import type { EngineSnapshotsTable } from '../db/tables/engineHost.js';
import type { HostLogger } from './hostLogger.js';
import type { HostStore } from './hostStore.js';
import { storedSnapshotText } from './storedSnapshotText.js';

const gunzipAsync = promisify(gunzip);
/**
 * zlib's output chunk. Its default, 16 KB, made decompressing the 17.4 MB text of 100,000
 * resting orders in the thread pool a thousand hand-offs between threads: 111 to 148 ms,
 * against 20 to 27 ms with 1 MB chunks.
 */
const zlibChunkBytes = 1024 * 1024;

export interface SnapshotPolicy {
  /** Take one after this many journal entries since the last. */
  readonly everyCommands: number;
  /** And at least this often while commands arrive. */
  readonly everyMs: number;
  /** Snapshots kept; older ones are deleted (the journal is never shortened). */
  readonly keep: number;
  /** Test hook: holds the snapshot's transaction open this long, so a crash can hit it. */
  readonly writeDelayMs: number;
}

/** The engine state at one journal position, not yet serialised. */
export interface CapturedSnapshot {
  readonly snapshot: EngineSnapshot;
  readonly journalSeq: number;
  readonly eventSeq: number;
  readonly createdAt: number;
}

/**
 * Captures the engine state at the journal position it has reached (the replica's, see
 * `replicaEngine.ts`). The engine's snapshot is built of copies, so it can be serialised while
 * later entries are applied.
 */
export function captureSnapshot(engine: Engine, journalSeq: number, now: number): CapturedSnapshot {
  return {
    snapshot: engine.snapshot(),
    journalSeq,
    eventSeq: engine.lastEventSeq,
    createdAt: now,
  };
}

/**
 * A snapshot as it is stored, and as it crosses between threads: the state hash of its JSON
 * text (what `engine.stateHash()` gave at the capture) and that text, a piece a line
 * (`storedSnapshotText.ts`), gzip-compressed, in a buffer of its own so that it can be moved to
 * another thread instead of copied.
 */
export interface SnapshotRow extends Omit<EngineSnapshotsTable, 'data' | 'data_gzip'> {
  readonly gzip: Uint8Array;
  /** The stored text's length in UTF-8 bytes (for the log). */
  readonly textBytes: number;
}

/**
 * The row of a captured snapshot. Its text is serialised and hashed in slices, so the thread's
 * other work goes on meanwhile; then it is compressed at once, in the calling thread.
 * NOTE: that thread is the replica's, whose priority is lowered (`replicaWorker.ts`); zlib's
 * asynchronous calls would run in the process's thread pool, at the event loop's priority.
 */
export async function snapshotRow(captured: CapturedSnapshot): Promise<SnapshotRow> {
  const { bytes: utf8, stateHash } = await storedSnapshotText(captured.snapshot);
  return {
    journal_seq: captured.journalSeq,
    event_seq: captured.eventSeq,
    state_hash: stateHash,
    // NOTE: level 1, the fastest: at 100,000 resting orders it makes 17.4 MB of JSON 2.5 MB in
    // about 60 ms (level 6: 2.3 MB in 200 ms). The write holds the SQLite lock for its size.
    gzip: ownBytes(gzipSync(utf8, { level: 1, chunkSize: zlibChunkBytes })),
    textBytes: utf8.byteLength,
    created_at: captured.createdAt,
  };
}

/** A copy in memory of its own: a Buffer may share a larger one, which must never be moved. */
function ownBytes(buffer: Buffer): Uint8Array {
  const bytes = new Uint8Array(buffer.byteLength);
  bytes.set(buffer);
  return bytes;
}

/**
 * The stored text, in UTF-8, of a snapshot's `data_gzip` (or of a row's `gzip`): read it with
 * `readStoredSnapshotText`. It is never made one string, which a long history's would not fit.
 */
export async function storedSnapshotBytes(gzip: Uint8Array): Promise<Buffer> {
  return gunzipAsync(gzip, { chunkSize: zlibChunkBytes });
}

/**
 * Writes a snapshot in its own transaction. If the process dies before it commits, the row
 * does not exist and recovery starts from the previous snapshot: nothing is applied twice,
 * because every snapshot names the last journal entry it includes.
 */
export async function writeSnapshot(
  store: HostStore,
  row: SnapshotRow,
  policy: SnapshotPolicy,
  logger: HostLogger,
): Promise<void> {
  const started = performance.now();
  // NOTE: read before the write, which may move the buffer to the writer's thread.
  const details = {
    journalSeq: row.journal_seq,
    bytes: row.gzip.byteLength,
    textBytes: row.textBytes,
  };
  logger.info(details, 'engine snapshot writing');
  await store.writeSnapshot(row, policy.keep, async () => {
    if (policy.writeDelayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, policy.writeDelayMs));
    }
  });
  logger.info(
    { journalSeq: row.journal_seq, ms: Math.round(performance.now() - started) },
    'engine snapshot written',
  );
}
