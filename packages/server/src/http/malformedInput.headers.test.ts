// Malformed headers and unknown methods on every route, and the malformed requests that once
// failed; bodies, queries and path parameters are in `malformedInput.test.ts`.
import { describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../domains/auth/sessions.js';
import { signedInClient } from '../domains/auth/testClient.js';
import { fault, useMalformedInputApp, usualPath } from './malformedInputFixture.js';

const fixture = useMalformedInputApp();

describe('malformed headers and methods on every route', () => {
  it('get a 4xx in the error shape or a normal answer, never a 5xx', async () => {
    const cookie = (value: string) => ({ cookie: `${SESSION_COOKIE}=${value}` });
    const apiHeaders = (key: string, timestamp: string, signature: string) => ({
      'x-api-key': key,
      'x-api-timestamp': timestamp,
      'x-api-signature': signature,
    });
    const now = () => String(fixture.app.accounts.now());
    const headerCases: [string, () => Record<string, string>][] = [
      ['garbage session cookie', () => cookie('not-a-session')],
      ['empty session cookie', () => cookie('')],
      ['huge session cookie', () => cookie('s'.repeat(8_000))],
      ['unicode session cookie', () => cookie('%C3%BC%F0%9D%84%9E')],
      ['two session cookies', () => ({ cookie: `${SESSION_COOKIE}=a; ${SESSION_COOKIE}=b` })],
      ['garbage CSRF token', () => ({ 'x-csrf-token': 'x'.repeat(500) })],
      ['unknown API key', () => apiHeaders('f'.repeat(32), now(), 'ab'.repeat(32))],
      ['API key over 64 characters', () => apiHeaders('k'.repeat(5_000), now(), 'ab')],
      ['NaN API timestamp', () => apiHeaders(fixture.apiKey.key, 'NaN', 'ab'.repeat(32))],
      [
        '40-digit API timestamp',
        () => apiHeaders(fixture.apiKey.key, '9'.repeat(40), 'ab'.repeat(32)),
      ],
      ['negative API timestamp', () => apiHeaders(fixture.apiKey.key, '-1', 'ab'.repeat(32))],
      ['API signature not hex', () => apiHeaders(fixture.apiKey.key, now(), 'zz'.repeat(400))],
      ['empty API headers', () => apiHeaders('', '', '')],
      ['unsafe request id', () => ({ 'x-request-id': '\u00fc'.repeat(100) })],
    ];
    const faults: string[] = [];
    let sent = 0;
    for (const route of fixture.registered) {
      const session = await signedInClient(fixture.app, fixture.trader.user.id);
      const url = usualPath(route.url);
      for (const [name, headers] of headerCases) {
        const response = await session.request(route.method as 'GET', url, undefined, headers());
        sent += 1;
        const problem = fault(response);
        if (problem !== null) faults.push(`${route.method} ${route.url} [${name}] ${problem}`);
      }
      // Methods the route does not have: the API's 404 (or 405), not an empty answer.
      for (const method of ['PUT', 'PATCH', 'OPTIONS'] as const) {
        const response = await session.request(method, url, '{}', {
          'content-type': 'application/json',
        });
        sent += 1;
        const problem = fault(response);
        if (problem !== null) faults.push(`${method} ${route.url} ${problem}`);
      }
    }
    expect(faults.slice(0, 40), `${faults.length} of ${sent} requests`).toEqual([]);
  }, 120_000);
});

describe('the malformed requests that once failed', () => {
  it('keep the API error body and a 4xx', async () => {
    const session = await signedInClient(fixture.app, fixture.trader.user.id);
    const cases: [string, () => Promise<{ statusCode: number; body: string }>][] = [
      // Fastify answered these before any hook, in its own `{ error, code: FST_ERR_* }` body.
      ['broken percent-encoding', () => session.get('/api/v2/depth/%E0%A4%A')],
      [
        'path parameter over the length limit',
        () => session.delete(`/api/v2/order/${'9'.repeat(3_000)}`),
      ],
      [
        'two path parameters over the length limit',
        () => session.get(`/api/chain/${'n'.repeat(3_000)}/tx/${'t'.repeat(3_000)}`),
      ],
      // A 40-digit date filter overflowed the time column on PostgreSQL.
      [
        'finished orders from a 40-digit second',
        () => session.get(`/api/v2/order/finished?from=${'9'.repeat(40)}`),
      ],
      [
        'own trades to a 40-digit second',
        () => session.get(`/api/v2/history?to=${'9'.repeat(40)}`),
      ],
      // A plain GET of the socket's path answered an empty 404.
      ['GET /ws without an upgrade', () => session.get('/ws')],
    ];
    for (const [name, send] of cases) {
      const response = await send();
      expect(fault(response), name).toBeNull();
      expect(response.statusCode, name).toBeGreaterThanOrEqual(400);
    }
    // A NUL character answered 500 on PostgreSQL, which cannot store it.
    for (const send of [
      () => session.post('/api/v2/settings/session/%00/terminate'),
      () => session.get('/api/v2/profile/codes/my/%00'),
      () => session.get('/api/v2/profile/codes/history/%00'),
      () => session.post('/api/v2/profile/code/apply', { code: '\u0000' }),
      () => session.post('/api/v2/profile/code/delete', { code: '\u0000' }),
    ]) {
      // SQLite stores the text and may answer 200 (an empty list); PostgreSQL must refuse it.
      const response = await send();
      expect(fault(response)).toBeNull();
    }
  });
});
