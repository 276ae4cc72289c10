import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { testConfig } from '../../testing/testConfig.js';
import { useTestDb } from '../../testing/testDb.js';
import { createSignedInUser, type TestClient } from './testClient.js';

const testDb = useTestDb();
let app: FastifyInstance;
let client: TestClient;

beforeAll(async () => {
  // The whole product: every feature plugin of `appPlugins`, not only the accounts routes.
  app = await buildApp(testConfig(), { db: testDb.current.db, dialect: testDb.current.dialect });
  ({ client } = await createSignedInUser(app));
});
afterAll(async () => {
  await app.close();
});

/** A concrete URL for a route pattern: every `:param` becomes `1`, a wildcard `x`. */
function concreteUrl(pattern: string): string {
  return pattern.replace(/:\w+/g, '1').replace(/\*/g, 'x');
}

async function sessionCount(): Promise<number> {
  const row = await testDb.current.db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

describe('CSRF on every state-changing route of the router', () => {
  it('lists the routes from the router, including the account routes and others', () => {
    const routes = app.stateChangingRoutes.map((route) => `${route.method} ${route.url}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /api/v2/login',
        'POST /api/logout',
        'POST /api/v2/register',
        'POST /api/v2/settings/password',
        'DELETE /api/v2/api_key/:id',
      ]),
    );
    expect(routes.length).toBeGreaterThan(20);
  });

  it('answers 403 without the token, with a wrong token and from a foreign Origin', async () => {
    const token = client.csrfToken as string;
    const sessionsBefore = await sessionCount();
    const checked: string[] = [];
    for (const route of app.stateChangingRoutes) {
      if (route.csrfExempt) continue;
      const url = concreteUrl(route.url);
      const attempts: [string, Record<string, string>][] = [
        ['no token', { 'x-csrf-token': '' }],
        ['wrong token', { 'x-csrf-token': `${token.slice(0, -4)}AAAA` }],
        ['foreign origin', { origin: 'https://evil.example' }],
      ];
      for (const [what, headers] of attempts) {
        client.csrfToken = what === 'no token' ? null : token;
        const response = await client.request(route.method as 'POST', url, {}, headers);
        const label = `${route.method} ${route.url} (${what})`;
        expect({ label, status: response.statusCode, code: response.json().code }).toEqual({
          label,
          status: 403,
          code: 'auth_csrf_invalid',
        });
      }
      checked.push(`${route.method} ${route.url}`);
    }
    client.csrfToken = token;
    expect(checked.length).toBeGreaterThan(20);
    // The signed-in session survived every refused logout, password change and the like.
    expect(await sessionCount()).toBe(sessionsBefore);
    expect((await client.get('/api/v2/settings/general')).statusCode).toBe(200);
  });
});
