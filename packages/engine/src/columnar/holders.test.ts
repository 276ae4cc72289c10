// Finding a user's holder: ids in the dense array and beyond it, and every value that is not a
// known user's id.
import { describe, expect, it } from 'vitest';
import { State } from '../state.js';
import { BalanceTable } from './balanceTable.js';
import { HolderRegistry } from './holders.js';

describe('HolderRegistry.findUser', () => {
  it('finds every registered user, near and far ids alike, and no one else', () => {
    const meta = new State();
    const holders = new HolderRegistry(meta, new BalanceTable(2, 1));
    // Out of order, past the array's first length, and beyond the dense range.
    const ids = [7, 1, 64, 65, 500, 2 ** 20 - 1, 2 ** 20, 2 ** 20 + 3, 2 ** 40, 3];
    for (const id of ids) {
      meta.user(id);
      holders.registerUser(id);
    }
    const found = ids.map((id) => holders.findUser(id));
    // The system accounts are holders 0 to 2: users come after, each its own.
    expect(found).toEqual(ids.map((_, i) => 3 + i));
    for (const stranger of [2, 4, 63, 66, 499, 2 ** 20 - 2, 2 ** 20 + 1, 2 ** 40 + 1, 2 ** 53]) {
      expect(holders.findUser(stranger)).toBe(-1);
    }
    for (const bad of [0, -1, -7, 1.5, 7.000001, Number.NaN, Infinity, '7', 7n, null, undefined]) {
      expect(holders.findUser(bad)).toBe(-1);
    }
    // Registering again changes nothing.
    holders.registerUser(7);
    expect(holders.findUser(7)).toBe(3);
    expect(holders.count).toBe(3 + ids.length);
  });
});
