import { amountField } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp, requestBodyBytesMax } from '../app.js';
import { testConfig } from '../testing/testConfig.js';
import { useTestDb } from '../testing/testDb.js';
import { AppError } from './errors.js';

const testDb = useTestDb();
let app: FastifyInstance;

const echoBody = z.object({
  email: z.string('Field is required').email('Email is not valid'),
  amount: amountField(8, { positive: true }),
});

async function testRoutes(scope: FastifyInstance): Promise<void> {
  scope.post('/api/test/echo', async (request) => {
    const body = echoBody.parse(request.body);
    return { amount: body.amount.toString() };
  });
  scope.get('/api/test/crash', async () => {
    throw new Error('connection string postgres://secret@db');
  });
  scope.get('/api/test/lookup', async (request) => {
    const { text } = z.object({ text: z.string() }).parse(request.query);
    const row = await sql<{ text: string }>`select ${text} as text`.execute(scope.db);
    return { found: row.rows.length };
  });
  scope.get('/api/test/busy', async () => {
    // Shaped as the engine host's refusals: a catalogue code, a status and a retry hint.
    throw Object.assign(new Error('The exchange is busy, please retry'), {
      code: 'engine_busy',
      status: 503,
      retryAfterSeconds: 1,
    });
  });
  scope.get('/api/test/balance', async () => {
    throw new AppError('validation_failed', { errors: { amount: ['Not enough on balance'] } });
  });
}

beforeAll(async () => {
  const { db, dialect } = testDb.current;
  app = await buildApp(testConfig(), { db, dialect, plugins: [testRoutes] });
});
afterAll(() => app.close());

function postJson(payload: string, contentType = 'application/json') {
  return app.inject({
    method: 'POST',
    url: '/api/test/echo',
    headers: { 'content-type': contentType },
    payload,
  });
}

describe('error rendering', () => {
  it('answers a valid request normally', async () => {
    const response = await postJson(JSON.stringify({ email: 'a@b.co', amount: '0.5' }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ amount: '50000000' });
  });

  it.each([
    ['{"email":', 'request_invalid_json'],
    ['', 'request_invalid_json'],
    ['[1, 2]', 'request_body_not_object'],
    ['"text"', 'request_body_not_object'],
    ['42', 'request_body_not_object'],
    ['null', 'request_body_not_object'],
  ])('answers the body %j with 400 %s', async (payload, code) => {
    const response = await postJson(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code });
    expect(typeof response.json().message).toBe('string');
  });

  it('answers an oversize body with 413', async () => {
    const big = JSON.stringify({ email: 'a'.repeat(requestBodyBytesMax), amount: '1' });
    const response = await postJson(big);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'request_body_too_large' });
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
    'answers a %s body with 415',
    async (contentType) => {
      const response = await postJson('email=a', contentType);
      expect(response.statusCode).toBe(415);
      expect(response.json()).toMatchObject({ code: 'request_unsupported_media_type' });
    },
  );

  it('answers broken rules with 422 and the message of each field', async () => {
    const response = await postJson(JSON.stringify({ email: 'nope', amount: '1e-7' }));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      message: 'Form is not valid',
      code: 'validation_failed',
      errors: {
        email: ['Email is not valid'],
        amount: ['Must be a plain decimal number, like 0.015'],
      },
    });
    const missing = await postJson('{}');
    expect(missing.json().errors).toEqual({
      email: ['Field is required'],
      amount: ['Field is required'],
    });
  });

  it('renders an AppError with its code and field errors', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/balance' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      message: 'Form is not valid',
      code: 'validation_failed',
      errors: { amount: ['Not enough on balance'] },
    });
  });

  it('renders an error carrying a catalogue code, with Retry-After', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/busy' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json()).toEqual({
      message: 'The exchange is busy, please retry',
      code: 'engine_busy',
    });
  });

  it('hides the internals of an unexpected error behind a 500', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/crash' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: 'Error on server', code: 'server_error' });
    expect(response.body).not.toContain('secret');
  });

  it('answers text the database cannot hold (a NUL character) with a 400, not a 500', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/lookup?text=a%00b' });
    // SQLite stores the text; PostgreSQL refuses it, and that refusal is the client's error.
    if (testDb.current.dialect === 'postgres') {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        message: 'The request is not valid',
        code: 'request_invalid',
      });
    } else {
      expect(response.statusCode).toBe(200);
    }
  });

  it('answers unknown API paths with a JSON 404, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await app.inject({ method, url: '/api/no/such/thing' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Not found', code: 'route_not_found' });
    }
  });

  it('echoes a safe request id and replaces an unsafe one', async () => {
    const given = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'req-123' },
    });
    expect(given.headers['x-request-id']).toBe('req-123');
    const unsafe = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'bad id\nwith newline' },
    });
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
