import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EngineJournalTable } from '../db/tables/engineHost.js';
import type { HostStore } from './hostStore.js';
import type { ReplicaEntries } from './replicaEngine.js';
import type { SnapshotRow } from './snapshots.js';
import { type WorkerReply, WorkerRequests } from './workerRequests.js';

/** What the host posts to the replica's worker (`replicaWorker.ts`). */
export type ReplicaMessage =
  | { readonly kind: 'restore'; readonly journalSeq: number; readonly data: Uint8Array | null }
  | ({ readonly kind: 'entries' } & ReplicaEntries)
  | { readonly kind: 'snapshot'; readonly id: number; readonly createdAt: number };

interface SnapshotReply extends WorkerReply {
  readonly row: SnapshotRow;
  /** The replica's time from the request to the finished text and hash. */
  readonly ms: number;
}

/** Committed entries wait at most this long before they are posted to the replica. */
const postEveryMs = 100;
/** Or until this many wait. */
const postEntriesMax = 2_000;

/**
 * A replica of the engine in a worker thread, fed every committed journal entry, which takes
 * the snapshots: the sequencer never stops for one. It starts from the state recovery rebuilt
 * (see `feedingReplica`). If it fails or diverges it stops for good, and `failure` says why.
 */
export class SnapshotReplica {
  private readonly requests: WorkerRequests;
  /** Committed entries not yet posted: `seq`, command text and event number of each. */
  private pendingFirstSeq = 0;
  private pendingCommands: string[] = [];
  private pendingEventSeqEnds: number[] = [];
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(onFailure: (error: Error) => void) {
    const worker = startReplicaWorker();
    worker.unref();
    this.requests = new WorkerRequests(worker, 'engine replica', onFailure);
  }

  /** Why the replica stopped, or null while it follows the journal. */
  get failure(): Error | null {
    return this.requests.failure;
  }

  /**
   * Its start: a snapshot's stored text (copied to the worker) and the journal entry it
   * includes, or none (entry 0).
   */
  restore(journalSeq: number, data: Uint8Array | null): void {
    this.requests.post({ kind: 'restore', journalSeq, data } satisfies ReplicaMessage);
  }

  /**
   * Committed journal entries, in order, following those already given. They reach the worker
   * together, at most `postEveryMs` later (or once `postEntriesMax` wait), and always before a
   * snapshot is asked for: a message per committed batch woke the worker hundreds of times a
   * second for work that only a snapshot needs done, each wake-up a hand-off between threads on
   * the event loop's path.
   */
  append(rows: readonly Pick<EngineJournalTable, 'seq' | 'command' | 'event_seq_end'>[]): void {
    const first = rows[0];
    if (!first) return;
    if (this.pendingCommands.length === 0) this.pendingFirstSeq = first.seq;
    for (const row of rows) {
      this.pendingCommands.push(row.command);
      this.pendingEventSeqEnds.push(row.event_seq_end);
    }
    if (this.pendingCommands.length >= postEntriesMax) this.postPending();
    else this.flushTimer ??= setTimeout(() => this.postPending(), postEveryMs).unref();
  }

  /** The snapshot row of the state after every entry appended so far. */
  async snapshot(createdAt: number): Promise<{ row: SnapshotRow; ms: number }> {
    this.postPending();
    const reply = await this.requests.request<SnapshotReply>({ kind: 'snapshot', createdAt });
    return { row: reply.row, ms: reply.ms };
  }

  async close(): Promise<void> {
    this.postPending();
    await this.requests.close();
  }

  private postPending(): void {
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.pendingCommands.length === 0) return;
    this.requests.post({
      kind: 'entries',
      firstSeq: this.pendingFirstSeq,
      commands: this.pendingCommands,
      eventSeqEnds: this.pendingEventSeqEnds,
    } satisfies ReplicaMessage);
    this.pendingCommands = [];
    this.pendingEventSeqEnds = [];
  }
}

/**
 * `store` as recovery reads it, handing the replica what recovery restores and replays: the
 * snapshot text it starts from and every journal page, as they are read. The replica thus starts
 * from the same state, rebuilt beside recovery, with nothing read twice.
 */
export function feedingReplica(store: HostStore, replica: SnapshotReplica): HostStore {
  let lastRead: { journalSeq: number; data: Uint8Array | undefined } | null = null;
  let restored = false;
  // NOTE: every other member is the store's own, through the prototype.
  const feeding = Object.create(store) as HostStore;
  feeding.snapshotData = async (journalSeq) => {
    const data = await store.snapshotData(journalSeq);
    lastRead = { journalSeq, data };
    return data;
  };
  feeding.journalAfter = async (afterSeq, limit) => {
    if (!restored) {
      // Recovery reads the journal after the snapshot it restored (0: it restored none), which
      // is the last one it read; anything else is read again.
      restored = true;
      const data =
        afterSeq === 0
          ? undefined
          : lastRead?.journalSeq === afterSeq
            ? lastRead.data
            : await store.snapshotData(afterSeq);
      lastRead = null;
      replica.restore(afterSeq, data ?? null);
    }
    const rows = await store.journalAfter(afterSeq, limit);
    replica.append(rows);
    return rows;
  };
  return feeding;
}

/**
 * The worker, found as the other workers' programs are in both ways the server runs: from the
 * production bundle, `replicaWorker.js` beside `main.js` (a second entry of the bundle); from
 * the TypeScript sources (tests, `tsx`), `replicaWorker.ts` beside this file, loaded through
 * tsx's require hook (on Node 20 a worker does not inherit the ESM loader).
 */
function startReplicaWorker(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./replicaWorker.js', here));
  const tsx = createRequire(here).resolve('tsx/cjs/api');
  const file = fileURLToPath(new URL('./replicaWorker.ts', here));
  return new Worker(
    `require(${JSON.stringify(tsx)}).require(${JSON.stringify(file)}, __filename);`,
    {
      eval: true,
    },
  );
}
