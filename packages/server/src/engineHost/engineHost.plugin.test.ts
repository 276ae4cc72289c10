import { InvariantViolation } from '@lattice/engine';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { seedReferenceData } from '../reference/reference.seed.js';
import { testConfig } from '../testing/testConfig.js';
import { useTestDb } from '../testing/testDb.js';
import { limitOrder } from './hostFixtures.js';

const testDb = useTestDb();
const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closing) await close();
});

async function startApp() {
  const { db, dialect } = testDb.current;
  const app = await buildApp(testConfig(), { db, dialect, plugins: undefined });
  closing.push(() => app.close());
  return app;
}

describe('engine host plugin', () => {
  it('registers the reference data and funds the demo users once, across restarts', async () => {
    const { db } = testDb.current;
    await seedReferenceData(db, { demoUsers: true, hashPassword: async () => 'not-a-hash' });
    const first = await startApp();
    const host = first.engineHost;
    expect(host.engine.markets().map((market) => market.name)).toContain('BTC_USDT');
    const alice = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'alice@example.com')
      .executeTakeFirstOrThrow();
    expect(host.engine.balances(alice.id).BTC).toEqual({
      main: { available: 500_000_000n, frozen: 0n },
      trade: { available: 500_000_000n, frozen: 0n },
      margin: { available: 0n, frozen: 0n },
    });
    const journaled = host.lastJournalSeq;
    await first.close();

    const second = await startApp();
    expect(second.engineHost.lastJournalSeq).toBe(journaled);
    expect(second.engineHost.engine.balances(alice.id).BTC?.main.available).toBe(500_000_000n);
    expect(second.engineHost.halted).toBeNull();
  });

  it("waits for recovery however long it takes: no limit on a plugin's start", async () => {
    // Fastify's default, 10 s, failed the start of a server restoring the snapshot of 1,200,000
    // deposits (bench:recovery); a test cannot wait that long, so the setting is checked.
    const app = await startApp();
    expect(app.initialConfig.pluginTimeout).toBe(0);
  });

  it('answers its dev endpoint after a command threw: halted, and no hash of a broken state', async () => {
    const app = await startApp();
    const host = app.engineHost;
    // A bug in the engine, simulated: the next command throws inside Engine.apply.
    const engine = host.engine as unknown as { applyOne: () => never };
    vi.spyOn(engine, 'applyOne').mockImplementationOnce(() => {
      throw new InvariantViolation('a simulated bug');
    });
    await expect(host.submit(limitOrder(1, 1, 3_000_000, 1))).rejects.toMatchObject({
      code: 'engine_halted',
    });
    expect(host.engine.halted).toBe('a simulated bug');
    const res = await app.inject({ method: 'GET', url: '/api/dev/engine' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      stateHash: null,
      halted: 'invariant violated: a simulated bug',
    });
  });
});
