import type { FastifyInstance } from 'fastify';
import { appPlugins, buildApp } from '../../app.js';
import { seedReferenceData } from '../../reference/reference.seed.js';
import { testConfig } from '../../testing/testConfig.js';
import type { TestDb } from '../../testing/testDb.js';
import { accountsPlugin, accountsPluginWith } from '../auth/accounts.plugin.js';
import type { TestClock } from '../auth/authTestApp.js';
import { totpCodeAt } from '../auth/totp.js';

/** The whole app on a test clock (so each withdrawal can use the next TOTP step). */
export async function buildWithdrawalApp(
  testDb: TestDb,
  clock: TestClock,
): Promise<FastifyInstance> {
  const { db, dialect } = testDb;
  await seedReferenceData(db, { demoUsers: false, hashPassword: async () => 'x' });
  const plugins = appPlugins.map((plugin) =>
    plugin === accountsPlugin ? accountsPluginWith({ now: clock.now }) : plugin,
  );
  return buildApp(testConfig({ demoMaker: false }), { db, dialect, plugins });
}

/** A fresh 2FA code: the clock moves one TOTP step so the replay guard accepts it. */
export function nextCode(clock: TestClock, secret: string | null): string {
  if (secret === null) throw new Error('the user has no 2FA secret');
  clock.advance(30_000);
  return totpCodeAt(secret, clock.now());
}
