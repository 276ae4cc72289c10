import type { OrderJson } from '@lattice/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initI18n, setLanguage } from '../../i18n/i18n';
import { clearToasts, toastStore } from '../../ui/toastStore';
import { authAttemptsMax, socketTimings } from './tradeSocket';
import { closeTradeSocket, finishedOrderNotice, tradeSocket } from './useLiveMarket';

const marketSell: OrderJson = {
  id: 862,
  platform: 'web',
  algorithm: 0,
  market: 'BTC_USDT',
  account: 0,
  side: 1,
  type: 2,
  amount: '0.0002',
  total: '0',
  // A market order has no price of its own.
  price: '0',
  stop_price: '0',
  limit_price: '0',
  left: '0',
  deal_stock: '0.0002',
  deal_money: '5.98701',
  deal_fee: '0.01197402',
  deal_fee_ltt: '0',
  triggered: false,
  oco_id: 0,
  ctime: 1_700_000_000,
  mtime: 1_700_000_000,
  ftime: 1_700_000_000,
  finish_reason: 0,
};

describe('the finished-order notice of an order.update event 3', () => {
  it('gives a market fill its average price, deal_money ÷ deal_stock, not its price 0', () => {
    expect(finishedOrderNotice(marketSell)).toEqual({
      id: 862,
      market: 'BTC_USDT',
      side: 1,
      filled: '0.0002',
      averagePrice: '29935.05',
      ftime: 1_700_000_000,
    });
  });

  it('gives a market buy by total what it bought', () => {
    const byTotal = {
      ...marketSell,
      side: 2,
      amount: '0',
      total: '10',
      deal_stock: '0.0003',
      deal_money: '9.99',
    };
    expect(finishedOrderNotice(byTotal)).toMatchObject({ filled: '0.0003', averagePrice: '33300' });
  });

  it('has no price for an order cancelled before it traded', () => {
    const cancelled = {
      ...marketSell,
      type: 1,
      price: '29930',
      deal_stock: '0',
      deal_money: '0',
      finish_reason: 1,
    };
    expect(finishedOrderNotice(cancelled)).toMatchObject({ filled: '0', averagePrice: null });
  });
});

describe('the app socket', () => {
  afterEach(() => {
    closeTradeSocket();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    clearToasts();
  });

  it('shows "Websocket timeout" when its sign-in failed 3 times with error 2', async () => {
    await initI18n();
    await setLanguage('en');
    vi.useFakeTimers();
    const opened: Socket[] = [];
    class Socket {
      static readonly OPEN = 1;
      readyState = 0;
      sent: string[] = [];
      onopen?: () => void;
      onmessage?: (event: { data: string }) => void;
      onclose?: () => void;
      constructor() {
        opened.push(this);
      }
      send(text: string) {
        this.sent.push(text);
        const { id, method } = JSON.parse(text) as { id: number; method: string };
        if (method !== 'server.auth') return;
        const error = { code: 2, message: 'internal error' };
        queueMicrotask(() => this.onmessage?.({ data: JSON.stringify({ id, error }) }));
      }
      close() {
        this.readyState = 3;
        this.onclose?.();
      }
    }
    vi.stubGlobal('WebSocket', Socket);
    const socket = tradeSocket();
    socket.setToken('token');
    for (let attempt = 1; attempt <= authAttemptsMax; attempt++) {
      const current = opened.at(-1) as Socket;
      current.readyState = 1;
      current.onopen?.();
      // The next attempt comes within the longest reconnect delay; after the last, none does.
      await vi.advanceTimersByTimeAsync(
        attempt < authAttemptsMax ? socketTimings.reconnectMaxMs : 0,
      );
    }
    expect(opened).toHaveLength(authAttemptsMax);
    expect(toastStore.get().map((toast) => toast.text)).toEqual(['Websocket timeout']);
    await vi.advanceTimersByTimeAsync(socketTimings.reconnectMaxMs);
    expect(opened).toHaveLength(authAttemptsMax);
  });

  it('once closed, plans no reconnect, and the next use opens a new socket', async () => {
    vi.useFakeTimers();
    const opened: Array<{ onclose?: () => void }> = [];
    class Socket {
      static readonly OPEN = 1;
      readyState = 0;
      onclose?: () => void;
      constructor() {
        opened.push(this);
      }
      close() {
        this.readyState = 3;
      }
    }
    vi.stubGlobal('WebSocket', Socket);
    const first = tradeSocket();
    first.subscribe('price', ['BTC_USDT']);
    expect(opened).toHaveLength(1);
    // The server goes away: a reconnect is planned, then the app closes its socket.
    opened[0]?.onclose?.();
    closeTradeSocket();
    await vi.advanceTimersByTimeAsync(socketTimings.reconnectMaxMs);
    expect(opened).toHaveLength(1);
    const second = tradeSocket();
    expect(second).not.toBe(first);
    second.subscribe('price', ['BTC_USDT']);
    expect(opened).toHaveLength(2);
  });
});
