// A snapshot's text in pieces is the text JSON.stringify gives, and the state hash taken over
// the pieces is the hash of that text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUY, CORES, limitOrder, SELL, TestExchange } from './fixtures.js';
import { hashString } from './hash.js';
import { jsonTextPieces } from './snapshotText.js';

describe('a snapshot text in pieces', () => {
  it('joins to what JSON.stringify gives, for any plain object of arrays and values', () => {
    // Values JSON leaves out (undefined, functions) and writes as null inside arrays included.
    const leaf = fc.oneof(
      fc.jsonValue(),
      fc.constant(undefined),
      fc.constant(() => 1),
    );
    const value = fc.dictionary(
      fc.string(),
      fc.oneof(leaf, fc.array(leaf, { maxLength: 20 }), fc.constant([])),
    );
    fc.assert(
      fc.property(value, (v) => {
        expect([...jsonTextPieces(v)].join('')).toBe(JSON.stringify(v));
      }),
      { numRuns: 300 },
    );
    expect([...jsonTextPieces({})].join('')).toBe('{}');
    expect([...jsonTextPieces({ gone: undefined })].join('')).toBe('{}');
  });

  it('gives each array element a piece of its own', () => {
    const pieces = [...jsonTextPieces({ version: 2, rows: [[1], [2], [3]], none: [] })];
    expect(pieces).toEqual([
      '{"version":2',
      ',"rows":[',
      '[1]',
      ',[2]',
      ',[3]',
      ']',
      ',"none":[',
      ']',
      '}',
    ]);
  });
});

describe.each(CORES)('the state hash on the %s core', (_core, makeEngine) => {
  it('is the hash of the whole snapshot text', () => {
    const x = TestExchange.traded(makeEngine());
    x.ok(limitOrder(1, BUY, '29000', '0.5'));
    x.ok(limitOrder(2, SELL, '31000', '0.25'));
    const snapshot = x.engine.snapshot();
    expect(snapshot.done.length).toBeGreaterThan(0);
    expect(x.engine.stateHash()).toBe(hashString(JSON.stringify(snapshot)));
  });
});
