import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { buildAccountsApp, lastCodeTo, testClock } from './authTestApp.js';
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

let addressCounter = 0;

/** A browser on an address of its own, so the per-IP limits of one test do not leak into another. */
async function anonymousBrowser(): Promise<TestClient> {
  addressCounter += 1;
  const browser = new TestClient(app, {}, `198.51.100.${addressCounter}`);
  await browser.bootstrap();
  return browser;
}

describe('password guessing', () => {
  it('is slowed down after 5 failures and capped at 100 per hour per account', async () => {
    const { email, password } = await createSignedInUser(app);
    const browser = await anonymousBrowser();
    const guess = () => browser.post('/api/v2/login', { email, password: 'Wrong!guess1' });
    for (let i = 0; i < 5; i += 1) expect((await guess()).statusCode).toBe(422);
    expect((await guess()).statusCode).toBe(422);
    const slowed = await guess();
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBe('1');
    // Even the right password waits: the limit is checked before the password.
    expect((await browser.post('/api/v2/login', { email, password })).statusCode).toBe(429);

    // Waiting as told lets the next guess through; each failure doubles the wait, up to 20 s.
    let failures = 6;
    while (failures < 100) {
      const wait = await guess();
      if (wait.statusCode === 429) {
        const seconds = Number(wait.headers['retry-after']);
        expect(seconds).toBeLessThanOrEqual(20);
        clock.advance(seconds * 1000);
        continue;
      }
      expect(wait.statusCode).toBe(422);
      failures += 1;
    }
    clock.advance(20_000);
    const capped = await guess();
    expect(capped.statusCode).toBe(429);
    // The hour started with the first failure: the wait is the rest of that hour.
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(600);
    clock.advance(Number(capped.headers['retry-after']) * 1000);
    expect((await browser.post('/api/v2/login', { email, password })).statusCode).toBe(200);
  });

  it('also counts per address, across accounts', async () => {
    const browser = await anonymousBrowser();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const response = await browser.post('/api/v2/login', {
        email: `spray${i}@example.com`,
        password: 'Wrong!guess1',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(422));
    expect(statuses.slice(10)).toContain(429);
  });
});

describe('2FA codes', () => {
  async function userAtTwoFactorStep() {
    const created = await createSignedInUser(app, { twoFactor: true });
    const { email, password } = created;
    const browser = await anonymousBrowser();
    await browser.post('/api/v2/login', { email, password });
    const deviceCode = await lastCodeTo(app, email);
    const step = await browser.post('/api/v2/login', { email, password, device_code: deviceCode });
    expect(step.json()).toEqual({ status: '2fa' });
    return { ...created, browser };
  }

  it('accepts a code once: a replay of it, or of an older step, is refused', async () => {
    const { client, totpSecret } = await createSignedInUser(app, { twoFactor: true });
    const secret = totpSecret as string;
    const body = (code: string) => ({ totp: code, code: 'Blue_whale' });
    const code = totpCodeAt(secret, clock.now());
    const first = await client.post('/api/v2/settings/anti_phishing/add', body(code));
    expect(first.statusCode).toBe(200);
    const replay = await client.post('/api/v2/settings/anti_phishing/add', body(code));
    expect(replay.statusCode).toBe(422);
    expect(replay.json()).toMatchObject({ code: 'auth_two_factor_invalid' });

    clock.advance(30_000);
    const older = totpCodeAt(secret, clock.now() - 30_000);
    expect(older).toBe(code);
    const newer = totpCodeAt(secret, clock.now());
    expect((await client.post('/api/v2/settings/anti_phishing/add', body(newer))).statusCode).toBe(
      200,
    );
    clock.advance(30_000);
  });

  it('accepts one of two requests sent at once with the same code', async () => {
    const { client, totpSecret } = await createSignedInUser(app, { twoFactor: true });
    const code = totpCodeAt(totpSecret as string, clock.now());
    const body = { totp: code, code: 'Twin_code' };
    const results = await Promise.all([
      client.post('/api/v2/settings/anti_phishing/add', body),
      client.post('/api/v2/settings/anti_phishing/add', body),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    clock.advance(30_000);
  });

  it('slows down code guessing at the sign-in step', async () => {
    const { browser } = await userAtTwoFactorStep();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      statuses.push((await browser.post('/api/v2/2fa/validate', { code: '000000' })).statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([422, 422, 422, 422, 422]);
    expect(statuses).toContain(429);
  });
});
