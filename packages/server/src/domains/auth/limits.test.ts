import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { buildAccountsApp, testClock } from './authTestApp.js';
import { pruneExpired } from './maintenance.js';
import { createSignedInUser, TestClient } from './testClient.js';

const testDb = useTestDb();
const clock = testClock();
let app: FastifyInstance;

beforeAll(async () => {
  // A scale of 1/1000 turns the 6,000 requests per minute per IP into 6.
  app = await buildAccountsApp(testDb.current, { clock, config: { rateLimitScale: 0.001 } });
});
afterAll(async () => {
  await app.close();
});

describe('the per-IP request limit', () => {
  it('answers 429 with Retry-After past the limit, per address, until the window ends', async () => {
    const browser = new TestClient(app, {}, '192.0.2.50');
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1)
      statuses.push((await browser.get('/api/systemParams')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    const refused = await browser.get('/api/systemParams');
    expect(refused.json().code).toBe('rate_limited');
    expect(refused.headers['retry-after']).toBe('60');
    expect((await new TestClient(app, {}, '192.0.2.51').get('/api/systemParams')).statusCode).toBe(
      200,
    );
    clock.advance(60_000);
    expect((await browser.get('/api/systemParams')).statusCode).toBe(200);
  });
});

describe('pruning', () => {
  it('deletes sessions past their absolute end and keeps live ones', async () => {
    const live = await createSignedInUser(app);
    const count = async () =>
      Number(
        (
          await testDb.current.db
            .selectFrom('sessions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    await pruneExpired(testDb.current.db, clock.now());
    expect(await count()).toBe(before);
    await pruneExpired(testDb.current.db, clock.now() + 8 * 24 * 3_600_000);
    expect(await count()).toBe(0);
    expect((await live.client.get('/api/v2/settings/general')).statusCode).toBe(401);
  });
});
