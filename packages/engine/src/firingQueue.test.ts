import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FiringQueue } from './firingQueue.js';

/** A step on the queue and on a plain array beside it. */
const step = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('insert' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('fire' as const), count: fc.nat(40) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('absent' as const), pick: fc.nat() }) },
);

describe('FiringQueue', () => {
  it('holds what an array would, firing from the front and inserting and removing anywhere', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 3000 }), (steps) => {
        const queue = new FiringQueue<number>();
        const model: number[] = [];
        let next = 1;
        for (const s of steps) {
          if (s.kind === 'insert') {
            // Often at the end, as a newer stop at the same price goes.
            const at = s.at % 2 === 0 ? model.length : s.at % (model.length + 1);
            queue.insert(at, next);
            model.splice(at, 0, next++);
          } else if (s.kind === 'fire') {
            for (let i = 0; i < s.count && model.length > 0; i++) {
              expect(queue.first()).toBe(model[0]);
              expect(queue.remove(model[0]!)).toBe(true);
              model.shift();
            }
          } else if (s.kind === 'remove' && model.length > 0) {
            const item = model[s.pick % model.length]!;
            expect(queue.remove(item)).toBe(true);
            model.splice(model.indexOf(item), 1);
          } else if (s.kind === 'absent') {
            // Never inserted, or already gone.
            expect(queue.remove(next + s.pick)).toBe(false);
          }
          expect(queue.length).toBe(model.length);
          expect(queue.first()).toBe(model[0]);
        }
        expect([...queue]).toEqual(model);
        for (let i = -1; i <= model.length; i++) expect(queue.at(i)).toBe(model[i]);
      }),
      { numRuns: 100 },
    );
  });

  it('fires thousands from the front and keeps the rest in order', () => {
    const queue = new FiringQueue<number>();
    for (let i = 0; i < 5000; i++) queue.insert(i, i);
    for (let i = 0; i < 3000; i++) expect(queue.remove(i)).toBe(true);
    queue.insert(0, -1);
    expect(queue.length).toBe(2001);
    expect([...queue]).toEqual([-1, ...Array.from({ length: 2000 }, (_, i) => 3000 + i)]);
    expect(queue.remove(2999)).toBe(false);
  });
});
