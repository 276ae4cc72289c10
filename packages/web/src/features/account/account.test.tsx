import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  buildGeneralSettings,
  buildSecuritySettings,
  buildUser,
  type FakeRoute,
  fieldErrors,
} from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

function type(label: string | RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function open(path: string, routes: Record<string, FakeRoute>, twoFactorEnabled = false) {
  return renderApp(path, { params: { user: buildUser({ twoFactorEnabled }) }, routes });
}

async function confirmDialog(button = 'Confirm') {
  const dialog = await screen.findByRole('dialog');
  fireEvent.click(within(dialog).getByRole('button', { name: button }));
  return dialog;
}

const session = (id: string, isCurrent = false) => ({
  id,
  ipAddress: '203.0.113.7',
  lastActivity: 1_700_000_000,
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36',
  isCurrent,
});

const apiKey = {
  id: 3,
  name: 'bot',
  key: 'lk_abc',
  isEnabled: true,
  scopes: ['read', 'trade'],
  ipAllowList: [],
  createdAt: 1_700_000_000,
  lastUsedAt: null,
};

describe('profile', () => {
  it('sets the nickname once, after asking', async () => {
    let nickname: string | null = null;
    const { api } = await open('/user/profile', {
      'GET /api/v2/settings/general': () => ({
        body: buildGeneralSettings({ nickname, canChangeNickname: nickname === null }),
      }),
      'POST /api/v2/settings/general': (request) => {
        nickname = (request.body as { nickname: string }).nickname;
        return { body: buildGeneralSettings({ nickname, canChangeNickname: false }) };
      },
    });
    expect(await screen.findByTestId('profile-email')).toHaveProperty(
      'textContent',
      'trader@example.com',
    );
    type('Nickname', 'ab');
    expect(await screen.findByText('Min length 3')).toBeTruthy();
    type('Nickname', 'trader_1');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await confirmDialog();
    await waitFor(() => expect(screen.queryByLabelText('Nickname')).toBeNull());
    expect(screen.getByText('trader_1')).toBeTruthy();
    expect(api.callsTo('POST', '/api/v2/settings/general')[0]?.body).toEqual({
      nickname: 'trader_1',
    });
  });

  it('saves nothing when the user cancels', async () => {
    const { api } = await open('/user/profile', {
      'GET /api/v2/settings/general': { body: buildGeneralSettings() },
    });
    await screen.findByLabelText('Nickname');
    type('Nickname', 'trader_1');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await confirmDialog('Cancel');
    expect(api.callsTo('POST', '/api/v2/settings/general')).toHaveLength(0);
  });

  it('shows the KYC status', async () => {
    await renderApp('/user/profile', {
      params: { user: buildUser({ kyc: 'pending' }) },
      routes: { 'GET /api/v2/settings/general': { body: buildGeneralSettings() } },
    });
    expect((await screen.findAllByText('Pending Verification')).length).toBeGreaterThan(0);
  });
});

describe('security', () => {
  it('sets up 2FA: QR code and key, then a code turns it on', async () => {
    let enabled = false;
    const { api } = await open('/user/security-main', {
      'GET /api/v2/settings/security': () => ({
        body: buildSecuritySettings({ twoFactorEnabled: enabled }),
      }),
      'GET /api/v2/settings/session': { body: [] },
      'POST /api/v2/settings/2fa/generate': {
        body: {
          twoFactorSecret: 'JBSWY3DPEHPK3PXP',
          twoFactorQrUrl: 'data:image/svg+xml;base64,PHN2Zy8+',
          twoFactorUri: 'otpauth://totp/x',
        },
      },
      'POST /api/v2/settings/2fa/toggle': (request) => {
        if ((request.body as { code: string }).code !== '123456') {
          return fieldErrors({ code: ['Wrong 2FA code'] });
        }
        enabled = true;
        return { body: { twoFactorEnabled: true } };
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Set up 2FA' }));
    const qr = await screen.findByRole('img', { name: 'QR code of the 2FA key' });
    expect(qr.getAttribute('src')).toBe('data:image/svg+xml;base64,PHN2Zy8+');
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSWY3DPEHPK3PXP');
    type('2FA code', '12');
    expect(await screen.findByText('Length should be 6')).toBeTruthy();
    type('2FA code', '000000');
    fireEvent.click(screen.getByRole('button', { name: 'Turn on 2FA' }));
    expect(await screen.findByText('Wrong 2FA code')).toBeTruthy();
    type('2FA code', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Turn on 2FA' }));
    expect(await screen.findByRole('button', { name: 'Turn off 2FA' })).toBeTruthy();
    expect(api.callsTo('POST', '/api/v2/settings/2fa/toggle')).toHaveLength(2);
  });

  it('changes the password with the 3-day notice, refusing the old one as new', async () => {
    const { api } = await open('/user/security-main', {
      'GET /api/v2/settings/security': { body: buildSecuritySettings() },
      'GET /api/v2/settings/session': { body: [] },
      'POST /api/v2/settings/password': { body: { status: 'ok' } },
    });
    await screen.findByLabelText('Current password');
    expect(
      screen.getByText('After a password change, withdrawals are blocked for 3 days.'),
    ).toBeTruthy();
    type('Current password', 'Old!passw0rd');
    type('New password', 'Old!passw0rd');
    expect(await screen.findByText('Field should not match')).toBeTruthy();
    type('New password', 'N3w!passw0rd');
    type('Repeat the password', 'N3w!passw0rd');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    const dialog = await confirmDialog();
    expect(dialog.textContent).toContain('blocked for 3 days');
    await waitFor(() => expect(api.callsTo('POST', '/api/v2/settings/password')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/v2/settings/password')[0]?.body).toEqual({
      old_password: 'Old!passw0rd',
      password: 'N3w!passw0rd',
      password_confirmation: 'N3w!passw0rd',
    });
  });

  it('ends a session at once and brings it back when the server refuses', async () => {
    let refuse: () => void = () => undefined;
    let calls = 0;
    await open('/user/security-main', {
      'GET /api/v2/settings/security': { body: buildSecuritySettings() },
      'GET /api/v2/settings/session': { body: [session('a', true), session('b'), session('c')] },
      'POST /api/v2/settings/session/:id/terminate': () => {
        calls += 1;
        if (calls === 1) return { body: { status: 'ok' } };
        // The second answer waits, so the optimistic state can be seen before it.
        return new Promise((resolve) => {
          refuse = () =>
            resolve({
              status: 404,
              body: { message: 'Session not found', code: 'session_not_found' },
            });
        });
      },
    });
    expect(await screen.findAllByText(/Chrome 126 · Linux/)).toHaveLength(3);
    const endButtons = () => screen.getAllByRole('button', { name: 'End' });
    fireEvent.click(endButtons()[1] as HTMLElement);
    await waitFor(() => expect(endButtons()).toHaveLength(2));
    fireEvent.click(endButtons()[1] as HTMLElement);
    await waitFor(() => expect(endButtons()).toHaveLength(1));
    refuse();
    await waitFor(() => expect(endButtons()).toHaveLength(2));
    expect(await screen.findByText('Session not found')).toBeTruthy();
  });
});

describe('settings', () => {
  it('turns the LTT fee on, showing loading, then the saved state', async () => {
    let enabled = false;
    const { api } = await open('/user/settings', {
      'GET /api/v2/settings/general': () => ({
        body: buildGeneralSettings({ isCustomFeeEnabled: enabled }),
      }),
      'POST /api/v2/settings/customfee': (request) => {
        enabled = (request.body as { customfee: number }).customfee === 1;
        return { body: { isCustomFeeEnabled: enabled } };
      },
    });
    const toggle = await screen.findByRole('switch', { name: 'Pay fees in LTT' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-busy')).toBe('true');
    await waitFor(() => expect(toggle.getAttribute('aria-busy')).toBeNull());
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(api.callsTo('POST', '/api/v2/settings/customfee')[0]?.body).toEqual({ customfee: 1 });
  });

  it('puts the fee switch back and shows error 111 when the change fails', async () => {
    await open('/user/settings', {
      'GET /api/v2/settings/general': { body: buildGeneralSettings() },
      'POST /api/v2/settings/customfee': {
        status: 500,
        body: { message: 'Error on server', code: 'server_error' },
      },
    });
    const toggle = await screen.findByRole('switch', { name: 'Pay fees in LTT' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(
      await screen.findByText('The setting could not be changed (error code 111).'),
    ).toBeTruthy();
    expect(toggle.getAttribute('aria-checked')).toBe('false');
  });

  it('switches the language: saved to the account, and the URL changes', async () => {
    const { api, location } = await open('/user/settings', {
      'GET /api/v2/settings/general': { body: buildGeneralSettings() },
      'POST /api/v2/settings/general': { body: buildGeneralSettings({ language: 'es' }) },
    });
    fireEvent.change(await screen.findByLabelText('Language of the interface and e-mails'), {
      target: { value: 'es' },
    });
    await screen.findByRole('heading', { level: 1, name: 'Ajustes' });
    expect(location()).toBe('/es/user/settings');
    expect(api.callsTo('POST', '/api/v2/settings/general')[0]?.body).toEqual({ language: 'es' });
  });
});

describe('API keys', () => {
  it('asks for 2FA before a key can be created', async () => {
    await open('/user/api', { 'GET /api/v2/api_key': { body: { records: [] } } });
    expect(
      await screen.findByText('Creating an API key requires two-factor authentication.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create key' })).toBeNull();
  });

  it('creates a key with a 2FA code and shows its secret only once', async () => {
    let keys: unknown[] = [];
    const { api } = await open(
      '/user/api',
      {
        'GET /api/v2/api_key': () => ({ body: { records: keys } }),
        'POST /api/v2/api_key': () => {
          keys = [apiKey];
          return { status: 201, body: { ...apiKey, secret: 's3cr3t-shown-once' } };
        },
      },
      true,
    );
    await screen.findByText('You have no API keys yet');
    type('Name', 'bot');
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findAllByText('Field is required')).toHaveLength(1);
    type('2FA code', '123456');
    fireEvent.change(screen.getByLabelText(/Allowed IP addresses/), {
      target: { value: '203.0.113.7, 10.0.0.0/8' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect((await screen.findByTestId('new-api-secret')).textContent).toBe('s3cr3t-shown-once');
    expect(api.callsTo('POST', '/api/v2/api_key')[0]?.body).toEqual({
      name: 'bot',
      totp: '123456',
      scopes: ['read', 'trade'],
      ipAllowList: ['203.0.113.7', '10.0.0.0/8'],
    });
    fireEvent.click(screen.getByRole('button', { name: 'I have saved it' }));
    await waitFor(() => expect(screen.queryByText('s3cr3t-shown-once')).toBeNull());
    expect(await screen.findAllByTestId('api-key-row')).toHaveLength(1);
  });

  it.each([
    [500, 1],
    [400, 0],
  ])('deletes at once; a %i brings the key back %i times', async (status, rowsAfter) => {
    await open(
      '/user/api',
      {
        'GET /api/v2/api_key': { body: { records: [apiKey] } },
        'DELETE /api/v2/api_key/:id': { status, body: { message: 'Refused', code: 'x' } },
      },
      true,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await confirmDialog();
    await waitFor(() => expect(screen.queryAllByTestId('api-key-row')).toHaveLength(rowsAfter));
    expect(await screen.findByText('Refused')).toBeTruthy();
  });

  it('turns a key off with the server’s answer', async () => {
    const { api } = await open(
      '/user/api',
      {
        'GET /api/v2/api_key': { body: { records: [apiKey] } },
        'POST /api/v2/api_key/:id': { body: { ...apiKey, isEnabled: false } },
      },
      true,
    );
    const toggle = await screen.findByRole('switch', { name: 'Enable key bot' });
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('false'));
    expect(api.callsTo('POST', '/api/v2/api_key/3')).toHaveLength(1);
  });
});
