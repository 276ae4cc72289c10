// Finding a user's holder: ids in the dense array and beyond it, and every value that is not a
// known user's id. Which balances exist, and the bigint core's users and account sets, made only
// while a command reads them.
import { describe, expect, it } from 'vitest';
import { InvariantViolation } from '../errors.js';
import { State } from '../state.js';
import { BalanceTable } from './balanceTable.js';
import { ask, type Pair, setUp } from './enginePairTestKit.js';
import { HolderRegistry } from './holders.js';

describe('HolderRegistry.findUser', () => {
  it('finds every registered user, near and far ids alike, and no one else', () => {
    const meta = new State();
    const holders = new HolderRegistry(meta, new BalanceTable());
    // Out of order, past the array's first length, and beyond the dense range.
    const ids = [7, 1, 64, 65, 500, 2 ** 24 - 1, 2 ** 24, 2 ** 24 + 3, 2 ** 24 + 256, 2 ** 40, 3];
    for (const id of ids) {
      meta.user(id);
      holders.registerUser(id);
    }
    const found = ids.map((id) => holders.findUser(id));
    // The system accounts are holders 0 to 2: users come after, each its own.
    expect(found).toEqual(ids.map((_, i) => 3 + i));
    for (const stranger of [2, 4, 63, 66, 499, 2 ** 24 - 2, 2 ** 24 + 1, 2 ** 40 + 1, 2 ** 53]) {
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

  it("keeps each holder's owner, bigint holder and fee setting past its columns' first room", () => {
    const meta = new State();
    const holders = new HolderRegistry(meta, new BalanceTable());
    const ids = Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? 1000 + i : 2 ** 24 + i));
    for (const id of ids) {
      meta.user(id).customFee = id % 3 === 0;
      holders.registerUser(id);
    }
    expect(holders.count).toBe(3 + ids.length);
    expect([0, 1, 2].map((h) => holders.metaHolder(h))).toEqual([
      meta.external,
      meta.fees,
      meta.rounding,
    ]);
    ids.forEach((id, i) => {
      const h = holders.findUser(id);
      expect(h).toBe(3 + i);
      expect(holders.ownerCode(h)).toBe(id);
      expect(holders.metaHolder(h)).toBe(meta.users.get(id));
      expect(holders.paysLtt(h)).toBe(id % 3 === 0);
    });
    expect(holders.lttFeeUsers).toBe(ids.filter((id) => id % 3 === 0).length);
  });

  it('lists the users by id, near and far alike, with their fee settings, once none is lent', () => {
    const meta = new State();
    const holders = new HolderRegistry(meta, new BalanceTable());
    const ids = [2 ** 40, 9, 2 ** 24 + 5, 2, 2 ** 24 - 1, 70, 2 ** 24];
    for (const id of ids) {
      meta.user(id).customFee = id === 9 || id === 2 ** 24;
      holders.registerUser(id);
    }
    holders.takeBackAll();
    expect(meta.users.size).toBe(0);
    const sorted = [...ids].sort((a, b) => a - b);
    expect(holders.usersById().map((h) => holders.ownerOf(h))).toEqual(sorted);
    expect(holders.userRows()).toEqual(
      sorted.map((userId) => ({ userId, customFee: userId === 9 || userId === 2 ** 24 })),
    );
    expect([0, 1, 2].map((h) => holders.ownerOf(h))).toEqual(['external', 'fees', 'rounding']);
  });
});

describe('HolderRegistry: users and account sets only while a command reads them', () => {
  /**
   * A registry of 40 assets (past the 31 that bits of one number could mark) and user 5, taken
   * back as a restore leaves it.
   */
  function registry() {
    const meta = new State();
    const table = new BalanceTable();
    const holders = new HolderRegistry(meta, table);
    for (let index = 0; index < 40; index++) {
      const name = `A${index}`;
      meta.assets.set(name, { name, index, decimals: 8, deposited: 0n, withdrawn: 0n });
      table.addAsset();
    }
    meta.user(5).customFee = true;
    holders.registerUser(5);
    holders.takeBackAll();
    return { meta, table, holders, h: holders.findUser(5) };
  }

  it('lends the users and makes the sets that exist for a load; a store and a take-back keep what the command did and drop them', () => {
    const { meta, table, holders, h } = registry();
    holders.assertNothingLent();
    holders.ensureAccounts(h, 35);
    expect(holders.hasAccounts(h, 35)).toBe(true);
    expect(holders.hasAccounts(h, 3)).toBe(false);
    expect(table.setAvailable(35, table.cell(h, 1), 7n)).toBe(true);

    const involved = { holders: [holders.fees, h], assets: ['A35', 'A3'] };
    holders.lend(involved);
    const user = meta.users.get(5)!;
    expect([user.customFee, user.accountSets]).toEqual([true, []]);
    expect(holders.metaHolder(h)).toBe(user);
    holders.load(involved);
    // Only the one that exists, with the table's balance.
    expect(user.accountSets.map((set) => set.asset)).toEqual(['A35']);
    expect(user.find('A35')?.trade.available).toBe(7n);
    expect(() => holders.assertNothingLent()).toThrow('1 users lent between commands');

    // As a handler does: it moves a balance it loaded, makes another, and a fee account's.
    user.balance('A35', 'trade').available -= 2n;
    user.balance('A3', 'main').available += 4n;
    user.customFee = false;
    meta.fees.balance('A3', 'main').available += 1n;
    holders.store(involved);
    expect(user.accountSets).toEqual([]);
    expect(meta.fees.accountSets).toEqual([]);
    expect(() => holders.assertNothingLent()).toThrow(InvariantViolation);
    holders.takeBack(involved);
    holders.assertNothingLent();
    expect(meta.users.size).toBe(0);
    expect(table.available(35, table.cell(h, 1))).toBe(5n);
    expect(table.available(3, table.cell(h, 0))).toBe(4n);
    expect(table.available(3, table.cell(holders.fees, 0))).toBe(1n);
    expect(holders.hasAccounts(h, 3)).toBe(true);
    expect([holders.paysLtt(h), holders.lttFeeUsers]).toEqual([false, 0]);
  });

  it('finds a system account keeping sets between commands', () => {
    const { meta, holders } = registry();
    meta.rounding.balance('A1', 'main');
    expect(() => holders.assertNothingLent()).toThrow('holder -2 keeps account sets');
  });

  it('halts on a user left in the registry that the command did not name', () => {
    const { meta, holders, h } = registry();
    const involved = { holders: [h], assets: [] };
    holders.lend(involved);
    // A handler that made a user the registry was not told of.
    meta.user(77);
    expect(() => holders.takeBack(involved)).toThrow('1 users left in the registry');
  });

  it('lends every user and makes every set that exists for the bigint core to take over', () => {
    const { meta, holders, h } = registry();
    holders.ensureAccounts(h, 39);
    holders.ensureAccounts(h, 0);
    holders.lendAll();
    holders.loadAll();
    const user = meta.users.get(5)!;
    expect(user.customFee).toBe(true);
    // In the order the assets were added.
    expect(user.accountSets.map((set) => set.asset)).toEqual(['A0', 'A39']);
  });

  it('lists a balance that exists at zero, in the order the assets were added, on both cores', () => {
    const pair: Pair = setUp();
    pair.apply({ type: 'user.add', userId: 9 });
    pair.apply({ type: 'balance.deposit', userId: 9, asset: 'USDT', amount: 5n, businessId: 'd9' });
    // A sell of BTC that user 9 does not have: refused, and their BTC trade balance exists.
    expect(pair.apply(ask(9, 1n, 1n)).ok).toBe(false);
    const zero = { available: 0n, frozen: 0n };
    const expected = {
      BTC: { main: zero, trade: zero, margin: zero },
      USDT: { main: { available: 5n, frozen: 0n }, trade: zero, margin: zero },
    };
    for (const engine of [pair.engine, pair.bigint]) {
      const balances = engine.balances(9);
      expect(Object.keys(balances)).toEqual(['BTC', 'USDT']);
      expect(balances).toEqual(expected);
    }
    expect(pair.engine.coreName).toBe('columnar');
  });
});
