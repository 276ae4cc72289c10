import { Engine } from '@lattice/engine';
import { describe, expect, it } from 'vitest';
import { fixtureSetup, fundedUserCommands, limitOrder, oneBtc, oneUsdt } from './hostFixtures.js';
import { stateHashOfSnapshotText } from './snapshotHash.js';

describe('stateHashOfSnapshotText', () => {
  it("equals the engine's state hash of the same state", () => {
    const engine = new Engine();
    const commands = [
      ...fixtureSetup,
      ...fundedUserCommands(1, 10n * oneBtc, 100_000n * oneUsdt),
      ...fundedUserCommands(2, 10n * oneBtc, 100_000n * oneUsdt),
      limitOrder(1, 1, 3_000_000, 20),
      limitOrder(2, 2, 3_000_000, 5),
      limitOrder(2, 2, 2_900_000, 7),
    ];
    let time = 1;
    for (const command of commands) {
      const result = engine.apply({ ...command, time: time++ } as Parameters<Engine['apply']>[0]);
      expect(result.ok).toBe(true);
      expect(stateHashOfSnapshotText(JSON.stringify(engine.snapshot()))).toBe(engine.stateHash());
    }
  });
});
