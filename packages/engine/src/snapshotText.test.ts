// A snapshot's text in pieces is the text JSON.stringify gives, and the state hash taken over
// the pieces is the hash of that text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUY, CORES, limitOrder, SELL, TestExchange } from './fixtures.js';
import { hashString } from './hash.js';
import { JsonTextPiecesReader, jsonTextPieces } from './snapshotText.js';

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

/** The object `pieces` are of, read a piece at a time. */
function readPieces(pieces: Iterable<string>): Record<string, unknown> {
  const reader = new JsonTextPiecesReader();
  for (const piece of pieces) reader.push(piece);
  return reader.finish();
}

describe('reading a text in pieces', () => {
  // At least one key, as every snapshot has: `{}` is a single piece, read as whole JSON text.
  const value = fc.dictionary(
    fc.string(),
    fc.oneof(fc.jsonValue(), fc.array(fc.jsonValue(), { maxLength: 20 }), fc.constant([])),
    { minKeys: 1 },
  );

  it('gives back the object JSON.parse gives of the whole text', () => {
    fc.assert(
      fc.property(value, (v) => {
        const read = readPieces(jsonTextPieces(v));
        expect(JSON.stringify(read)).toBe(JSON.stringify(v));
        expect(read).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      { numRuns: 300 },
    );
    const own = readPieces(jsonTextPieces(JSON.parse('{"__proto__":[1],"x":2}')));
    expect(Object.getPrototypeOf(own)).toBe(Object.prototype);
    expect(Object.keys(own)).toEqual(['__proto__', 'x']);
  });

  it('never reads the same object with a piece missing: it throws or reads another', () => {
    fc.assert(
      fc.property(value, fc.nat(), (v, n) => {
        const pieces = [...jsonTextPieces(v)];
        const dropped = n % pieces.length;
        const without = pieces.filter((_, i) => i !== dropped);
        // Without an element after an array's first, or a key after the first, the pieces are
        // those of another object; the loss of any other piece throws.
        let read: Record<string, unknown> | undefined;
        try {
          read = readPieces(without);
        } catch (error) {
          expect(error).toBeInstanceOf(SyntaxError);
          return;
        }
        expect(JSON.stringify(read)).not.toBe(JSON.stringify(v));
      }),
      { numRuns: 300 },
    );
  });

  it('reads runs of elements at once, newlines between them, as it reads them one by one', () => {
    fc.assert(
      fc.property(value, fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1 }), (v, runs) => {
        const pieces = [...jsonTextPieces(v)];
        const reader = new JsonTextPiecesReader();
        let run = 0;
        for (let i = 0; i < pieces.length; ) {
          if (!reader.inArray || pieces[i] === ']') {
            reader.push(pieces[i++]!);
            continue;
          }
          const elements: string[] = [];
          const most = runs[run++ % runs.length]!;
          while (i < pieces.length && pieces[i] !== ']' && elements.length < most) {
            elements.push(pieces[i++]!);
          }
          reader.pushElements(elements.join('\n'));
        }
        expect(reader.finish()).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a run of elements out of place', () => {
    const opened = () => {
      const reader = new JsonTextPiecesReader();
      reader.push('{"rows":[');
      return reader;
    };
    expect(() => new JsonTextPiecesReader().pushElements('1')).toThrow(/outside an array/);
    const closed = opened();
    closed.push(']');
    expect(() => closed.pushElements('1')).toThrow(/outside an array/);
    expect(() => opened().pushElements('')).toThrow(/no array element/);
    expect(() => opened().pushElements(',1')).toThrow(SyntaxError);
    expect(() => opened().pushElements('1\n2')).toThrow(SyntaxError);
    expect(() => opened().pushElements('1\n,]')).toThrow(SyntaxError);
    const started = opened();
    started.pushElements('1\n,2');
    expect(() => started.pushElements('3')).toThrow(/without its comma/);
    started.pushElements(',3');
    started.push(']');
    started.push('}');
    expect(started.finish()).toEqual({ rows: [1, 2, 3] });
  });

  it('refuses a piece out of place, with the piece named', () => {
    const pieces = ['{"version":2', ',"rows":[', '[1]', ',[2]', ']', '}'];
    expect(readPieces(pieces)).toEqual({ version: 2, rows: [[1], [2]] });
    const broken: [string[], RegExp | string][] = [
      [['"version":2', '}'], 'starts with "\\""'],
      [['{"version":2', '"rows":[', ']', '}'], 'starts with "\\""'],
      [['{"version":2', ',"rows":[', '[1]', '[2]', ']', '}'], /without its comma/],
      [['{"version":2,"x":1', '}'], /with 2 keys/],
      [['{', '}'], /with 0 keys/],
      [['{"version":2', '}', ',"x":1'], /after the closing brace/],
      [['{"version":2'], /end before the closing brace/],
      [['{"version":2', ',"rows":[', '[1]'], /end before the closing brace/],
      [['{"version":2', ',"rows":[', '[1', ']', '}'], /JSON/],
    ];
    for (const [text, message] of broken) expect(() => readPieces(text)).toThrow(message);
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
