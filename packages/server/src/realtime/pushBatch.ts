import type { Connection } from './connection.js';

/**
 * The frames of one flush, per connection. At the end each connection gets all of its frames
 * in one write of one buffer, and connections given the same frames (every subscriber of the
 * same keys) share that buffer: the socket writes are the cost that grows with subscribers, so
 * each one is a single buffer handed to the kernel, with no per-connection copying or corking.
 */
export class PushBatch {
  private readonly byConnection = new Map<Connection, Buffer | Buffer[]>();
  /** Each frame's number in this flush, to name a combination of frames. */
  private readonly frameIds = new Map<Buffer, number>();

  /** Queues `frame` (a complete WebSocket frame, `pushFrame`) for `connection`. */
  add(connection: Connection, frame: Buffer): void {
    if (!this.frameIds.has(frame)) this.frameIds.set(frame, this.frameIds.size);
    const queued = this.byConnection.get(connection);
    if (queued === undefined) this.byConnection.set(connection, frame);
    else if (Array.isArray(queued)) queued.push(frame);
    else this.byConnection.set(connection, [queued, frame]);
  }

  /** Writes what was queued; returns how many connections were written to. */
  send(): number {
    const joined = new Map<string, Buffer>();
    for (const [connection, queued] of this.byConnection) {
      if (!Array.isArray(queued)) {
        connection.sendFrames(queued, [queued]);
        continue;
      }
      const name = queued.map((frame) => this.frameIds.get(frame)).join(',');
      let buffer = joined.get(name);
      if (buffer === undefined) {
        buffer = Buffer.concat(queued);
        joined.set(name, buffer);
      }
      connection.sendFrames(buffer, queued);
    }
    const written = this.byConnection.size;
    this.byConnection.clear();
    this.frameIds.clear();
    return written;
  }
}
