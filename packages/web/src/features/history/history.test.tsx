import { fireEvent, screen, waitFor } from '@testing-library/react';
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
