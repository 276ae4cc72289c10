import { Engine, hashString, StringHasher } from '@lattice/engine';
import { describe, expect, it } from 'vitest';
import { fixtureSetup, fundedUserCommands, limitOrder, oneBtc, oneUsdt } from './hostFixtures.js';
import { hashInSlices, stringifyInSlices } from './slicedWork.js';
import { stateHashOfSnapshotText } from './snapshotHash.js';
import { captureSnapshot, snapshotRow, snapshotTextOf } from './snapshots.js';

function tradingEngine(): { engine: Engine; apply: (command: object) => void } {
  const engine = new Engine();
  let time = 1;
  const apply = (command: object) => {
    const result = engine.apply({ ...command, time: time++ } as Parameters<Engine['apply']>[0]);
    expect(result.ok).toBe(true);
  };
  for (const command of [
    ...fixtureSetup,
    ...fundedUserCommands(1, 10n * oneBtc, 100_000n * oneUsdt),
    ...fundedUserCommands(2, 10n * oneBtc, 100_000n * oneUsdt),
  ]) {
    apply(command);
  }
  return { engine, apply };
}

describe('snapshot text and hash', () => {
  it("hashes a snapshot's text to the engine's state hash of the same state", () => {
    const { engine, apply } = tradingEngine();
    for (const command of [
      limitOrder(1, 1, 3_000_000, 20),
      limitOrder(2, 2, 3_000_000, 5),
      limitOrder(2, 2, 2_900_000, 7),
    ]) {
      apply(command);
      expect(stateHashOfSnapshotText(JSON.stringify(engine.snapshot()))).toBe(engine.stateHash());
    }
  });

  it('hashes a text in pieces exactly as in one piece', async () => {
    const texts = ['', 'a', '{"x":[1,2,3]}', 'é€😀 mixed', 'x'.repeat(700_001)];
    for (const text of texts) {
      const hasher = new StringHasher();
      const cut = Math.floor(text.length / 3);
      hasher.update(text, 0, cut);
      hasher.update(text, cut, text.length);
      expect(hasher.digest()).toBe(hashString(text));
      expect(await hashInSlices(text)).toBe(hashString(text));
    }
  });

  it('serialises in slices to the text JSON.stringify gives', async () => {
    const value = {
      version: 2,
      skipped: undefined,
      empty: [],
      rows: Array.from({ length: 5_003 }, (_, i) => [i, `r${i}`, i % 7 === 0 ? undefined : 'x']),
      nested: { a: [1, { b: 'c' }] },
    };
    expect(await stringifyInSlices(value)).toBe(JSON.stringify(value));
  });

  it('keeps the state of the capture while commands are applied during serialisation', async () => {
    const { engine, apply } = tradingEngine();
    for (let i = 0; i < 600; i++)
      apply(
        limitOrder(
          1 + (i % 2),
          i % 2 === 0 ? 1 : 2,
          i % 2 === 0 ? 3_100_000 + i : 2_900_000 - i,
          1,
        ),
      );
    const hashAtCapture = engine.stateHash();
    const captured = captureSnapshot(engine, 42, 7);
    apply(limitOrder(2, 2, 3_100_000, 3));
    apply(limitOrder(1, 1, 2_900_000, 3));
    expect(engine.stateHash()).not.toBe(hashAtCapture);
    const row = await snapshotRow(captured);
    expect(row.state_hash).toBe(hashAtCapture);
    const text = await snapshotTextOf(row.gzip);
    expect(hashString(text)).toBe(hashAtCapture);
    expect(row.textBytes).toBe(Buffer.byteLength(text));
    expect(row.gzip.byteLength).toBeLessThan(row.textBytes / 4);
    expect(row.journal_seq).toBe(42);
  });
});
