import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { Connection } from './connection.js';
import { pushFrame } from './rpc.js';

/** A socket that never drains: everything sent stays in its buffer. */
function stuckSocket(withRawSocket: boolean) {
  const state = { bufferedAmount: 0, terminated: false, writes: [] as string[], corks: 0 };
  const raw = {
    write(data: Buffer) {
      state.bufferedAmount += data.length;
      state.writes.push(data.toString('latin1'));
    },
    cork() {
      state.corks += 1;
    },
    uncork() {
      state.corks -= 1;
    },
  };
  const socket = {
    OPEN: 1,
    ...(withRawSocket ? { _socket: raw } : {}),
    get readyState() {
      return state.terminated ? 3 : 1;
    },
    get bufferedAmount() {
      return state.bufferedAmount;
    },
    send(data: Buffer | string) {
      state.bufferedAmount += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
      state.writes.push(data.toString());
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
    for (const withRawSocket of [true, false]) {
      const { socket, state } = stuckSocket(withRawSocket);
      let cut = 0;
      const connection = new Connection(socket, '127.0.0.1', limits, 0, () => (cut += 1));
      const frame = pushFrame('depth.update', ['x'.repeat(10_000)]);
      let accepted = 0;
      while (connection.sendFrame(frame)) accepted += 1;
      expect(accepted).toBeGreaterThan(100);
      expect(state.bufferedAmount).toBeLessThanOrEqual(1024 * 1024);
      expect(state.bufferedAmount + frame.length).toBeGreaterThan(1024 * 1024);
      expect(state.terminated).toBe(true);
      expect(cut).toBe(1);
      expect(connection.sendFrame(frame)).toBe(false);
      expect(connection.send('{}')).toBe(false);
      expect(state.writes).toHaveLength(accepted);
    }
  });

  it('writes the frames of one flush under one cork', () => {
    const { socket, state } = stuckSocket(true);
    const connection = new Connection(socket, '127.0.0.1', limits, 0);
    const corked = new Set<Connection>();
    connection.sendFrame(pushFrame('depth.update', [false, {}, 'BTC_USDT']), corked);
    connection.sendFrame(pushFrame('deals.update', ['BTC_USDT', []]), corked);
    expect(state.corks).toBe(1);
    expect([...corked]).toEqual([connection]);
    connection.uncork();
    expect(state.corks).toBe(0);
    // A whole frame: FIN and text opcode, then the length, then the JSON.
    const json = '{"method":"deals.update","params":["BTC_USDT",[]],"id":null}';
    expect(state.writes[1]).toBe(`\x81${String.fromCharCode(json.length)}${json}`);
  });

  it('admits a number of requests per second', () => {
    const { socket } = stuckSocket(true);
    const connection = new Connection(socket, '127.0.0.1', limits, 0);
    expect([1, 2, 3, 4].map(() => connection.admit(5_000))).toEqual([true, true, true, false]);
    expect(connection.admit(6_000)).toBe(true);
  });
});
