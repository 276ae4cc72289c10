// Engine benchmark: one market, a book of ~10k resting orders, and a stream of limit orders,
// cancels and market orders, run through our engine and through nodejs-order-book (v10) in
// the same process.
//
//   npm run bench:engine -- --ops 1000000 --seed 42
//
// The operations are generated before any timing. To know which orders are resting (for the
// cancels) and how many (to steer the book around 10k), generation drives an untimed engine
// instance; both timed runs then replay the finished list. Figures:
// - engine ops/s: one pass over all operations, timed as a whole (no per-op timer inside);
// - p50/p99 us: a second, separate pass on a fresh engine, each apply() timed on its own with
//   process.hrtime.bigint() (the timer's own cost, ~50 ns, is included in each figure);
// - max pause ms: the longest single apply() of that pass, garbage collection included;
// - baseline ops/s: nodejs-order-book over the same operations, timed as a whole.
import { type Command, Engine } from '@lattice/engine';
import { OrderBook, SelfTradePreventionMode, Side } from 'nodejs-order-book';

const MARKET = 'BTC_USDT';
const TICK = 1_000_000n; // 0.01 USDT with 8 decimals
const MID_TICKS = 100_000; // 1000.00
const SIZE_MIN = 100_000; // 0.001 BTC in minor units (8 decimals)
const SIZE_MAX = 100_000_000; // 1.0 BTC
const USERS = 1000;
const SEEDED_ORDERS = 10_000;
const RESTING_TARGET = 10_000;
const SETUP_TIME = 1_700_000_000_000;

interface Args {
  ops: number;
  seed: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { ops: 1_000_000, seed: 42 };
  for (let i = 0; i < argv.length; i++) {
    const value = Number(argv[i + 1]);
    if (argv[i] === '--ops' && Number.isSafeInteger(value) && value > 0) args.ops = value;
    if (argv[i] === '--seed' && Number.isSafeInteger(value)) args.seed = value;
  }
  return args;
}

/** mulberry32: a small seeded PRNG, so the same seed gives the same workload. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One operation in a form both books can be driven from. */
type Op =
  | {
      kind: 'limit';
      cmd: Command;
      id: number;
      side: 1 | 2;
      ticks: number;
      size: number;
      user: number;
    }
  | { kind: 'market'; cmd: Command; side: 1 | 2; size: number; user: number }
  | { kind: 'cancel'; cmd: Command; id: number };

function setupCommands(): Command[] {
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
      const id = `${user}-${asset}`;
      cmds.push({
        type: 'balance.deposit',
        time: t,
        userId: user,
        asset,
        amount: plenty,
        businessId: `d${id}`,
      });
      cmds.push({
        type: 'balance.transfer',
        time: t,
        userId: user,
        asset,
        amount: plenty,
        from: 'main',
        to: 'trade',
        businessId: `t${id}`,
      });
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

function track(engine: Engine, cmd: Command, resting: RestingSet): void {
  const result = engine.apply(cmd);
  if (!result.ok) throw new Error(`workload command rejected: ${result.code} ${result.message}`);
  for (const event of result.events) {
    if (event.type === 'order.put') resting.add(event.order.id);
    else if (event.type === 'order.finish') resting.remove(event.order.id);
  }
}

function currentMidTicks(engine: Engine): number {
  const depth = engine.depth(MARKET, 1);
  const ask = depth.asks[0]?.[0];
  const bid = depth.bids[0]?.[0];
  if (ask === undefined || bid === undefined) return MID_TICKS;
  return Number((ask + bid) / 2n / TICK);
}

function limitOp(
  id: number,
  user: number,
  side: 1 | 2,
  ticks: number,
  size: number,
  time: number,
): Op {
  const cmd: Command = {
    type: 'order.limit',
    time,
    userId: user,
    market: MARKET,
    side,
    price: BigInt(ticks) * TICK,
    amount: BigInt(size),
    timeInForce: 'GTC',
    source: 'api',
  };
  return { kind: 'limit', cmd, id, side, ticks, size, user };
}

/** Seed orders: half bids below mid, half asks above, 1..1000 ticks away. */
function seedOps(rand: () => number, engine: Engine, resting: RestingSet): Op[] {
  const ops: Op[] = [];
  for (let i = 0; i < SEEDED_ORDERS; i++) {
    const side = i % 2 === 0 ? 2 : 1;
    const away = 1 + Math.floor(rand() * 1000);
    const ticks = side === 2 ? MID_TICKS - away : MID_TICKS + away;
    const size = SIZE_MIN + Math.floor(rand() * (SIZE_MAX - SIZE_MIN + 1));
    const user = 1 + Math.floor(rand() * USERS);
    const op = limitOp(engine.nextOrderId, user, side, ticks, size, SETUP_TIME);
    track(engine, op.cmd, resting);
    ops.push(op);
  }
  return ops;
}

function nextOp(rand: () => number, engine: Engine, resting: RestingSet, time: number): Op {
  const roll = rand();
  const user = 1 + Math.floor(rand() * USERS);
  const side: 1 | 2 = rand() < 0.5 ? 1 : 2;
  const size = SIZE_MIN + Math.floor(rand() * (SIZE_MAX - SIZE_MIN + 1));
  if (roll < 0.2 && resting.size > 0) {
    const orderId = resting.pick(rand());
    const owner = engine.order(orderId)!.userId;
    return {
      kind: 'cancel',
      cmd: { type: 'order.cancel', time, userId: owner, orderId },
      id: orderId,
    };
  }
  if (roll < 0.3) {
    const cmd: Command = {
      type: 'order.market',
      time,
      userId: user,
      market: MARKET,
      side,
      amount: BigInt(size),
      source: 'api',
    };
    return { kind: 'market', cmd, side, size, user };
  }
  // Steer toward ~10k resting orders: more marketable orders when the book is too big.
  const marketable = rand() < (resting.size > RESTING_TARGET ? 0.4 : 0.27);
  const away = 1 + Math.floor(rand() * 1000);
  const mid = currentMidTicks(engine);
  const above = (side === 2) === marketable;
  return limitOp(engine.nextOrderId, user, side, above ? mid + away : mid - away, size, time);
}

function generate(args: Args): { setup: Op[]; ops: Op[] } {
  const rand = prng(args.seed);
  const engine = new Engine();
  for (const cmd of setupCommands()) engine.apply(cmd);
  const resting = new RestingSet();
  const setup = seedOps(rand, engine, resting);
  const ops: Op[] = [];
  for (let i = 0; i < args.ops; i++) {
    const op = nextOp(rand, engine, resting, SETUP_TIME + 1 + i);
    track(engine, op.cmd, resting);
    ops.push(op);
  }
  return { setup, ops };
}

function freshEngine(setup: Op[]): Engine {
  const engine = new Engine();
  for (const cmd of setupCommands()) engine.apply(cmd);
  for (const op of setup) engine.apply(op.cmd);
  return engine;
}

function runEngineThroughput(setup: Op[], ops: Op[]): number {
  const engine = freshEngine(setup);
  let rejected = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < ops.length; i++) {
    if (!engine.apply(ops[i]!.cmd).ok) rejected++;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (rejected > 0) console.log(`engine rejections: ${rejected}`);
  return ops.length / seconds;
}

function runEngineLatency(setup: Op[], ops: Op[]): { p50: number; p99: number; maxMs: number } {
  const engine = freshEngine(setup);
  const samples = new Float64Array(ops.length);
  for (let i = 0; i < ops.length; i++) {
    const cmd = ops[i]!.cmd;
    const start = process.hrtime.bigint();
    engine.apply(cmd);
    samples[i] = Number(process.hrtime.bigint() - start);
  }
  samples.sort();
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { p50: at(0.5) / 1000, p99: at(0.99) / 1000, maxMs: samples[samples.length - 1]! / 1e6 };
}

/** nodejs-order-book driven by the same operations: integer ticks and minor units as numbers. */
function driveBaseline(book: OrderBook, op: Op): void {
  if (op.kind === 'cancel') {
    book.cancel(String(op.id));
    return;
  }
  const side = op.side === 2 ? Side.BUY : Side.SELL;
  const accountId = String(op.user);
  const stpMode = SelfTradePreventionMode.EXPIRE_TAKER;
  if (op.kind === 'market') book.market({ side, size: op.size, accountId, stpMode });
  else book.limit({ id: String(op.id), side, size: op.size, price: op.ticks, accountId, stpMode });
}

function runBaseline(setup: Op[], ops: Op[]): number {
  const book = new OrderBook();
  for (const op of setup) driveBaseline(book, op);
  const start = process.hrtime.bigint();
  for (let i = 0; i < ops.length; i++) driveBaseline(book, ops[i]!);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return ops.length / seconds;
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const { setup, ops } = generate(args);
  const counts = { limit: 0, market: 0, cancel: 0 };
  for (const op of ops) counts[op.kind]++;
  console.log(
    `operations: ${ops.length} (limit ${counts.limit}, cancel ${counts.cancel}, market ${counts.market}), seed ${args.seed}`,
  );
  const engineOps = runEngineThroughput(setup, ops);
  const latency = runEngineLatency(setup, ops);
  const baselineOps = runBaseline(setup, ops);
  console.log(`engine ops/s: ${Math.round(engineOps)}`);
  console.log(`p50 us: ${latency.p50.toFixed(2)}`);
  console.log(`p99 us: ${latency.p99.toFixed(2)}`);
  console.log(`max pause ms: ${latency.maxMs.toFixed(2)}`);
  console.log(`baseline ops/s: ${Math.round(baselineOps)}`);
  console.log(`ratio: ${(engineOps / baselineOps).toFixed(2)}`);
}

main();
