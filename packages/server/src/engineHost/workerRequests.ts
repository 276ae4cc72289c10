import type { Worker } from 'node:worker_threads';

/** What a worker answers a request with: its id, and `error` when it failed. */
export interface WorkerReply {
  readonly id: number;
  readonly error?: string;
}

interface Pending {
  readonly resolve: (reply: WorkerReply) => void;
  readonly reject: (error: Error) => void;
}

/**
 * The requests sent to a worker thread and the answers waiting for them. The worker answers
 * each message `{ id, ... }` with `{ id, ... }`, or `{ id, error }`. Once the worker fails or
 * exits, every request waiting or made after is refused with that failure, and `onFailure`
 * hears of it (unless it was closed).
 */
export class WorkerRequests {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failed: Error | null = null;
  private closing = false;

  constructor(
    private readonly worker: Worker,
    /** Named in the error when the worker exits. */
    name: string,
    private readonly onFailure: (error: Error) => void = () => {},
  ) {
    worker.on('message', (message: WorkerReply) => {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error === undefined) waiting?.resolve(message);
      else waiting?.reject(new Error(message.error));
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`the ${name} exited (${code})`)));
  }

  /** Why the worker stopped, or null while it runs. */
  get failure(): Error | null {
    return this.failed;
  }

  /** Resolves with the worker's answer to `message`; `transfer` is moved, not copied. */
  request<T extends WorkerReply>(message: object, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (reply: WorkerReply) => void, reject });
      // Not `{ ...message, id }`, which is slow in V8 (see EngineHost's `stamp`).
      const withId = Object.assign({}, message, { id });
      this.worker.postMessage(withId, transfer);
    });
  }

  /** Sends a message the worker does not answer; nothing once it has failed. */
  post(message: object): void {
    if (!this.failed) this.worker.postMessage(message);
  }

  /** Stops the worker; what waits for it is refused, and `onFailure` is not called. */
  async close(): Promise<void> {
    this.closing = true;
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    if (this.failed) return;
    this.failed = error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
    if (!this.closing) this.onFailure(error);
  }
}
