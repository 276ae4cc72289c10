// The store of applied business ids answers as a Map of the same entries would: every key
// found with its fingerprint and result as they were set, any other key not found, and a
// snapshot's list of them in key order. Text of any characters, long entries, and enough of
// them to grow every part of the store.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppliedIds, type DoneEntry } from './appliedIds.js';
import { toPlainJson } from './codec.js';
import { btc, RESTORE_ON, TestExchange } from './fixtures.js';
import type { Command, CommandResult, SnapshotDoneRow } from './types.js';

function balance(userId: number, asset: string, amounts: readonly bigint[]): CommandResult {
  const [a = 0n, b = 0n, c = 0n, d = 0n, e = 0n, f = 0n] = amounts;
  return {
    kind: 'balance',
    userId,
    asset,
    balances: {
      main: { available: a, frozen: b },
      trade: { available: c, frozen: d },
      margin: { available: e, frozen: f },
    },
  };
}

/**
 * The entries a Map holds, as a snapshot writes them: by key, a row each, a balance result as
 * [userId, asset, then available and frozen of main, trade and margin], any other as plain
 * JSON. Compared as text, since a snapshot's text is what its hash is of.
 */
function rowsOfMap(map: Map<string, DoneEntry>): SnapshotDoneRow[] {
  return [...map.keys()].sort().map((key) => {
    const { fingerprint, result } = map.get(key)!;
    if (result.kind !== 'balance') return [key, fingerprint, toPlainJson(result)];
    const { main, trade, margin } = result.balances;
    const amounts = [main, trade, margin].flatMap((pair) => [pair.available, pair.frozen]);
    return [key, fingerprint, [result.userId, result.asset, ...amounts.map(String)]];
  });
}

describe('the applied business ids', () => {
  it('gives back each entry as it was set, and nothing for a key never set', () => {
    const ids = new AppliedIds();
    const first = balance(7, 'USDT', [10n ** 30n, 0n, 5n, 1n, 0n, 2n]);
    ids.set('balance.deposit:a', { fingerprint: '[7,"USDT","1n","a"]', result: first });
    ids.set('balance.unfreeze:a', { fingerprint: '["a"]', result: { kind: 'none' } });
    expect(ids.get('balance.deposit:a')).toEqual({
      fingerprint: '[7,"USDT","1n","a"]',
      result: first,
    });
    expect(ids.get('balance.unfreeze:a')).toEqual({
      fingerprint: '["a"]',
      result: { kind: 'none' },
    });
    expect(ids.has('balance.deposit:a')).toBe(true);
    expect(ids.has('balance.deposit:b')).toBe(false);
    expect(ids.has('balance.deposit:')).toBe(false);
    expect(ids.get('balance.deposit:a ')).toBeUndefined();
    expect(ids.size).toBe(2);
  });

  it('keeps characters of every range, and entries longer than a chunk of its text', () => {
    const ids = new AppliedIds();
    const latin = 'dépôt-ÿ';
    const wide = 'депозит-€-\u{1F4B0}';
    const long = 'x'.repeat(3_000_000);
    ids.set(`k:${latin}`, { fingerprint: latin, result: balance(1, 'BTC', [1n]) });
    ids.set(`k:${wide}`, { fingerprint: wide, result: balance(2, 'BTC', [2n]) });
    ids.set(`k:${long}`, { fingerprint: `€${long}`, result: balance(3, 'BTC', [3n]) });
    ids.set(`k:${long}:narrow`, { fingerprint: long, result: { kind: 'none' } });
    ids.set('k:after', { fingerprint: 'after', result: { kind: 'none' } });
    expect(ids.get(`k:${latin}`)?.fingerprint).toBe(latin);
    expect(ids.get(`k:${wide}`)?.fingerprint).toBe(wide);
    expect(ids.get(`k:${long}`)?.fingerprint).toBe(`€${long}`);
    expect(ids.get(`k:${long}`)?.result).toEqual(balance(3, 'BTC', [3n]));
    expect(ids.get(`k:${long}:narrow`)?.fingerprint).toBe(long);
    expect(ids.get('k:after')?.fingerprint).toBe('after');
    expect(ids.has(`k:${wide.slice(0, -1)}`)).toBe(false);
  });

  it('finds every one of many entries after its tables and text have grown', () => {
    const ids = new AppliedIds();
    const map = new Map<string, DoneEntry>();
    for (let n = 0; n < 20_000; n++) {
      const entry = {
        fingerprint: `["deposit:${n}",${'9'.repeat(n % 90)}]`,
        result: balance(n, `A${n % 7}`, [BigInt(n) * 10n ** 20n, BigInt(n)]),
      };
      ids.set(`balance.deposit:deposit:ethereum:${n.toString(16).padStart(64, '0')}`, entry);
      map.set(`balance.deposit:deposit:ethereum:${n.toString(16).padStart(64, '0')}`, entry);
    }
    expect(ids.size).toBe(20_000);
    for (const [key, entry] of map) expect(ids.get(key)).toEqual(entry);
    expect(JSON.stringify(ids.snapshotRows())).toBe(JSON.stringify(rowsOfMap(map)));
    expect(ids.has(`balance.deposit:deposit:ethereum:${'f'.repeat(64)}`)).toBe(false);
  });

  it('finds every entry while its slots are doubled a few at a time, and so does a copy', () => {
    const ids = new AppliedIds();
    const entry = (n: number): DoneEntry => ({ fingerprint: `f${n}`, result: { kind: 'none' } });
    let copy: AppliedIds | undefined;
    // The slots (1,024) double at 512 entries; the 512 before move four with each new one.
    for (let n = 0; n < 700; n++) {
      ids.set(`k${n}`, entry(n));
      if (n === 520) {
        copy = new AppliedIds();
        copy.copyFrom(ids);
      }
      if (n < 500) continue;
      const missing: number[] = [];
      for (let m = 0; m <= n; m++) if (ids.get(`k${m}`)?.fingerprint !== `f${m}`) missing.push(m);
      expect(missing).toEqual([]);
      expect(ids.has(`k${n + 1}`)).toBe(false);
    }
    // The copy goes on doubling on its own.
    for (let n = 700; n < 1200; n++) copy!.set(`c${n}`, entry(n));
    for (let m = 0; m <= 520; m++) expect(copy!.get(`k${m}`)).toEqual(entry(m));
    for (let n = 700; n < 1200; n++) expect(copy!.get(`c${n}`)).toEqual(entry(n));
    expect([copy!.has('k521'), ids.has('c700'), copy!.size, ids.size]).toEqual([
      false,
      false,
      1021,
      700,
    ]);
  });

  it('replaces the entry of a key set again', () => {
    const ids = new AppliedIds();
    ids.set('k', { fingerprint: 'one', result: { kind: 'none' } });
    ids.set('k', { fingerprint: 'two', result: balance(1, 'BTC', [4n]) });
    expect(ids.size).toBe(1);
    expect(ids.get('k')).toEqual({ fingerprint: 'two', result: balance(1, 'BTC', [4n]) });
  });

  it('copies: the copy holds the same entries, and a change to either leaves the other', () => {
    const ids = new AppliedIds();
    ids.set('a', { fingerprint: 'a', result: { kind: 'none' } });
    const copy = new AppliedIds();
    copy.set('stale', { fingerprint: 'stale', result: { kind: 'none' } });
    copy.set('older', { fingerprint: 'older', result: { kind: 'none' } });
    copy.snapshotRows();
    ids.set('d', { fingerprint: 'd', result: { kind: 'none' } });
    // A snapshot before the copy: each then merges its own keys into the order it sorted.
    ids.snapshotRows();
    copy.copyFrom(ids);
    ids.set('b', { fingerprint: 'b', result: { kind: 'none' } });
    copy.set('c', { fingerprint: 'c', result: { kind: 'none' } });
    expect(ids.snapshotRows().map((row) => row[0])).toEqual(['a', 'b', 'd']);
    expect(copy.snapshotRows().map((row) => row[0])).toEqual(['a', 'c', 'd']);
    expect([ids.has('a'), ids.has('b'), ids.has('c')]).toEqual([true, true, false]);
    expect([copy.has('a'), copy.has('b'), copy.has('c'), copy.has('stale')]).toEqual([
      true,
      false,
      true,
      false,
    ]);
  });

  it('answers as a Map of the same entries does, for any keys and texts', () => {
    const text = fc.string({ unit: 'binary', maxLength: 12 });
    const result = fc.oneof(
      fc.constant<CommandResult>({ kind: 'none' }),
      fc
        .tuple(
          fc.nat(),
          fc.stringMatching(/^[A-Z0-9]{1,16}$/),
          fc.array(fc.bigInt({ min: 0n, max: 10n ** 40n }), { maxLength: 6 }),
        )
        .map(([user, asset, amounts]) => balance(user, asset, amounts)),
    );
    // A snapshot's rows, one step in ten: the next one merges the keys added since into the
    // order this one sorted.
    const snap = fc.integer({ min: 0, max: 9 }).map((n) => n === 0);
    const step = fc.record({ key: text, fingerprint: text, result, look: text, snap });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
        const ids = new AppliedIds();
        const map = new Map<string, DoneEntry>();
        for (const { key, fingerprint, result, look, snap } of steps) {
          ids.set(key, { fingerprint, result });
          map.set(key, { fingerprint, result });
          expect(ids.get(look)).toEqual(map.get(look));
          expect(ids.has(look)).toBe(map.has(look));
          if (snap) expect(JSON.stringify(ids.snapshotRows())).toBe(JSON.stringify(rowsOfMap(map)));
        }
        expect(ids.size).toBe(map.size);
        for (const [key, entry] of map) expect(ids.get(key)).toEqual(entry);
        const rows = ids.snapshotRows();
        expect(JSON.stringify(rows)).toBe(JSON.stringify(rowsOfMap(map)));
        // Restored from its rows, through their JSON as a snapshot's text holds them.
        const restored = new AppliedIds();
        for (const row of JSON.parse(JSON.stringify(rows))) restored.setRow(row);
        expect(restored.size).toBe(map.size);
        for (const [key, entry] of map) expect(restored.get(key)).toEqual(entry);
        expect(JSON.stringify(restored.snapshotRows())).toBe(JSON.stringify(rows));
        // Keys added to the restored ids, and some set again, after its snapshot.
        for (const { look } of steps) {
          restored.set(look, { fingerprint: look, result: { kind: 'none' } });
          map.set(look, { fingerprint: look, result: { kind: 'none' } });
        }
        expect(JSON.stringify(restored.snapshotRows())).toBe(JSON.stringify(rowsOfMap(map)));
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a row of any other shape, and keeps nothing of it', () => {
    const ids = new AppliedIds();
    const amounts = ['1', '0', '0', '0', '0', '0'];
    ids.setRow(['k', 'print', [1, 'BTC', ...amounts]]);
    ids.setRow(['none', 'print', { kind: 'none' }]);
    const rows: unknown[] = [
      ['k2', 'print'],
      ['k2', 'print', [1, 'BTC', ...amounts], 'more'],
      [2, 'print', [1, 'BTC', ...amounts]],
      ['k2', null, [1, 'BTC', ...amounts]],
      ['k2', 'print', [1, 'BTC', ...amounts.slice(1)]],
      ['k2', 'print', [1.5, 'BTC', ...amounts]],
      ['k2', 'print', ['1', 'BTC', ...amounts]],
      ['k2', 'print', [1, 7, ...amounts]],
      ['k2', 'print', [1, 'BTC', '-1', ...amounts.slice(1)]],
      ['k2', 'print', [1, 'BTC', '01', ...amounts.slice(1)]],
      ['k2', 'print', [1, 'BTC', 1, ...amounts.slice(1)]],
      { key: 'k2', fingerprint: 'print', result: { kind: 'none' } },
      ['k2', 'print', 'none'],
      ['k2', 'print', null],
      ['k2', 'print', 5],
      ['k2', 'print', {}],
      ['k2', 'print', { kind: 1 }],
    ];
    for (const row of rows) {
      expect(() => ids.setRow(row as SnapshotDoneRow), JSON.stringify(row)).toThrow(/shape/);
    }
    expect(ids.size).toBe(2);
    expect(ids.has('k2')).toBe(false);
  });
});

describe.each(Object.entries(RESTORE_ON))(
  'applied ids restored on the %s core',
  (_core, restore) => {
    it("repeats a command's first result field for field as the command returned it", () => {
      // Compared as text: a repeat's result is rebuilt from the row, in balances.ts's field order.
      const x = TestExchange.standard();
      const deposit: Command = {
        type: 'balance.deposit',
        time: 1,
        userId: 3,
        asset: 'BTC',
        amount: btc('2'),
        businessId: 'order-of-fields',
      };
      const freeze: Command = {
        type: 'balance.freeze',
        time: 2,
        userId: 3,
        asset: 'BTC',
        account: 'main',
        amount: btc('0.5'),
        businessId: 'order-of-fields',
        purpose: 'staking',
      };
      const firsts = [x.ok(deposit), x.ok(freeze)];
      const restored = restore(x.engine.snapshot());
      [deposit, freeze].forEach((command, i) => {
        const repeat = restored.apply(command);
        expect(repeat.ok && JSON.stringify(toPlainJson(repeat.result))).toBe(
          JSON.stringify(toPlainJson(firsts[i]!.result)),
        );
      });
    });
  },
);
