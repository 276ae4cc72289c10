import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { buildAccountsApp, lastCodeTo, testClock } from './authTestApp.js';
import { SESSION_COOKIE } from './sessions.js';
import { createSignedInUser, TestClient } from './testClient.js';
import { totpCodeAt } from './totp.js';

const testDb = useTestDb();
const clock = testClock();
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildAccountsApp(testDb.current, { clock });
});
afterAll(async () => {
  await app.close();
});

/** A confirmed user with no signed-in client of their own. */
async function confirmedUser(options: { twoFactor?: boolean } = {}) {
  const created = await createSignedInUser(app, options);
  await created.client.post('/api/logout');
  return created;
}

describe('sign-in', () => {
  it('confirms a new device by e-mailed code, then signs in with a new session id', async () => {
    const { email, password } = await confirmedUser();
    const browser = new TestClient(app);
    const params = await browser.bootstrap();
    expect(params.user).toBeNull();
    const anonymousId = browser.cookies.get(SESSION_COOKIE);
    expect(anonymousId).toBeDefined();

    const first = await browser.post('/api/v2/login', { email, password });
    expect(first.json()).toEqual({ status: 'device_confirmation' });
    const pendingId = browser.cookies.get(SESSION_COOKIE);
    expect(pendingId).not.toBe(anonymousId);

    const wrong = await browser.post('/api/v2/login', { email, password, device_code: '000000' });
    expect(wrong.statusCode).toBe(422);

    const code = await lastCodeTo(app, email);
    const second = await browser.post('/api/v2/login', { email, password, device_code: code });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ status: 'ok', user: { email, twoFactorEnabled: false } });
    const sessionId = browser.cookies.get(SESSION_COOKIE);
    expect(sessionId).not.toBe(pendingId);
    expect(sessionId).not.toBe(anonymousId);

    const cookie = second.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect((await browser.get('/api/v2/settings/general')).statusCode).toBe(200);

    // The confirmed device signs in without a code next time.
    await browser.post('/api/logout');
    const again = await browser.post('/api/v2/login', { email, password });
    expect(again.json()).toMatchObject({ status: 'ok' });
  });

  it('answers an unknown e-mail exactly like a wrong password', async () => {
    const { email } = await confirmedUser();
    const browser = new TestClient(app);
    await browser.bootstrap();
    const wrongPassword = await browser.post('/api/v2/login', { email, password: 'Wrong!pass1' });
    const unknown = await browser.post('/api/v2/login', {
      email: 'nobody@example.com',
      password: 'Wrong!pass1',
    });
    expect(wrongPassword.statusCode).toBe(422);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toEqual(wrongPassword.json());
  });

  it('asks for the 2FA code after the password and rotates the session again', async () => {
    const { email, password, totpSecret, user } = await confirmedUser({ twoFactor: true });
    const browser = new TestClient(app);
    await browser.bootstrap();
    await browser.post('/api/v2/login', { email, password });
    const code = await lastCodeTo(app, email);
    const step = await browser.post('/api/v2/login', { email, password, device_code: code });
    expect(step.json()).toEqual({ status: '2fa' });
    const pendingId = browser.cookies.get(SESSION_COOKIE);
    // Half signed in is not signed in.
    expect((await browser.get('/api/v2/settings/general')).statusCode).toBe(401);

    const totp = totpCodeAt(totpSecret as string, clock.now());
    const done = await browser.post('/api/v2/2fa/validate', { code: totp });
    expect(done.json()).toMatchObject({
      status: 'ok',
      user: { id: user.id, twoFactorEnabled: true },
    });
    expect(browser.cookies.get(SESSION_COOKIE)).not.toBe(pendingId);
    expect((await browser.get('/api/v2/settings/general')).statusCode).toBe(200);
  });
});

describe('sign-out and the CSRF token', () => {
  it('changes the token at sign-in and sign-out, and keeps one token for concurrent requests', async () => {
    const { email, password } = await confirmedUser();
    const browser = new TestClient(app);
    await browser.bootstrap();
    const anonymousToken = browser.csrfToken;
    await browser.post('/api/v2/login', { email, password });
    await browser.post('/api/v2/login', {
      email,
      password,
      device_code: await lastCodeTo(app, email),
    });
    const signedInToken = browser.csrfToken;
    expect(signedInToken).not.toBe(anonymousToken);

    const concurrent = await Promise.all(
      [1, 0, 1].map((customfee) => browser.post('/api/v2/settings/customfee', { customfee })),
    );
    expect(concurrent.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    expect(concurrent.map((response) => response.headers['x-csrf-token'])).toEqual([
      signedInToken,
      signedInToken,
      signedInToken,
    ]);

    const logout = await browser.post('/api/logout');
    expect(logout.statusCode).toBe(200);
    expect(browser.csrfToken).not.toBe(signedInToken);
    expect((await browser.get('/api/v2/settings/general')).statusCode).toBe(401);
    const params = (await browser.get('/api/systemParams')).json();
    expect(params).toMatchObject({ user: null, csrfToken: browser.csrfToken });
  });

  it('refuses a state-changing request without the token, with a wrong one, or from another site', async () => {
    const { client } = await createSignedInUser(app);
    const token = client.csrfToken as string;
    const body = { customfee: 1 };
    client.csrfToken = null;
    expect((await client.post('/api/v2/settings/customfee', body)).statusCode).toBe(403);
    client.csrfToken = `${token.slice(0, -2)}xx`;
    expect((await client.post('/api/v2/settings/customfee', body)).statusCode).toBe(403);
    client.csrfToken = token;
    const foreign = await client.post('/api/v2/settings/customfee', body, {
      origin: 'https://evil.example',
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ code: 'auth_csrf_invalid' });
    expect((await client.post('/api/v2/settings/customfee', body)).statusCode).toBe(200);
  });
});
