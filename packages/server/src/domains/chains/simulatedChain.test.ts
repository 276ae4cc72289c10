import { describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { heightAt, SimulatedChain, startSimulatedChains } from './simulatedChain.js';

const testDb = useTestDb();

describe('heightAt', () => {
  it('counts the whole intervals elapsed, and nothing without an interval', () => {
    expect(heightAt(7, 1_000, 500, 1_000)).toBe(7);
    expect(heightAt(7, 1_000, 500, 1_499)).toBe(7);
    expect(heightAt(7, 1_000, 500, 1_500)).toBe(8);
    expect(heightAt(7, 1_000, 500, 3_999)).toBe(12);
    expect(heightAt(7, 1_000, 0, 99_999)).toBe(7);
    expect(heightAt(7, 1_000, 500, 900)).toBe(7);
  });
});

describe('a simulated chain with timed blocks', () => {
  it('advances with the clock without writing, and adds mined blocks to the timed ones', async () => {
    let now = 1_000_000;
    const { db } = testDb.current;
    const chain = new SimulatedChain(db, 'bitcoin', false, 'http://x', 1_000, () => now);
    expect(await chain.blockHeight()).toBe(0);
    await startSimulatedChains(db, ['bitcoin'], now);
    const stored = () =>
      db.selectFrom('sim_chain_blocks').selectAll().where('network', '=', 'bitcoin');
    const before = await stored().executeTakeFirstOrThrow();
    now += 2_500;
    expect(await chain.blockHeight()).toBe(2);
    expect(await stored().executeTakeFirstOrThrow()).toEqual(before);
    expect(await chain.mine(3)).toBe(5);
    now += 900;
    expect(await chain.blockHeight()).toBe(5);
    now += 100;
    expect(await chain.blockHeight()).toBe(6);
    // A restart keeps the height and the blocks made meanwhile.
    await startSimulatedChains(db, ['bitcoin'], now);
    expect(await chain.blockHeight()).toBe(6);
  });
});
