import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

function type(label: string | RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function errorsOf(label: string | RegExp): string {
  const input = screen.getByLabelText(label);
  return document.getElementById(`${input.id}-errors`)?.textContent ?? '';
}

async function openRegister(path = '/register', routes = {}) {
  const app = await renderApp(path, { routes });
  await screen.findByRole('heading', { name: 'Create an account' });
  return app;
}

function fillValidForm() {
  type('E-mail', 'New.Trader@Example.com');
  type('Password', 'Str0ng!pass');
  type('Repeat the password', 'Str0ng!pass');
  fireEvent.change(screen.getByLabelText('Country of residence'), { target: { value: 'DE' } });
  fireEvent.click(screen.getByLabelText(/I accept the/));
  fireEvent.click(screen.getByLabelText(/I am not a citizen/));
}

describe('sign-up form', () => {
  it('checks the e-mail as the user types', async () => {
    await openRegister();
    type('E-mail', 'trader@');
    expect(errorsOf('E-mail')).toBe('Email is not valid');
    type('E-mail', 'trader@example.com');
    expect(errorsOf('E-mail')).toBe('');
  });

  it('asks for a strong password of 8 characters or more', async () => {
    await openRegister();
    type('Password', 'short');
    expect(errorsOf('Password')).toContain('Min length 8');
    type('Password', 'longenoughbutweak');
    expect(errorsOf('Password')).toContain('lowercase letter, an uppercase letter');
    type('Password', 'Str0ng!pass');
    expect(errorsOf('Password')).toBe('');
  });

  it('asks that the confirmation equals the password', async () => {
    await openRegister();
    type('Password', 'Str0ng!pass');
    type('Repeat the password', 'Str0ng!pas');
    expect(errorsOf('Repeat the password')).toBe('Field should match');
  });

  it('refuses residents of the United States', async () => {
    await openRegister();
    fireEvent.change(screen.getByLabelText('Country of residence'), { target: { value: 'US' } });
    expect(errorsOf('Country of residence')).toBe("We didn't support this country");
  });

  it('needs the privacy policy and the residence declaration', async () => {
    const { api } = await openRegister();
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(screen.getAllByText('Field is required').length).toBeGreaterThan(3));
    expect(api.callsTo('POST', '/api/v2/register')).toHaveLength(0);
  });

  it('signs up and sends the user to check the inbox', async () => {
    const { api, location } = await openRegister('/register?ref=FRIEND1', {
      'POST /api/v2/register': { status: 201, body: { status: 'confirmation_sent' } },
    });
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await screen.findByRole('heading', { name: 'Check your inbox' });
    expect(location()).toBe('/check-email?email=new.trader%40example.com');
    const [call] = api.callsTo('POST', '/api/v2/register');
    expect(call?.body).toEqual({
      email: 'new.trader@example.com',
      password: 'Str0ng!pass',
      password_confirmation: 'Str0ng!pass',
      country: 'DE',
      privacy_policy: true,
      not_restricted_resident: true,
      referral_code: 'FRIEND1',
    });
    expect(call?.headers.get('X-CSRF-Token')).toBe('csrf-1');
    expect(screen.getByText(/new\.trader@example\.com/)).toBeTruthy();
  });

  it('shows the server’s field errors beside their fields', async () => {
    await openRegister('/register', {
      'POST /api/v2/register': fieldErrors({ email: ['Email already in use'] }),
    });
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(errorsOf('E-mail')).toBe('Email already in use'));
    type('E-mail', 'other@example.com');
    expect(errorsOf('E-mail')).toBe('');
  });

  it('speaks the messages in the page language', async () => {
    await renderApp('/ru/register');
    await screen.findByRole('heading', { name: 'Создание аккаунта' });
    type('E-mail', 'bad');
    expect(errorsOf('E-mail')).toBe('Некорректный e-mail');
    type('Пароль', 'short');
    expect(errorsOf('Пароль')).toContain('Минимальная длина 8');
  });
});
