import type { Socket } from 'node:net';
import type { SocketError } from '@lattice/contracts';
import type { WebSocket } from 'ws';

/** The channels a connection can subscribe to; each holds a set of keys. */
export type Channel =
  | 'depth'
  | 'deals'
  | 'kline'
  | 'today'
  | 'state'
  | 'price'
  | 'order'
  | 'asset'
  | 'asset_margin';

export interface ConnectionLimits {
  messagesPerSecondMax: number;
  subscriptionsMax: number;
  bufferedBytesMax: number;
}

let nextConnectionId = 1;

/**
 * One client socket: who it is, what it subscribes to, and the limits it lives under. Sends
 * never queue without bound: a client whose unsent data would pass the limit is cut off.
 */
export class Connection {
  readonly id = nextConnectionId++;
  /** The signed-in user after `server.auth`. */
  userId: number | null = null;
  readonly subscriptions = new Map<Channel, Set<string>>();
  lastSeenMs: number;
  private windowStartMs = 0;
  private messagesInWindow = 0;
  private closed = false;

  constructor(
    readonly socket: WebSocket,
    readonly ip: string,
    private readonly limits: ConnectionLimits,
    nowMs: number,
    /** Told when the connection is cut for not reading. */
    private readonly onCut: (connection: Connection) => void = () => {},
  ) {
    this.lastSeenMs = nowMs;
  }

  get isOpen(): boolean {
    return !this.closed && this.socket.readyState === this.socket.OPEN;
  }

  /** Counts a request; false once the connection passes its requests per second. */
  admit(nowMs: number): boolean {
    this.lastSeenMs = nowMs;
    if (nowMs - this.windowStartMs >= 1000) {
      this.windowStartMs = nowMs;
      this.messagesInWindow = 0;
    }
    this.messagesInWindow += 1;
    return this.messagesInWindow <= this.limits.messagesPerSecondMax;
  }

  /** Sends a text message; a consumer that does not read is closed instead. */
  send(data: string): boolean {
    if (!this.admitsBytes(Buffer.byteLength(data))) return false;
    this.socket.send(data, { binary: false });
    return true;
  }

  /** Writes a frame encoded once for many subscribers (`pushFrame`). */
  sendFrame(frame: Buffer): boolean {
    return this.sendFrames(frame, [frame]);
  }

  /**
   * Writes complete frames joined in one buffer (`PushBatch`): one write, one system call.
   * `frames` are the same frames apart, for the case where the socket is not reachable.
   */
  sendFrames(joined: Buffer, frames: readonly Buffer[]): boolean {
    if (!this.admitsBytes(joined.length)) return false;
    const raw = rawSocketOf(this.socket);
    if (raw !== undefined) {
      raw.write(joined);
      return true;
    }
    // A frame starts with a 2-, 4- or 10-byte header; the payload is what ws would frame.
    for (const frame of frames) this.socket.send(payloadOf(frame), { binary: false });
    return true;
  }

  private admitsBytes(size: number): boolean {
    if (!this.isOpen) return false;
    if (this.socket.bufferedAmount + size <= this.limits.bufferedBytesMax) return true;
    // NOTE: terminate, not close: a close frame would queue behind the data it does not read.
    this.terminate();
    this.onCut(this);
    return false;
  }

  reply(id: number, result: unknown): void {
    this.send(JSON.stringify({ error: null, result, id }));
  }

  fail(id: number, error: SocketError): void {
    this.send(
      JSON.stringify({ error: { code: error.code, message: error.message }, result: null, id }),
    );
  }

  push(method: string, params: unknown[]): void {
    this.send(JSON.stringify({ method, params, id: null }));
  }

  keys(channel: Channel): Set<string> {
    let keys = this.subscriptions.get(channel);
    if (keys === undefined) {
      keys = new Set();
      this.subscriptions.set(channel, keys);
    }
    return keys;
  }

  /** Subscriptions held on every channel but `except` (which is about to be replaced). */
  subscriptionCount(except?: Channel): number {
    let count = 0;
    for (const [channel, keys] of this.subscriptions) if (channel !== except) count += keys.size;
    return count;
  }

  get subscriptionsMax(): number {
    return this.limits.subscriptionsMax;
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.close(code, reason);
  }

  terminate(): void {
    this.closed = true;
    this.socket.terminate();
  }
}

/**
 * The TCP socket under a ws connection. NOTE: ws has no call to send a frame encoded in
 * advance. With permessage-deflate off (the plugin turns it off) ws writes each frame to this
 * socket synchronously and queues nothing, so a whole frame written here cannot interleave with
 * one of its own.
 */
function rawSocketOf(socket: WebSocket): Socket | undefined {
  const raw = (socket as unknown as { _socket?: Socket })._socket;
  return raw !== undefined && typeof raw.write === 'function' ? raw : undefined;
}

function payloadOf(frame: Buffer): Buffer {
  const marker = frame[1]! & 0x7f;
  return frame.subarray(marker === 127 ? 10 : marker === 126 ? 4 : 2);
}
