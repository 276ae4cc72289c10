// The columnar core's range checks: a command that would take a quantity past what its numbers
// hold exactly is declined before it changes anything, and the bigint core carries on with the
// same result a bigint-only engine gives; later the engine goes back to the columnar core when
// the state fits it again.
import { describe, expect, it } from 'vitest';
import { Engine, type EngineOptions } from '../engine.js';
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
  readonly engine: Engine;
  private time = 1_000;

  constructor(options?: EngineOptions) {
    this.engine = new Engine(undefined, options);
  }

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

function setUp(options?: EngineOptions): Pair {
  const pair = new Pair(options);
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

  it('a market buy is bounded by what it can take from the asks, not by the far end of the book', () => {
    const pair = setUp();
    pair.apply({ ...bid(1, 10n ** 6n, 100n), side: 1 });
    // One minor unit offered at 10^12 ticks: its own fills fit.
    pair.apply({ ...bid(1, 1n, 10n ** 12n), side: 1 });
    expect(pair.engine.coreName).toBe('columnar');
    const buy = { type: 'order.market', userId: 2, market: 'BTC_USDT', side: 2, source: 'api' };
    // 10^5 × 10^12 at the far end would pass 2^53; the amount is covered at 100.
    pair.apply({ ...buy, amount: 10n ** 5n });
    expect(pair.engine.coreName).toBe('columnar');
    // One that takes the rest at 100 and the unit at 10^12: 9 × 10^7 + 10^12.
    pair.apply({ ...buy, amount: 900_001n });
    expect(pair.engine.coreName).toBe('columnar');
    // Two more asks of 6,000 at 10^12: each one's fills fit, a buy that takes both does not.
    pair.apply({ ...bid(1, 6000n, 10n ** 12n), side: 1 });
    pair.apply({ ...bid(1, 6000n, 10n ** 12n), side: 1 });
    expect(pair.engine.coreName).toBe('columnar');
    pair.apply({ ...buy, amount: 10n ** 6n });
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('a sell is bounded by the bids it can reach, not by the best bid alone', () => {
    const pair = setUp();
    pair.apply(bid(1, 10n ** 6n, 100n));
    // One minor unit bid at 10^12 ticks: the best bid, and its own fills fit.
    pair.apply(bid(1, 1n, 10n ** 12n));
    expect(pair.engine.coreName).toBe('columnar');
    // 10^5 × 10^12 would pass 2^53; what they can trade is 1 × 10^12 and the rest at 100.
    pair.apply({ ...bid(2, 10n ** 5n, 100n), side: 1 });
    const sell = { type: 'order.market', userId: 2, market: 'BTC_USDT', side: 1, source: 'api' };
    pair.apply(bid(1, 1n, 10n ** 12n));
    pair.apply({ ...sell, amount: 10n ** 5n });
    expect(pair.engine.coreName).toBe('columnar');
    // Two bids of 6,000 at 10^12 ticks: each one's fills fit, a sell that takes both does not.
    pair.apply(bid(1, 6000n, 10n ** 12n));
    pair.apply(bid(1, 6000n, 10n ** 12n));
    expect(pair.engine.coreName).toBe('columnar');
    pair.apply({ ...sell, amount: 12_000n });
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('a sell whose rest at its own price could fill past 2^53 declines', () => {
    const pair = setUp();
    pair.apply(bid(1, 1n, 10n ** 12n));
    // It takes the one unit at 10^12, and 10^10 − 1 rest at 10^6 ticks: 10^16 to come.
    pair.apply({ ...bid(2, 10n ** 10n, 10n ** 6n), side: 1 });
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('an OCO sell is bounded by the bids its limit leg can reach', () => {
    const pair = setUp();
    pair.apply(bid(2, 1n, 10n));
    pair.apply({ ...bid(1, 1n, 10n), side: 1 });
    pair.apply(bid(2, 1n, 10n ** 12n));
    const oco = { type: 'order.oco', userId: 1, market: 'BTC_USDT', side: 1, source: 'api' };
    // 10^5 at the best bid would pass 2^53; its limit leg takes 1 at 10^12 and rests at 20.
    pair.apply({ ...oco, amount: 10n ** 5n, price: 20n, stopPrice: 5n, limitPrice: 4n });
    expect(pair.engine.coreName).toBe('columnar');
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

  it('a small buy stop with a far limit does not decline every trade; their sum counts', () => {
    const pair = setUp();
    pair.apply(bid(2, 1n, 10n));
    pair.apply({ ...bid(1, 1n, 10n), side: 1 });
    pair.apply(sellStop(10n ** 9n));
    const buyStop = (amount: bigint): Input => ({
      ...sellStop(amount),
      userId: 2,
      side: 2,
      stopPrice: 20n,
      price: 10n ** 12n,
    });
    // One unit at a limit of 10^12 ticks: the largest stop amount at the highest limit would be
    // 10^21, but this stop can give a sell stop no more than 10^12.
    pair.apply(buyStop(1n));
    pair.apply(bid(2, 1n, 10n));
    pair.apply({ ...bid(1, 1n, 10n), side: 1 });
    expect(pair.engine.coreName).toBe('columnar');
    // Two of 6,000 at that limit: 1.2 × 10^16 that a sell stop could take, past 2^53.
    pair.apply(buyStop(6000n));
    pair.apply(buyStop(6000n));
    pair.apply(bid(2, 1n, 10n));
    expect(pair.engine.coreName).toBe('columnar');
    pair.apply({ ...bid(1, 1n, 10n), side: 1 });
    expect(pair.engine.coreName).toBe('bigint');
    pair.apply({ type: 'order.cancelAll', userId: 2 });
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

describe('columnar core: going back after a hand-over', () => {
  /** A cancel of an order that does not exist: a command that changes nothing. */
  const idle: Input = { type: 'order.cancel', userId: 1, orderId: 999_999 };

  it('goes back when a try finds the state fitting again', () => {
    const pair = setUp({ returnAfter: 3 });
    pair.apply(bid(1, 10n ** 8n, 10n ** 6n));
    // 10^12 × 10^6 ticks: the fills it could make pass 2^53, so it is placed on the bigint core.
    pair.apply(bid(2, 10n ** 12n, 10n ** 6n));
    expect(pair.engine.coreName).toBe('bigint');
    expect(pair.engine.commandsBeforeReturn).toBe(3);
    for (let i = 0; i < 3; i++) pair.apply(idle);
    // The fourth command after the hand-over comes after a try: the large bid still rests, as
    // no order on the columnar core may, so it stays; then the bid goes.
    pair.apply({ type: 'order.cancelAll', userId: 2 });
    expect(pair.engine.coreName).toBe('bigint');
    // The wait doubled to 6, that cancel the first of them: the seventh command from the try
    // runs on the columnar core.
    expect(pair.engine.commandsBeforeReturn).toBe(5);
    for (let i = 0; i < 5; i++) pair.apply(idle);
    expect(pair.engine.coreName).toBe('bigint');
    pair.apply({ ...bid(2, 10n ** 8n, 10n ** 6n), side: 1 });
    expect(pair.engine.coreName).toBe('columnar');
    expect(pair.engine.commandsBeforeReturn).toBeNull();
    pair.apply({ ...bid(1, 2n * 10n ** 8n, 10n ** 5n), side: 1 });
    pair.apply({ type: 'order.cancelAll', userId: 1 });
    expect(pair.engine.coreName).toBe('columnar');
  });

  it('waits twice as long after each try that does not fit, and after each hand-over', () => {
    const pair = setUp({ returnAfter: 2 });
    const deposit = { type: 'balance.deposit', userId: 1, asset: 'BTC', businessId: 'big' };
    // Deposits past what two limbs hold: the asset's deposits never fit again.
    pair.apply({ ...deposit, amount: 2n ** 104n });
    expect(pair.engine.coreName).toBe('bigint');
    expect(pair.engine.commandsBeforeReturn).toBe(2);
    // Each try fails, and the wait doubles: 2, 4, 8, 16.
    for (const wait of [4, 8, 16]) {
      for (let i = 0; i < 3; i++) pair.apply(idle);
      expect(pair.engine.coreName).toBe('bigint');
      expect(pair.engine.commandsBeforeReturn).toBe(wait - 1);
      for (let i = 3; i < wait; i++) pair.apply(idle);
    }
  });

  it('a restore onto the bigint core tries the columnar core later; a bigint-only engine never', () => {
    const pair = setUp();
    pair.apply(bid(1, 10n ** 8n, 10n ** 6n));
    pair.apply(bid(2, 10n ** 12n, 10n ** 6n));
    const restored = Engine.restore(pair.engine.snapshot());
    expect(restored.coreName).toBe('bigint');
    expect(restored.commandsBeforeReturn).toBe(1024);
    expect(pair.bigint.commandsBeforeReturn).toBeNull();
    expect(new Engine(new State()).commandsBeforeReturn).toBeNull();
  });
});
