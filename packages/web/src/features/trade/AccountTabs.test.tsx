import type { OrderJson, OwnTradeJson } from '@lattice/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/queryClient';
import { initI18n, setLanguage } from '../../i18n/i18n';
import { installFakeApi } from '../../test/fakeApi';
import { clearToasts, toastStore } from '../../ui/toastStore';
import { AccountTabs } from './AccountTabs';

beforeAll(async () => {
  await initI18n();
  await setLanguage('en');
});

afterEach(() => {
  cleanup();
  clearToasts();
  vi.unstubAllGlobals();
});

const order = (id: number, overrides: Partial<OrderJson> = {}): OrderJson =>
  ({
    id,
    algorithm: 0,
    market: 'BTC_USDT',
    side: 2,
    type: 1,
    amount: '0.5',
    total: '0',
    price: `${100 + id}`,
    deal_stock: '0',
    deal_money: '0',
    deal_fee: '0',
    ctime: 1_700_000_000,
    ftime: 0,
    ...overrides,
  }) as OrderJson;

const page = <T,>(records: T[]) => ({ records, total: records.length, offset: 0, limit: 100 });

function renderTabs(routes: Parameters<typeof installFakeApi>[0] = {}) {
  const api = installFakeApi({
    'GET /api/v2/order': { body: page([order(1), order(2)]) },
    'DELETE /api/v2/order/:id': { body: { message: 'BTC_USDT order was successfully deleted' } },
    'DELETE /api/v2/order/deleteall/:pair': { body: { message: 'deleted' } },
    'GET /api/v2/order/finished': {
      body: page([
        // A market sell of 0.2 BTC for 5 987.01 USDT: its price is the average, not 0.
        order(7, {
          side: 1,
          type: 2,
          price: '0',
          amount: '0.2',
          deal_stock: '0.2',
          deal_money: '5987.01',
          deal_fee: '11.97402',
          ftime: 1_700_000_100,
        }),
      ]),
    },
    'GET /api/v2/history': {
      body: page<OwnTradeJson>([
        {
          id: 3,
          time: 1_700_000_100,
          market: 'BTC_USDT',
          side: 1,
          role: 2,
          price: '29935',
          amount: '0.2',
          deal: '5987',
          fee: '11.974',
          fee_asset: 'USDT',
          deal_order_id: 7,
        },
      ]),
    },
    ...routes,
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AccountTabs pair="BTC_USDT" />
    </QueryClientProvider>,
  );
  return api;
}

describe('the trade screen’s order tabs', () => {
  it('lists open orders with their count, and cancels one at once', async () => {
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const api = renderTabs({
      'DELETE /api/v2/order/:id': async () => {
        await answered;
        return { body: { message: 'BTC_USDT order was successfully deleted' } };
      },
    });
    await screen.findByRole('tab', { name: 'Open orders (2)' });
    expect(screen.getAllByTestId('open-order')).toHaveLength(2);
    const first = screen.getAllByTestId('open-order')[0] as HTMLElement;
    fireEvent.click(within(first).getByRole('button', { name: 'Cancel' }));
    // Gone before the server answers (SPEC.md §4).
    await waitFor(() => expect(screen.getAllByTestId('open-order')).toHaveLength(1));
    expect(api.callsTo('DELETE', '/api/v2/order/1')).toHaveLength(1);
    expect(toastStore.get()).toEqual([]);
    answer();
    await waitFor(() =>
      expect(toastStore.get().map((toast) => toast.text)).toContain(
        'BTC_USDT order was successfully deleted',
      ),
    );
  });

  it('puts a refused cancel back and says the order does not exist', async () => {
    renderTabs({
      'DELETE /api/v2/order/:id': {
        status: 422,
        body: { message: 'Order not found', code: 'order_not_found' },
      },
    });
    await screen.findByRole('tab', { name: 'Open orders (2)' });
    fireEvent.click(
      within(screen.getAllByTestId('open-order')[1] as HTMLElement).getByRole('button', {
        name: 'Cancel',
      }),
    );
    await waitFor(() =>
      expect(toastStore.get().map((toast) => toast.text)).toContain('not exists'),
    );
    expect(screen.getAllByTestId('open-order')).toHaveLength(2);
  });

  it('cancels all orders of the pair', async () => {
    const api = renderTabs();
    await screen.findByRole('tab', { name: 'Open orders (2)' });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel all' }));
    await waitFor(() =>
      expect(api.callsTo('DELETE', '/api/v2/order/deleteall/BTC_USDT')).toHaveLength(1),
    );
    await waitFor(() =>
      expect(toastStore.get().map((toast) => toast.text)).toContain(
        'All BTC_USDT orders were successfully deleted',
      ),
    );
  });

  it('shows the order history with average prices, and the trade history', async () => {
    const api = renderTabs();
    fireEvent.click(await screen.findByRole('tab', { name: 'Order history' }));
    const finished = await screen.findByTestId('finished-order');
    expect(finished.textContent).toContain('29935.05');
    expect(finished.textContent).toContain('Market');
    expect(api.callsTo('GET', '/api/v2/order/finished')[0]?.query.get('pair')).toBe('BTC_USDT');
    fireEvent.click(screen.getByRole('tab', { name: 'Trade history' }));
    const trade = await screen.findByTestId('own-trade');
    expect(trade.textContent).toContain('11.974 USDT');
    expect(api.callsTo('GET', '/api/v2/history')[0]?.query.get('pair')).toBe('BTC_USDT');
  });
});
