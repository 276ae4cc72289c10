import { amountFromDecimal } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { appPlugins, buildApp } from '../../app.js';
import type { Config } from '../../config.js';
import { seedReferenceData } from '../../reference/reference.seed.js';
import { testConfig } from '../../testing/testConfig.js';
import type { TestDb } from '../../testing/testDb.js';
import { accountsPlugin, accountsPluginWith } from '../auth/accounts.plugin.js';
import type { TestClock } from '../auth/authTestApp.js';
import { totpCodeAt } from '../auth/totp.js';
import { creditMain } from '../wallet/walletTestKit.js';

/** The whole app on a test clock (so each withdrawal can use the next TOTP step). */
export async function buildWithdrawalApp(
  testDb: TestDb,
  clock: TestClock,
  options: { seed?: boolean; config?: Partial<Config> } = {},
): Promise<FastifyInstance> {
  const { db, dialect } = testDb;
  if (options.seed ?? true) {
    await seedReferenceData(db, { demoUsers: false, hashPassword: async () => 'x' });
  }
  const plugins = appPlugins.map((plugin) =>
    plugin === accountsPlugin ? accountsPluginWith({ now: clock.now }) : plugin,
  );
  const config = testConfig({ demoMaker: false, ...options.config });
  return buildApp(config, { db, dialect, plugins });
}

/** A fresh 2FA code: the clock moves one TOTP step so the replay guard accepts it. */
export function nextCode(clock: TestClock, secret: string | null): string {
  if (secret === null) throw new Error('the user has no 2FA secret');
  clock.advance(30_000);
  return totpCodeAt(secret, clock.now());
}

/** Credits `amount` (whole units) of `asset` to a user's main balance through the engine. */
export function fundMain(
  app: FastifyInstance,
  userId: number,
  asset: string,
  amount: string,
  decimals: number,
): Promise<void> {
  return creditMain(app, userId, asset, amountFromDecimal(amount, decimals));
}

/** Adds blocks to a simulated network, as time would; listeners (watchers) run before it answers. */
export async function mineBlocks(app: FastifyInstance, network: string, blocks: number) {
  await app.chains.mine(blocks, network);
}

/** The user's main and frozen-on-main balance of an asset in minor units, from the engine. */
export function mainOf(app: FastifyInstance, userId: number, asset: string) {
  const pair = app.engineHost.engine.balances(userId)[asset]?.main;
  return { available: pair?.available ?? 0n, frozen: pair?.frozen ?? 0n };
}

/** A withdrawal's status as stored. */
export async function statusOf(app: FastifyInstance, id: number): Promise<number> {
  const row = await app.db
    .selectFrom('withdrawals')
    .select('status')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.status);
}
