import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderIndex } from './orderIndex.js';

describe('OrderIndex', () => {
  it('behaves like a Map under random inserts and deletes, old orders included', () => {
    const op = fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 5000 }));
    fc.assert(
      fc.property(fc.array(op, { minLength: 500, maxLength: 3000 }), (ops) => {
        // A ring of 16 slots, so most ids wrap round and old orders move aside.
        const index = new OrderIndex<{ id: number }>(16);
        const model = new Map<number, { id: number }>();
        for (const [insert, id] of ops) {
          if (insert && !model.has(id)) {
            const value = { id };
            index.set(value);
            model.set(id, value);
          } else if (index.delete(id) !== model.delete(id)) {
            return false;
          }
          if (index.size !== model.size) return false;
        }
        for (let id = 1; id <= 5000; id++) if (index.get(id) !== model.get(id)) return false;
        return [...index.entries()].length === model.size;
      }),
      { numRuns: 30 },
    );
  });

  it('finds ids beyond 32 bits', () => {
    const index = new OrderIndex<{ id: number }>();
    const big = { id: 2 ** 40 + 7 };
    index.set(big);
    index.set({ id: 7 });
    expect(index.get(2 ** 40 + 7)).toBe(big);
    expect(index.get(2 ** 41 + 7)).toBeUndefined();
  });
});
