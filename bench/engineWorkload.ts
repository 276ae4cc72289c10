// The engine bench's workload (bench/engine.ts, bench/engineAb.ts): one market, a book of ~10k
// resting orders, then 70% GTC limit orders at mid ± 1..1000 ticks (about a third marketable,
// steered to keep ~10k resting), 20% cancels of a random resting order and 10% market orders.
//
// Every operation is decided before any timing (a seeded PRNG). To know which orders rest (for
// the cancels) and how many (to steer the book around 10k), generation drives an untimed
// engine; the timed runs replay the finished list. The list is kept in typed arrays: a million
// command objects would sit in the heap and slow every collection of the contenders timed. Each
// timed loop builds the call's argument object from the list (commandAt).
import { type Command, Engine } from '@lattice/engine';

export const MARKET = 'BTC_USDT';
export const TICK = 1_000_000n; // 0.01 USDT with 8 decimals
export const MID_TICKS = 100_000; // 1000.00
const SIZE_MIN = 100_000; // 0.001 BTC in minor units (8 decimals)
const SIZE_MAX = 100_000_000; // 1.0 BTC
export const SIZE_POOL = 4096;
const PRICE_LOW = MID_TICKS - 10_000;
const PRICE_HIGH = MID_TICKS + 10_000;
export const USERS = 1000;
const SEEDED_ORDERS = 10_000;
const RESTING_TARGET = 10_000;
export const SETUP_TIME = 1_700_000_000_000;
export const BATCH = 100;
export const CHUNK = 10_000;
export const WARM_UP = 100_000;

export const LIMIT = 0;
export const MARKET_ORDER = 1;
export const CANCEL = 2;

/** mulberry32: a small seeded PRNG, so the same seed gives the same workload. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The operations, column by column. */
export class Ops {
  readonly kind: Uint8Array;
  readonly side: Uint8Array;
  readonly user: Int32Array;
  readonly ticks: Int32Array;
  readonly size: Int32Array;
  /** A limit order's own id, or the id a cancel targets. */
  readonly orderId: Float64Array;
  length = 0;
  constructor(capacity: number) {
    this.kind = new Uint8Array(capacity);
    this.side = new Uint8Array(capacity);
    this.user = new Int32Array(capacity);
    this.ticks = new Int32Array(capacity);
    this.size = new Int32Array(capacity);
    this.orderId = new Float64Array(capacity);
  }
  push(kind: number, side: number, user: number, ticks: number, size: number, id: number): number {
    const i = this.length++;
    this.kind[i] = kind;
    this.side[i] = side;
    this.user[i] = user;
    this.ticks[i] = ticks;
    this.size[i] = size;
    this.orderId[i] = id;
    return i;
  }
}

/** Sizes are drawn from a fixed pool, so their bigints exist once and not per operation. */
export class Amounts {
  readonly sizes: number[] = [];
  readonly sizeBig: bigint[] = [];
  /** Prices by tick count around the mid, made once (the book stays within a few thousand). */
  private readonly priceBig: bigint[] = [];
  constructor(rand: () => number) {
    for (let i = 0; i < SIZE_POOL; i++) {
      const size = SIZE_MIN + Math.floor(rand() * (SIZE_MAX - SIZE_MIN + 1));
      this.sizes.push(size);
      this.sizeBig.push(BigInt(size));
    }
    for (let ticks = PRICE_LOW; ticks <= PRICE_HIGH; ticks++)
      this.priceBig.push(BigInt(ticks) * TICK);
  }
  price(ticks: number): bigint {
    return this.priceBig[ticks - PRICE_LOW] ?? BigInt(ticks) * TICK;
  }
}

export function commandAt(ops: Ops, amounts: Amounts, i: number, time: number): Command {
  const side = ops.side[i] as 1 | 2;
  const userId = ops.user[i]!;
  switch (ops.kind[i]) {
    case LIMIT:
      return {
        type: 'order.limit',
        time,
        userId,
        market: MARKET,
        side,
        price: amounts.price(ops.ticks[i]!),
        amount: amounts.sizeBig[ops.size[i]!]!,
        timeInForce: 'GTC',
        source: 'api',
      };
    case MARKET_ORDER:
      return {
        type: 'order.market',
        time,
        userId,
        market: MARKET,
        side,
        amount: amounts.sizeBig[ops.size[i]!]!,
        source: 'api',
      };
    default:
      return { type: 'order.cancel', time, userId, orderId: ops.orderId[i]! };
  }
}

/**
 * The nth of a book of resting orders that never cross, for the measures that build one (the
 * snapshot's, the book growth's): bids below the mid and asks above it, up to 3,000 ticks away,
 * alternately, each from a random user and of a random size.
 */
export function restingOrder(n: number, rand: () => number, amounts: Amounts): Command {
  const side = n % 2 === 0 ? 2 : 1;
  const away = 1 + Math.floor(rand() * 3000);
  return orderAt(side, side === 2 ? MID_TICKS - away : MID_TICKS + away, rand, amounts);
}

/** The `n`th of asks a tick apart above the mid: each at a price of its own, a new level. */
export function newLevelOrder(n: number, rand: () => number, amounts: Amounts): Command {
  return orderAt(1, MID_TICKS + 1 + n, rand, amounts);
}

/** A GTC limit order at `ticks`, of a random user and size. */
function orderAt(side: 1 | 2, ticks: number, rand: () => number, amounts: Amounts): Command {
  return {
    type: 'order.limit',
    time: SETUP_TIME,
    userId: 1 + Math.floor(rand() * USERS),
    market: MARKET,
    side,
    price: amounts.price(ticks),
    amount: amounts.sizeBig[Math.floor(rand() * SIZE_POOL)]!,
    timeInForce: 'GTC',
    source: 'api',
  };
}

export function setupCommands(): Command[] {
  const t = SETUP_TIME;
  const cmds: Command[] = [
    { type: 'asset.add', time: t, asset: 'BTC', decimals: 8 },
    { type: 'asset.add', time: t, asset: 'USDT', decimals: 8 },
    {
      type: 'market.add',
      time: t,
      name: MARKET,
      stock: 'BTC',
      money: 'USDT',
      tickSize: TICK,
      lotSize: 1n,
      minAmount: BigInt(SIZE_MIN),
      pricePrecision: 2,
      amountPrecision: 8,
      makerFeePpm: 1000,
      takerFeePpm: 2000,
    },
  ];
  const plenty = 10n ** 20n;
  for (let user = 1; user <= USERS; user++) {
    for (const asset of ['BTC', 'USDT']) {
      const businessId = `${user}-${asset}`;
      const base = { time: t, userId: user, asset, amount: plenty } as const;
      cmds.push({ ...base, type: 'balance.deposit', businessId: `d${businessId}` });
      const move = { from: 'main', to: 'trade', businessId: `t${businessId}` } as const;
      cmds.push({ ...base, ...move, type: 'balance.transfer' });
    }
  }
  return cmds;
}

/** Tracks which orders rest on the book, for cancels and for steering its size. */
class RestingSet {
  private readonly ids: number[] = [];
  private readonly index = new Map<number, number>();
  get size(): number {
    return this.ids.length;
  }
  add(id: number): void {
    this.index.set(id, this.ids.length);
    this.ids.push(id);
  }
  remove(id: number): void {
    const i = this.index.get(id);
    if (i === undefined) return;
    const last = this.ids.pop()!;
    if (last !== id) {
      this.ids[i] = last;
      this.index.set(last, i);
    }
    this.index.delete(id);
  }
  pick(r: number): number {
    return this.ids[Math.floor(r * this.ids.length)]!;
  }
}

export interface Workload {
  amounts: Amounts;
  seed: Ops;
  ops: Ops;
}

class Generator {
  readonly engine = new Engine();
  readonly resting = new RestingSet();
  constructor(
    readonly rand: () => number,
    readonly amounts: Amounts,
  ) {
    for (const cmd of setupCommands()) this.engine.apply(cmd);
  }

  /** Apply operation i to the untimed engine and note what rests. */
  track(ops: Ops, i: number, time: number): void {
    const result = this.engine.apply(commandAt(ops, this.amounts, i, time));
    if (!result.ok) throw new Error(`workload command rejected: ${result.code}`);
    for (const event of result.events) {
      if (event.type === 'order.put') this.resting.add(event.order.id);
      else if (event.type === 'order.finish') this.resting.remove(event.order.id);
    }
  }

  midTicks(): number {
    const depth = this.engine.depth(MARKET, 1);
    const ask = depth.asks[0]?.[0];
    const bid = depth.bids[0]?.[0];
    return ask === undefined || bid === undefined ? MID_TICKS : Number((ask + bid) / 2n / TICK);
  }

  /** Seed orders: half bids below mid, half asks above, 1..1000 ticks away. */
  seed(ops: Ops): void {
    for (let n = 0; n < SEEDED_ORDERS; n++) {
      const side = n % 2 === 0 ? 2 : 1;
      const away = 1 + Math.floor(this.rand() * 1000);
      const ticks = side === 2 ? MID_TICKS - away : MID_TICKS + away;
      const user = 1 + Math.floor(this.rand() * USERS);
      const size = Math.floor(this.rand() * SIZE_POOL);
      const i = ops.push(LIMIT, side, user, ticks, size, this.engine.nextOrderId);
      this.track(ops, i, SETUP_TIME);
    }
  }

  /** 70% limit orders (about a third marketable), 20% cancels, 10% market orders. */
  next(ops: Ops, time: number): void {
    const rand = this.rand;
    const roll = rand();
    const user = 1 + Math.floor(rand() * USERS);
    const side = rand() < 0.5 ? 1 : 2;
    const size = Math.floor(rand() * SIZE_POOL);
    let i: number;
    if (roll < 0.2 && this.resting.size > 0) {
      const id = this.resting.pick(rand());
      i = ops.push(CANCEL, 0, this.engine.order(id)!.userId, 0, 0, id);
    } else if (roll < 0.3) {
      i = ops.push(MARKET_ORDER, side, user, 0, size, 0);
    } else {
      // Steer toward ~10k resting orders: more marketable orders when the book is too big.
      const marketable = rand() < (this.resting.size > RESTING_TARGET ? 0.4 : 0.27);
      const away = 1 + Math.floor(rand() * 1000);
      const above = (side === 2) === marketable;
      const ticks = this.midTicks() + (above ? away : -away);
      i = ops.push(LIMIT, side, user, ticks, size, this.engine.nextOrderId);
    }
    this.track(ops, i, time);
  }
}

export function generate(args: { ops: number; seed: number }): Workload {
  const rand = prng(args.seed);
  const amounts = new Amounts(rand);
  const generator = new Generator(rand, amounts);
  const seed = new Ops(SEEDED_ORDERS);
  generator.seed(seed);
  const ops = new Ops(args.ops);
  for (let i = 0; i < args.ops; i++) generator.next(ops, SETUP_TIME + 1 + i);
  return { amounts, seed, ops };
}

/** `engine` set up and given the workload's seed orders. */
export function seeded<E extends { apply(cmd: Command): unknown }>(w: Workload, engine: E): E {
  for (const cmd of setupCommands()) engine.apply(cmd);
  for (let i = 0; i < w.seed.length; i++) engine.apply(commandAt(w.seed, w.amounts, i, SETUP_TIME));
  return engine;
}

/** A deposit as the deposit watcher sends one: its id names the network, transaction and output. */
export function watcherDeposit(n: number, rand: () => number): Command {
  let hash = '';
  for (let i = 0; i < 8; i++)
    hash += Math.floor(rand() * 2 ** 32)
      .toString(16)
      .padStart(8, '0');
  return {
    type: 'balance.deposit',
    time: SETUP_TIME,
    userId: 1 + (n % USERS),
    asset: n % 2 === 0 ? 'BTC' : 'USDT',
    amount: BigInt(1 + Math.floor(rand() * 1e9)),
    businessId: `deposit:ethereum:0x${hash}:${n % 4}`,
    business: 'deposit',
  };
}
