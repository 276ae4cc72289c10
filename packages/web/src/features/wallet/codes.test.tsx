import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';
import { emptyPage } from './walletFakes';
import { balances, open } from './walletTestKit';

describe('transfer codes', () => {
  it('asks a visitor to sign in, without asking for balances', async () => {
    const { api } = await renderApp('/codes', {});
    expect(
      await screen.findByRole('link', { name: 'Sign in to create or activate a code' }),
    ).toBeTruthy();
    expect(api.callsTo('GET', '/api/v3/profile/balance')).toHaveLength(0);
  });

  it('tells an unverified user to pass verification before creating one', async () => {
    await open('/codes', {
      'GET /api/v3/profile/balance': { body: balances },
      'GET /api/v2/profile/codes/my': { body: emptyPage },
    });
    expect((await screen.findByTestId('codes-kyc')).textContent).toContain(
      'You must pass personal verification.',
    );
    expect(screen.queryByRole('form', { name: 'Create a code' })).toBeNull();
  });

  it('creates a code within the balance and shows it', async () => {
    const code = 'A'.repeat(32);
    const { api } = await open(
      '/codes',
      {
        'GET /api/v3/profile/balance': { body: balances },
        'GET /api/v2/profile/codes/my': { body: emptyPage },
        'POST /api/v2/profile/code/create': {
          status: 201,
          body: {
            date: 1_700_000_000,
            code,
            ticker: 'USDT',
            amount: '25',
            status: 'active',
            isOwn: true,
          },
        },
      },
      buildUser({ kyc: 'verified' }),
    );
    const form = await screen.findByRole('form', { name: 'Create a code' });
    fireEvent.change(within(form).getByLabelText('Currency'), { target: { value: 'USDT' } });
    fireEvent.change(within(form).getByLabelText('Amount'), { target: { value: '250' } });
    expect(
      await within(form).findByText('Amount should not be greater than your balance!'),
    ).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Amount'), { target: { value: '25' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create code' }));
    expect((await screen.findByTestId('created-code')).textContent).toContain(code);
    expect(api.callsTo('POST', '/api/v2/profile/code/create')[0]?.body).toEqual({
      ticker: 'USDT',
      amount: '25',
    });
  });

  it("shows the server's refusal of an activation", async () => {
    await open('/codes', {
      'GET /api/v3/profile/balance': { body: balances },
      'GET /api/v2/profile/codes/my': { body: emptyPage },
      'POST /api/v2/profile/code/apply': {
        status: 422,
        body: { message: 'Code activation error', code: 'voucher_activation_failed' },
      },
    });
    const form = await screen.findByRole('form', { name: 'Activate a code' });
    fireEvent.click(within(form).getByRole('button', { name: 'Activate' }));
    expect(await within(form).findByText('Field is required')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Code'), { target: { value: 'B'.repeat(32) } });
    fireEvent.click(within(form).getByRole('button', { name: 'Activate' }));
    expect(await within(form).findByText('Code activation error')).toBeTruthy();
  });
});

describe('my active codes', () => {
  it('cancels a code after asking, and the list drops it', async () => {
    const code = 'C'.repeat(32);
    let active = true;
    const { api } = await open('/codes', {
      'GET /api/v3/profile/balance': { body: balances },
      'GET /api/v2/profile/codes/my': () => ({
        body: {
          ...emptyPage,
          records: active
            ? [
                {
                  date: 1_700_000_000,
                  code,
                  ticker: 'BTC',
                  amount: '0.1',
                  status: 'active',
                  isOwn: true,
                },
              ]
            : [],
        },
      }),
      'POST /api/v2/profile/code/delete': () => {
        active = false;
        return {
          body: {
            date: 1_700_000_000,
            code,
            ticker: 'BTC',
            amount: '0.1',
            status: 'canceled',
            isOwn: true,
          },
        };
      },
    });
    const row = await screen.findByTestId('my-code-row');
    fireEvent.click(within(row).getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('0.1 BTC go back to your main balance.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByTestId('my-code-row')).toBeNull());
    expect(api.callsTo('POST', '/api/v2/profile/code/delete')[0]?.body).toEqual({ code });
  });
});
