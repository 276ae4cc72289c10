import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { Connection } from './connection.js';

/** A socket that never drains: every send stays in its buffer. */
function stuckSocket() {
  const state = { bufferedAmount: 0, terminated: false, sent: 0 };
  const socket = {
    OPEN: 1,
    get readyState() {
      return state.terminated ? 3 : 1;
    },
    get bufferedAmount() {
      return state.bufferedAmount;
    },
    send(data: Buffer | string) {
      state.bufferedAmount += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
      state.sent += 1;
    },
    terminate() {
      state.terminated = true;
    },
    close() {},
  };
  return { socket: socket as unknown as WebSocket, state };
}

const limits = { messagesPerSecondMax: 3, subscriptionsMax: 10, bufferedBytesMax: 1024 * 1024 };

describe('Connection', () => {
  it('cuts a consumer that does not read before its buffer passes the limit', () => {
    const { socket, state } = stuckSocket();
    const connection = new Connection(socket, '127.0.0.1', limits, 0);
    const frame = Buffer.alloc(10_000, 'x');
    let accepted = 0;
    while (connection.send(frame)) accepted += 1;
    expect(accepted).toBe(104);
    expect(state.bufferedAmount).toBeLessThanOrEqual(1024 * 1024);
    expect(state.terminated).toBe(true);
    expect(connection.send(frame)).toBe(false);
    expect(state.sent).toBe(104);
  });

  it('admits a number of requests per second', () => {
    const { socket } = stuckSocket();
    const connection = new Connection(socket, '127.0.0.1', limits, 0);
    expect([1, 2, 3, 4].map(() => connection.admit(5_000))).toEqual([true, true, true, false]);
    expect(connection.admit(6_000)).toBe(true);
  });
});
