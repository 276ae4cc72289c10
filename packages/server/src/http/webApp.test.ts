import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, defaultWebDistDir } from '../app.js';
import { testConfig } from '../testing/testConfig.js';
import { useTestDb } from '../testing/testDb.js';

const testDb = useTestDb();
const page = '<!doctype html><title>Lattice test page</title><div id="root"></div>';
let distDir: string;
let built: FastifyInstance;
let notBuilt: FastifyInstance;

beforeAll(async () => {
  distDir = mkdtempSync(join(tmpdir(), 'lattice-web-'));
  mkdirSync(join(distDir, 'assets'));
  writeFileSync(join(distDir, 'index.html'), page);
  writeFileSync(join(distDir, 'assets', 'index-abc123.js'), 'console.log("app")');
  const { db, dialect } = testDb.current;
  built = await buildApp(testConfig(), { db, dialect, webDistDir: distDir });
  notBuilt = await buildApp(testConfig(), {
    db,
    dialect,
    webDistDir: join(distDir, 'missing'),
  });
});

afterAll(async () => {
  await built.close();
  await notBuilt.close();
  rmSync(distDir, { recursive: true, force: true });
});

describe('the web app', () => {
  it('is looked for in packages/web/dist by default', () => {
    expect(defaultWebDistDir.endsWith(['packages', 'web', 'dist'].join(sep))).toBe(true);
  });

  it('serves the page at / without caching it', async () => {
    const response = await built.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toBe(page);
  });

  it.each(['/trade/BTC_USDT', '/user/wallet-list', '/es/faq', '/not-found'])(
    'serves the page for the client route %s',
    async (url) => {
      const response = await built.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(page);
    },
  );

  it('serves hashed assets for a year and refuses missing files', async () => {
    const asset = await built.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await built.inject({ method: 'GET', url: '/assets/gone-999.js' });
    expect(missing.statusCode).toBe(404);
  });

  it('does not answer unknown API paths with the page', async () => {
    const response = await built.inject({ method: 'GET', url: '/api/v2/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'route_not_found' });
  });

  it('explains itself when the web app has not been built, while the API still answers', async () => {
    const response = await notBuilt.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('npm run build');
    const health = await notBuilt.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
  });
});
