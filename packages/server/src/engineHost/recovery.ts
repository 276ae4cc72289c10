import { commandFromJson, Engine } from '@lattice/engine';
import type { HostLogger } from './hostLogger.js';
import type { HostStore } from './hostStore.js';
import { readStoredSnapshotText } from './storedSnapshotText.js';

/** The journal and the rebuilt state disagree: the host must not start on it. */
export class RecoveryError extends Error {
  override name = 'RecoveryError';
}

export interface Recovered {
  readonly engine: Engine;
  /** The last journal entry applied (0 for an empty journal). */
  readonly journalSeq: number;
  /** The time of that entry, so the host's clock never runs backwards. */
  readonly lastTime: number;
  /** The journal entry of the snapshot started from (0 when replayed from the beginning). */
  readonly snapshotSeq: number;
  readonly replayed: number;
}

const journalPageSize = 20_000;

/**
 * Rebuilds the engine: the newest snapshot whose state hash checks out, then every journal
 * entry after it, in order, each checked against the event number recorded with it. A snapshot records the journal entry it includes, so entries up to
 * it are never applied twice, and one interrupted while being written is simply absent.
 */
export async function recoverEngine(store: HostStore, logger: HostLogger): Promise<Recovered> {
  const start = await restoreNewestSnapshot(store, logger);
  const { engine } = start;
  let journalSeq = start.journalSeq;
  let lastTime = 0;
  let replayed = 0;
  for (;;) {
    const rows = await store.journalAfter(journalSeq, journalPageSize);
    for (const row of rows) {
      if (row.seq !== journalSeq + 1) {
        throw new RecoveryError(`journal entry ${journalSeq + 1} is missing (next is ${row.seq})`);
      }
      const result = engine.apply(commandFromJson(JSON.parse(row.command)));
      if (!result.ok) {
        throw new RecoveryError(
          `journal entry ${row.seq} (${row.type}) was refused on replay: ${result.code}`,
        );
      }
      // A replay reads no result: the engine may reuse their memory.
      engine.releaseResults();
      if (engine.lastEventSeq !== row.event_seq_end) {
        throw new RecoveryError(
          `journal entry ${row.seq} replays to event ${engine.lastEventSeq}, recorded ${row.event_seq_end}`,
        );
      }
      journalSeq = row.seq;
      lastTime = row.time;
      replayed++;
    }
    if (rows.length < journalPageSize) break;
  }
  return { engine, journalSeq, lastTime, snapshotSeq: start.journalSeq, replayed };
}

async function restoreNewestSnapshot(
  store: HostStore,
  logger: HostLogger,
): Promise<{ engine: Engine; journalSeq: number }> {
  for (const header of await store.snapshotHeaders()) {
    const started = performance.now();
    const data = await store.snapshotData(header.journal_seq);
    try {
      if (data === undefined) throw new Error('its data is gone');
      // The recorded state hash is that of this text: a changed or truncated text fails here.
      const { snapshot, stateHash } = readStoredSnapshotText(data);
      if (stateHash !== header.state_hash) {
        throw new Error(`state hash ${stateHash} differs from the recorded ${header.state_hash}`);
      }
      const engine = Engine.restore(snapshot);
      if (engine.lastEventSeq !== header.event_seq) {
        throw new Error(
          `it restores to event ${engine.lastEventSeq}, recorded ${header.event_seq}`,
        );
      }
      logger.info(
        {
          journalSeq: header.journal_seq,
          textBytes: data.byteLength,
          ms: Math.round(performance.now() - started),
        },
        'engine snapshot read',
      );
      return { engine, journalSeq: header.journal_seq };
    } catch (error) {
      // The journal is complete, so an older snapshot (or none) only makes the replay longer.
      logger.warn(
        { journalSeq: header.journal_seq, err: error },
        'engine snapshot unusable; trying an older one',
      );
    }
  }
  return { engine: new Engine(), journalSeq: 0 };
}
