import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { testConfig } from '../../testing/testConfig.js';
import { useTestDb } from '../../testing/testDb.js';
import { signInOverHttp } from './httpSignIn.js';
import { createSignedInUser } from './testClient.js';

const testDb = useTestDb();
let app: FastifyInstance;
let baseUrl: string;

beforeAll(async () => {
  app = await buildApp(testConfig({ devTools: true }), {
    db: testDb.current.db,
    dialect: testDb.current.dialect,
  });
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app.close();
});

describe('signInOverHttp', () => {
  it('signs in over a real socket, through the device code, and the session works', async () => {
    const { email, password, user } = await createSignedInUser(app);
    const session = await signInOverHttp(baseUrl, { email, password });
    const general = await fetch(`${baseUrl}/api/v2/settings/general`, {
      headers: session.headers(),
    });
    expect(general.status).toBe(200);
    const fee = await fetch(`${baseUrl}/api/v2/settings/customfee`, {
      method: 'POST',
      headers: session.headers(),
      body: JSON.stringify({ customfee: 1 }),
    });
    expect(await fee.json()).toEqual({ isCustomFeeEnabled: true });
    const params = await fetch(`${baseUrl}/api/systemParams`, { headers: session.headers() });
    const body = (await params.json()) as { user: { id: number } };
    expect(body.user.id).toBe(user.id);
  });
});
