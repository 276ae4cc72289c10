import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { buildAccountsApp, lastMailTo, testClock } from '../auth/authTestApp.js';
import { createSignedInUser, signedInClient } from '../auth/testClient.js';
import { totpCodeAt } from '../auth/totp.js';

const testDb = useTestDb();
const clock = testClock();
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildAccountsApp(testDb.current, { clock });
});
afterAll(async () => {
  await app.close();
});

describe('general settings', () => {
  it('let the nickname be set once, and the language and logout time be changed', async () => {
    const { client, email } = await createSignedInUser(app);
    const general = await client.get('/api/v2/settings/general');
    expect(general.json()).toMatchObject({
      email,
      nickname: null,
      canChangeNickname: true,
      language: 'en',
      logoutTime: 60,
      isCustomFeeEnabled: false,
      isTwoFactorEnabled: false,
    });
    const first = await client.post('/api/v2/settings/general', { nickname: 'trader_one' });
    expect(first.json()).toMatchObject({ nickname: 'trader_one', canChangeNickname: false });
    const second = await client.post('/api/v2/settings/general', { nickname: 'trader_two' });
    expect(second.statusCode).toBe(422);
    expect(second.json().errors).toEqual({ nickname: ['Nickname can be changed only once'] });
    const other = await createSignedInUser(app);
    const taken = await other.client.post('/api/v2/settings/general', { nickname: 'trader_one' });
    expect(taken.json().errors).toEqual({ nickname: ['Nickname already in use'] });

    const language = await client.post('/api/v2/settings/general', {
      language: 'ru',
      logoutTime: 15,
    });
    expect(language.json()).toMatchObject({ language: 'ru', logoutTime: 15 });
    const bad = await client.post('/api/v2/settings/general', { language: 'xx', logoutTime: 7 });
    expect(Object.keys(bad.json().errors).sort()).toEqual(['language', 'logoutTime']);
  });

  it('toggle the custom fee', async () => {
    const { client } = await createSignedInUser(app);
    expect((await client.post('/api/v2/settings/customfee', { customfee: 1 })).json()).toEqual({
      isCustomFeeEnabled: true,
    });
    expect((await client.get('/api/v2/settings/general')).json().isCustomFeeEnabled).toBe(true);
    const bad = await client.post('/api/v2/settings/customfee', { customfee: 2 });
    expect(bad.statusCode).toBe(422);
  });
});

describe('sessions', () => {
  it('list ip, user agent, last activity and the current one; end one or all others', async () => {
    const { client, user } = await createSignedInUser(app);
    const second = await signedInClient(app, user.id);
    const third = await signedInClient(app, user.id);
    const list = (await client.get('/api/v2/settings/session')).json();
    expect(list).toHaveLength(3);
    expect(list.filter((row: { isCurrent: boolean }) => row.isCurrent)).toHaveLength(1);
    expect(list[0]).toMatchObject({ ipAddress: '127.0.0.1', userAgent: 'lightMyRequest' });
    expect(typeof list[0].lastActivity).toBe('number');

    const secondId = (await second.get('/api/v2/settings/session'))
      .json()
      .find((row: { isCurrent: boolean }) => row.isCurrent).id;
    const stranger = await createSignedInUser(app);
    const foreign = await stranger.client.post(`/api/v2/settings/session/${secondId}/terminate`);
    expect(foreign.statusCode).toBe(404);
    expect((await client.post(`/api/v2/settings/session/${secondId}/terminate`)).statusCode).toBe(
      200,
    );
    expect((await second.get('/api/v2/settings/general')).statusCode).toBe(401);

    const all = await client.post('/api/v2/settings/session/terminate');
    expect(all.json()).toEqual({ status: 'ok', terminated: 1 });
    expect((await third.get('/api/v2/settings/general')).statusCode).toBe(401);
    expect((await client.get('/api/v2/settings/general')).statusCode).toBe(200);
  });

  it('end after the idle time and after 7 days whatever the activity', async () => {
    const { client } = await createSignedInUser(app);
    await client.post('/api/v2/settings/general', { logoutTime: 15 });
    clock.advance(14 * 60_000);
    expect((await client.get('/api/v2/settings/general')).statusCode).toBe(200);
    clock.advance(16 * 60_000);
    expect((await client.get('/api/v2/settings/general')).statusCode).toBe(401);

    const busy = await createSignedInUser(app);
    for (let day = 0; day < 7; day += 1) {
      for (let hour = 0; hour < 24; hour += 1) {
        clock.advance(3_600_000);
        await busy.client.post('/api/v2/settings/general', { logoutTime: 120 });
      }
    }
    expect((await busy.client.get('/api/v2/settings/general')).statusCode).toBe(401);
  });
});

describe('2FA and anti-phishing', () => {
  it('enrols 2FA with a valid code, then shows the anti-phishing code in every mail', async () => {
    const { client, email } = await createSignedInUser(app);
    const early = await client.post('/api/v2/settings/anti_phishing/add', {
      code: 'Blue_whale',
      totp: '123456',
    });
    expect(early.json().code).toBe('auth_two_factor_required');

    const generated = (await client.post('/api/v2/settings/2fa/generate')).json();
    expect(generated.twoFactorSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect(generated.twoFactorQrUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    const wrong = await client.post('/api/v2/settings/2fa/toggle', { code: '000000' });
    expect(wrong.statusCode).toBe(422);
    clock.advance(30_000);
    const enable = await client.post('/api/v2/settings/2fa/toggle', {
      code: totpCodeAt(generated.twoFactorSecret, clock.now()),
    });
    expect(enable.json()).toEqual({ twoFactorEnabled: true });
    expect((await lastMailTo(app, email)).subject).toBe('Two-factor authentication is on');

    clock.advance(30_000);
    const set = await client.post('/api/v2/settings/anti_phishing/add', {
      code: 'Blue_whale',
      totp: totpCodeAt(generated.twoFactorSecret, clock.now()),
    });
    expect(set.json()).toEqual({ antiPhishingEnabled: true, antiPhishingCodes: 'Blue_whale' });
    const security = (await client.get('/api/v2/settings/security')).json();
    expect(security).toMatchObject({
      twoFactorEnabled: true,
      antiPhishingEnabled: true,
      antiPhishingCodes: 'Blue_whale',
    });
    expect(security.sessions).toHaveLength(1);

    await client.post('/api/v2/password/email', { email });
    const mail = await lastMailTo(app, email);
    expect(mail.text_body).toContain('Your anti-phishing code: Blue_whale');
    expect(mail.html_body).toContain('Blue_whale');

    clock.advance(30_000);
    const off = await client.post('/api/v2/settings/anti_phishing', {
      totp: totpCodeAt(generated.twoFactorSecret, clock.now()),
    });
    expect(off.json()).toEqual({ antiPhishingEnabled: false });
  });
});
