import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authAttemptsMax, SocketError, socketTimings, TradeSocket } from './tradeSocket';

/** A WebSocket the test drives: it records what was sent and answers on demand. */
class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static all: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  sent: { id: number; method: string; params: unknown[] }[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }

  send(text: string) {
    this.sent.push(JSON.parse(text));
  }

  close() {
    if (this.readyState === FakeSocket.CLOSED) return;
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.();
  }

  accept() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }

  methods() {
    return this.sent.map((frame) => frame.method);
  }

  /** Answers the last request of `method`. */
  answer(method: string, reply: { result?: unknown; error?: { code: number; message: string } }) {
    const request = [...this.sent].reverse().find((frame) => frame.method === method);
    if (!request) throw new Error(`no ${method} was sent`);
    this.onmessage?.({ data: JSON.stringify({ id: request.id, error: null, ...reply }) });
  }

  push(method: string, params: unknown[]) {
    this.onmessage?.({ data: JSON.stringify({ id: null, method, params }) });
  }
}

const latest = () => {
  const socket = FakeSocket.all.at(-1);
  if (!socket) throw new Error('no socket was opened');
  return socket;
};
/** Lets the awaited sign-in settle. */
const settle = () => vi.advanceTimersByTimeAsync(0);
let visibility: DocumentVisibilityState = 'visible';

function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  visibility = 'visible';
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the socket client', () => {
  it('signs in first, then subscribes, and answers pushes to listeners', async () => {
    const socket = new TradeSocket('ws://x/ws');
    const pushes: unknown[][] = [];
    socket.on('order.update', (params) => pushes.push(params));
    socket.setToken('token');
    socket.subscribe('depth', ['BTC_USDT', 50, '0']);
    socket.subscribe('order', ['BTC_USDT']);
    latest().accept();
    expect(latest().methods()).toEqual(['server.auth']);
    latest().answer('server.auth', { result: { status: 'success' } });
    await settle();
    expect(latest().methods()).toEqual(['server.auth', 'depth.subscribe', 'order.subscribe']);
    latest().push('order.update', [3, { id: 1 }]);
    expect(pushes).toEqual([[3, { id: 1 }]]);
    socket.close();
  });

  it('pings every 30 s', async () => {
    const socket = new TradeSocket('ws://x/ws');
    socket.subscribe('deals', ['BTC_USDT']);
    latest().accept();
    await settle();
    vi.advanceTimersByTime(socketTimings.keepAliveMs - 1);
    expect(latest().methods()).not.toContain('server.ping');
    vi.advanceTimersByTime(1);
    expect(latest().methods()).toContain('server.ping');
    socket.close();
  });

  it('reconnects 1 s after a close and subscribes again; requests meanwhile fail with 402', async () => {
    const socket = new TradeSocket('ws://x/ws');
    const ready = vi.fn();
    socket.onReady(ready);
    socket.subscribe('deals', ['BTC_USDT']);
    latest().accept();
    await settle();
    expect(ready).toHaveBeenCalledTimes(1);
    const waiting = socket.request('deals.query', ['BTC_USDT', 50, 0]);
    latest().close();
    await expect(waiting).rejects.toEqual(
      new SocketError(402, 'WebSocket for trading server is closed'),
    );
    vi.advanceTimersByTime(socketTimings.reconnectBaseMs - 1);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    latest().accept();
    await settle();
    expect(latest().methods()).toEqual(['deals.subscribe']);
    expect(ready).toHaveBeenCalledTimes(2);
    socket.close();
  });

  it('retries a sign-in that failed with error 2 or 5, 100 ms later each time, and gives up after 3', async () => {
    const gaveUp = vi.fn();
    const socket = new TradeSocket('ws://x/ws', { onAuthGaveUp: gaveUp });
    socket.setToken('token');
    socket.subscribe('order', ['BTC_USDT']);
    for (let attempt = 1; attempt <= authAttemptsMax; attempt++) {
      expect(FakeSocket.all).toHaveLength(attempt);
      latest().accept();
      latest().answer('server.auth', {
        error: { code: attempt === 2 ? 5 : 2, message: 'internal error' },
      });
      await settle();
      expect(latest().methods()).toEqual(['server.auth']);
      if (attempt === authAttemptsMax) break;
      // 1 s plus 100 ms per failed sign-in so far.
      const delay = socketTimings.reconnectBaseMs + attempt * socketTimings.reconnectPerFailureMs;
      vi.advanceTimersByTime(delay - 1);
      expect(FakeSocket.all).toHaveLength(attempt);
      vi.advanceTimersByTime(1);
    }
    expect(gaveUp).toHaveBeenCalledTimes(1);
    expect(latest().readyState).toBe(FakeSocket.CLOSED);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(authAttemptsMax);
    await expect(socket.request('server.ping', [])).rejects.toMatchObject({ code: 402 });
    // A new token (signed in again) starts over.
    socket.setToken('another');
    expect(FakeSocket.all).toHaveLength(authAttemptsMax + 1);
    socket.close();
  });

  it('does not retry a refused token but keeps the public channels', async () => {
    const gaveUp = vi.fn();
    const socket = new TradeSocket('ws://x/ws', { onAuthGaveUp: gaveUp });
    socket.setToken('stale');
    socket.subscribe('depth', ['BTC_USDT', 50, '0']);
    socket.subscribe('order', ['BTC_USDT']);
    latest().accept();
    latest().answer('server.auth', { error: { code: 11, message: 'token invalid' } });
    await settle();
    expect(latest().methods()).toEqual(['server.auth', 'depth.subscribe']);
    expect(latest().readyState).toBe(FakeSocket.OPEN);
    expect(gaveUp).not.toHaveBeenCalled();
    socket.close();
  });

  it('closes after 60 s hidden, stays closed, and reopens with its subscriptions when visible', async () => {
    const socket = new TradeSocket('ws://x/ws');
    socket.subscribe('deals', ['BTC_USDT']);
    latest().accept();
    await settle();
    setVisibility('hidden');
    vi.advanceTimersByTime(socketTimings.hiddenCloseMs - 1);
    expect(latest().readyState).toBe(FakeSocket.OPEN);
    vi.advanceTimersByTime(1);
    expect(latest().readyState).toBe(FakeSocket.CLOSED);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    setVisibility('visible');
    expect(FakeSocket.all).toHaveLength(2);
    latest().accept();
    await settle();
    expect(latest().methods()).toEqual(['deals.subscribe']);
    socket.close();
  });

  it('stays open when the page comes back within the minute', async () => {
    const socket = new TradeSocket('ws://x/ws');
    socket.subscribe('deals', ['BTC_USDT']);
    latest().accept();
    await settle();
    setVisibility('hidden');
    vi.advanceTimersByTime(socketTimings.hiddenCloseMs - 1000);
    setVisibility('visible');
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(latest().readyState).toBe(FakeSocket.OPEN);
    socket.close();
  });
});
