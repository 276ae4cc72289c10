import { commandFromJson, Engine } from '@lattice/engine';
import { captureSnapshot, type SnapshotRow, snapshotRow } from './snapshots.js';
import { readStoredSnapshotText } from './storedSnapshotText.js';

/** The replica's state no longer follows the journal: a bug, and no snapshot may come of it. */
export class ReplicaDivergence extends Error {
  override name = 'ReplicaDivergence';
}

/** Consecutive committed journal entries, as the replica receives them. */
export interface ReplicaEntries {
  /** The `seq` of the first; the others follow without gaps. */
  readonly firstSeq: number;
  /** Each entry's command as journaled (`commandToJson`, as JSON text). */
  readonly commands: readonly string[];
  /** The engine's last event number the primary recorded after each entry. */
  readonly eventSeqEnds: readonly number[];
}

/**
 * A second engine that follows the journal: it applies each committed entry in order and checks
 * that it reaches the event number the primary recorded, so that its snapshot is the primary's
 * state at that journal position. It throws `ReplicaDivergence` at the first difference.
 */
export class ReplicaEngine {
  private constructor(
    private readonly engine: Engine,
    private journalSeq: number,
  ) {}

  /** The state of a snapshot's stored text (already checked by recovery), or an empty engine. */
  static restore(journalSeq: number, data: Uint8Array | null): ReplicaEngine {
    if (data === null && journalSeq !== 0) {
      throw new ReplicaDivergence(`no snapshot text for journal entry ${journalSeq}`);
    }
    return new ReplicaEngine(
      data === null ? new Engine() : Engine.restore(readStoredSnapshotText(data).snapshot),
      journalSeq,
    );
  }

  /** The last journal entry applied. */
  get lastJournalSeq(): number {
    return this.journalSeq;
  }

  append(entries: ReplicaEntries): void {
    for (let i = 0; i < entries.commands.length; i++) {
      const seq = entries.firstSeq + i;
      if (seq !== this.journalSeq + 1) {
        throw new ReplicaDivergence(`journal entry ${seq} arrived after ${this.journalSeq}`);
      }
      const result = this.engine.apply(commandFromJson(JSON.parse(entries.commands[i] as string)));
      if (!result.ok) {
        throw new ReplicaDivergence(`journal entry ${seq} was refused: ${result.code}`);
      }
      // A replica reads no result: the engine may reuse their memory.
      this.engine.releaseResults();
      if (this.engine.lastEventSeq !== entries.eventSeqEnds[i]) {
        throw new ReplicaDivergence(
          `journal entry ${seq} reached event ${this.engine.lastEventSeq}, recorded ${entries.eventSeqEnds[i]}`,
        );
      }
      this.journalSeq = seq;
    }
  }

  /**
   * The snapshot row of the current state. The state is captured at once (copies); text and hash
   * are computed in slices, so entries that arrive meanwhile are applied meanwhile. The
   * compression then runs at once (see `snapshotRow`), and entries wait for it.
   */
  snapshotRow(createdAt: number): Promise<SnapshotRow> {
    return snapshotRow(captureSnapshot(this.engine, this.journalSeq, createdAt));
  }
}
