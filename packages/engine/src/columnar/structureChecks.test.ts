// The columnar core's own checks of its structures (Engine.assertValid runs them beside the
// bigint core's, invariants.test.ts): each test breaks one thing by hand, as only a bug could,
// and the check must name it. A check that never fails would pass every other test.
import { describe, expect, it } from 'vitest';
import { BookSide } from './bookSide.js';
import {
  O_AMOUNT,
  O_DIRECTION,
  O_LEFT,
  O_SIDE,
  O_STOP_TICKS,
  O_TICKS,
  O_USER,
  ORDER_WIDTH,
} from './orderRow.js';
import { OrderTable } from './orderTable.js';
import { StopLists } from './stopLists.js';

/** A new order's slot in `table` with these fields set. */
function order(table: OrderTable, id: number, fields: [number, number][]): number {
  const slot = table.allocate(id);
  for (const [field, value] of fields) table.rows[slot * ORDER_WIDTH + field] = value;
  return slot;
}

describe("a book side's check of its totals", () => {
  /** Bids at 10 and 11 ticks, two at 11. */
  function bids() {
    const table = new OrderTable();
    const side = new BookSide(table, false);
    const slots = [10, 11, 11].map((ticks, i) => {
      const slot = order(table, i + 1, [
        [O_TICKS, ticks],
        [O_LEFT, 5],
      ]);
      side.add(slot);
      return slot;
    });
    side.assertTotals('bids');
    return { table, side, slots };
  }

  it('sees a level whose orders have more than its total, though the side adds up', () => {
    const { table, slots, side } = bids();
    table.rows[slots[0]! * ORDER_WIDTH + O_LEFT]! += 1;
    table.rows[slots[1]! * ORDER_WIDTH + O_LEFT]! -= 1;
    expect(() => side.assertTotals('bids')).toThrow(/bids: level at 10 totals 6, kept as 5/);
  });

  it('sees a side whose total is not its levels’', () => {
    const { side } = bids();
    (side as unknown as { sideUnits: number }).sideUnits += 1;
    expect(() => side.assertTotals('bids')).toThrow(/bids: side totals 15, kept as 16/);
  });
});

describe("the order table's check of its users' lists", () => {
  it('sees a count of open orders that is not the length of the list', () => {
    const table = new OrderTable();
    for (const id of [1, 2]) table.linkUser(order(table, id, [[O_USER, 3]]));
    table.assertUserCounts();
    (table as unknown as { userOpen: Int32Array }).userOpen[3] = 3;
    expect(() => table.assertUserCounts()).toThrow(/holder 3: 3 open orders counted, 2 listed/);
  });
});

describe("the stop lists' check", () => {
  /** Two rising sell stops at 20 and 30 ticks, and a rising buy stop at 25, limit 40. */
  function stops() {
    const table = new OrderTable();
    const lists = new StopLists(table, 1);
    const stop = (id: number, side: number, stopTicks: number) => {
      const slot = order(table, id, [
        [O_SIDE, side],
        [O_DIRECTION, 1],
        [O_STOP_TICKS, stopTicks],
        [O_TICKS, 40],
        [O_AMOUNT, 7],
        [O_LEFT, 7],
      ]);
      lists.add(slot);
      return slot;
    };
    const slots = [stop(1, 1, 20), stop(2, 1, 30), stop(3, 2, 25)];
    lists.assertValid('M');
    return { table, lists, slots };
  }

  it('sees stops out of firing order', () => {
    const { table, lists, slots } = stops();
    table.rows[slots[0]! * ORDER_WIDTH + O_STOP_TICKS] = 35;
    expect(() => lists.assertValid('M')).toThrow(/M stops: out of firing order/);
  });

  it('sees a stop in the list of the other direction', () => {
    const { table, lists, slots } = stops();
    table.rows[slots[1]! * ORDER_WIDTH + O_DIRECTION] = -1;
    expect(() => lists.assertValid('M')).toThrow(/order 2 in the wrong stop list/);
  });

  it('sees a sell stop larger than the bound kept on them', () => {
    const { lists } = stops();
    lists.sellAmountMax = 6;
    expect(() => lists.assertValid('M')).toThrow(/M: sell stop over the bound/);
  });

  it('sees a sum of amounts other than the stops’', () => {
    const { lists } = stops();
    lists.amountUnits += 1;
    expect(() => lists.assertValid('M')).toThrow(/M: stops' amounts 21 kept as 22/);
  });

  it('sees a sum of the buy stops’ products other than theirs', () => {
    const { table, lists, slots } = stops();
    table.rows[slots[2]! * ORDER_WIDTH + O_TICKS] = 41;
    expect(() => lists.assertValid('M')).toThrow(/M: buy stops' products wrong/);
  });
});
