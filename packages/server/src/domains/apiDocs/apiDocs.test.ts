import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { buildTradingApp } from '../orders/tradingTestKit.js';

const testDb = useTestDb();
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTradingApp(testDb.current);
});

afterAll(async () => {
  await app.close();
});

describe('the OpenAPI document', () => {
  it('lists every withdrawal, fee and code call with its body schema', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    const withdraw = document.paths['/api/v3/balance/withdrawal-{ticker}/{paymentKey}'].post;
    const schema = withdraw.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['amount', 'address', 'code']));
    for (const path of [
      '/api/v3/balance/calcfee-{ticker}/{paymentKey}',
      '/api/v2/profile/code/create',
      '/api/v2/profile/code/apply',
      '/api/v2/profile/code/delete',
    ]) {
      expect(document.paths[path].post.requestBody, path).toBeDefined();
    }
    const history = document.paths['/api/v2/withdraw_history'].get;
    expect(history.parameters.map((p: { name: string }) => p.name)).toContain('offset');
    const page = await app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.body).toContain('/api/v2/profile/code/create');
  });
});
