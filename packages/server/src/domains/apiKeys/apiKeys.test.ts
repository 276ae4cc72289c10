import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { buildAccountsApp, testClock } from '../auth/authTestApp.js';
import { requireUser, signedInUser } from '../auth/requestAuth.js';
import { createSignedInUser, type TestUser } from '../auth/testClient.js';
import { totpCodeAt } from '../auth/totp.js';
import { signRequest } from './signature.js';

const testDb = useTestDb();
const clock = testClock();
let app: FastifyInstance;

/** Routes standing in for trading and wallet calls, one per scope and one without. */
async function scopedRoutes(instance: FastifyInstance) {
  const whoami = async (request: Parameters<typeof signedInUser>[0]) => ({
    userId: signedInUser(request).user.id,
    via: signedInUser(request).apiKey === null ? 'session' : 'api_key',
    body: request.body ?? null,
  });
  instance.get(
    '/api/test/read',
    { preHandler: requireUser, config: { apiKeyScope: 'read' } },
    whoami,
  );
  instance.post(
    '/api/test/trade',
    { preHandler: requireUser, config: { apiKeyScope: 'trade' } },
    whoami,
  );
  instance.post(
    '/api/test/withdraw',
    { preHandler: requireUser, config: { apiKeyScope: 'withdraw' } },
    whoami,
  );
  instance.post('/api/test/unscoped', { preHandler: requireUser }, whoami);
}

beforeAll(async () => {
  app = await buildAccountsApp(testDb.current, { clock, plugins: [scopedRoutes] });
});
afterAll(async () => {
  await app.close();
});

interface Key {
  id: number;
  key: string;
  secret: string;
}

function nextTotp(owner: TestUser): string {
  clock.advance(30_000);
  return totpCodeAt(owner.totpSecret as string, clock.now());
}

async function createKey(owner: TestUser, extra: Record<string, unknown> = {}): Promise<Key> {
  const response = await owner.client.post('/api/v2/api_key', { totp: nextTotp(owner), ...extra });
  expect(response.statusCode).toBe(201);
  return response.json();
}

function signed(
  key: Key,
  method: 'GET' | 'POST',
  url: string,
  options: { body?: unknown; timestamp?: number; sign?: string; remoteAddress?: string } = {},
) {
  const raw = options.body === undefined ? '' : JSON.stringify(options.body);
  const timestamp = String(options.timestamp ?? clock.now());
  const signature = signRequest(key.secret, {
    timestamp,
    method,
    pathAndQuery: url,
    body: options.sign ?? raw,
  });
  return app.inject({
    method,
    url,
    remoteAddress: options.remoteAddress ?? '127.0.0.1',
    headers: {
      'x-api-key': key.key,
      'x-api-timestamp': timestamp,
      'x-api-signature': signature,
      ...(raw === '' ? {} : { 'content-type': 'application/json' }),
    },
    ...(raw === '' ? {} : { payload: raw }),
  });
}

describe('API keys', () => {
  it('need 2FA; the secret is shown once and stored sealed', async () => {
    const plain = await createSignedInUser(app);
    const refused = await plain.client.post('/api/v2/api_key', { totp: '123456' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('auth_two_factor_required');

    const owner = await createSignedInUser(app, { twoFactor: true });
    const key = await createKey(owner, { name: 'bot' });
    expect(key).toMatchObject({ name: 'bot', scopes: ['read', 'trade'], isEnabled: true });
    expect(key.secret).toMatch(/^[0-9a-f]{64}$/);
    const row = await testDb.current.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(key.secret);
    const list = (await owner.client.get('/api/v2/api_key')).json();
    expect(list.records).toHaveLength(1);
    expect(JSON.stringify(list)).not.toContain(key.secret);
  });

  it('authenticate a signed request without cookie or CSRF token, once per signature', async () => {
    const owner = await createSignedInUser(app, { twoFactor: true });
    const key = await createKey(owner);
    const body = { pair: 'BTC_USDT', amount: '1' };
    const ok = await signed(key, 'POST', '/api/test/trade?x=1', { body });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ userId: owner.user.id, via: 'api_key', body });

    const replay = await signed(key, 'POST', '/api/test/trade?x=1', { body });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('api_key_signature_replayed');

    const read = await signed(key, 'GET', '/api/test/read');
    expect(read.json()).toMatchObject({ userId: owner.user.id, via: 'api_key' });
  });

  it('refuse a stale or future timestamp, a tampered body and a wrong key', async () => {
    const owner = await createSignedInUser(app, { twoFactor: true });
    const key = await createKey(owner);
    const stale = await signed(key, 'GET', '/api/test/read', { timestamp: clock.now() - 5_001 });
    expect(stale.json().code).toBe('api_key_signature_expired');
    const future = await signed(key, 'GET', '/api/test/read', { timestamp: clock.now() + 5_001 });
    expect(future.json().code).toBe('api_key_signature_expired');
    const tampered = await signed(key, 'POST', '/api/test/trade', {
      body: { amount: '1000' },
      sign: JSON.stringify({ amount: '1' }),
    });
    expect(tampered.statusCode).toBe(401);
    expect(tampered.json().code).toBe('api_key_invalid');
    const otherSecret = await signed({ ...key, secret: 'f'.repeat(64) }, 'GET', '/api/test/read');
    expect(otherSecret.json().code).toBe('api_key_invalid');
    const unknown = await signed({ ...key, key: 'nope' }, 'GET', '/api/test/read');
    expect(unknown.statusCode).toBe(401);
  });

  it('reach only routes that declare a scope the key holds', async () => {
    const owner = await createSignedInUser(app, { twoFactor: true });
    const key = await createKey(owner);
    const withdraw = await signed(key, 'POST', '/api/test/withdraw', { body: {} });
    expect(withdraw.statusCode).toBe(403);
    expect(withdraw.json().code).toBe('api_key_scope_missing');
    const unscoped = await signed(key, 'POST', '/api/test/unscoped', { body: {} });
    expect(unscoped.json().code).toBe('api_key_not_accepted');
    const settings = await signed(key, 'GET', '/api/v2/settings/general');
    expect(settings.json().code).toBe('api_key_not_accepted');
    const manage = await signed(key, 'POST', '/api/v2/api_key', { body: { totp: '123456' } });
    expect(manage.json().code).toBe('api_key_not_accepted');

    const withdrawKey = await createKey(owner, { scopes: ['read', 'withdraw'] });
    expect((await signed(withdrawKey, 'POST', '/api/test/withdraw', { body: {} })).statusCode).toBe(
      200,
    );
  });

  it('honour the IP allow-list', async () => {
    const owner = await createSignedInUser(app, { twoFactor: true });
    const key = await createKey(owner, { ipAllowList: ['10.0.0.0/8', '192.0.2.7'] });
    const outside = await signed(key, 'GET', '/api/test/read', { remoteAddress: '127.0.0.1' });
    expect(outside.statusCode).toBe(403);
    expect(outside.json().code).toBe('api_key_ip_not_allowed');
    expect(
      (await signed(key, 'GET', '/api/test/read', { remoteAddress: '10.1.2.3' })).statusCode,
    ).toBe(200);
    // A new timestamp, or the request would be a replay of the one before.
    clock.advance(1);
    expect(
      (await signed(key, 'GET', '/api/test/read', { remoteAddress: '192.0.2.7' })).statusCode,
    ).toBe(200);
  });

  it('can be switched off and deleted, and turning 2FA off disables them all', async () => {
    const owner = await createSignedInUser(app, { twoFactor: true });
    const key = await createKey(owner);
    const off = await owner.client.post(`/api/v2/api_key/${key.id}`);
    expect(off.json()).toMatchObject({ isEnabled: false });
    expect((await signed(key, 'GET', '/api/test/read')).statusCode).toBe(401);
    const on = await owner.client.post(`/api/v2/api_key/${key.id}`);
    expect(on.json()).toMatchObject({ isEnabled: true });
    expect((await signed(key, 'GET', '/api/test/read')).statusCode).toBe(200);

    const disable = await owner.client.post('/api/v2/settings/2fa/toggle', {
      code: nextTotp(owner),
    });
    expect(disable.json()).toEqual({ twoFactorEnabled: false });
    expect((await signed(key, 'GET', '/api/test/read')).statusCode).toBe(401);
    const reenable = await owner.client.post(`/api/v2/api_key/${key.id}`);
    expect(reenable.json().code).toBe('auth_two_factor_required');

    const other = await createSignedInUser(app, { twoFactor: true });
    expect((await other.client.delete(`/api/v2/api_key/${key.id}`)).statusCode).toBe(404);
    expect((await owner.client.delete(`/api/v2/api_key/${key.id}`)).statusCode).toBe(200);
    expect((await owner.client.delete(`/api/v2/api_key/${key.id}`)).statusCode).toBe(404);
  });
});
