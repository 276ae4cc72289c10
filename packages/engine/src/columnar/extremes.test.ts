// The columnar core's range checks at their edges: orders, stops and OCO pairs at prices and
// amounts whose products pass 2^53 and whose values come near it, on markets with lots of one
// minor unit and of 1,000, and one whose stock has no decimals (a deal's money is then amount ×
// price itself). An engine that hands over and comes back every few commands must give what the
// bigint core alone gives, command for command: a fill settled in numbers past 2^53, or a value
// past it, would round, or throw in the columnar core, and show here as a difference. Each
// bound is pinned by a case of its own in declines.test.ts, the fills in bigint by
// bigFills.test.ts; these runs check that all of them together, and the moves between cores,
// change nothing.
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine.js';
import { State } from '../state.js';
import type { ApplyResult, Command } from '../types.js';

const MARKET = 'BTC_USDT';
// With the round values, odd ones whose products and sums fall one past a multiple of what they
// are divided by, past 2^53, where a double would round: 10^8 + 1 at 10^8 + 1, and so on.
const PRICES = [
  ...[1n, 2n, 5n, 10n, 20n, 100n, 10n ** 6n, 10n ** 7n, 10n ** 9n, 10n ** 12n],
  ...[10n ** 8n + 1n, 3n * 10n ** 8n, 1_533_333_333_333_333n, 9n * 10n ** 15n],
];
const SELF_TRADE = ['cancelOldest', 'cancelOldest', 'cancelBoth', 'cancelNewest'];
const AMOUNTS = [
  ...[1n, 2n, 10n, 1000n, 6000n, 10n ** 5n, 10n ** 6n, 10n ** 9n, 2n ** 40n, 2n ** 52n],
  ...[5n * 10n ** 7n + 1n, 10n ** 8n + 1n, 10n ** 13n + 1n, 2n ** 50n + 1n, 2n ** 51n],
];
/** Maker and taker fees in parts per million; 1 and 3 make a fee's numerator 3 × the value's. */
const FEES = [
  [0, 0],
  [1000, 0],
  [0, 2000],
  [1000, 2000],
  [1, 3],
] as const;

/**
 * A small deterministic generator (a linear congruential one): the same runs every time. Each
 * call gives a whole number below `n`, from the state's high bits (its low bits repeat soon).
 */
function generator(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state >>> 16) % n;
  };
}

function json(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `${v}n` : v));
}

function outcome(engine: Engine, cmd: Command): string {
  try {
    const r: ApplyResult = engine.apply(cmd);
    return json(r.ok ? { ok: true, events: r.events, result: r.result } : r);
  } catch (error) {
    return `threw ${String(error)}`;
  }
}

interface Seen {
  handOvers: number;
  returns: number;
  /** Commands the columnar core applied that made deals. */
  tradesOnColumnar: number;
}

function run(seed: number, seen: Seen): void {
  const random = generator(seed);
  const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
  const shape = seed % 3;
  const lot = shape === 1 ? 1000n : 1n;
  const stockDecimals = shape === 2 ? 0 : 8;
  const [makerFeePpm, takerFeePpm] = pick(FEES);
  const fees = { makerFeePpm, takerFeePpm };
  const model = new Engine(new State());
  let engine = new Engine(undefined, { returnAfter: 8 });
  let time = 1_000;
  const send = (input: Record<string, unknown>) => {
    const cmd = { ...input, time: time++ } as unknown as Command;
    const before = engine.coreName;
    const want = outcome(model, cmd);
    const got = outcome(engine, cmd);
    if (got !== want) expect(got, `seed ${seed}: ${json(cmd)}`).toBe(want);
    if (before !== engine.coreName) {
      if (engine.coreName === 'bigint') seen.handOvers++;
      else seen.returns++;
    } else if (before === 'columnar' && got.includes('"type":"deal"')) {
      seen.tradesOnColumnar++;
    }
  };
  send({ type: 'asset.add', asset: 'BTC', decimals: stockDecimals });
  send({ type: 'asset.add', asset: 'USDT', decimals: 6 });
  send({
    type: 'market.add',
    name: MARKET,
    stock: 'BTC',
    money: 'USDT',
    tickSize: 1n,
    lotSize: lot,
    minAmount: lot,
    pricePrecision: 6,
    amountPrecision: shape === 1 ? 5 : stockDecimals,
    ...fees,
  });
  for (const userId of [1, 2, 3]) {
    for (const asset of ['BTC', 'USDT']) {
      const funds = { userId, asset, amount: 10n ** 30n };
      send({ ...funds, type: 'balance.deposit', businessId: `d${userId}${asset}` });
      const move = { from: 'main', to: 'trade', businessId: `t${userId}${asset}` };
      send({ ...funds, ...move, type: 'balance.transfer' });
    }
  }
  const limit = { type: 'order.limit', market: MARKET, timeInForce: 'GTC', source: 'api' };
  // A last price of 10, so that stops have a side to be on.
  send({ ...limit, userId: 1, side: 2, price: 10n, amount: lot });
  send({ ...limit, userId: 2, side: 1, price: 10n, amount: lot });
  for (let i = 0; i < 150; i++) {
    // A third of the orders pass or cancel their user's own resting orders (self-trade prevention).
    const selfTrade = random(3) === 0 ? { selfTradePrevention: pick(SELF_TRADE) } : {};
    const order = { userId: 1 + random(3), market: MARKET, source: 'api', ...selfTrade };
    const side = 1 + random(2);
    const amount = pick(AMOUNTS) * lot;
    const price = pick(PRICES);
    const kind = random(100);
    if (kind < 40) {
      send({ ...limit, ...order, side, price, amount, timeInForce: pick(['GTC', 'GTC', 'IOC']) });
    } else if (kind < 55) {
      send({ ...order, type: 'order.market', side, amount });
    } else if (kind < 60) {
      send({ ...order, type: 'order.market', side: 2, total: pick(AMOUNTS) * 1000n });
    } else if (kind < 78) {
      send({ ...order, type: 'order.stopLimit', side, stopPrice: pick(PRICES), price, amount });
    } else if (kind < 88) {
      const legs = { stopPrice: pick(PRICES), limitPrice: pick(PRICES) };
      send({ ...order, type: 'order.oco', side, price, amount, ...legs });
    } else if (kind < 97) {
      send({ type: 'order.cancelAll', userId: order.userId });
    } else {
      // A restart: the restore puts the state in the core whose ranges hold it.
      engine = Engine.restore(engine.snapshot(), { returnAfter: 8 });
      expect(engine.stateHash(), `seed ${seed}: restored`).toBe(model.stateHash());
    }
  }
  expect(engine.stateHash(), `seed ${seed}`).toBe(model.stateHash());
}

describe('columnar core at the edges of its ranges', () => {
  it('gives what the bigint core gives, through hand-overs and returns', () => {
    const seen: Seen = { handOvers: 0, returns: 0, tradesOnColumnar: 0 };
    for (let seed = 1; seed <= 200; seed++) run(seed, seen);
    // The runs reached every path: hand-overs, returns, and trading on the columnar core.
    expect(seen.handOvers).toBeGreaterThan(200);
    expect(seen.returns).toBeGreaterThan(100);
    expect(seen.tradesOnColumnar).toBeGreaterThan(200);
    // 200 runs of 150 orders, each through both engines and a state hash per run: seconds.
  }, 60_000);
});
