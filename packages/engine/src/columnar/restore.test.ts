// Restoring into the columnar core gives what restoring into the bigint core gives, down to
// which balances a user's balances list (a resting order's user has both of its market's trade
// balances, zero or not).
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine.js';
import { restoreState } from '../snapshot.js';
import type { Command } from '../types.js';

function json(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `${v}n` : v));
}

const COMMANDS = [
  { type: 'asset.add', asset: 'BTC', decimals: 8 },
  { type: 'asset.add', asset: 'USDT', decimals: 6 },
  {
    type: 'market.add',
    name: 'BTC_USDT',
    stock: 'BTC',
    money: 'USDT',
    tickSize: 10_000n,
    lotSize: 1n,
    minAmount: 1n,
    pricePrecision: 2,
    amountPrecision: 8,
    makerFeePpm: 1000,
    takerFeePpm: 2000,
  },
  // Only money: the bid's stock balance exists because of the order alone.
  { type: 'balance.deposit', userId: 1, asset: 'USDT', amount: 10n ** 12n, businessId: 'd' },
  {
    type: 'balance.transfer',
    userId: 1,
    asset: 'USDT',
    amount: 10n ** 12n,
    from: 'main',
    to: 'trade',
    businessId: 't',
  },
  {
    type: 'order.limit',
    userId: 1,
    market: 'BTC_USDT',
    side: 2,
    amount: 10n ** 8n,
    price: 30_000_000_000n,
    timeInForce: 'GTC',
    source: 'web',
  },
];

describe('columnar core: restore', () => {
  it('lists the same balances as the bigint core restored from the same snapshot', () => {
    const engine = new Engine();
    COMMANDS.forEach((cmd, i) => {
      expect(engine.apply({ ...cmd, time: 1_000 + i } as unknown as Command).ok).toBe(true);
    });
    const snapshot = JSON.parse(JSON.stringify(engine.snapshot()));
    const columnar = Engine.restore(snapshot);
    const bigint = new Engine(restoreState(snapshot));
    expect(columnar.coreName).toBe('columnar');
    expect(Object.keys(bigint.balances(1))).toEqual(['BTC', 'USDT']);
    expect(json(columnar.balances(1))).toBe(json(bigint.balances(1)));
    expect(columnar.stateHash()).toBe(bigint.stateHash());
  });
});
