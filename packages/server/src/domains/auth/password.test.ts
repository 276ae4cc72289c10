import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { buildAccountsApp, lastMailTo, testClock } from './authTestApp.js';
import { WITHDRAWAL_BLOCK_MS } from './password.service.js';
import { createSignedInUser, signedInClient, TestClient } from './testClient.js';
import { totpCodeAt } from './totp.js';
import { findUserById } from './users.repo.js';

const testDb = useTestDb();
const clock = testClock();
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildAccountsApp(testDb.current, { clock });
});
afterAll(async () => {
  await app.close();
});

const generic = {
  status: 'ok',
  message: 'If such an email exists in the system, then we sent an email to reset the password',
};

async function anonymous(): Promise<TestClient> {
  const browser = new TestClient(app);
  await browser.bootstrap();
  return browser;
}

function resetToken(text: string): string {
  const token = /\/reset-password\?token=([\w-]+)/.exec(text)?.[1];
  if (token === undefined) throw new Error('no reset link in the mail');
  return token;
}

describe('forgotten password', () => {
  it('answers the same for a known and an unknown e-mail, and mails only the known one', async () => {
    const { email } = await createSignedInUser(app);
    const browser = await anonymous();
    const known = await browser.post('/api/v2/password/email', { email });
    const unknown = await browser.post('/api/v2/password/email', { email: 'ghost@example.com' });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(generic);
    expect(unknown.json()).toEqual(generic);
    expect((await lastMailTo(app, email)).subject).toBe('Reset your password');
    await expect(lastMailTo(app, 'ghost@example.com')).rejects.toThrow();
  });

  it('resets with the link once, ends every session and pauses withdrawals for 3 days', async () => {
    const { email, user, client } = await createSignedInUser(app);
    const browser = await anonymous();
    await browser.post('/api/v2/password/email', { email });
    const token = resetToken((await lastMailTo(app, email)).text_body);
    expect((await browser.get(`/api/v2/password/validate?token=${token}`)).json()).toEqual({
      status: 'ok',
      twoFactorRequired: false,
    });
    const mismatch = await browser.post('/api/v2/password/reset', {
      token,
      password: 'N3w!password',
      password_confirmation: 'N3w!passwordX',
    });
    expect(mismatch.json().errors).toEqual({ password_confirmation: ['Field should match'] });

    const reset = await browser.post('/api/v2/password/reset', {
      token,
      password: 'N3w!password',
      password_confirmation: 'N3w!password',
    });
    expect(reset.json()).toEqual({ status: 'ok' });
    expect((await client.get('/api/v2/settings/general')).statusCode).toBe(401);
    const after = await findUserById(testDb.current.db, user.id);
    expect(after?.withdrawals_blocked_until).toBe(clock.now() + WITHDRAWAL_BLOCK_MS);
    expect((await lastMailTo(app, email)).subject).toBe('Your password was changed');

    const reused = await browser.post('/api/v2/password/reset', {
      token,
      password: 'Other!pass1',
      password_confirmation: 'Other!pass1',
    });
    expect(reused.json().code).toBe('auth_link_invalid');
  });

  it('asks for the 2FA code when 2FA is on', async () => {
    const { email, totpSecret } = await createSignedInUser(app, { twoFactor: true });
    const browser = await anonymous();
    await browser.post('/api/v2/password/email', { email });
    const token = resetToken((await lastMailTo(app, email)).text_body);
    const body = { token, password: 'N3w!password', password_confirmation: 'N3w!password' };
    const missing = await browser.post('/api/v2/password/reset', body);
    expect(missing.json().errors).toEqual({ totp: ['Field is required'] });
    clock.advance(30_000);
    const totp = totpCodeAt(totpSecret as string, clock.now());
    expect((await browser.post('/api/v2/password/reset', { ...body, totp })).statusCode).toBe(200);
  });
});

describe('changing the password', () => {
  it('needs the old password, a different new one, and keeps only this session', async () => {
    const { user, client, password } = await createSignedInUser(app);
    const otherDevice = await signedInClient(app, user.id);
    const same = await client.post('/api/v2/settings/password', {
      old_password: password,
      password,
      password_confirmation: password,
    });
    expect(same.json().errors).toEqual({ password: ['Field should not match'] });
    const short = await client.post('/api/v2/settings/password', {
      old_password: password,
      password: 'Ab1!',
      password_confirmation: 'Ab1!',
    });
    expect(short.json().errors.password).toContain('Min length 8');
    const wrongOld = await client.post('/api/v2/settings/password', {
      old_password: 'Wrong!pass1',
      password: 'N3w!password',
      password_confirmation: 'N3w!password',
    });
    expect(wrongOld.json().errors).toEqual({ old_password: ['Wrong password'] });

    const changed = await client.post('/api/v2/settings/password', {
      old_password: password,
      password: 'N3w!password',
      password_confirmation: 'N3w!password',
    });
    expect(changed.json()).toEqual({ status: 'ok' });
    expect((await client.get('/api/v2/settings/general')).statusCode).toBe(200);
    expect((await otherDevice.get('/api/v2/settings/general')).statusCode).toBe(401);
    const after = await findUserById(testDb.current.db, user.id);
    expect(after?.withdrawals_blocked_until).toBe(clock.now() + WITHDRAWAL_BLOCK_MS);
  });
});
