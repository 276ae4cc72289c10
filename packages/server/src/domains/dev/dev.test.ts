import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { buildAccountsApp, testClock } from '../auth/authTestApp.js';
import { createSignedInUser, TestClient } from '../auth/testClient.js';

const testDb = useTestDb();
const apps: FastifyInstance[] = [];

async function appWithDevTools(devTools: boolean) {
  const app = await buildAccountsApp(testDb.current, { clock: testClock(), config: { devTools } });
  apps.push(app);
  return app;
}

afterAll(async () => {
  for (const app of apps) await app.close();
});

describe('development helpers', () => {
  it('show the mail sent to an address, newest first, on the API and the page', async () => {
    const app = await appWithDevTools(true);
    const { email, client } = await createSignedInUser(app);
    await client.post('/api/v2/password/email', { email });
    await client.post('/api/v2/password/email', { email });
    const browser = new TestClient(app);
    const mails = (await browser.get(`/api/dev/mail?to=${encodeURIComponent(email)}`)).json();
    expect(mails).toHaveLength(2);
    expect(mails[0]).toMatchObject({ to: email, subject: 'Reset your password' });
    expect(mails[0].id).toBeGreaterThan(mails[1].id);
    expect(Object.keys(mails[0]).sort()).toEqual([
      'createdAt',
      'html',
      'id',
      'subject',
      'text',
      'to',
    ]);
    const page = await browser.get('/dev/mail');
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('/api/dev/mail?to=');
  });

  it('approve a user KYC by e-mail', async () => {
    const app = await appWithDevTools(true);
    const { email, client } = await createSignedInUser(app);
    const verified = await client.post('/api/dev/users/verify', { email });
    expect(verified.json()).toEqual({ status: 'ok', kyc: 'verified' });
    expect((await client.get('/api/systemParams')).json().user.kyc).toBe('verified');
    const unknown = await client.post('/api/dev/users/verify', { email: 'ghost@example.com' });
    expect(unknown.statusCode).toBe(404);
  });

  it('do not exist when DEV_TOOLS is off', async () => {
    const app = await appWithDevTools(false);
    const { email, client } = await createSignedInUser(app);
    expect((await client.get(`/api/dev/mail?to=${email}`)).statusCode).toBe(404);
    expect((await client.post('/api/dev/users/verify', { email })).statusCode).toBe(404);
  });
});
