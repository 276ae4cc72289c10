import { busyRefusal, haltedRefusal } from './errors.js';

/** One command as applied inside a batch, with what its submitter attached to it. */
export interface Applied<C, R, M> {
  readonly command: C;
  readonly result: R;
  readonly meta: M;
}

export interface SequencerOptions<I, C, R, M> {
  /** Stamps the host's clock on a submitted command; the stamped command is what is journaled. */
  readonly stamp: (input: I, time: number) => C;
  /** Applies one command to the in-memory state; throws only for a broken invariant. */
  readonly apply: (command: C) => R;
  /** Makes a whole batch durable in one transaction; rejects when nothing was recorded. */
  readonly commit: (batch: readonly Applied<C, R, M>[]) => Promise<void>;
  /** Runs after a batch committed and before its replies resolve (event publication). */
  readonly afterCommit: (batch: readonly Applied<C, R, M>[]) => void;
  /** Called once, when the sequencer halts. */
  readonly onHalt: (reason: string, error?: unknown) => void;
  readonly queueMax: number;
  readonly batchMax: number;
  readonly now?: () => number;
  /** The time of the last journaled command, so the clock never runs backwards across restarts. */
  readonly startTime?: number;
}

interface Waiting<I, R, M> {
  readonly input: I;
  readonly meta: M;
  readonly resolve: (result: R) => void;
  readonly reject: (error: unknown) => void;
}

interface Pending<C, R, M> {
  readonly applied: Applied<C, R, M>[];
  readonly waiting: Waiting<unknown, R, M>[];
}

/**
 * The single writer: commands wait in one bounded queue and are applied in arrival order. Group
 * commit: while one batch is being committed, arriving commands are applied at once and gather
 * into the next batch, whose commit starts the moment the previous one is durable (before that
 * one's replies are sent), so the database never waits for the event loop and one transaction
 * carries many commands under load, while a lone command is not delayed by a timer.
 */
export class Sequencer<I, C, R, M> {
  private queue: Waiting<I, R, M>[] = [];
  /** Applied, not yet committing: the next batch. */
  private pending: Pending<C, R, M> = { applied: [], waiting: [] };
  private committing = false;
  private scheduled = false;
  private runningExclusive = false;
  private lastTime: number;
  private haltReason: string | null = null;
  private idleWaiters: (() => void)[] = [];
  private exclusives: (() => Promise<void>)[] = [];

  constructor(private readonly options: SequencerOptions<I, C, R, M>) {
    this.lastTime = options.startTime ?? 0;
  }

  /** Resolves with the command's result once it is durable; rejects with a `HostRefusal`. */
  submit(input: I, meta: M): Promise<R> {
    if (this.haltReason !== null) return Promise.reject(haltedRefusal(this.haltReason));
    if (this.queue.length >= this.options.queueMax) return Promise.reject(busyRefusal());
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ input, meta, resolve, reject });
      this.schedule();
    });
  }

  get halted(): string | null {
    return this.haltReason;
  }

  get queueLength(): number {
    return this.queue.length;
  }

  /**
   * Stops accepting commands and refuses every queued one; the first reason is kept. Commands
   * already applied are still committed and acknowledged (the state holds them).
   */
  halt(reason: string, error?: unknown): void {
    if (this.haltReason !== null) return;
    this.haltReason = reason;
    const refused = this.queue;
    this.queue = [];
    for (const item of refused) item.reject(haltedRefusal(reason));
    this.options.onHalt(reason, error);
    this.notifyIdle();
  }

  /** Resolves when nothing is queued, applied and uncommitted, committing, or running. */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Runs `task` between batches, with no command being applied or committed meanwhile: the
   * state it sees is exactly the committed one (snapshots, reconciliation).
   */
  exclusive<T>(task: () => T | Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.exclusives.push(async () => {
        try {
          resolve(await task());
        } catch (error) {
          reject(error);
        }
      });
      this.schedule();
    });
  }

  private isIdle(): boolean {
    return (
      this.queue.length === 0 &&
      this.pending.applied.length === 0 &&
      !this.committing &&
      !this.runningExclusive &&
      this.exclusives.length === 0
    );
  }

  private schedule(): void {
    if (this.scheduled || this.runningExclusive) return;
    this.scheduled = true;
    // setImmediate lets pending I/O (more requests) reach the queue before they are applied.
    setImmediate(() => {
      this.scheduled = false;
      void this.step();
    });
  }

  /** Runs waiting exclusive tasks once nothing is uncommitted, else applies and commits. */
  private async step(): Promise<void> {
    if (this.runningExclusive) return;
    if (this.exclusives.length > 0) {
      // New commands wait until the exclusive tasks ran; a commit's end calls this again.
      if (!this.committing) this.commitPending();
      if (this.committing) return;
      this.runningExclusive = true;
      for (let task = this.exclusives.shift(); task; task = this.exclusives.shift()) await task();
      this.runningExclusive = false;
    }
    this.applyQueued();
    if (!this.committing) this.commitPending();
    if (this.queue.length > 0 && this.pending.applied.length < this.options.batchMax) {
      this.schedule();
    }
    this.notifyIdle();
  }

  /** Applies queued commands into the next batch, in order, up to the batch size. */
  private applyQueued(): void {
    const room = this.options.batchMax - this.pending.applied.length;
    if (room <= 0 || this.queue.length === 0 || this.haltReason !== null) return;
    const taken = this.queue.splice(0, room);
    for (let i = 0; i < taken.length; i++) {
      const item = taken[i]!;
      const time = Math.max(this.lastTime, (this.options.now ?? Date.now)());
      this.lastTime = time;
      const command = this.options.stamp(item.input, time);
      try {
        const result = this.options.apply(command);
        this.pending.applied.push({ command, result, meta: item.meta });
        this.pending.waiting.push(item as Waiting<unknown, R, M>);
      } catch (error) {
        // Halting first keeps the reason; the commands before the broken one are still valid
        // and are committed and acknowledged.
        this.halt(`invariant violated: ${messageOf(error)}`, error);
        for (const refused of taken.slice(i)) refused.reject(haltedRefusal(this.haltReason ?? ''));
        return;
      }
    }
  }

  /** Starts committing the applied commands, if any; at most one commit runs at a time. */
  private commitPending(): void {
    const batch = this.pending;
    if (batch.applied.length === 0) return;
    this.pending = { applied: [], waiting: [] };
    this.committing = true;
    let committed: Promise<void>;
    try {
      committed = this.options.commit(batch.applied);
    } catch (error) {
      committed = Promise.reject(error);
    }
    committed.then(
      () => this.committed(batch),
      (error: unknown) => this.commitFailed(batch, error),
    );
  }

  private committed(batch: Pending<C, R, M>): void {
    this.committing = false;
    // The next batch goes to the database before this one's replies are written.
    this.commitPending();
    try {
      this.options.afterCommit(batch.applied);
    } finally {
      for (let i = 0; i < batch.waiting.length; i++) {
        batch.waiting[i]!.resolve(batch.applied[i]!.result);
      }
      if (this.queue.length > 0 || this.exclusives.length > 0) this.schedule();
      this.notifyIdle();
    }
  }

  private commitFailed(batch: Pending<C, R, M>, error: unknown): void {
    this.committing = false;
    // NOTE: the in-memory state now holds commands the journal does not; nothing may be
    // acknowledged or applied after them, including the batch applied meanwhile. A restart
    // rebuilds the state from the journal.
    this.halt(`the journal write failed: ${messageOf(error)}`, error);
    const refused = [...batch.waiting, ...this.pending.waiting];
    this.pending = { applied: [], waiting: [] };
    for (const item of refused) item.reject(haltedRefusal(this.haltReason ?? ''));
    if (this.exclusives.length > 0) this.schedule();
    this.notifyIdle();
  }

  private notifyIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
