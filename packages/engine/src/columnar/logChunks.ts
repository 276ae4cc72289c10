// The event log's chunks. Each command appends its records to the current chunk, and its result
// reads them from there when first read (records.ts), so a full chunk is not written again while
// results may still read it: it is retired. Once the engine's user says that it has read every
// result it will read (Engine.releaseResults), the retired chunks are kept for reuse instead of
// being left to the collector, and the current chunk is written again from its start
// (RecordedState.releaseResults). A new 4 MB chunk costs fresh pages from the system and, being
// memory outside the heap, counts toward the next full collection; the bench's workload fills one
// every few thousand commands when nothing is released.
//
// A chunk counts its reuses: a result remembers the count it saw, and reading it after the chunk
// was reused throws instead of showing another command's records.

import type { RecordNames } from './records.js';

/** Numbers in one chunk of the event log (4 MB): a few thousand commands' records. */
export const LOG_CHUNK = 1 << 19;
/** Spare chunks kept at most: after a burst, more are left to the collector. */
const SPARE_MAX = 4;

export class LogChunk {
  /** How many times the chunk has been reused. */
  generation = 0;
  constructor(
    readonly data: Float64Array,
    /** What reading its records needs: the engine's names, here so a result need not hold them. */
    readonly names: RecordNames,
  ) {}
}

export class LogChunks {
  constructor(private readonly names: RecordNames) {}

  /** Full chunks that results made since the last release may still read. */
  private readonly retired: LogChunk[] = [];
  private readonly spare: LogChunk[] = [];

  /** A chunk of `size` numbers: a spare one for the usual size, else a new one. */
  next(size: number): LogChunk {
    if (size === LOG_CHUNK) {
      const reused = this.spare.pop();
      if (reused !== undefined) {
        reused.generation++;
        return reused;
      }
    }
    return new LogChunk(new Float64Array(size), this.names);
  }

  /** A full chunk, no longer written; only the usual size is kept for reuse. */
  retire(chunk: LogChunk): void {
    if (chunk.data.length === LOG_CHUNK) this.retired.push(chunk);
  }

  /** No result made so far will be read again: every retired chunk may be reused. */
  release(): void {
    for (const chunk of this.retired) if (this.spare.length < SPARE_MAX) this.spare.push(chunk);
    this.retired.length = 0;
  }
}
