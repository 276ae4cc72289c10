import { amountFromDecimal } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import type { Config } from '../../config.js';
import { seedReferenceData } from '../../reference/reference.seed.js';
import { testConfig } from '../../testing/testConfig.js';
import type { TestDb } from '../../testing/testDb.js';
import { createSignedInUser, type TestClient, type TestUser } from '../auth/testClient.js';

let fundingCounter = 0;

/** The app on a test database with the reference data, the demo maker off. */
export async function buildTradingApp(
  testDb: TestDb,
  overrides: Partial<Config> = {},
): Promise<FastifyInstance> {
  const { db, dialect } = testDb;
  await seedReferenceData(db, { demoUsers: false, hashPassword: async () => 'x' });
  return buildApp(testConfig({ demoMaker: false, ...overrides }), { db, dialect });
}

/** Credits `amount` (a decimal in whole units) to the user's trade account, as a deposit would. */
export async function fundTrade(
  app: FastifyInstance,
  userId: number,
  asset: string,
  amount: string,
): Promise<void> {
  const decimals = app.engineHost.engine.assets().find((a) => a.asset === asset)?.decimals;
  if (decimals === undefined) throw new Error(`unknown asset ${asset}`);
  const minor = amountFromDecimal(amount, decimals);
  await app.engineHost.ensureUser(userId);
  fundingCounter += 1;
  const businessId = `test-funding:${userId}:${asset}:${fundingCounter}`;
  for (const command of [
    { type: 'balance.deposit' as const, userId, asset, amount: minor, businessId },
    {
      type: 'balance.transfer' as const,
      userId,
      asset,
      amount: minor,
      from: 'main' as const,
      to: 'trade' as const,
      businessId: `${businessId}:trade`,
    },
  ]) {
    const result = await app.engineHost.submit(command);
    if (!result.ok) throw new Error(`funding refused: ${result.message}`);
  }
}

/** A new signed-in user with these amounts (decimals in whole units) on the trade account. */
export async function fundedTrader(
  app: FastifyInstance,
  holdings: Record<string, string> = { BTC: '10', USDT: '1000000' },
): Promise<TestUser> {
  const trader = await createSignedInUser(app);
  for (const [asset, amount] of Object.entries(holdings)) {
    await fundTrade(app, trader.user.id, asset, amount);
  }
  return trader;
}

/** Places a limit order and expects it accepted; returns the order object. */
export async function placeLimit(
  client: TestClient,
  pair: string,
  direction: 'buy' | 'sell',
  price: string,
  amount: string,
): Promise<{ id: number; [field: string]: unknown }> {
  const response = await client.post('/api/v2/order', { pair, direction, price, amount });
  if (response.statusCode !== 201) {
    throw new Error(`order refused (${response.statusCode}): ${response.body}`);
  }
  return response.json().order;
}
