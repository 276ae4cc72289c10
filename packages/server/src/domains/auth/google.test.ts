import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { buildAccountsApp, testClock } from './authTestApp.js';
import { type FakeIdentity, FakeOidcProvider } from './fakeOidcProvider.js';
import { createSignedInUser, TestClient } from './testClient.js';

const testDb = useTestDb();
const provider = new FakeOidcProvider();
let app: FastifyInstance;

beforeAll(async () => {
  await provider.start();
  app = await buildAccountsApp(testDb.current, {
    clock: testClock(),
    config: {
      oidc: {
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
      },
    },
  });
});
afterAll(async () => {
  await app.close();
  await provider.stop();
});

/** Goes to the provider and back as a browser would; returns where the callback redirected. */
async function signInWithGoogle(browser: TestClient, identity: FakeIdentity): Promise<string> {
  const start = await browser.get('/api/auth/google');
  expect(start.statusCode).toBe(302);
  const authorizationUrl = String(start.headers.location);
  expect(authorizationUrl.startsWith(`${provider.issuer}/authorize?`)).toBe(true);
  expect(new URL(authorizationUrl).searchParams.get('code_challenge_method')).toBe('S256');
  const { code, state } = provider.authorize(authorizationUrl, identity);
  const callback = await browser.get(`/api/auth/google/callback?code=${code}&state=${state}`);
  expect(callback.statusCode).toBe(302);
  return String(callback.headers.location);
}

let counter = 0;
function identity(overrides: Partial<FakeIdentity> = {}): FakeIdentity {
  counter += 1;
  return {
    sub: `google-${counter}`,
    email: `g${counter}@example.com`,
    email_verified: true,
    ...overrides,
  };
}

describe('Google sign-in', () => {
  it('signs up a new person after they accept the terms, then signs them in', async () => {
    const browser = new TestClient(app);
    await browser.bootstrap();
    expect((await browser.get('/api/check-google-auth')).json()).toEqual({
      enabled: true,
      signUp: null,
    });
    const person = identity();
    expect(await signInWithGoogle(browser, person)).toBe('/register?google=1');
    expect((await browser.get('/api/check-google-auth')).json().signUp).toEqual({
      email: person.email,
    });

    const us = await browser.post('/api/v2/register/google', {
      country: 'US',
      privacy_policy: true,
      not_restricted_resident: true,
    });
    expect(us.json().errors).toEqual({ country: ["We didn't support this country"] });
    const created = await browser.post('/api/v2/register/google', {
      country: 'FR',
      privacy_policy: true,
      not_restricted_resident: true,
    });
    expect(created.json()).toMatchObject({ status: 'ok', user: { email: person.email } });

    await browser.post('/api/logout');
    expect(await signInWithGoogle(browser, person)).toBe('/');
    expect((await browser.get('/api/systemParams')).json().user.email).toBe(person.email);
  });

  it('links an existing account by its address, and still asks for 2FA', async () => {
    const { email } = await createSignedInUser(app, { twoFactor: true });
    const browser = new TestClient(app);
    await browser.bootstrap();
    expect(await signInWithGoogle(browser, identity({ email }))).toBe('/2fa');
    expect((await browser.get('/api/systemParams')).json().user).toBeNull();
  });

  it('refuses an unverified address, a forged state and a replayed code', async () => {
    const browser = new TestClient(app);
    await browser.bootstrap();
    expect(await signInWithGoogle(browser, identity({ email_verified: false }))).toBe(
      '/login?error=google_email',
    );

    const start = await browser.get('/api/auth/google');
    const { code } = provider.authorize(String(start.headers.location), identity());
    const forged = await browser.get(`/api/auth/google/callback?code=${code}&state=forged`);
    expect(forged.headers.location).toBe('/login?error=google');

    const again = await browser.get('/api/auth/google');
    const grant = provider.authorize(String(again.headers.location), identity());
    const url = `/api/auth/google/callback?code=${grant.code}&state=${grant.state}`;
    const first = await browser.get(url);
    expect(first.headers.location).toBe('/register?google=1');
    const replay = await browser.get(url);
    expect(replay.headers.location).toBe('/login?error=google');
  });

  it('is off without OIDC configuration', async () => {
    const plain = await buildAccountsApp(testDb.current, { clock: testClock() });
    try {
      const browser = new TestClient(plain);
      expect((await browser.get('/api/check-google-auth')).json()).toEqual({
        enabled: false,
        signUp: null,
      });
      expect((await browser.get('/api/auth/google')).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
