import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvariantViolation } from '../errors.js';
import {
  LINK_USER_NEXT,
  LINK_USER_PREV,
  LINK_WIDTH,
  NONE,
  O_AMOUNT,
  O_FINISH_REASON,
  O_ID,
  O_LEVEL,
  O_SIBLING,
  O_USER,
  ORDER_WIDTH,
} from './orderRow.js';
import { OrderTable } from './orderTable.js';

const RING = 8;

/**
 * One step: open the next id (after a gap of one, of a few ring laps, or of billions), reopen
 * an id older than the counter (as a restore does), make room ahead, or release an open order,
 * mostly a recent one so that some old ones stay open across many laps.
 */
const step = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('open' as const), gap: fc.constant(1) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('open' as const),
      gap: fc.oneof(fc.integer({ min: 2, max: RING * 20 }), fc.integer({ min: 1, max: 2 ** 34 })),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('reopen' as const), back: fc.nat(RING * 40) }),
  },
  // Room made ahead for more open orders, as a restore makes it.
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('reserve' as const), more: fc.nat(RING * 40) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('release' as const),
      pick: fc.nat(),
      recent: fc.boolean(),
    }),
  },
);

describe('OrderTable', () => {
  // Its arrays copied as they grow, and (from a size of 0 bytes) grown in place.
  it.each([
    ['by copies', undefined],
    ['in place', 0],
  ])(
    'maps ids to slots like a Map, reuses slots and keeps rows across growth and reserves, growing %s',
    (_, inPlaceFrom) => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 2 ** 50 }),
          fc.array(step, { minLength: 200, maxLength: 1500 }),
          (firstId, steps) => {
            // Two slots and a ring of 8, so both grow and most ids lap an open order.
            const table = new OrderTable(2, RING, undefined, inPlaceFrom);
            const model = new Map<number, number>();
            /** Open ids, oldest opened first. */
            const open: number[] = [];
            const freed = new Set<number>();
            const closedIds: number[] = [];
            let slotsUsed = 0;
            let nextId = firstId;
            const openId = (id: number): void => {
              const slot = table.allocate(id);
              // A free slot is reused before a new one is taken.
              if (freed.size > 0) expect(freed.delete(slot)).toBe(true);
              else expect(slot).toBe(slotsUsed++);
              const row = slot * ORDER_WIDTH;
              const rows = table.rows;
              expect(rows[row + O_ID]).toBe(id);
              expect(rows[row + O_AMOUNT]).toBe(0);
              expect(rows[row + O_LEVEL]).toBe(NONE);
              expect(rows[row + O_SIBLING]).toBe(NONE);
              const links = table.links;
              for (let f = 0; f < LINK_WIDTH; f++) expect(links[slot * LINK_WIDTH + f]).toBe(NONE);
              expect(rows[row + O_FINISH_REASON]).toBe(NONE);
              rows[row + O_AMOUNT] = id * 3;
              model.set(id, slot);
              open.push(id);
            };
            for (const s of steps) {
              if (s.kind === 'open') {
                nextId += s.gap;
                if (nextId > Number.MAX_SAFE_INTEGER / 4) continue;
                openId(nextId);
              } else if (s.kind === 'reopen') {
                const id = nextId - 1 - s.back;
                if (id >= 1 && !model.has(id)) openId(id);
              } else if (s.kind === 'reserve') {
                table.reserve(table.count + s.more);
              } else if (open.length > 0) {
                const i = s.recent
                  ? open.length - 1 - (s.pick % Math.min(open.length, 3))
                  : s.pick % open.length;
                const id = open[i]!;
                open.splice(i, 1);
                const slot = model.get(id)!;
                table.release(slot);
                model.delete(id);
                freed.add(slot);
                closedIds.push(id);
              }
              if (table.count !== model.size) return false;
              // Found after every step, the ring's doubling under way or not: the oldest and
              // the newest open orders.
              for (const id of [...open.slice(0, 8), ...open.slice(-8)]) {
                if (table.slotOf(id) !== model.get(id)) return false;
              }
            }
            const rows = table.rows;
            const slots = new Set<number>();
            for (const [id, slot] of model) {
              if (table.slotOf(id) !== slot) return false;
              if (rows[slot * ORDER_WIDTH + O_AMOUNT] !== id * 3) return false;
              slots.add(slot);
            }
            if (slots.size !== model.size) return false;
            for (const id of closedIds)
              if (!model.has(id) && table.slotOf(id) !== NONE) return false;
            // Ids never opened, at the ring positions of open ones.
            for (const id of model.keys()) {
              if (!model.has(id + RING * 1024) && table.slotOf(id + RING * 1024) !== NONE)
                return false;
            }
            return true;
          },
        ),
        { numRuns: 60 },
      );
    },
  );

  it('finds ids beyond 32 bits that share a ring position', () => {
    const table = new OrderTable(4, 16);
    const old = table.allocate(7);
    const big = table.allocate(2 ** 40 + 7);
    expect(table.slotOf(7)).toBe(old);
    expect(table.slotOf(2 ** 40 + 7)).toBe(big);
    expect(table.slotOf(2 ** 41 + 7)).toBe(NONE);
    table.release(old);
    expect(table.slotOf(7)).toBe(NONE);
    expect(table.slotOf(2 ** 40 + 7)).toBe(big);
  });

  it('grows the ring when it fills with open orders, so consecutive ids need no map', () => {
    const table = new OrderTable(4, 8);
    for (let id = 1; id <= 1000; id++) table.allocate(id);
    expect(table.lappedCount).toBe(0);
    for (let id = 1; id <= 1000; id++) expect(table.slotOf(id)).toBe(id - 1);
    // Orders kept open while a lap of newer ids comes and goes move aside, and stay found.
    const lapping = new OrderTable(4, 8);
    const kept = lapping.allocate(1);
    for (let id = 2; id <= 100; id++) lapping.release(lapping.allocate(id));
    expect(lapping.lappedCount).toBe(1);
    expect(lapping.slotOf(1)).toBe(kept);
  });

  it('doubles its ring a few positions at a time, every open order found at each step', () => {
    // A ring of 1,024 that doubles with the 1,025th open order, and again at 2,049 and 4,097:
    // each doubling is spread over the orders that come after it, while older orders are
    // released, and order 1 stays open aside (lapped).
    const table = new OrderTable(4, 1024);
    const kept = table.allocate(1);
    for (let id = 2; id <= 1024 + 2; id++) table.release(table.allocate(id));
    expect(table.lappedCount).toBe(1);
    const slots = new Map<number, number>([[1, kept]]);
    for (let id = 2000; id < 2000 + 5000; id++) {
      slots.set(id, table.allocate(id));
      if (id % 7 === 0) {
        const gone = id - 1000;
        if (slots.has(gone)) {
          table.release(slots.get(gone)!);
          slots.delete(gone);
          expect(table.slotOf(gone)).toBe(NONE);
        }
      }
      for (const probe of [1, id, id - 1, id - 700, id - 1023, id - 1024, id - 1025]) {
        expect(table.slotOf(probe)).toBe(slots.get(probe) ?? NONE);
      }
    }
    for (const [id, slot] of slots) expect(table.slotOf(id)).toBe(slot);
    expect(table.count).toBe(slots.size);
  });

  it('replaces its rows array when it grows, keeping every row', () => {
    const table = new OrderTable(1, 4);
    const first = table.allocate(1);
    table.rows[first * ORDER_WIDTH + O_AMOUNT] = 42;
    const before = table.rows;
    table.allocate(2);
    expect(table.rows).not.toBe(before);
    expect(table.rows[first * ORDER_WIDTH + O_AMOUNT]).toBe(42);
  });

  it('refuses an id already open and a slot not open', () => {
    const table = new OrderTable(2, 4);
    const slot = table.allocate(5);
    table.allocate(9); // laps 5 into the side map
    expect(() => table.allocate(5)).toThrow(InvariantViolation);
    expect(() => table.allocate(9)).toThrow(InvariantViolation);
    table.release(slot);
    expect(() => table.release(slot)).toThrow(InvariantViolation);
    expect(table.count).toBe(1);
  });

  it("keeps each user's open orders newest first under random links and unlinks", () => {
    const op = fc.tuple(fc.boolean(), fc.nat(40), fc.nat());
    fc.assert(
      fc.property(fc.array(op, { minLength: 50, maxLength: 600 }), (ops) => {
        // Room for 2 holders at first, so the heads grow.
        const table = new OrderTable(4, 16, 2);
        const model = new Map<number, number[]>();
        let nextId = 1;
        for (const [link, user, pick] of ops) {
          const list = model.get(user) ?? [];
          model.set(user, list);
          if (link || list.length === 0) {
            const slot = table.allocate(nextId++);
            table.rows[slot * ORDER_WIDTH + O_USER] = user;
            table.linkUser(slot);
            list.unshift(slot);
          } else {
            const slot = list.splice(pick % list.length, 1)[0]!;
            table.unlinkUser(slot);
            table.release(slot);
          }
        }
        const rows = table.rows;
        const links = table.links;
        for (let user = 0; user <= 45; user++) {
          const walked: number[] = [];
          let prev = NONE;
          for (
            let s = table.firstOfUser(user);
            s !== NONE;
            s = links[s * LINK_WIDTH + LINK_USER_NEXT]!
          ) {
            if (links[s * LINK_WIDTH + LINK_USER_PREV] !== prev) return false;
            if (rows[s * ORDER_WIDTH + O_USER] !== user) return false;
            walked.push(s);
            prev = s;
          }
          expect(walked).toEqual(model.get(user) ?? []);
        }
        return true;
      }),
      { numRuns: 40 },
    );
  });
});
