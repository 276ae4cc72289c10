// Finding a user's holder: ids in the dense array and beyond it, and every value that is not a
// known user's id. Which balances exist, and the bigint core's account sets made only while a
// command reads them.
import { describe, expect, it } from 'vitest';
import { InvariantViolation } from '../errors.js';
import { State } from '../state.js';
import { BalanceTable } from './balanceTable.js';
import { ask, type Pair, setUp } from './enginePairTestKit.js';
import { HolderRegistry } from './holders.js';

describe('HolderRegistry.findUser', () => {
  it('finds every registered user, near and far ids alike, and no one else', () => {
    const meta = new State();
    const holders = new HolderRegistry(meta, new BalanceTable(1));
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
    const holders = new HolderRegistry(meta, new BalanceTable(1));
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
});

describe('HolderRegistry: account sets only while a command reads them', () => {
  /** A registry of 40 assets (past the 31 that bits of one number could mark) and user 5. */
  function registry() {
    const meta = new State();
    const table = new BalanceTable(1);
    const holders = new HolderRegistry(meta, table);
    for (let index = 0; index < 40; index++) {
      const name = `A${index}`;
      meta.assets.set(name, { name, index, decimals: 8, deposited: 0n, withdrawn: 0n });
      table.addAsset();
    }
    meta.user(5);
    holders.registerUser(5);
    const h = holders.findUser(5);
    return { table, holders, h, user: holders.metaHolder(h) };
  }

  it('makes the sets that exist for a load, and a store keeps what the command did and drops them', () => {
    const { table, holders, h, user } = registry();
    holders.ensureAccounts(h, 35);
    expect(holders.hasAccounts(h, 35)).toBe(true);
    expect(holders.hasAccounts(h, 3)).toBe(false);
    expect(user.accountSets).toEqual([]);
    expect(table.setAvailable(table.cell(h, 35, 1), 7n)).toBe(true);

    const involved = { holders: [h], assets: ['A35', 'A3'] };
    holders.load(involved);
    // Only the one that exists, with the table's balance.
    expect(user.accountSets.map((set) => set.asset)).toEqual(['A35']);
    expect(user.find('A35')?.trade.available).toBe(7n);
    expect(() => holders.assertNoAccountSets()).toThrow(InvariantViolation);
    expect(() => holders.assertNoAccountSets()).toThrow('holder 5 keeps account sets');

    // As a handler does: it moves a balance it loaded and makes another.
    user.balance('A35', 'trade').available -= 2n;
    user.balance('A3', 'main').available += 4n;
    holders.store(involved);
    expect(user.accountSets).toEqual([]);
    holders.assertNoAccountSets();
    expect(table.available(table.cell(h, 35, 1))).toBe(5n);
    expect(table.available(table.cell(h, 3, 0))).toBe(4n);
    expect(holders.hasAccounts(h, 3)).toBe(true);
  });

  it('makes every set that exists for the bigint core to take over', () => {
    const { holders, h, user } = registry();
    holders.ensureAccounts(h, 39);
    holders.ensureAccounts(h, 0);
    holders.loadAll();
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
