import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FiringQueue } from './firingQueue.js';

/** A stop's place in the order: its stop price (keys often shared), then its id. */
interface Stop {
  readonly stop: number;
  readonly id: number;
}

const firesBefore = (a: Stop, b: Stop) => (a.stop !== b.stop ? a.stop < b.stop : a.id < b.id);

const byFiring = (a: Stop, b: Stop) => (firesBefore(a, b) ? -1 : firesBefore(b, a) ? 1 : 0);

/** A step on the queue and on a sorted array beside it. */
const step = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      stop: fc.nat(40),
      count: fc.integer({ min: 1, max: 700 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('fire' as const), count: fc.nat(600) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('remove' as const),
      picks: fc.array(fc.nat(), { maxLength: 300 }),
    }),
  },
  {
    // Most of a stretch taken out, so that chunks behind the front dwindle and merge.
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('thin' as const),
      from: fc.nat(),
      length: fc.nat(3000),
      keepEvery: fc.integer({ min: 2, max: 12 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('absent' as const),
      stop: fc.integer(),
      id: fc.nat(),
    }),
  },
);

describe('FiringQueue', () => {
  it('holds what a sorted array would, through adds, firings and removals across chunks', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60, size: 'max' }), (steps) => {
        const queue = new FiringQueue<Stop>(firesBefore);
        let model: Stop[] = [];
        let nextId = 0;
        for (const s of steps) {
          if (s.kind === 'add') {
            // Several at one stop price (newer ones behind), or spread over the prices.
            for (let i = 0; i < s.count; i++) {
              const stop = {
                stop: s.count % 3 === 0 ? s.stop : (s.stop * 7 + i) % 41,
                id: nextId++,
              };
              queue.add(stop);
              model.push(stop);
            }
            model.sort(byFiring);
          } else if (s.kind === 'fire') {
            for (let i = 0; i < s.count && model.length > 0; i++) {
              const next = model.shift()!;
              if (queue.first() !== next || !queue.remove(next))
                expect.fail(`stop ${next.id} not next`);
            }
          } else if (s.kind === 'remove') {
            for (const pick of s.picks) {
              if (model.length === 0) break;
              const [stop] = model.splice(pick % model.length, 1);
              if (!queue.remove(stop!)) expect.fail(`stop ${stop!.id} not found`);
            }
          } else if (s.kind === 'thin') {
            const from = s.from % (model.length + 1);
            const kept = model.filter(
              (_, i) => i < from || i >= from + s.length || (i - from) % s.keepEvery === 0,
            );
            const keep = new Set(kept);
            for (const o of model) {
              if (!keep.has(o) && !queue.remove(o)) expect.fail(`stop ${o.id} not found`);
            }
            model = kept;
          } else {
            // Not in the queue: a new object, even with the key of one that is.
            const twin = model.find((o) => o.id === s.id % (nextId + 1));
            expect(queue.remove(twin ? { ...twin } : { stop: s.stop, id: s.id })).toBe(false);
          }
          expect(queue.length).toBe(model.length);
          expect(queue.first()).toBe(model[0]);
        }
        expect([...queue]).toEqual(model);
      }),
      { numRuns: 200 },
    );
  });

  it('fires tens of thousands from the front and cancels thousands behind it, in order', () => {
    const queue = new FiringQueue<Stop>(firesBefore);
    const stops = Array.from({ length: 50_000 }, (_, i) => ({ stop: i % 1000, id: i }));
    for (const s of stops) queue.add(s);
    const sorted = [...stops].sort(byFiring);
    expect([...queue]).toEqual(sorted);
    for (let i = 0; i < 30_000; i++) {
      expect(queue.first()).toBe(sorted[i]);
      expect(queue.remove(sorted[i]!)).toBe(true);
    }
    for (let i = 35_000; i < 45_000; i++) expect(queue.remove(sorted[i]!)).toBe(true);
    expect(queue.remove(sorted[0]!)).toBe(false);
    expect(queue.remove(sorted[40_000]!)).toBe(false);
    const rest = [...sorted.slice(30_000, 35_000), ...sorted.slice(45_000)];
    expect(queue.length).toBe(rest.length);
    expect([...queue]).toEqual(rest);
    const early = { stop: -1, id: 60_000 };
    queue.add(early);
    expect(queue.first()).toBe(early);
  });
});
