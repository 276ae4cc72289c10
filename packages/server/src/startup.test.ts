import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqliteFileName } from './db/open.js';
import { openPreparedDatabase } from './startup.js';
import { testConfig } from './testing/testConfig.js';

// Start-up on the embedded set-up: a data directory of its own, as a first `npm start` has.
async function startTwice(devTools: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), 'lattice-startup-'));
  const config = testConfig({ dataDir, databaseUrl: null, devTools });
  try {
    const first = await openPreparedDatabase(config);
    await first.close();
    const second = await openPreparedDatabase(config);
    try {
      const users = await second.db.selectFrom('users').select('email').execute();
      const markets = await second.db.selectFrom('markets').select('name').execute();
      return {
        users: users.map((row) => row.email),
        markets: markets.length,
        sqliteFileExists: existsSync(join(dataDir, sqliteFileName)),
      };
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('openPreparedDatabase', () => {
  it('creates the SQLite file, migrates and seeds once, with the demo users in development', async () => {
    const { users, markets, sqliteFileExists } = await startTwice(true);
    expect(sqliteFileExists).toBe(true);
    expect(users.sort()).toEqual(['alice@example.com', 'bob@example.com']);
    expect(markets).toBeGreaterThan(20);
  });

  it('creates no demo users without dev tools', async () => {
    const { users, markets } = await startTwice(false);
    expect(users).toEqual([]);
    expect(markets).toBeGreaterThan(20);
  });
});
