import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { Connection } from './connection.js';
import { PushBatch } from './pushBatch.js';
import { pushFrame } from './rpc.js';

/** A socket that never drains: everything sent stays in its buffer. */
function stuckSocket(withRawSocket: boolean) {
  const state = {
    bufferedAmount: 0,
    terminated: false,
    writes: [] as string[],
    raw: [] as Buffer[],
  };
  const raw = {
    write(data: Buffer) {
      state.bufferedAmount += data.length;
      state.raw.push(data);
      state.writes.push(data.toString('latin1'));
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

  it("writes a flush's frames to each connection in one write, one buffer per combination", () => {
    const [a, b, c] = [stuckSocket(true), stuckSocket(true), stuckSocket(false)];
    const [first, second, third] = [a, b, c].map(
      ({ socket }) => new Connection(socket, '127.0.0.1', limits, 0),
    );
    const depthJson = '{"method":"depth.update","params":[false,{},"BTC_USDT"],"id":null}';
    const dealsJson = '{"method":"deals.update","params":["BTC_USDT",[]],"id":null}';
    const depth = pushFrame('depth.update', [false, {}, 'BTC_USDT']);
    const deals = pushFrame('deals.update', ['BTC_USDT', []]);
    const batch = new PushBatch();
    for (const connection of [first!, second!, third!]) batch.add(connection, depth);
    for (const connection of [first!, second!, third!]) batch.add(connection, deals);
    expect(batch.send()).toBe(3);
    // Whole frames: FIN and text opcode, then the length, then the JSON.
    const frame = (json: string) => `\x81${String.fromCharCode(json.length)}${json}`;
    expect(a.state.writes).toEqual([frame(depthJson) + frame(dealsJson)]);
    expect(b.state.raw[0]).toBe(a.state.raw[0]);
    // Without the TCP socket, the same frames go one by one through ws.
    expect(c.state.writes).toEqual([depthJson, dealsJson]);
    expect(batch.send()).toBe(0);
  });

  it('admits a number of requests per second', () => {
    const { socket } = stuckSocket(true);
    const connection = new Connection(socket, '127.0.0.1', limits, 0);
    expect([1, 2, 3, 4].map(() => connection.admit(5_000))).toEqual([true, true, true, false]);
    expect(connection.admit(6_000)).toBe(true);
  });
});
