import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser, type FakeRoute } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';
import { buildWithdrawal } from './walletFakes';

const token = 'k'.repeat(43);
const lookupPath = '/api/v2/withdrawals/confirm';
const waiting = buildWithdrawal({
  ticker: 'USDT',
  currency: 'USDT',
  network: 'tron',
  amount: '100',
  fee: '1',
  status: 5,
  address: `T${'a'.repeat(33)}`,
  cancellable: true,
});
const deadLink: FakeRoute = {
  status: 422,
  body: {
    message: 'The link is invalid or has expired',
    code: 'auth_link_invalid',
    errors: { token: ['Link is not valid'] },
  },
};

function open(routes: Record<string, FakeRoute>, path = `/withdrawal-confirm?token=${token}`) {
  return renderApp(path, { params: { user: null }, routes });
}

describe('withdrawal confirmation page (the e-mail link)', () => {
  it('shows the withdrawal signed out and confirms only on the click', async () => {
    const { api, location } = await open({
      [`GET ${lookupPath}`]: { body: waiting },
      [`POST ${lookupPath}`]: { body: { ...waiting, status: 11, cancellable: false } },
    });
    const facts = await screen.findByTestId('withdrawal-to-confirm');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Confirm withdrawal');
    expect(within(facts).getByText('100 USDT')).toBeTruthy();
    expect(within(facts).getByText('1 USDT')).toBeTruthy();
    expect(within(facts).getByText('tron')).toBeTruthy();
    expect(within(facts).getByText(waiting.address)).toBeTruthy();
    expect(api.callsTo('GET', lookupPath)[0]?.query.get('token')).toBe(token);
    // Opening the page only reads.
    expect(api.callsTo('POST', lookupPath)).toEqual([]);
    expect(screen.getByRole('link', { name: 'Leave without confirming' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Confirm withdrawal' }));
    const done = await screen.findByTestId('withdrawal-confirmed');
    expect(within(done).getByText('In process')).toBeTruthy();
    expect(api.callsTo('POST', lookupPath).map((call) => call.body)).toEqual([{ token }]);
    expect(api.callsTo('GET', lookupPath)).toHaveLength(1);
    fireEvent.click(screen.getByRole('link', { name: 'Withdrawal history' }));
    // Signed out, the history asks for a sign-in first and comes back to it.
    await waitFor(() => expect(location()).toContain('/login?redirect='));
    expect(decodeURIComponent(location())).toContain('/history/withdraw');
  });

  it('says when an operator checks the confirmed withdrawal next', async () => {
    await renderApp(`/withdrawal-confirm?token=${token}`, {
      params: { user: buildUser() },
      routes: {
        [`GET ${lookupPath}`]: { body: { ...waiting, amount: '11000' } },
        [`POST ${lookupPath}`]: { body: { ...waiting, amount: '11000', status: 6 } },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm withdrawal' }));
    expect(await screen.findByText(/an operator checks the withdrawal/)).toBeTruthy();
    expect(screen.getByText('Unconfirmed by admin')).toBeTruthy();
  });

  it('says the link is invalid or expired, with nothing to confirm', async () => {
    const { api } = await open({ [`GET ${lookupPath}`]: deadLink });
    expect(await screen.findByText('The link is invalid or has expired')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm withdrawal' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Withdrawal history' })).toBeTruthy();
    expect(api.callsTo('POST', lookupPath)).toEqual([]);
  });

  it('asks the server nothing without a token', async () => {
    const { api } = await open({}, '/withdrawal-confirm');
    expect(await screen.findByText('The link is invalid or has expired')).toBeTruthy();
    expect(api.calls.filter((call) => call.path.startsWith(lookupPath))).toEqual([]);
  });

  it('turns to the invalid-link state when the link was used meanwhile', async () => {
    await open({ [`GET ${lookupPath}`]: { body: waiting }, [`POST ${lookupPath}`]: deadLink });
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm withdrawal' }));
    expect(await screen.findByText('The link is invalid or has expired')).toBeTruthy();
    expect(screen.queryByTestId('withdrawal-to-confirm')).toBeNull();
  });

  it('offers a retry when the withdrawal could not be loaded', async () => {
    let answers = 0;
    await open({
      [`GET ${lookupPath}`]: () => {
        answers += 1;
        return answers === 1
          ? { status: 503, body: { message: 'Service unavailable', code: 'internal_error' } }
          : { body: waiting };
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('withdrawal-to-confirm')).toBeTruthy();
  });

  it('speaks Russian under /ru', async () => {
    await open(
      { [`GET ${lookupPath}`]: { body: waiting } },
      `/ru/withdrawal-confirm?token=${token}`,
    );
    await screen.findByTestId('withdrawal-to-confirm');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Подтверждение вывода');
    expect(screen.getByRole('button', { name: 'Подтвердить вывод' })).toBeTruthy();
  });
});
