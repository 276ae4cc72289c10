import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserIndex } from './userIndex.js';

describe('UserIndex', () => {
  it('answers as a Map of the same users does, in some order when listing them, after adds and deletes', () => {
    const id = fc.oneof(fc.integer({ min: 1, max: 600 }), fc.integer({ min: 1, max: 2 ** 53 - 1 }));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(id, fc.nat(), fc.boolean()), { maxLength: 400 }),
        fc.array(id),
        (steps, probes) => {
          const index = new UserIndex<number>();
          const map = new Map<number, number>();
          for (const [key, value, deletes] of steps) {
            if (deletes) {
              index.delete(key);
              map.delete(key);
            } else {
              index.set(key, value);
              map.set(key, value);
            }
          }
          expect([...index.keys()].length).toBe(map.size);
          expect(index.size).toBe(map.size);
          for (const key of [...map.keys(), ...probes]) {
            expect(index.get(key)).toBe(map.get(key));
            expect(index.has(key)).toBe(map.has(key));
          }
          const byKey = (a: [number, number], b: [number, number]) => a[0] - b[0];
          const listed = [...index.keys()].map((key, i): [number, number] => [
            key,
            [...index.values()][i]!,
          ]);
          expect(listed.sort(byKey)).toEqual([...map.entries()].sort(byKey));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('finds no user for an id never added, whole or not', () => {
    const index = new UserIndex<string>();
    index.set(1, 'one');
    expect([index.get(1.5), index.get(Number.NaN), index.has(-1), index.get(2 ** 32 + 1)]).toEqual([
      undefined,
      undefined,
      false,
      undefined,
    ]);
  });

  it('holds nothing after clear, and counts again from there', () => {
    const index = new UserIndex<string>();
    for (let id = 1; id <= 1000; id++) index.set(id, `u${id}`);
    index.set(7, 'again');
    expect(index.size).toBe(1000);
    index.clear();
    expect([index.size, index.get(7), [...index.keys()].length]).toEqual([0, undefined, 0]);
    index.set(7, 'back');
    expect([index.size, index.get(7)]).toEqual([1, 'back']);
  });
});
