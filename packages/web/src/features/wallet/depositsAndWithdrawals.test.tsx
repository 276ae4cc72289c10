import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser, type FakeRoute, fieldErrors } from '../../test/fakeApi';
import {
  buildBalance,
  buildDeposit,
  buildMethod,
  buildPaymentData,
  buildWithdrawal,
  emptyPage,
} from './walletFakes';
import { balances, open, type } from './walletTestKit';

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
