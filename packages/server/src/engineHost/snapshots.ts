import type { Engine, EngineSnapshot } from '@lattice/engine';
import type { EngineSnapshotsTable } from '../db/tables/engineHost.js';
import type { HostLogger } from './hostLogger.js';
import type { HostStore } from './hostStore.js';
import { decodeInSlices, hashInSlices, stringifyInSlices } from './slicedWork.js';

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
 * The stored row of a captured snapshot: its JSON text, serialised once, and the state hash of
 * that text (what `engine.stateHash()` gave at the capture). Both are computed in slices, so
 * the thread's other work goes on meanwhile.
 */
export async function snapshotRow(captured: CapturedSnapshot): Promise<EngineSnapshotsTable> {
  const data = await stringifyInSlices(captured.snapshot as unknown as Record<string, unknown>);
  return {
    journal_seq: captured.journalSeq,
    event_seq: captured.eventSeq,
    state_hash: await hashInSlices(data),
    data,
    created_at: captured.createdAt,
  };
}

/**
 * A snapshot row as it crosses between threads: its text as UTF-8 pieces (`encodeInSlices`),
 * which are moved, not copied. Receiving 17 MB of text as a string (a copy) stopped the host's
 * event loop 25 to 32 ms; pieces cost it nothing, and the SQLite writer takes them as they are.
 */
export interface EncodedSnapshotRow extends Omit<EngineSnapshotsTable, 'data'> {
  readonly pieces: readonly Uint8Array[];
}

/** The row with its text as a string again, decoded in slices. */
export async function decodedSnapshotRow(row: EncodedSnapshotRow): Promise<EngineSnapshotsTable> {
  const { pieces, ...header } = row;
  return { ...header, data: await decodeInSlices(pieces) };
}

/**
 * Writes a snapshot in its own transaction. If the process dies before it commits, the row
 * does not exist and recovery starts from the previous snapshot: nothing is applied twice,
 * because every snapshot names the last journal entry it includes.
 */
export async function writeSnapshot(
  store: HostStore,
  row: EngineSnapshotsTable | EncodedSnapshotRow,
  policy: SnapshotPolicy,
  logger: HostLogger,
): Promise<void> {
  const started = performance.now();
  const bytes =
    'pieces' in row
      ? row.pieces.reduce((sum, piece) => sum + piece.byteLength, 0)
      : row.data.length;
  logger.info({ journalSeq: row.journal_seq, bytes }, 'engine snapshot writing');
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
