import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { testConfig } from '../../testing/testConfig.js';
import { createTestDb } from '../../testing/testDb.js';

describe('GET /api/health', () => {
  it('answers 200 while the database answers, 503 once it does not', async () => {
    const testDb = await createTestDb();
    const app = await buildApp(testConfig(), { db: testDb.db, dialect: testDb.dialect });
    try {
      const up = await app.inject({ method: 'GET', url: '/api/health' });
      expect(up.statusCode).toBe(200);
      expect(up.json()).toMatchObject({ status: 'ok', database: testDb.dialect });

      await testDb.db.destroy();
      const down = await app.inject({ method: 'GET', url: '/api/health' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ status: 'unavailable' });
    } finally {
      await app.close();
      await testDb.destroy();
    }
  });
});
