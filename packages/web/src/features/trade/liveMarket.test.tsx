import type { OrderJson, Page } from '@lattice/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/queryClient';
import { systemParamsKey } from '../../api/session';
import { i18next, initI18n, setLanguage } from '../../i18n/i18n';
import { buildSystemParams, buildUser } from '../../test/fakeApi';
import { clearToasts, toastStore } from '../../ui/toastStore';
import {
  finishedOrderDebounceMs,
  finishedOrdersStore,
  setFinishedOrderWording,
} from '../shell/finishedOrders';
import { finishedOrderText } from '../shell/finishedOrderText';
import { balancesKey, openOrdersQuery } from './tradeApi';
import { closeTradeSocket, useLiveMarket } from './useLiveMarket';

/** The server end of the app socket: signs in whoever asks, records the rest. */
class ServerSocket {
  static current: ServerSocket | null = null;
  static readonly OPEN = 1;
  readyState = 0;
  methods: string[] = [];
  onopen?: () => void;
  onmessage?: (event: { data: string }) => void;
  onclose?: () => void;
  constructor() {
    ServerSocket.current = this;
    queueMicrotask(() => {
      this.readyState = 1;
      this.onopen?.();
    });
  }
  send(text: string) {
    const { id, method } = JSON.parse(text) as { id: number; method: string };
    this.methods.push(method);
    const result = { status: 'success' };
    queueMicrotask(() => this.onmessage?.({ data: JSON.stringify({ id, result, error: null }) }));
  }
  push(method: string, params: unknown[]) {
    this.onmessage?.({ data: JSON.stringify({ id: null, method, params }) });
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
}

const order = (id: number, overrides: Partial<OrderJson> = {}) =>
  ({
    id,
    market: 'BTC_USDT',
    side: 2,
    type: 1,
    amount: '1',
    price: '100',
    deal_stock: '0',
    deal_money: '0',
    ftime: 0,
    ...overrides,
  }) as OrderJson;

beforeAll(async () => {
  await initI18n();
  await setLanguage('en');
  // As the app's layout words them.
  setFinishedOrderWording({
    one: (finished) => finishedOrderText(i18next.t, finished),
    many: (count) => String(count),
  });
});

afterEach(() => {
  closeTradeSocket();
  vi.unstubAllGlobals();
  clearToasts();
});

describe('the live trade screen', () => {
  it('follows the user’s orders and balances from the socket and announces a finished order', async () => {
    vi.stubGlobal('WebSocket', ServerSocket);
    // Nothing is read over HTTP: whatever changes below came from the socket.
    const fetchMock = vi.fn(() => new Promise(() => undefined));
    vi.stubGlobal('fetch', fetchMock);
    const queryClient = createQueryClient();
    queryClient.setQueryData(
      systemParamsKey,
      buildSystemParams({ user: buildUser(), wsToken: 'token' }),
    );
    const ordersKey = openOrdersQuery('BTC_USDT').queryKey;
    queryClient.setQueryData<Page<OrderJson>>(ordersKey, {
      records: [order(1)],
      total: 1,
      offset: 0,
      limit: 100,
    });
    queryClient.setQueryData(balancesKey, [
      { ticker: 'BTC', tradeAvailable: '2' },
      { ticker: 'USDT', tradeAvailable: '1000' },
    ]);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    renderHook(() => useLiveMarket('BTC_USDT', ['BTC', 'USDT']), { wrapper });
    await vi.waitFor(() =>
      expect(ServerSocket.current?.methods).toEqual([
        'server.auth',
        'depth.subscribe',
        'deals.subscribe',
        'today.subscribe',
        'order.subscribe',
        'asset.subscribe',
      ]),
    );
    const server = ServerSocket.current as ServerSocket;
    const records = () =>
      queryClient.getQueryData<Page<OrderJson>>(ordersKey)?.records.map((kept) => kept.id);

    act(() => server.push('order.update', [1, order(2)]));
    expect(records()).toEqual([2, 1]);
    act(() => server.push('asset.update', [{ USDT: { available: '800', freeze: '200' } }]));
    expect(queryClient.getQueryData(balancesKey)).toEqual([
      { ticker: 'BTC', tradeAvailable: '2' },
      { ticker: 'USDT', tradeAvailable: '800' },
    ]);
    act(() =>
      server.push('order.update', [3, order(1, { deal_stock: '1', deal_money: '99.5', ftime: 5 })]),
    );
    expect(records()).toEqual([2]);
    expect(finishedOrdersStore.get()[0]).toMatchObject({ id: 1, averagePrice: '99.5' });
    await vi.waitFor(
      () =>
        expect(toastStore.get().map((toast) => toast.text)).toEqual([
          'Buy order BTC/USDT finished: 1 at 99.5',
        ]),
      { timeout: finishedOrderDebounceMs * 10 },
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
