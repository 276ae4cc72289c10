import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';
import { historyPageSize } from './historyApi';

function trade(id: number, price: string) {
  return {
    id,
    time: 1_700_000_000 + id,
    market: 'BTC_USDT',
    side: 2,
    role: 2,
    price,
    amount: '0.1',
    deal: '1',
    fee: '0.002',
    fee_asset: 'USDT',
    deal_order_id: id,
  };
}

function open(pages: ReturnType<typeof trade>[][]) {
  return renderApp('/history/trades', {
    params: { user: buildUser() },
    routes: {
      'GET /api/v2/history': (request) => {
        const offset = Number(request.query.get('offset'));
        const records = pages[offset / historyPageSize] ?? [];
        return { body: { records, total: 0, offset, limit: historyPageSize } };
      },
    },
  });
}

const fullPage = Array.from({ length: historyPageSize }, (_, index) => trade(index + 1, '100'));

describe('trade history', () => {
  it('offers Load More only after a full page, and stops at a short one', async () => {
    const { api } = await open([fullPage, [trade(900, '7')]]);
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(historyPageSize));
    fireEvent.click(screen.getByRole('button', { name: 'Load More' }));
    await waitFor(() =>
      expect(screen.getAllByTestId('history-row')).toHaveLength(historyPageSize + 1),
    );
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();
    expect(api.callsTo('GET', '/api/v2/history').map((call) => call.query.get('offset'))).toEqual([
      '0',
      String(historyPageSize),
    ]);
  });

  it('sends the filters and sorts a column DESC first, then ASC', async () => {
    const { api } = await open([[trade(1, '9.5'), trade(2, '10'), trade(3, '2')]]);
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(3));
    fireEvent.change(screen.getByLabelText('Side'), { target: { value: 'sell' } });
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/v2/history').at(-1)?.query.get('side')).toBe('sell'),
    );
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(3));
    const prices = () =>
      screen.getAllByTestId('history-row').map((row) => row.children[3]?.textContent);
    fireEvent.click(screen.getByRole('button', { name: 'Price' }));
    expect(prices()).toEqual(['10', '9.5', '2']);
    fireEvent.click(screen.getByRole('button', { name: 'Price' }));
    expect(prices()).toEqual(['2', '9.5', '10']);
  });
});

function activeOrder(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    platform: 'web',
    algorithm: 0,
    market: 'BTC_USDT',
    account: 0,
    side: 2,
    type: 1,
    amount: '1',
    total: '0',
    price: `${100 + id}`,
    stop_price: '0',
    limit_price: '0',
    left: '1',
    deal_stock: '0',
    deal_money: '0',
    deal_fee: '0',
    deal_fee_ltt: '0',
    triggered: false,
    oco_id: 0,
    ctime: 1_700_000_000 + id,
    mtime: 1_700_000_000 + id,
    ftime: 0,
    ...overrides,
  };
}

/** Active orders as a server keeps them: a cancel the server accepts removes the order. */
function openActive(refuse = false) {
  let orders = [
    activeOrder(1),
    activeOrder(2, { deal_stock: '0.25', left: '0.75' }),
    activeOrder(3, { algorithm: 1, stop_price: '120' }),
  ];
  return renderApp('/history/active', {
    params: { user: buildUser() },
    routes: {
      'GET /api/v2/order': () => ({
        body: { records: orders, total: orders.length, offset: 0, limit: 50 },
      }),
      // Before the route with an id, which would take `deleteall` for one.
      'DELETE /api/v2/order/deleteall': () => {
        orders = [];
        return { body: { message: 'All orders were successfully deleted' } };
      },
      'DELETE /api/v2/order/:id': (request) => {
        if (refuse)
          return { status: 422, body: { message: 'Order not found', code: 'order_not_found' } };
        orders = orders.filter((order) => String(order.id) !== request.params.id);
        return { body: { message: 'BTC_USDT order was successfully deleted' } };
      },
    },
  });
}

const rowTexts = () => screen.getAllByTestId('history-row').map((row) => row.textContent ?? '');

describe('active orders', () => {
  it('filters by status: open, partially filled, waiting for its stop', async () => {
    await openActive();
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(3));
    const status = screen.getByLabelText('Status');
    fireEvent.change(status, { target: { value: 'partial' } });
    expect(rowTexts()).toEqual([expect.stringContaining('102')]);
    expect(rowTexts()[0]).toContain('Partially filled');
    fireEvent.change(status, { target: { value: 'waiting' } });
    expect(rowTexts()).toEqual([expect.stringContaining('Waiting for stop')]);
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getAllByTestId('history-row')).toHaveLength(3);
  });

  it('cancels an order from its row', async () => {
    const { api } = await openActive();
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(3));
    const first = screen.getAllByTestId('history-row')[0] as HTMLElement;
    fireEvent.click(within(first).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(api.callsTo('DELETE', '/api/v2/order/1')).toHaveLength(1));
    await screen.findByText('BTC_USDT order was successfully deleted');
    expect(rowTexts().some((text) => text.includes('101'))).toBe(false);
    expect(screen.getAllByTestId('history-row')).toHaveLength(2);
  });

  it('cancels all active orders', async () => {
    const { api } = await openActive();
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(3));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel all' }));
    await waitFor(() => expect(api.callsTo('DELETE', '/api/v2/order/deleteall')).toHaveLength(1));
    await screen.findByText('All orders were successfully deleted');
    await waitFor(() => expect(screen.queryAllByTestId('history-row')).toHaveLength(0));
  });

  it('puts back a row the server would not cancel', async () => {
    await openActive(true);
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(3));
    const second = screen.getAllByTestId('history-row')[1] as HTMLElement;
    fireEvent.click(within(second).getByRole('button', { name: 'Cancel' }));
    await screen.findByText('not exists');
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(3));
  });
});
