import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser, type FakeRoute, fieldErrors } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';
import {
  buildBalance,
  buildDeposit,
  buildMethod,
  buildPaymentData,
  buildWithdrawal,
  emptyPage,
} from './walletFakes';

function type(label: string | RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function open(path: string, routes: Record<string, FakeRoute>, user = buildUser()) {
  return renderApp(path, { params: { user }, routes });
}

const balances = [
  buildBalance(),
  buildBalance({
    ticker: 'ETH',
    label: 'Ethereum',
    fullBalance: '0',
    fullBalanceBtc: '0',
    mainBalance: '0',
    tradeAvailable: '0',
    tradeFreeze: '0',
  }),
  buildBalance({ ticker: 'USDT', label: 'Tether', mainBalance: '100', fullBalance: '100' }),
];

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

function withdrawRoutes(extra: Record<string, FakeRoute> = {}): Record<string, FakeRoute> {
  return {
    'GET /api/v3/profile/balance': { body: balances },
    'GET /api/v3/profile/withdrawaldata/:ticker': {
      body: buildPaymentData([
        buildMethod(),
        buildMethod({ key: 'bnb_beacon', name: 'BNB Beacon Chain', memo: true }),
      ]),
    },
    'GET /api/v2/whitelisted-addresses': { body: { enabled: false, records: [] } },
    'GET /api/v2/withdraw_history': { body: emptyPage },
    'GET /api/v3/profile/withdraw_kyc_limit': {
      body: {
        level: 'basic',
        twoFactorEnabled: true,
        kycVerified: false,
        usdPerDay: '500',
        usdLeftToday: '500',
        btcPerWeek: '1',
        btcLeftThisWeek: '1',
        reviewAboveUsd: '10000',
      },
    },
    'POST /api/v3/balance/calcfee-BTC/:method': (request) => {
      const { amount } = request.body as { amount: string };
      return {
        body: {
          ticker: 'BTC',
          network: 'bitcoin',
          amount,
          fee: '0.0003',
          total: '',
          minAmount: '0.001',
        },
      };
    },
    ...extra,
  };
}

describe('withdrawal form', () => {
  const twoFactorUser = buildUser({ twoFactorEnabled: true });

  it('checks amount, minimum, balance with fee, memo and code before it asks the server', async () => {
    const { api } = await open('/user/wallet/withdraw/BTC', withdrawRoutes(), twoFactorUser);
    await screen.findByRole('form', { name: 'Withdrawal' });
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect((await screen.findAllByText('Field is required')).length).toBeGreaterThanOrEqual(2);
    type('Amount', '0.0005');
    expect(await screen.findByText('Min value 0.001')).toBeTruthy();
    // 1 BTC on main: 1 plus the fee does not fit.
    type('Amount', '1');
    expect(await screen.findByText('Amount should not be greater than your balance!')).toBeTruthy();
    type('2FA code', '12');
    expect(await screen.findByText('Length should be 6')).toBeTruthy();
    type('Network', 'bnb_beacon');
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    const memo = await screen.findByLabelText('Memo');
    expect(memo.getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo('POST', '/api/v3/balance/withdrawal-BTC/bnb_beacon')).toHaveLength(0);
  });

  it('shows the fee and total from the server, offers Max, and sends the request', async () => {
    const { api } = await open(
      '/user/wallet/withdraw/BTC',
      withdrawRoutes({
        'POST /api/v3/balance/withdrawal-BTC/:method': {
          body: buildWithdrawal({ amount: '0.25', fee: '0.0003' }),
        },
      }),
      twoFactorUser,
    );
    await screen.findByRole('form', { name: 'Withdrawal' });
    fireEvent.click(screen.getByRole('button', { name: 'Max' }));
    expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('0.9998');
    type('Amount', '0.25');
    await waitFor(() => expect(screen.getByTestId('withdraw-fee').textContent).toBe('0.0003 BTC'));
    expect(screen.getByTestId('withdraw-total').textContent).toBe('0.2503 BTC');
    type('Address', 'bc1qdestination');
    type('2FA code', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect((await screen.findByTestId('withdraw-status')).textContent).toBe('In process');
    expect(api.callsTo('POST', '/api/v3/balance/withdrawal-BTC/bitcoin')[0]?.body).toEqual({
      network: 'bitcoin',
      address: 'bc1qdestination',
      amount: '0.25',
      code: '123456',
    });
  });

  it("shows the server's messages beside their fields", async () => {
    await open(
      '/user/wallet/withdraw/BTC',
      withdrawRoutes({
        'POST /api/v3/balance/withdrawal-BTC/:method': fieldErrors({
          address: ['Address is not valid for this network'],
          code: ['Wrong 2FA code'],
        }),
      }),
      twoFactorUser,
    );
    await screen.findByRole('form', { name: 'Withdrawal' });
    type('Amount', '0.1');
    type('Address', 'nope');
    type('2FA code', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('Address is not valid for this network')).toBeTruthy();
    expect(screen.getByText('Wrong 2FA code')).toBeTruthy();
  });

  it('asks for 2FA first when it is off', async () => {
    await open('/user/wallet/withdraw/BTC', withdrawRoutes());
    expect(await screen.findByTestId('withdraw-needs-2fa')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Withdraw' })).toHaveProperty('disabled', true);
  });
});

describe('deposit page', () => {
  it('shows the address with its QR code, the memo warning and the confirmations', async () => {
    await open('/user/wallet/deposit/BNB', {
      'GET /api/v3/profile/balance': { body: [buildBalance({ ticker: 'BNB' })] },
      'GET /api/v3/profile/depositdata/:ticker': {
        body: buildPaymentData(
          [buildMethod({ key: 'bnb_beacon', name: 'BNB Beacon Chain', memo: true })],
          'BNB',
        ),
      },
      'GET /api/v2/profile/address/:ticker': {
        body: { address: 'bnb1shared', memo: '100042', network: 'bnb_beacon' },
      },
      'GET /api/v2/deposit_history': {
        body: { ...emptyPage, records: [buildDeposit({ ticker: 'BNB' })], total: 1 },
      },
    });
    expect((await screen.findByTestId('deposit-address')).textContent).toBe('bnb1shared');
    expect(screen.getByTestId('deposit-memo').textContent).toBe('100042');
    expect(screen.getByTestId('deposit-qr').querySelector('svg')).toBeTruthy();
    expect(screen.getByText(/A deposit without the memo cannot be credited/)).toBeTruthy();
    expect((await screen.findByTestId('deposit-confirmations')).textContent).toBe('1 / 2');
  });
});

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

describe('saved addresses', () => {
  it('saves an address with a 2FA code and lists it', async () => {
    let records: unknown[] = [];
    const { api } = await open(
      '/user/address-management',
      {
        'GET /api/v3/profile/balance': { body: balances },
        'GET /api/v2/whitelisted-addresses': () => ({ body: { enabled: false, records } }),
        'POST /api/v2/whitelist-address': (request) => {
          const body = request.body as Record<string, string>;
          records = [
            { id: 1, name: body.name, coin: body.coin, address: body.address, memo: null, date: 1 },
          ];
          return { status: 201, body: records[0] };
        },
      },
      buildUser({ twoFactorEnabled: true }),
    );
    const form = await screen.findByRole('form', { name: 'Add an address' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'cold' } });
    fireEvent.change(within(form).getByLabelText('Address'), { target: { value: 'bc1qcold' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save address' }));
    expect(await within(form).findByText('Length should be 6')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('2FA code'), { target: { value: '654321' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save address' }));
    expect(await screen.findByTestId('whitelist-row')).toBeTruthy();
    expect(api.callsTo('POST', '/api/v2/whitelist-address')[0]?.body).toEqual({
      name: 'cold',
      coin: 'BTC',
      address: 'bc1qcold',
      code: '654321',
    });
  });
});

describe('wallet history', () => {
  it('filters withdrawals by status and pages through them', async () => {
    const { api } = await open('/history/withdraw', {
      'GET /api/v3/profile/balance': { body: balances },
      'GET /api/v2/withdraw_history': (request) => ({
        body: {
          records: [buildWithdrawal({ id: Number(request.query.get('offset')) + 1, status: 3 })],
          total: 45,
          offset: Number(request.query.get('offset')),
          limit: 20,
        },
      }),
    });
    expect((await screen.findByTestId('wallet-history-page')).textContent).toBe('Page 1 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() =>
      expect(screen.getByTestId('wallet-history-page').textContent).toBe('Page 2 of 3'),
    );
    type('Status', '4');
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/v2/withdraw_history').at(-1)?.query.get('status')).toBe('4'),
    );
    expect(api.callsTo('GET', '/api/v2/withdraw_history').at(-1)?.query.get('offset')).toBe('0');
    expect(screen.getByRole('link', { name: 'Export' }).getAttribute('href')).toContain('status=4');
  });
});

describe('withdrawal cancel', () => {
  it('cancels a withdrawal that waits, after asking', async () => {
    let status = 6;
    const { api } = await open('/history/withdraw', {
      'GET /api/v3/profile/balance': { body: balances },
      'GET /api/v2/withdraw_history': () => ({
        body: {
          records: [buildWithdrawal({ status, cancellable: status === 6 })],
          total: 1,
          offset: 0,
          limit: 20,
        },
      }),
      'POST /api/v2/withdrawals/:id/cancel': () => {
        status = 12;
        return { body: buildWithdrawal({ status }) };
      },
    });
    const row = await screen.findByTestId('withdraw-row');
    expect(within(row).getByText('Unconfirmed by admin')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Unsuccessful')).toBeTruthy();
    expect(api.callsTo('POST', '/api/v2/withdrawals/9/cancel')).toHaveLength(1);
  });
});
