import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FiringQueue } from './firingQueue.js';

/** Values from a small pool, so that a value taken out is often put in again (a reused slot). */
const POOL = 60;

/** A step on the queue and on a plain array beside it. */
const step = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), value: fc.nat() }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('fire' as const), count: fc.nat(10) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('remove' as const),
      picks: fc.array(fc.nat(), { maxLength: 8 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('absent' as const), value: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('read' as const), at: fc.integer() }) },
);

describe('FiringQueue', () => {
  it('holds what an array would, through firings, inserts, removals and reused values', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 400, size: 'max' }), (steps) => {
        const queue = new FiringQueue<number>();
        const model: number[] = [];
        for (const s of steps) {
          if (s.kind === 'insert') {
            const free = Array.from({ length: POOL }, (_, v) => v).filter(
              (v) => !model.includes(v),
            );
            if (free.length === 0) continue;
            const value = free[s.value % free.length]!;
            // Often at the end, as a newer stop at the same price goes.
            const at = s.at % 2 === 0 ? model.length : s.at % (model.length + 1);
            queue.insert(at, value);
            model.splice(at, 0, value);
          } else if (s.kind === 'fire') {
            for (let i = 0; i < s.count && model.length > 0; i++) {
              expect(queue.first()).toBe(model[0]);
              expect(queue.remove(model[0]!)).toBe(true);
              model.shift();
            }
          } else if (s.kind === 'remove') {
            for (const pick of s.picks) {
              if (model.length === 0) break;
              const value = model[pick % model.length]!;
              expect(queue.remove(value)).toBe(true);
              model.splice(model.indexOf(value), 1);
            }
          } else if (s.kind === 'absent') {
            const value = s.value % (POOL * 2);
            if (!model.includes(value)) expect(queue.remove(value)).toBe(false);
          } else {
            expect(queue.at(s.at % (model.length + 2))).toBe(model[s.at % (model.length + 2)]);
          }
          expect(queue.length).toBe(model.length);
          expect(queue.first()).toBe(model[0]);
        }
        expect([...queue]).toEqual(model);
        for (let i = -1; i <= model.length; i++) expect(queue.at(i)).toBe(model[i]);
      }),
      { numRuns: 300 },
    );
  });

  it('tells a reused value from the copy its firing left behind', () => {
    const queue = new FiringQueue<number>();
    for (const v of [1, 2, 3]) queue.insert(queue.length, v);
    expect(queue.remove(1)).toBe(true); // fired: the front moves past it
    queue.insert(2, 1); // the same value again, behind the others
    expect(queue.remove(1)).toBe(true); // taken out from behind the front
    queue.insert(0, 9);
    expect([...queue]).toEqual([9, 2, 3]);
  });

  it('fires thousands from the front, cancels thousands behind it, and keeps the rest in order', () => {
    const queue = new FiringQueue<number>();
    for (let i = 0; i < 10_000; i++) queue.insert(i, i);
    // Past half the array fired: the front is dropped on the way.
    for (let i = 0; i < 6000; i++) {
      expect(queue.first()).toBe(i);
      expect(queue.remove(i)).toBe(true);
    }
    for (let i = 7000; i < 9000; i++) expect(queue.remove(i)).toBe(true);
    expect(queue.first()).toBe(6000);
    queue.insert(0, -1);
    expect(queue.length).toBe(2001);
    const rest = [-1];
    for (let i = 6000; i < 7000; i++) rest.push(i);
    for (let i = 9000; i < 10_000; i++) rest.push(i);
    expect([...queue]).toEqual(rest);
    expect(queue.remove(5999)).toBe(false);
    expect(queue.remove(8000)).toBe(false);
  });
});
