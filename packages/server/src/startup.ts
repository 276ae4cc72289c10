import type { Config } from './config.js';
import { migrateToLatest } from './db/migrate.js';
import { type DatabaseHandle, openDatabase } from './db/open.js';
import { hashPassword } from './domains/auth/passwords.js';
import { seedReferenceData } from './reference/reference.seed.js';

/**
 * Opens the configured database, applies pending migrations and writes the reference data
 * (and, with `DEV_TOOLS`, the demo accounts) that is missing. The caller closes the handle.
 */
export async function openPreparedDatabase(config: Config): Promise<DatabaseHandle> {
  const handle = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(handle.db, handle.dialect);
    await seedReferenceData(handle.db, { demoUsers: config.devTools, hashPassword });
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}
