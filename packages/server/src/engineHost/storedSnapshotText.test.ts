import { Engine, hashString, jsonTextPieces, StringHasher } from '@lattice/engine';
import { describe, expect, it } from 'vitest';
import { fixtureSetup, fundedUserCommands, limitOrder, oneBtc, oneUsdt } from './hostFixtures.js';
import { captureSnapshot, snapshotRow, storedSnapshotBytes } from './snapshots.js';
import { readStoredSnapshotText, storedSnapshotText } from './storedSnapshotText.js';

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

describe('a stored snapshot text', () => {
  it("hashes to the engine's state hash and reads back to the same state", async () => {
    const { engine, apply } = tradingEngine();
    for (const command of [
      limitOrder(1, 1, 3_000_000, 20),
      limitOrder(2, 2, 3_000_000, 5),
      limitOrder(2, 2, 2_900_000, 7),
    ]) {
      apply(command);
      const snapshot = engine.snapshot();
      const stored = await storedSnapshotText(snapshot);
      expect(stored.stateHash).toBe(engine.stateHash());
      const read = readStoredSnapshotText(stored.bytes);
      expect(read.stateHash).toBe(engine.stateHash());
      expect(read.snapshot).toEqual(JSON.parse(JSON.stringify(snapshot)));
      expect(Engine.restore(read.snapshot).stateHash()).toBe(engine.stateHash());
    }
  });

  it("is the engine's pieces a line each, and still the snapshot's JSON", async () => {
    const snapshot = tradingEngine().engine.snapshot();
    const text = (await storedSnapshotText(snapshot)).bytes.toString('utf8');
    expect(text.split('\n')).toEqual([...jsonTextPieces(snapshot)]);
    expect(text.replaceAll('\n', '')).toBe(JSON.stringify(snapshot));
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(snapshot)));
  });

  it('reads a text of many batches and runs, wide characters included', async () => {
    // Some 2.5 million characters: the writer encodes them in several batches, the reader parses
    // the rows in several runs, and one row, longer than a run, in a run of its own.
    const value = {
      version: 2,
      skipped: undefined,
      empty: [],
      rows: Array.from({ length: 5_003 }, (_, i) => [
        i,
        `r${i}é€😀`.repeat(50),
        i % 7 ? 'x' : null,
      ]),
      nested: { a: [1, { b: 'c' }] },
      long: ['a', 'b'.repeat(1_500_000), 'c'],
    };
    const stored = await storedSnapshotText(value);
    expect(stored.bytes.toString('utf8').replaceAll('\n', '')).toBe(JSON.stringify(value));
    expect(stored.stateHash).toBe(hashString(JSON.stringify(value)));
    const read = readStoredSnapshotText(stored.bytes);
    expect(read.snapshot).toEqual(JSON.parse(JSON.stringify(value)));
    expect(read.stateHash).toBe(stored.stateHash);
  });

  it('lets the event loop run while it writes, however long its pieces', async () => {
    // 2,000 rows of 20,000 characters: a batch is encoded every 50 of them.
    const row = 'x'.repeat(20_000);
    const value = { version: 3, rows: Array.from({ length: 2_000 }, () => row) };
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    await storedSnapshotText(value);
    counting = false;
    expect(turns).toBeGreaterThan(0);
  });

  it('reads a snapshot stored before lines, as one line of JSON', () => {
    const { engine } = tradingEngine();
    const whole = Buffer.from(JSON.stringify(engine.snapshot()), 'utf8');
    const read = readStoredSnapshotText(whole);
    expect(read.stateHash).toBe(engine.stateHash());
    expect(Engine.restore(read.snapshot).stateHash()).toBe(engine.stateHash());
  });

  it('throws on a text cut short, and hashes a changed one differently', async () => {
    const { engine } = tradingEngine();
    const { bytes } = await storedSnapshotText(engine.snapshot());
    const lastLine = bytes.lastIndexOf(0x0a);
    expect(() => readStoredSnapshotText(bytes.subarray(0, lastLine))).toThrow(
      /end before the closing brace/,
    );
    expect(() => readStoredSnapshotText(bytes.subarray(0, lastLine - 3))).toThrow(SyntaxError);
    // Within the applied ids, at a line's end and within one.
    const done = bytes.indexOf('"done"');
    const lineEnd = bytes.indexOf(0x0a, done + 20);
    expect(() => readStoredSnapshotText(bytes.subarray(0, lineEnd))).toThrow(SyntaxError);
    expect(() => readStoredSnapshotText(bytes.subarray(0, lineEnd - 5))).toThrow(SyntaxError);
    // A balance's first digit, one more (or 0 after 9): the text still reads.
    const changed = Buffer.from(bytes);
    const balances = changed.indexOf('"balances"');
    const digit = balances + changed.subarray(balances).toString('latin1').search(/[0-9]/);
    const digits = '0123456789';
    changed.write(
      digits[(digits.indexOf(changed.toString('latin1', digit, digit + 1)) + 1) % 10]!,
      digit,
    );
    expect(readStoredSnapshotText(changed).stateHash).not.toBe(engine.stateHash());
  });

  it('hashes a text in pieces exactly as in one piece', () => {
    const texts = ['', 'a', '{"x":[1,2,3]}', 'é€😀 mixed', 'x'.repeat(700_001)];
    for (const text of texts) {
      const hasher = new StringHasher();
      const cut = Math.floor(text.length / 3);
      hasher.update(text, 0, cut);
      hasher.update(text, cut, text.length);
      expect(hasher.digest()).toBe(hashString(text));
    }
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
    const text = await storedSnapshotBytes(row.gzip);
    expect(readStoredSnapshotText(text).stateHash).toBe(hashAtCapture);
    expect(row.textBytes).toBe(text.byteLength);
    expect(row.gzip.byteLength).toBeLessThan(row.textBytes / 4);
    expect(row.journal_seq).toBe(42);
  });
});
