// For tests of the columnar core's ranges: a new engine beside a bigint-only one, fed the same
// commands, with every result, event and state hash compared after each; on a market where
// a tick is one minor unit, so that huge amounts at tiny prices cost little.
import { expect } from 'vitest';
import { Engine, type EngineOptions } from '../engine.js';
import { State } from '../state.js';
import type { ApplyResult, Command } from '../types.js';

export type Input = Record<string, unknown> & { type: string };

/** BTC (8 decimals) and USDT (6), BTC_USDT with a tick and lot of one minor unit and these fees. */
export function setupCommands(makerFeePpm = 0, takerFeePpm = 0): Input[] {
  return [
    { type: 'asset.add', asset: 'BTC', decimals: 8 },
    { type: 'asset.add', asset: 'USDT', decimals: 6 },
    oneUnitMarket('BTC', makerFeePpm, takerFeePpm),
    ...[1, 2].flatMap((userId) => ['BTC', 'USDT'].flatMap((asset) => funding(userId, asset))),
  ];
}

/** `{stock}_USDT` (the stock in 8 decimals) with a tick and lot of one minor unit. */
export function oneUnitMarket(stock: string, makerFeePpm: number, takerFeePpm: number): Input {
  return {
    type: 'market.add',
    name: `${stock}_USDT`,
    stock,
    money: 'USDT',
    tickSize: 1n,
    lotSize: 1n,
    minAmount: 1n,
    pricePrecision: 6,
    amountPrecision: 8,
    makerFeePpm,
    takerFeePpm,
  };
}

/** 10^22 minor units of an asset deposited for a user and moved to their trade account. */
export function funding(userId: number, asset: string, amount = 10n ** 22n): Input[] {
  return [
    { type: 'balance.deposit', userId, asset, amount, businessId: `d${userId}${asset}` },
    {
      type: 'balance.transfer',
      userId,
      asset,
      amount,
      from: 'main',
      to: 'trade',
      businessId: `t${userId}${asset}`,
    },
  ];
}

function json(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `${v}n` : v));
}

/** A bigint-only engine and a new one, fed the same commands. */
export class Pair {
  readonly bigint = new Engine(new State());
  engine: Engine;
  private time = 1_000;

  constructor(private readonly options?: EngineOptions) {
    this.engine = new Engine(undefined, options);
  }

  /** Both engines apply it; their results and state hashes must agree. The new engine's result. */
  apply(input: Input): ApplyResult {
    const cmd = { ...input, time: this.time++ } as unknown as Command;
    const want = this.bigint.apply(cmd);
    const got = this.engine.apply(cmd);
    const view = (r: typeof want) =>
      json(r.ok ? { ok: true, events: r.events, result: r.result } : r);
    expect(view(got)).toBe(view(want));
    expect(this.engine.stateHash()).toBe(this.bigint.stateHash());
    return got;
  }

  /** The new engine restarted from its own snapshot, as a host restarts. */
  restart(): void {
    this.engine = Engine.restore(this.engine.snapshot(), this.options);
    expect(this.engine.stateHash()).toBe(this.bigint.stateHash());
  }
}

/** A pair set up with `setup`, on the columnar core. */
export function setUp(options?: EngineOptions, setup = setupCommands()): Pair {
  const pair = new Pair(options);
  for (const cmd of setup) pair.apply(cmd);
  expect(pair.engine.coreName).toBe('columnar');
  return pair;
}

/** A GTC limit buy on BTC_USDT. */
export const bid = (userId: number, amount: bigint, price: bigint): Input => ({
  type: 'order.limit',
  userId,
  market: 'BTC_USDT',
  side: 2,
  amount,
  price,
  timeInForce: 'GTC',
  source: 'api',
});

/** A GTC limit sell on BTC_USDT. */
export const ask = (userId: number, amount: bigint, price: bigint): Input => ({
  ...bid(userId, amount, price),
  side: 1,
});
