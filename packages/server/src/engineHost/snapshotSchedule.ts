// When the engine host takes its snapshots: by its policy (journal entries, time), when asked,
// one at a time, and none on its own once closing has begun.
import type { HostLogger } from './hostLogger.js';
import type { HostStore } from './hostStore.js';
import type { SnapshotReplica } from './snapshotReplica.js';
import { type SnapshotPolicy, writeSnapshot } from './snapshots.js';

const defaultSnapshotPolicy: SnapshotPolicy = {
  everyCommands: 50_000,
  everyMs: 10 * 60_000,
  keep: 2,
  writeDelayMs: 0,
};

export interface SnapshotScheduleOptions {
  readonly store: HostStore;
  readonly logger: HostLogger;
  readonly replica: SnapshotReplica;
  readonly policy?: Partial<SnapshotPolicy>;
  readonly now: () => number;
  /** The last journal entry made durable. */
  readonly journalSeq: () => number;
  /** Why the host refuses commands, or null while it runs. */
  readonly halted: () => string | null;
  /** The journal entry the newest stored snapshot includes. */
  readonly snapshotSeq: number;
}

/** The host's snapshots: each asked of the replica, then written to the store. */
export class SnapshotSchedule {
  readonly policy: SnapshotPolicy;
  private lastSnapshotSeq: number;
  private inFlight: Promise<void> | null = null;
  /** A snapshot asked for while one was in flight, taken after it. */
  private next: Promise<void> | null = null;
  /** Off once closing has begun: snapshots are then taken only when asked for. */
  private automatic = true;

  constructor(private readonly options: SnapshotScheduleOptions) {
    this.policy = { ...defaultSnapshotPolicy, ...options.policy };
    this.lastSnapshotSeq = options.snapshotSeq;
  }

  /**
   * Resolves once a snapshot of the journal position at the call is written (at once when
   * nothing changed since the last, or the host is halted, or its replica stopped). A failed
   * snapshot is logged, not thrown: the journal still holds everything.
   */
  takeNow(): Promise<void> {
    if (!this.inFlight) return this.takeWhenIdle();
    this.next ??= this.inFlight.then(() => {
      this.next = null;
      return this.takeWhenIdle();
    });
    return this.next;
  }

  /**
   * Asks the replica for a snapshot unless one is in flight: the replica captures its state
   * after the entries already handed to it, which are exactly the journal up to `journalSeq`,
   * serialises and hashes it in its own thread, and the row is written here. The sequencer
   * does not stop for any of it.
   */
  takeWhenIdle(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    const { replica, store, logger } = this.options;
    if (
      this.options.halted() !== null ||
      this.options.journalSeq() === this.lastSnapshotSeq ||
      replica.failure !== null
    ) {
      return Promise.resolve();
    }
    const run = async () => {
      try {
        const { row, ms } = await replica.snapshot(this.options.now());
        logger.debug(
          { journalSeq: row.journal_seq, replicaMs: Math.round(ms) },
          'engine snapshot captured',
        );
        await writeSnapshot(store, row, this.policy, logger);
        this.lastSnapshotSeq = row.journal_seq;
      } catch (error) {
        // The journal still holds everything; a missing snapshot only lengthens recovery.
        logger.error({ err: error }, 'engine snapshot failed');
      } finally {
        this.inFlight = null;
      }
    };
    this.inFlight = run();
    return this.inFlight;
  }

  /** After each committed batch: a snapshot once `everyCommands` entries followed the last. */
  afterCommit(): void {
    if (
      this.automatic &&
      this.options.journalSeq() - this.lastSnapshotSeq >= this.policy.everyCommands
    ) {
      void this.takeWhenIdle();
    }
  }

  /** Stops taking snapshots on its own and waits for the one being written, if any. */
  async settle(): Promise<void> {
    this.automatic = false;
    await this.next;
    await this.inFlight;
  }
}
