import { amountFromDecimal, withdrawalStatus } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { signRequest } from '../apiKeys/signature.js';
import { testClock } from '../auth/authTestApp.js';
import { createSignedInUser, TestClient, type TestUser } from '../auth/testClient.js';
import { buildWithdrawalApp, fundMain, mainOf, nextCode, statusOf } from './withdrawalTestKit.js';

const testDb = useTestDb();
const clock = testClock(Date.now());
const tronOutside = `T${'a'.repeat(33)}`;
const usdt = (text: string) => amountFromDecimal(text, 6);
const dayMs = 24 * 3600_000;
let app: FastifyInstance;
/** A browser that is not signed in, as a mail scanner or the owner on another device is. */
let stranger: TestClient;

beforeAll(async () => {
  app = await buildWithdrawalApp(testDb.current, clock);
  stranger = new TestClient(app);
  await stranger.bootstrap();
});

afterAll(async () => {
  await app.close();
});

async function usdtUser(amount: string): Promise<TestUser> {
  const user = await createSignedInUser(app, { twoFactor: true, kyc: true });
  await fundMain(app, user.user.id, 'USDT', amount, 6);
  return user;
}

interface Key {
  key: string;
  secret: string;
}

async function createKey(user: TestUser): Promise<Key> {
  const response = await user.client.post('/api/v2/api_key', {
    totp: nextCode(clock, user.totpSecret),
    scopes: ['read', 'withdraw'],
  });
  expect(response.statusCode).toBe(201);
  return response.json();
}

function signedPost(key: Key, url: string, body: unknown) {
  const raw = JSON.stringify(body);
  const timestamp = String(clock.now());
  const signature = signRequest(key.secret, {
    timestamp,
    method: 'POST',
    pathAndQuery: url,
    body: raw,
  });
  return app.inject({
    method: 'POST',
    url,
    headers: {
      'x-api-key': key.key,
      'x-api-timestamp': timestamp,
      'x-api-signature': signature,
      'content-type': 'application/json',
    },
    payload: raw,
  });
}

/** A withdrawal asked for with an API key: it waits in 5 for the mailed link. */
async function requestWithKey(user: TestUser, amount: string) {
  const key = await createKey(user);
  const response = await signedPost(key, '/api/v3/balance/withdrawal-USDT/CRYPTOMEMO', {
    amount,
    address: tronOutside,
    network: 'tron',
    code: nextCode(clock, user.totpSecret),
  });
  expect(response.statusCode).toBe(200);
  return response.json();
}

/** The token of the page link in the newest confirmation mail to the user. */
async function mailedToken(user: TestUser): Promise<string> {
  const mails = (
    await user.client.get(`/api/dev/mail?to=${encodeURIComponent(user.email)}`)
  ).json() as { subject: string; text: string }[];
  const mail = mails.find((candidate) => candidate.subject.startsWith('Confirm your withdrawal'));
  const token = mail?.text.match(/\/withdrawal-confirm\?token=([\w-]+)/)?.[1];
  if (token === undefined) throw new Error('no confirmation mail');
  return token;
}

const lookup = (token: string) =>
  stranger.get(`/api/v2/withdrawals/confirm?token=${encodeURIComponent(token)}`);
const openOldLink = (token: string) =>
  app.inject({ method: 'GET', url: `/api/v2/withdrawals/confirm/${token}` });

describe('API-key withdrawals wait for the e-mail link (status 5)', () => {
  it('mails a link to the page; opening it and reading the withdrawal change nothing', async () => {
    const user = await usdtUser('1000');
    const record = await requestWithKey(user, '100');
    expect(record.status).toBe(withdrawalStatus.unconfirmedByUser);
    const token = await mailedToken(user);
    for (let time = 0; time < 3; time += 1) {
      // What a mail scanner does: fetch the link of an old mail, and whatever it leads to.
      const opened = await openOldLink(token);
      expect(opened.statusCode).toBe(302);
      expect(opened.headers.location).toBe(`/withdrawal-confirm?token=${token}`);
      const shown = await lookup(token);
      expect(shown.statusCode).toBe(200);
      expect(shown.headers['cache-control']).toBe('no-store');
      expect(shown.json()).toMatchObject({
        id: record.id,
        ticker: 'USDT',
        network: 'tron',
        amount: '100',
        fee: '1',
        address: tronOutside,
        status: withdrawalStatus.unconfirmedByUser,
      });
    }
    expect(await statusOf(app, record.id)).toBe(withdrawalStatus.unconfirmedByUser);
    expect(mainOf(app, user.user.id, 'USDT')).toEqual({
      available: usdt('899'),
      frozen: usdt('101'),
    });
  });

  it('confirms on the POST of the token, signed in or not, once', async () => {
    const user = await usdtUser('1000');
    const record = await requestWithKey(user, '100');
    const token = await mailedToken(user);
    const confirmed = await stranger.post('/api/v2/withdrawals/confirm', { token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ id: record.id, status: withdrawalStatus.inProcess });
    expect(await statusOf(app, record.id)).toBe(withdrawalStatus.inProcess);
    expect(mainOf(app, user.user.id, 'USDT')).toEqual({ available: usdt('899'), frozen: 0n });
    const reused = await user.client.post('/api/v2/withdrawals/confirm', { token });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().errors.token).toEqual(['Link is not valid']);
    expect(await statusOf(app, record.id)).toBe(withdrawalStatus.inProcess);
  });

  it('goes on to the operator when the confirmed amount is above the threshold', async () => {
    const user = await usdtUser('30000');
    const record = await requestWithKey(user, '11000');
    const token = await mailedToken(user);
    const confirmed = await user.client.post('/api/v2/withdrawals/confirm', { token });
    expect(confirmed.json().status).toBe(withdrawalStatus.unconfirmedByAdmin);
    expect(await statusOf(app, record.id)).toBe(withdrawalStatus.unconfirmedByAdmin);
  });

  it('shows nothing for an unknown, used or expired token: one answer for all', async () => {
    const [first, second, third] = [
      await usdtUser('1000'),
      await usdtUser('1000'),
      await usdtUser('1000'),
    ];
    await requestWithKey(first, '100');
    const used = await mailedToken(first);
    const confirmed = await stranger.post('/api/v2/withdrawals/confirm', { token: used });
    expect(confirmed.statusCode).toBe(200);
    const canceledRecord = await requestWithKey(second, '100');
    const canceled = await mailedToken(second);
    await second.client.post(`/api/v2/withdrawals/${canceledRecord.id}/cancel`, {});
    const late = await requestWithKey(third, '100');
    const expired = await mailedToken(third);
    clock.advance(dayMs + 1);
    const answers = await Promise.all(
      ['f'.repeat(43), used, canceled, expired].map((token) => lookup(token)),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(422);
      expect(answer.json()).toEqual(answers[0]?.json());
    }
    expect(answers[0]?.json()).toEqual({
      message: 'The link is invalid or has expired',
      code: 'auth_link_invalid',
      errors: { token: ['Link is not valid'] },
    });
    // Reading an expired link does not stop the withdrawal either: the sweep or the POST does.
    expect((await openOldLink(expired)).statusCode).toBe(302);
    expect(await statusOf(app, late.id)).toBe(withdrawalStatus.unconfirmedByUser);
    for (const query of ['', '?token=', '?token=short', `?token=${'x'.repeat(129)}`]) {
      const bad = await stranger.get(`/api/v2/withdrawals/confirm${query}`);
      expect(bad.statusCode).toBe(422);
      expect(JSON.stringify(bad.json())).not.toContain(tronOutside);
    }
  });

  it('stops (13) and releases the funds when the link is confirmed after it expired', async () => {
    const user = await usdtUser('1000');
    const record = await requestWithKey(user, '100');
    const token = await mailedToken(user);
    clock.advance(dayMs + 1);
    const late = await stranger.post('/api/v2/withdrawals/confirm', { token });
    expect(late.statusCode).toBe(422);
    expect(late.json().errors.token).toEqual(['Link is not valid']);
    expect(await statusOf(app, record.id)).toBe(withdrawalStatus.canceledByValidation);
    expect(mainOf(app, user.user.id, 'USDT')).toEqual({ available: usdt('1000'), frozen: 0n });
  });

  it('is released by the sweep when the link was never used', async () => {
    const user = await usdtUser('1000');
    const record = await requestWithKey(user, '200');
    const token = await mailedToken(user);
    expect((await lookup(token)).statusCode).toBe(200);
    // The sweep may also stop what earlier tests left expired, but not this one yet.
    await app.withdrawalProcessor.expireDue();
    expect(await statusOf(app, record.id)).toBe(withdrawalStatus.unconfirmedByUser);
    clock.advance(dayMs + 1);
    expect(await app.withdrawalProcessor.expireDue()).toBe(1);
    expect(await statusOf(app, record.id)).toBe(withdrawalStatus.canceledByValidation);
    expect(mainOf(app, user.user.id, 'USDT')).toEqual({ available: usdt('1000'), frozen: 0n });
  });
});
