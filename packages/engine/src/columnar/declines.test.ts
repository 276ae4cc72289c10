// The columnar core's range checks: a command that would take a quantity past what its numbers
// hold exactly is declined before it changes anything, and the bigint core carries on with the
// same result a bigint-only engine gives.
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine.js';
import { State } from '../state.js';
import type { Command } from '../types.js';

type Input = Record<string, unknown> & { type: string };

const SETUP: Input[] = [
  { type: 'asset.add', asset: 'BTC', decimals: 8 },
  { type: 'asset.add', asset: 'USDT', decimals: 6 },
  {
    type: 'market.add',
    name: 'BTC_USDT',
    stock: 'BTC',
    money: 'USDT',
    // A tick of one minor unit: huge amounts at tiny prices cost little.
    tickSize: 1n,
    lotSize: 1n,
    minAmount: 1n,
    pricePrecision: 6,
    amountPrecision: 8,
    makerFeePpm: 0,
    takerFeePpm: 0,
  },
  ...[1, 2].flatMap((userId) =>
    ['BTC', 'USDT'].flatMap((asset) => [
      {
        type: 'balance.deposit',
        userId,
        asset,
        amount: 10n ** 22n,
        businessId: `d${userId}${asset}`,
      },
      {
        type: 'balance.transfer',
        userId,
        asset,
        amount: 10n ** 22n,
        from: 'main',
        to: 'trade',
        businessId: `t${userId}${asset}`,
      },
    ]),
  ),
];

function json(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `${v}n` : v));
}

/** A bigint-only engine and a new one, fed the same commands. */
class Pair {
  readonly bigint = new Engine(new State());
  readonly engine = new Engine();
  private time = 1_000;

  apply(input: Input): void {
    const cmd = { ...input, time: this.time++ } as unknown as Command;
    const want = this.bigint.apply(cmd);
    const got = this.engine.apply(cmd);
    const view = (r: typeof want) =>
      json(r.ok ? { ok: true, events: r.events, result: r.result } : r);
    expect(view(got)).toBe(view(want));
    expect(this.engine.stateHash()).toBe(this.bigint.stateHash());
  }
}

function setUp(): Pair {
  const pair = new Pair();
  for (const cmd of SETUP) pair.apply(cmd);
  expect(pair.engine.coreName).toBe('columnar');
  return pair;
}

const bid = (userId: number, amount: bigint, price: bigint): Input => ({
  type: 'order.limit',
  userId,
  market: 'BTC_USDT',
  side: 2,
  amount,
  price,
  timeInForce: 'GTC',
  source: 'api',
});

describe('columnar core: declines', () => {
  it('a bid that would take its side’s total of amounts past 2^53', () => {
    const pair = setUp();
    pair.apply(bid(1, 2n ** 52n, 1n));
    expect(pair.engine.coreName).toBe('columnar');
    pair.apply(bid(2, 2n ** 52n, 1n));
    expect(pair.engine.coreName).toBe('bigint');
    pair.apply({ type: 'order.cancelAll', userId: 1 });
  });

  it('an order whose fills could pass 2^53', () => {
    const pair = setUp();
    pair.apply(bid(1, 10n ** 8n, 10n ** 6n));
    expect(pair.engine.coreName).toBe('columnar');
    // 10^12 × 10^6 ticks: past 2^53 even before the fee's factors.
    pair.apply(bid(2, 10n ** 12n, 10n ** 6n));
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('a deposit past what two limbs hold', () => {
    const pair = setUp();
    const deposit = { type: 'balance.deposit', userId: 1, asset: 'BTC', businessId: 'big' };
    pair.apply({ ...deposit, amount: 2n ** 104n });
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('a rejected command is not a decline', () => {
    const pair = setUp();
    pair.apply(bid(1, 2n ** 60n, 0n));
    pair.apply({ type: 'order.cancel', userId: 1, orderId: 12345 });
    expect(pair.engine.coreName).toBe('columnar');
  });
});

describe('columnar core: declines for stops', () => {
  const sellStop = (amount: bigint): Input => ({
    type: 'order.stopLimit',
    userId: 1,
    market: 'BTC_USDT',
    side: 1,
    stopPrice: 5n,
    price: 1n,
    amount,
    source: 'web',
  });

  it('a trade that may fire a stop whose fills could pass 2^53', () => {
    const pair = setUp();
    // A last price of 10.
    pair.apply(bid(2, 1n, 10n));
    pair.apply({ ...bid(1, 1n, 10n), side: 1 });
    // A falling sell stop of 10^9 at a limit of 1 tick: what it freezes fits.
    pair.apply(sellStop(10n ** 9n));
    // A bid of 10^7 ticks that does not trade: nothing can fire.
    pair.apply(bid(2, 1n, 10n ** 7n));
    expect(pair.engine.coreName).toBe('columnar');
    // A sell that trades may fire the stop into that bid: 10^9 × 10^7 passes 2^53.
    pair.apply({ ...bid(1, 1n, 10n ** 7n), side: 1 });
    expect(pair.engine.coreName).toBe('bigint');
    pair.apply({ type: 'order.cancelAll', userId: 1 });
  });

  it('a stop whose amount would take the waiting stops’ sum past 2^53', () => {
    const pair = setUp();
    pair.apply(bid(2, 1n, 10n));
    pair.apply({ ...bid(1, 1n, 10n), side: 1 });
    pair.apply(sellStop(2n ** 52n));
    expect(pair.engine.coreName).toBe('columnar');
    pair.apply(sellStop(2n ** 52n));
    expect(pair.engine.coreName).toBe('bigint');
  });
});
