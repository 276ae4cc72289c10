import type { Engine } from '@lattice/engine';
import type { EngineSnapshotsTable } from '../db/tables/engineHost.js';
import type { HostLogger } from './hostLogger.js';
import type { HostStore } from './hostStore.js';
import { stateHashOfSnapshotText } from './snapshotHash.js';

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

/** Captures the engine state exactly at a journal position (call between batches). */
export function captureSnapshot(
  engine: Engine,
  journalSeq: number,
  now: number,
): EngineSnapshotsTable {
  const data = JSON.stringify(engine.snapshot());
  return {
    journal_seq: journalSeq,
    event_seq: engine.lastEventSeq,
    state_hash: stateHashOfSnapshotText(data),
    data,
    created_at: now,
  };
}

/**
 * Writes a captured snapshot in its own transaction. If the process dies before it commits,
 * the row does not exist and recovery starts from the previous snapshot: nothing is applied
 * twice, because every snapshot names the last journal entry it includes.
 */
export async function writeSnapshot(
  store: HostStore,
  row: EngineSnapshotsTable,
  policy: SnapshotPolicy,
  logger: HostLogger,
): Promise<void> {
  const started = performance.now();
  logger.info({ journalSeq: row.journal_seq, bytes: row.data.length }, 'engine snapshot writing');
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
