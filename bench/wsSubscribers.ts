// The subscriber side of bench/ws.ts, run in child processes. Each subscriber is a bare TCP
// socket speaking just enough WebSocket (RFC 6455) to subscribe and split frames: a full client
// per socket would make the clients, not the server, the thing measured. One subscriber in
// `sampleEvery` decodes its frames and records latencies; the others only count them.
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

export interface SubscriberOptions {
  port: number;
  /** Sends these requests once the socket is open. */
  requests: string[];
  /** Called with each frame's payload until it answers false; later frames are only counted. */
  onFrame: (payload: Buffer) => boolean;
}

/** A masked client text frame (clients must mask, RFC 6455 §5.3). */
export function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const header =
    payload.length < 126
      ? Buffer.from([0x81, 0x80 | payload.length])
      : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!;
  return Buffer.concat([header, mask, payload]);
}

/**
 * Opens a subscriber; resolves once the server accepted the upgrade, with the socket and a
 * counter of the frames it received.
 */
export function openSubscriber(
  options: SubscriberOptions,
): Promise<{ socket: Socket; frames: () => number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(options.port, '127.0.0.1');
    socket.setNoDelay(true);
    let handshake = true;
    let pending: Buffer = Buffer.alloc(0);
    let frames = 0;
    let decode = true;
    socket.once('error', reject);
    socket.once('connect', () => {
      const key = randomBytes(16).toString('base64');
      socket.write(
        `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${options.port}\r\nUpgrade: websocket\r\n` +
          `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      if (handshake) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!pending.subarray(0, 12).toString().includes('101')) {
          reject(new Error(`upgrade refused: ${pending.subarray(0, end).toString()}`));
          socket.destroy();
          return;
        }
        handshake = false;
        pending = pending.subarray(end + 4);
        for (const request of options.requests) socket.write(textFrame(request));
        resolve({ socket, frames: () => frames });
      }
      // Split complete frames; server frames are never masked.
      let offset = 0;
      for (;;) {
        if (pending.length - offset < 2) break;
        const second = pending[offset + 1]! & 0x7f;
        let length = second;
        let header = 2;
        if (second === 126) {
          if (pending.length - offset < 4) break;
          length = pending.readUInt16BE(offset + 2);
          header = 4;
        } else if (second === 127) {
          if (pending.length - offset < 10) break;
          length = Number(pending.readBigUInt64BE(offset + 2));
          header = 10;
        }
        if (pending.length - offset < header + length) break;
        frames += 1;
        if (decode)
          decode = options.onFrame(pending.subarray(offset + header, offset + header + length));
        offset += header + length;
      }
      pending = offset === pending.length ? Buffer.alloc(0) : pending.subarray(offset);
    });
  });
}
