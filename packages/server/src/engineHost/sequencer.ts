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

/**
 * The single writer: commands wait in one bounded queue and are applied in arrival order. All
 * commands that arrive while a batch is being committed form the next batch (group commit), so
 * one transaction carries many commands under load and a lone command is not delayed.
 */
export class Sequencer<I, C, R, M> {
  private queue: Waiting<I, R, M>[] = [];
  private running = false;
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

  /** Stops accepting commands and refuses every queued one; the first reason is kept. */
  halt(reason: string, error?: unknown): void {
    if (this.haltReason !== null) return;
    this.haltReason = reason;
    const refused = this.queue;
    this.queue = [];
    for (const item of refused) item.reject(haltedRefusal(reason));
    this.options.onHalt(reason, error);
    this.notifyIdle();
  }

  /** Resolves when the queue is empty and no batch is in flight. */
  whenIdle(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
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

  private schedule(): void {
    if (this.running) return;
    this.running = true;
    // setImmediate lets pending I/O (more requests) reach the queue before the batch is cut.
    setImmediate(() => void this.runBatch());
  }

  private async runBatch(): Promise<void> {
    for (let task = this.exclusives.shift(); task; task = this.exclusives.shift()) await task();
    const taken = this.queue.splice(0, this.options.batchMax);
    const applied = this.applyAll(taken);
    if (applied.length > 0) await this.commitAndReply(taken.slice(0, applied.length), applied);
    this.running = false;
    const more = this.queue.length > 0 && this.haltReason === null;
    if (more || this.exclusives.length > 0) this.schedule();
    else this.notifyIdle();
  }

  /** Applies in order; stops at a broken invariant, refusing that command and the rest. */
  private applyAll(taken: Waiting<I, R, M>[]): Applied<C, R, M>[] {
    const applied: Applied<C, R, M>[] = [];
    for (const item of taken) {
      const time = Math.max(this.lastTime, (this.options.now ?? Date.now)());
      this.lastTime = time;
      const command = this.options.stamp(item.input, time);
      try {
        applied.push({ command, result: this.options.apply(command), meta: item.meta });
      } catch (error) {
        const rest = taken.slice(applied.length);
        // Halting first keeps the reason; the commands before the broken one are still valid
        // and are committed and acknowledged below.
        this.halt(`invariant violated: ${messageOf(error)}`, error);
        for (const refused of rest) refused.reject(haltedRefusal(this.haltReason ?? ''));
        break;
      }
    }
    return applied;
  }

  private async commitAndReply(
    waiting: Waiting<I, R, M>[],
    applied: Applied<C, R, M>[],
  ): Promise<void> {
    try {
      await this.options.commit(applied);
    } catch (error) {
      // NOTE: the in-memory state now holds commands the journal does not; nothing may be
      // acknowledged or applied after them. A restart rebuilds the state from the journal.
      this.halt(`the journal write failed: ${messageOf(error)}`, error);
      for (const item of waiting) item.reject(haltedRefusal(this.haltReason ?? ''));
      return;
    }
    try {
      this.options.afterCommit(applied);
    } finally {
      for (let i = 0; i < waiting.length; i++) waiting[i]!.resolve(applied[i]!.result);
    }
  }

  private notifyIdle(): void {
    if (this.running || this.queue.length > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
