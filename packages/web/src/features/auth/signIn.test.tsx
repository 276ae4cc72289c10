import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildSystemParams, buildUser, type FakeRoute, fieldErrors } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

function type(label: string | RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

/** A server whose page globals show the user once a sign-in step answered `ok`. */
function signInServer(routes: Record<string, FakeRoute>) {
  let signedIn = false;
  const user = buildUser({ email: 'trader@example.com' });
  const track =
    (route: FakeRoute): FakeRoute =>
    async (request) => {
      const answer = typeof route === 'function' ? await route(request) : route;
      if ((answer.body as { status?: string } | undefined)?.status === 'ok') signedIn = true;
      return answer;
    };
  const tracked = Object.fromEntries(
    Object.entries(routes).map(([key, route]) => [key, track(route)]),
  );
  return {
    'GET /api/systemParams': () => ({
      body: buildSystemParams({
        user: signedIn ? user : null,
        csrfToken: signedIn ? 'csrf-2' : 'csrf-1',
      }),
    }),
    ...tracked,
  };
}

async function submitLogin() {
  type('E-mail', 'Trader@Example.com');
  type('Password', 'secret-pass');
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('sign-in', () => {
  it('checks the fields before calling the server', async () => {
    const { api } = await renderApp('/login');
    await screen.findByRole('heading', { name: 'Sign in' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findAllByText('Field is required')).toHaveLength(2);
    expect(api.callsTo('POST', '/api/v2/login')).toHaveLength(0);
  });

  it('shows a wrong password beside the fields', async () => {
    await renderApp('/login', {
      routes: {
        'POST /api/v2/login': fieldErrors({
          email: ['Wrong email or password'],
          password: ['Wrong email or password'],
        }),
      },
    });
    await screen.findByRole('heading', { name: 'Sign in' });
    await submitLogin();
    expect(await screen.findAllByText('Wrong email or password')).toHaveLength(2);
  });

  it('says when the e-mail is not confirmed yet', async () => {
    await renderApp('/login', {
      routes: {
        'POST /api/v2/login': {
          status: 403,
          body: {
            message: 'Please confirm your e-mail first: we have sent the link again',
            code: 'auth_email_not_confirmed',
          },
        },
      },
    });
    await screen.findByRole('heading', { name: 'Sign in' });
    await submitLogin();
    expect(await screen.findByText(/confirm your e-mail first/)).toBeTruthy();
  });

  it('signs in and goes back where the user was sent from', async () => {
    const { api, location } = await renderApp(
      `/login?redirect=${encodeURIComponent('/user/profile')}`,
      {
        routes: {
          ...signInServer({ 'POST /api/v2/login': { body: { status: 'ok', user: buildUser() } } }),
          'GET /api/v2/settings/general': {
            body: {
              email: 'trader@example.com',
              nickname: null,
              canChangeNickname: true,
              language: 'en',
              logoutTime: 60,
              isCustomFeeEnabled: false,
              isTwoFactorEnabled: false,
            },
          },
        },
      },
    );
    await screen.findByRole('heading', { name: 'Sign in' });
    await submitLogin();
    await screen.findByRole('heading', { name: 'Profile' });
    expect(location()).toBe('/user/profile');
    expect(api.callsTo('POST', '/api/v2/login')[0]?.body).toEqual({
      email: 'trader@example.com',
      password: 'secret-pass',
    });
    expect(screen.getByRole('button', { name: 'Account menu' })).toBeTruthy();
  });

  it('never follows a redirect to another site', async () => {
    const { location } = await renderApp('/login?redirect=//evil.example/x', {
      routes: signInServer({ 'POST /api/v2/login': { body: { status: 'ok', user: buildUser() } } }),
    });
    await screen.findByRole('heading', { name: 'Sign in' });
    await submitLogin();
    await waitFor(() => expect(location()).toBe('/'));
  });

  it('confirms a new device with the e-mailed code, then signs in', async () => {
    let calls = 0;
    const { api, location } = await renderApp('/login?redirect=%2Ffaq', {
      routes: signInServer({
        'POST /api/v2/login': (request) => {
          calls += 1;
          const body = request.body as { device_code?: string };
          if (!body.device_code) return { body: { status: 'device_confirmation' } };
          if (body.device_code !== '123456') {
            return fieldErrors({ device_code: ['The code is wrong or has expired'] });
          }
          return { body: { status: 'ok', user: buildUser() } };
        },
        'POST /api/v2/resendDeviceCode': { body: { status: 'device_confirmation' } },
      }),
    });
    await screen.findByRole('heading', { name: 'Sign in' });
    await submitLogin();
    await screen.findByRole('heading', { name: 'Confirm this device' });
    expect(location()).toBe('/device-confirmation?redirect=%2Ffaq');
    type('Code from the e-mail', '12a');
    expect(await screen.findByText('Only digits')).toBeTruthy();
    type('Code from the e-mail', '000000');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and sign in' }));
    expect(await screen.findByText('The code is wrong or has expired')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send a new code' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/v2/resendDeviceCode')).toHaveLength(1));
    type('Code from the e-mail', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and sign in' }));
    await screen.findByRole('heading', { name: 'FAQ' });
    expect(calls).toBe(3);
    expect(api.callsTo('POST', '/api/v2/login')[2]?.body).toEqual({
      email: 'trader@example.com',
      password: 'secret-pass',
      device_code: '123456',
    });
  });

  it('asks for the 2FA code when the account has 2FA', async () => {
    const { api, location } = await renderApp('/login', {
      routes: signInServer({
        'POST /api/v2/login': { body: { status: '2fa' } },
        'POST /api/v2/2fa/validate': { body: { status: 'ok', user: buildUser() } },
      }),
    });
    await screen.findByRole('heading', { name: 'Sign in' });
    await submitLogin();
    await screen.findByRole('heading', { name: 'Two-factor authentication' });
    type('2FA code', '654321');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(location()).toBe('/'));
    expect(api.callsTo('POST', '/api/v2/2fa/validate')[0]?.body).toEqual({ code: '654321' });
  });

  it('sends the device step back to sign-in when the password is no longer known', async () => {
    await renderApp('/device-confirmation');
    expect(await screen.findByText('This step has expired. Please sign in again.')).toBeTruthy();
  });
});

describe('e-mail confirmation link', () => {
  it('goes to sign-in, saying so, when the link has no token', async () => {
    const { location } = await renderApp('/verify');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(location()).toBe('/login');
    expect(screen.getByText('Your link is not full')).toBeTruthy();
    expect(screen.getByText('Token is required')).toBeTruthy();
  });

  it('confirms the address, signs the user in and opens the front page', async () => {
    const { api, location } = await renderApp('/verify?token=abc123', {
      routes: signInServer({
        'POST /api/v2/register/confirmation/:token': { body: { status: 'ok', user: buildUser() } },
      }),
    });
    await waitFor(() => expect(location()).toBe('/'));
    expect(api.callsTo('POST', '/api/v2/register/confirmation/abc123')).toHaveLength(1);
    expect(await screen.findByText(/Your e-mail is confirmed/)).toBeTruthy();
  });

  it('says when the link is no longer valid', async () => {
    await renderApp('/verify?token=used', {
      routes: {
        'POST /api/v2/register/confirmation/:token': {
          status: 422,
          body: { message: 'The link is invalid or has expired', code: 'auth_link_invalid' },
        },
      },
    });
    expect(await screen.findByText('The link is invalid or has expired')).toBeTruthy();
  });
});

describe('password reset', () => {
  it('answers the same whether or not the address has an account', async () => {
    const { api } = await renderApp('/forgot-password', {
      routes: { 'POST /api/v2/password/email': { body: { status: 'ok' } } },
    });
    await screen.findByRole('heading', { name: 'Forgot password' });
    type('E-mail', 'someone@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByText(/If such an email exists in the system/)).toBeTruthy();
    expect(api.callsTo('POST', '/api/v2/password/email')[0]?.body).toEqual({
      email: 'someone@example.com',
    });
  });

  it('asks for the 2FA code with the new password when the account has 2FA', async () => {
    const { api, location } = await renderApp('/reset-password?token=tok', {
      routes: {
        'GET /api/v2/password/validate': { body: { status: 'ok', twoFactorRequired: true } },
        'POST /api/v2/password/reset': { body: { status: 'ok' } },
      },
    });
    await screen.findByLabelText('New password');
    type('New password', 'N3w!password');
    type('Repeat the password', 'N3w!passwor');
    expect(await screen.findByText('Field should match')).toBeTruthy();
    type('Repeat the password', 'N3w!password');
    type('2FA code', '111222');
    fireEvent.click(screen.getByRole('button', { name: 'Save the new password' }));
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(location()).toBe('/login');
    expect(api.callsTo('POST', '/api/v2/password/reset')[0]?.body).toEqual({
      token: 'tok',
      password: 'N3w!password',
      password_confirmation: 'N3w!password',
      totp: '111222',
    });
  });

  it('says when the reset link is invalid', async () => {
    await renderApp('/reset-password?token=old', {
      routes: {
        'GET /api/v2/password/validate': {
          status: 422,
          body: {
            message: 'The link is invalid or has expired',
            code: 'auth_link_invalid',
            errors: { token: ['Token is required'] },
          },
        },
      },
    });
    expect(await screen.findByText('Token is required')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toBeTruthy();
  });
});
