import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { buildAccountsApp, lastMailTo, testClock } from './authTestApp.js';
import { SESSION_COOKIE } from './sessions.js';
import { TestClient } from './testClient.js';

const testDb = useTestDb();
const clock = testClock();
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildAccountsApp(testDb.current, { clock });
});
afterAll(async () => {
  await app.close();
});

let counter = 0;
function registration(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    email: `new${counter}@example.com`,
    password: 'Str0ng!pass',
    password_confirmation: 'Str0ng!pass',
    country: 'DE',
    privacy_policy: true,
    not_restricted_resident: true,
    ...overrides,
  };
}

async function userCount(): Promise<number> {
  const row = await testDb.current.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

describe('registration', () => {
  it('mails a /verify link; opening it confirms the address and signs in', async () => {
    const browser = new TestClient(app, { 'accept-language': 'es-ES,es;q=0.9' });
    await browser.bootstrap();
    const body = registration();
    const created = await browser.post('/api/v2/register', body);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ status: 'confirmation_sent' });

    const mail = await lastMailTo(app, body.email);
    expect(mail.subject).toBe('Confirme su correo electrónico');
    const token = /\/verify\?token=([\w-]+)/.exec(mail.text_body)?.[1];
    expect(token).toBeDefined();
    expect(mail.text_body).toContain('http://localhost:3000/verify?token=');

    // Not confirmed yet: the password alone does not sign in.
    const early = await browser.post('/api/v2/login', {
      email: body.email,
      password: body.password,
    });
    expect(early.json()).toMatchObject({ code: 'auth_email_not_confirmed' });

    const before = browser.cookies.get(SESSION_COOKIE);
    const confirmed = await browser.post(`/api/v2/register/confirmation/${token}`);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ status: 'ok', user: { email: body.email } });
    expect(browser.cookies.get(SESSION_COOKIE)).not.toBe(before);
    expect((await browser.get('/api/systemParams')).json()).toMatchObject({
      user: { email: body.email, kyc: 'unverified', twoFactorEnabled: false },
    });

    // The link works once; the confirming browser is a known device.
    const again = await browser.post(`/api/v2/register/confirmation/${token}`);
    expect(again.json()).toMatchObject({ code: 'auth_link_invalid' });
    await browser.post('/api/logout');
    const login = await browser.post('/api/v2/login', {
      email: body.email,
      password: body.password,
    });
    expect(login.json()).toMatchObject({ status: 'ok' });
  });

  it('refuses US residents, a registered e-mail and missing consents, with the spec messages', async () => {
    const browser = new TestClient(app);
    await browser.bootstrap();
    const before = await userCount();
    const us = await browser.post('/api/v2/register', registration({ country: 'US' }));
    expect(us.statusCode).toBe(422);
    expect(us.json().errors).toEqual({ country: ["We didn't support this country"] });

    const consents = await browser.post(
      '/api/v2/register',
      registration({ privacy_policy: false, not_restricted_resident: undefined }),
    );
    expect(consents.json().errors).toEqual({
      privacy_policy: ['Field is required'],
      not_restricted_resident: ['Field is required'],
    });
    const weak = await browser.post(
      '/api/v2/register',
      registration({ password: 'short', password_confirmation: 'short', email: 'bad' }),
    );
    expect(weak.json().errors.email).toEqual(['Email is not valid']);
    expect(weak.json().errors.password).toContain('Min length 8');
    expect(await userCount()).toBe(before);

    const body = registration();
    expect((await browser.post('/api/v2/register', body)).statusCode).toBe(201);
    const taken = await browser.post('/api/v2/register', {
      ...body,
      email: body.email.toUpperCase(),
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors).toEqual({ email: ['Email already in use'] });
    expect(await userCount()).toBe(before + 1);
  });

  it('refuses oversize bodies (413) and other content types (415) before any work', async () => {
    const browser = new TestClient(app);
    await browser.bootstrap();
    const before = await userCount();
    const huge = await browser.post(
      '/api/v2/register',
      registration({ referral_code: 'a'.repeat(300_000) }),
    );
    expect(huge.statusCode).toBe(413);
    const form = await browser.request('POST', '/api/v2/register', 'email=a%40b.co', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.statusCode).toBe(415);
    const text = await browser.request('POST', '/api/v2/register', 'hello', {
      'content-type': 'text/plain',
    });
    expect(text.statusCode).toBe(415);
    expect(await userCount()).toBe(before);
  });

  it('limits registrations per IP, generously', async () => {
    const limited = await buildAccountsApp(testDb.current, { clock });
    try {
      const browser = new TestClient(limited, { 'x-forwarded-for': '203.0.113.9' });
      await browser.bootstrap();
      const statuses: number[] = [];
      for (let i = 0; i < 51; i += 1) {
        statuses.push((await browser.post('/api/v2/register', registration())).statusCode);
      }
      expect(statuses.slice(0, 50).every((status) => status === 201)).toBe(true);
      const refused = await browser.post('/api/v2/register', registration());
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
