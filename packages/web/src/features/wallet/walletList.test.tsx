import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { balances, open, type } from './walletTestKit';

describe('wallet list', () => {
  it('searches by ticker or name and hides empty balances', async () => {
    await open('/user/wallet-list', { 'GET /api/v3/profile/balance': { body: balances } });
    await screen.findByTestId('balance-BTC');
    expect(screen.getByTestId('wallet-total-btc').textContent).toBe('3 BTC');
    fireEvent.click(screen.getByLabelText('Hide zero balances'));
    expect(screen.queryByTestId('balance-ETH')).toBeNull();
    type('Search currency', 'teth');
    expect(screen.getByTestId('balance-USDT')).toBeTruthy();
    expect(screen.queryByTestId('balance-BTC')).toBeNull();
  });

  it('transfers from trade to main, refusing more than the trade balance holds', async () => {
    const { api } = await open('/user/wallet-list', {
      'GET /api/v3/profile/balance': { body: balances },
      'POST /api/v2/profile/transfer': { body: { mainBalance: '1.2', tradeAvailable: '0.2' } },
    });
    const row = await screen.findByTestId('balance-BTC');
    fireEvent.click(within(row).getByRole('button', { name: 'Transfer' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Swap direction' }));
    expect(screen.getByTestId('transfer-direction').textContent).toBe(
      'From Trade balance to Main balance',
    );
    type('Amount', '0,5');
    expect(await screen.findByText('Amount should not be greater than your balance!')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Max' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Transfer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', '/api/v2/profile/transfer')[0]?.body).toEqual({
      ticker: 'BTC',
      amount: '0.4',
      from: 'trade',
      to: 'main',
    });
  });
});
