// Engine benchmark: one market, a book of ~10k resting orders, and a stream of limit orders,
// cancels and market orders, run through our engine and through nodejs-order-book (v10) in
// the same process. `npm run bench:engine` runs it bundled, as the server runs the engine
// (bench/bundled.ts).
//
//   npm run bench:engine -- --ops 1000000 --seed 42
//   npm run bench:engine -- --snapshot 100000   (snapshot and restore at a large book instead)
//   node --expose-gc --max-semi-space-size=256 --import tsx bench/engine.ts --alloc --ops 200000
//     (bytes allocated per operation, by kind, instead)
//   npm run bench:engine -- --floor --ops 1000000 --seed 42
//     (the columnar prototype of engineFloor.ts in the engine's place, checked against it)
//   npm run bench:engine -- --ledger-floor --ops 1000000 --seed 42
//     (the ledger floor of ledgerFloor.ts in the engine's place: the engine's work on this
//     workload in a program written for it alone; checked against the engine)
//   npm run bench:engine -- --wasm-floor --ops 1000000 --seed 42
//     (the same ledger floor in WebAssembly, wasmLedgerFloor.ts: the work in 64-bit integers,
//     its commands read in JavaScript as the floor reads them; checked against the engine)
//   npm run bench:engine -- --bigint --ops 1000000 --seed 42
//     (the engine on its bigint core from the start, as before the columnar core: a before and
//     after on the same machine)
//
// The workload is decided before any timing (engineWorkload.ts). Each timed loop builds the
// call's argument object from its list, ours and the baseline's alike. Before any timed pass both contenders warm up on throwaway copies (warmUp). Figures:
// - p50/p99 us, max pause ms and mean us by kind: a pass on a fresh engine alone in the heap
//   (run first, before the baseline has made any garbage), each apply() timed on its own with
//   process.hrtime.bigint() (the timer's own cost, some tens of ns, is included); the longest
//   single apply() is `max pause ms`, collections of the engine's own heap included; the mean
//   per kind of operation (limit, market, cancel) shows where one contender's time goes;
// - engine ops/s and baseline ops/s: one pass each over all operations, run in alternating
//   chunks of 10,000 (a change of load on a shared machine then touches both alike), each
//   timed per chunk without a timer per operation; the engine's clock is also read every 100
//   operations, and the longest such batch is printed as the pause with the baseline in the
//   same heap (a full collection marks both contenders' objects, whichever chunk it falls
//   in); the same passes per second of process CPU time are printed too (a busy machine
//   stretches wall time, not CPU time).
// Neither pass reads a result, and each tells the engine so every 100 operations
// (Engine.releaseResults, in the timed part), as the engine host does once it has read each
// result: the engine then reuses its event log's memory instead of allocating more.
import { PerformanceObserver } from 'node:perf_hooks';
import { type Command, Engine } from '@lattice/engine';
import type { OrderBook } from 'nodejs-order-book';
import { State } from '../packages/engine/src/state.js';
import { driveBaselineThrough, freshBaseline } from './baselineBook.js';
import { EngineFloor } from './engineFloor.js';
import {
  Amounts,
  BATCH,
  CANCEL,
  CHUNK,
  commandAt,
  generate,
  LIMIT,
  MARKET,
  MARKET_ORDER,
  MID_TICKS,
  type Ops,
  prng,
  SETUP_TIME,
  SIZE_POOL,
  seeded,
  setupCommands,
  TICK,
  USERS,
  WARM_UP,
  type Workload,
} from './engineWorkload.js';
import { LedgerFloor } from './ledgerFloor.js';
import type { LedgerFloorBase, LedgerFloorSetup } from './ledgerFloorBase.js';
import { compileWasmLedgerFloor, WasmLedgerFloor } from './wasmLedgerFloor.js';

interface Args {
  ops: number;
  seed: number;
  /** With --snapshot N: time snapshot and restore at N resting orders instead. */
  snapshotOrders: number;
  /** With --alloc: measure bytes allocated per operation, by kind, instead. */
  alloc: boolean;
  /** With --floor: time the columnar prototype (engineFloor.ts) instead of the engine. */
  floor: boolean;
  /** With --ledger-floor: time the ledger floor (ledgerFloor.ts) instead of the engine. */
  ledgerFloor: boolean;
  /** With --wasm-floor: time the ledger floor in WebAssembly (wasmLedgerFloor.ts) instead. */
  wasmFloor: boolean;
  /** With --bigint: time the engine on its bigint core (docs/decisions/columnar-engine.md). */
  bigint: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    ops: 1_000_000,
    seed: 42,
    snapshotOrders: 0,
    alloc: false,
    floor: false,
    ledgerFloor: false,
    wasmFloor: false,
    bigint: false,
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--alloc') args.alloc = true;
    if (argv[i] === '--floor') args.floor = true;
    if (argv[i] === '--ledger-floor') args.ledgerFloor = true;
    if (argv[i] === '--wasm-floor') args.wasmFloor = true;
    if (argv[i] === '--bigint') args.bigint = true;
    const value = Number(argv[i + 1]);
    if (argv[i] === '--ops' && Number.isSafeInteger(value) && value > 0) args.ops = value;
    if (argv[i] === '--seed' && Number.isSafeInteger(value)) args.seed = value;
    if (argv[i] === '--snapshot' && Number.isSafeInteger(value) && value > 0) {
      args.snapshotOrders = value;
    }
  }
  return args;
}

/** Whether the timed engines run on the bigint core (--bigint). */
let bigintCore = false;
/** The last engine made for timing: which core it ended on is printed. */
let lastEngine: Engine | undefined;

function freshEngine(w: Workload): Engine {
  const engine = bigintCore ? new Engine(new State()) : new Engine();
  lastEngine = engine;
  return seeded(w, engine);
}

/** What the timed loops drive: the engine, or the floor prototype. */
interface Contender {
  apply(cmd: Command): { ok: boolean };
  /** No result so far will be read (Engine.releaseResults). */
  releaseResults?(): void;
}

/**
 * The floor prototype in the state setupCommands() leaves the engine in, before the seed: the
 * market, balances and counters are read from an engine so set up.
 */
function setUpFloor(): EngineFloor {
  const engine = new Engine();
  for (const cmd of setupCommands()) engine.apply(cmd);
  const market = engine.markets().find((m) => m.name === MARKET)!;
  const decimals = engine.assets().find((a) => a.asset === market.stock)!.decimals;
  const balances = engine.balances(1);
  return new EngineFloor(
    { ...market, scale: 10n ** BigInt(decimals) },
    {
      users: USERS,
      stockBalance: balances[market.stock]!.trade.available,
      moneyBalance: balances[market.money]!.trade.available,
      lastEventSeq: engine.lastEventSeq,
      nextOrderId: engine.nextOrderId,
      nextDealId: engine.nextDealId,
    },
  );
}

function freshFloor(w: Workload): EngineFloor {
  const floor = setUpFloor();
  for (let i = 0; i < w.seed.length; i++) floor.apply(commandAt(w.seed, w.amounts, i, SETUP_TIME));
  return floor;
}

/** A ledger floor of either kind: the JS one, or the WebAssembly one. */
type Floor = LedgerFloorBase & Contender & { releaseResults(): void };

/** The compiled WebAssembly floor, with --wasm-floor (compiled once, before any timing). */
let wasmFloorModule: WebAssembly.Module | undefined;

/** The floor to time: the WebAssembly one with --wasm-floor, else the JS one. */
function newLedgerFloor(setup: LedgerFloorSetup): Floor {
  return wasmFloorModule === undefined
    ? new LedgerFloor(setup)
    : new WasmLedgerFloor(wasmFloorModule, setup);
}

/**
 * A ledger floor in the state setupCommands() leaves the engine in, before the seed: the
 * market, balances and counters are read from an engine so set up.
 */
function setUpLedgerFloor(): Floor {
  const engine = new Engine();
  const setup = setupCommands();
  for (const cmd of setup) engine.apply(cmd);
  const market = engine.markets().find((m) => m.name === MARKET)!;
  const decimals = engine.assets().find((a) => a.asset === market.stock)!.decimals;
  const deposit = setup.find((cmd) => cmd.type === 'balance.deposit');
  return newLedgerFloor({
    market: MARKET,
    users: USERS,
    tickSize: Number(market.tickSize),
    stockScale: 10 ** decimals,
    minAmount: Number(market.minAmount),
    makerFeePpm: market.makerFeePpm,
    takerFeePpm: market.takerFeePpm,
    balance: deposit?.type === 'balance.deposit' ? deposit.amount : 0n,
    midTicks: MID_TICKS,
    nextOrderId: engine.nextOrderId,
  });
}

function freshLedgerFloor(w: Workload): Floor {
  const floor = setUpLedgerFloor();
  for (let i = 0; i < w.seed.length; i++) {
    floor.apply(commandAt(w.seed, w.amounts, i, SETUP_TIME));
    floor.releaseResults();
  }
  return floor;
}

/**
 * The ledger floor does the engine's work on the workload: after the seed and the first `count`
 * operations through both, the book (every level's price and amount) and every user's trade
 * balances are the same, and each asset's total is what it was. Throws on a difference.
 */
function checkLedgerFloor(w: Workload, count: number): void {
  // Not freshEngine: the engine timed is the one whose core the bench prints.
  const engine = seeded(w, new Engine());
  const floor = freshLedgerFloor(w);
  const totals = floor.totals();
  for (let i = 0; i < count; i++) {
    engine.apply(commandAt(w.ops, w.amounts, i, SETUP_TIME + 1 + i));
    floor.apply(commandAt(w.ops, w.amounts, i, SETUP_TIME + 1 + i));
    if (i % BATCH === BATCH - 1) {
      engine.releaseResults();
      floor.releaseResults();
    }
  }
  const depth = engine.depth(MARKET, 1_000_000);
  const book = (levels: [bigint, bigint][]) =>
    levels.map(([p, a]) => [Number(p / TICK), Number(a)]);
  if (json(book(depth.asks)) !== json(floor.levels(1))) throw new Error('ledger floor: other asks');
  if (json(book(depth.bids)) !== json(floor.levels(2))) throw new Error('ledger floor: other bids');
  for (let user = 1; user <= USERS; user++) {
    const want = engine.balances(user);
    for (const [asset, name] of [
      [0, 'BTC'],
      [1, 'USDT'],
    ] as const) {
      const [available, frozen] = floor.balance(user, asset);
      const trade = want[name]!.trade;
      if (trade.available !== available || trade.frozen !== frozen) {
        throw new Error(
          `ledger floor: user ${user} ${name} ${available}/${frozen}, engine ${json(trade)}`,
        );
      }
    }
  }
  if (json(floor.totals()) !== json(totals)) throw new Error('ledger floor: totals changed');
  console.log(
    `ledger floor checked: ${count} operations, the book and every user's balances equal ` +
      "to the engine's, totals unchanged",
  );
}

function json(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `${v}n` : v));
}

/**
 * The floor does the engine's work: the seed and the first `count` operations through both,
 * every event compared. Throws at the first difference.
 */
function checkFloor(w: Workload, count: number): void {
  const engine = new Engine();
  for (const cmd of setupCommands()) engine.apply(cmd);
  const floor = setUpFloor();
  const step = (ops: Ops, i: number, time: number) => {
    const ours = engine.apply(commandAt(ops, w.amounts, i, time));
    const got = floor.apply(commandAt(ops, w.amounts, i, time));
    if (ours.ok !== got.ok) throw new Error(`floor differs at operation ${i}: ok ${got.ok}`);
    if (!ours.ok) return;
    const want = json(ours.events);
    const have = json(floor.events());
    if (want !== have) throw new Error(`floor differs at operation ${i}:\n${want}\n${have}`);
  };
  for (let i = 0; i < w.seed.length; i++) step(w.seed, i, SETUP_TIME);
  for (let i = 0; i < count; i++) step(w.ops, i, SETUP_TIME + 1 + i);
  if (floor.lastPrice !== engine.lastPrice(MARKET)) throw new Error('floor: another last price');
  console.log(`floor checked: ${count} operations, every event equal to the engine's`);
}

interface Throughput {
  engineOpsPerSecond: number;
  baselineOpsPerSecond: number;
  /** The same per second of this process's CPU time (GC threads included). */
  engineOpsPerCpuSecond: number;
  baselineOpsPerCpuSecond: number;
  maxPauseMs: number;
}

function cpuMicros(from: NodeJS.CpuUsage, to: NodeJS.CpuUsage): number {
  return to.user - from.user + (to.system - from.system);
}

/**
 * Both contenders over all operations, in alternating chunks, so that a change of load on the
 * machine during the run touches both alike. Each one's time is the sum of its chunks.
 */
function runThroughput(w: Workload, engine: Contender, book: OrderBook): Throughput {
  const { ops, amounts } = w;
  let engineNs = 0n;
  let baselineNs = 0n;
  let engineCpuUs = 0;
  let baselineCpuUs = 0;
  let longest = 0n;
  let rejected = 0;
  for (let from = 0; from < ops.length; from += CHUNK) {
    const to = Math.min(ops.length, from + CHUNK);
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    let batchStart = start;
    for (let i = from; i < to; i++) {
      if (!engine.apply(commandAt(ops, amounts, i, SETUP_TIME + 1 + i)).ok) rejected++;
      if (i % BATCH === BATCH - 1) {
        engine.releaseResults?.();
        const now = process.hrtime.bigint();
        if (now - batchStart > longest) longest = now - batchStart;
        batchStart = now;
      }
    }
    const middle = process.hrtime.bigint();
    const cpuMiddle = process.cpuUsage();
    driveBaselineThrough(book, w, from, to);
    baselineNs += process.hrtime.bigint() - middle;
    engineNs += middle - start;
    engineCpuUs += cpuMicros(cpuStart, cpuMiddle);
    baselineCpuUs += cpuMicros(cpuMiddle, process.cpuUsage());
  }
  if (rejected > 0) console.log(`engine rejections: ${rejected}`);
  return {
    engineOpsPerSecond: ops.length / (Number(engineNs) / 1e9),
    baselineOpsPerSecond: ops.length / (Number(baselineNs) / 1e9),
    engineOpsPerCpuSecond: ops.length / (engineCpuUs / 1e6),
    baselineOpsPerCpuSecond: ops.length / (baselineCpuUs / 1e6),
    maxPauseMs: Number(longest) / 1e6,
  };
}

function runEngineLatency(w: Workload, engine: Contender): Latency {
  const { ops, amounts } = w;
  const samples = new Float64Array(ops.length);
  for (let i = 0; i < ops.length; i++) {
    const cmd = commandAt(ops, amounts, i, SETUP_TIME + 1 + i);
    const start = process.hrtime.bigint();
    engine.apply(cmd);
    samples[i] = Number(process.hrtime.bigint() - start);
    if (i % BATCH === BATCH - 1) engine.releaseResults?.();
  }
  const meanUsByKind = meansByKind(ops, samples);
  samples.sort();
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { p50: at(0.5) / 1000, p99: at(0.99) / 1000, longestMs: at(1) / 1e6, meanUsByKind };
}

interface Latency {
  p50: number;
  p99: number;
  longestMs: number;
  /** Mean µs of an apply() of each kind of operation (LIMIT, MARKET_ORDER, CANCEL). */
  meanUsByKind: number[];
}

/**
 * The mean of each kind's samples (ns), in µs: where the time goes, per kind, and so where a
 * contender gains or loses against another on the same workload.
 */
function meansByKind(ops: Ops, samples: Float64Array): number[] {
  const sums = [0, 0, 0];
  const counts = [0, 0, 0];
  for (let i = 0; i < ops.length; i++) {
    const kind = ops.kind[i]!;
    sums[kind]! += samples[i]!;
    counts[kind]!++;
  }
  return sums.map((sum, kind) => (counts[kind] === 0 ? 0 : sum / counts[kind]! / 1000));
}

/**
 * Both contenders through the workload's first WARM_UP operations on copies that are then
 * dropped, before anything is timed: the JIT has compiled every path the timed passes take (the
 * seed orders are only limit orders), and the heap's young generation has grown to the size the
 * workload keeps it at. Without it the alone pass's longest pause was, in about one run in
 * three, a 15 to 17 ms scavenge near its start (--trace-gc): startup, not the engine's steady
 * state, which is what the pause goal is about.
 */
function warmUp(w: Workload, fresh: (w: Workload) => Contender): void {
  const count = Math.min(w.ops.length, WARM_UP);
  const contender = fresh(w);
  for (let i = 0; i < count; i++) {
    contender.apply(commandAt(w.ops, w.amounts, i, SETUP_TIME + 1 + i));
    if (i % BATCH === BATCH - 1) contender.releaseResults?.();
  }
  driveBaselineThrough(freshBaseline(w), w, 0, count);
}

/**
 * A full collection before a timed pass, when node runs with --expose-gc (bench/bundled.ts
 * passes it): the workload's generation and the contenders' seeding leave garbage behind (the
 * generating engine among it), and collecting it would otherwise fall in the first thousands
 * of timed operations, on whichever contender ran then.
 */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** `run` on `contender` from a collected heap, with the longest collection pause during it. */
function withCollectedHeap<T>(
  contender: Contender,
  run: (contender: Contender) => T,
): { result: T; gcMs: Promise<number> } {
  collectGarbage();
  return longestGcPause(() => run(contender));
}

/** The longest garbage collection pause seen while `run` runs. */
function longestGcPause<T>(run: () => T): { result: T; gcMs: Promise<number> } {
  let longest = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longest = Math.max(longest, entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  const result = run();
  // GC entries are delivered asynchronously: read them after the event loop has turned.
  const gcMs = new Promise<number>((resolve) =>
    setTimeout(() => {
      for (const entry of observer.takeRecords()) longest = Math.max(longest, entry.duration);
      observer.disconnect();
      resolve(longest);
    }, 100),
  );
  return { result, gcMs };
}

function msSince(start: number): string {
  return (performance.now() - start).toFixed(0);
}

/**
 * The engine host's snapshot and recovery path at a large book: N resting orders (1,000
 * users, bids below and asks above the mid, never crossing), then snapshot(), its JSON text,
 * stateHash(), JSON.parse and restore, each timed once per round.
 */
function runSnapshot(args: Args): void {
  const rand = prng(args.seed);
  const amounts = new Amounts(rand);
  const engine = new Engine();
  for (const cmd of setupCommands()) engine.apply(cmd);
  for (let n = 0; n < args.snapshotOrders; n++) {
    const side = n % 2 === 0 ? 2 : 1;
    const away = 1 + Math.floor(rand() * 3000);
    const ticks = side === 2 ? MID_TICKS - away : MID_TICKS + away;
    const cmd: Command = {
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
    const result = engine.apply(cmd);
    if (!result.ok) throw new Error(`book order rejected: ${result.code}`);
  }
  console.log(`resting orders: ${args.snapshotOrders}, seed ${args.seed}`);
  for (let round = 1; round <= 3; round++) {
    let start = performance.now();
    const snapshot = engine.snapshot();
    const snapshotMs = msSince(start);
    start = performance.now();
    const text = JSON.stringify(snapshot);
    const jsonMs = msSince(start);
    start = performance.now();
    const hash = engine.stateHash();
    const hashMs = msSince(start);
    start = performance.now();
    const parsed = JSON.parse(text);
    const parseMs = msSince(start);
    start = performance.now();
    const restored = Engine.restore(parsed);
    const restoreMs = msSince(start);
    if (restored.stateHash() !== hash) throw new Error('restored state hashes differently');
    console.log(
      `round ${round}: snapshot ms: ${snapshotMs}, stringify ms: ${jsonMs}, ` +
        `stateHash ms: ${hashMs}, parse ms: ${parseMs}, restore ms: ${restoreMs}, ` +
        `MB: ${(text.length / 1e6).toFixed(1)}`,
    );
  }
}

const ALLOC_KINDS = ['limit that rests', 'limit that trades', 'market', 'cancel'];

/**
 * Bytes allocated per operation by kind: the heap's growth across each apply(), with a young
 * generation large enough (--max-semi-space-size) that a collection rarely falls inside one;
 * an operation during which the heap shrank (a collection ran) is left out. The cost of
 * reading the heap size is measured on an empty pair and subtracted.
 */
function runAlloc(w: Workload): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('--alloc needs node --expose-gc');
  const engine = freshEngine(w);
  const { ops, amounts } = w;
  const heap = () => process.memoryUsage().heapUsed;
  let overhead = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 1000; i++) {
    const before = heap();
    overhead = Math.min(overhead, heap() - before);
  }
  const bytes = [0, 0, 0, 0];
  const count = [0, 0, 0, 0];
  let skipped = 0;
  gc();
  for (let i = 0; i < ops.length; i++) {
    const cmd = commandAt(ops, amounts, i, SETUP_TIME + 1 + i);
    const before = heap();
    const result = engine.apply(cmd);
    const grown = heap() - before - overhead;
    if (!result.ok) throw new Error(`workload command rejected: ${result.code}`);
    const kind = ops.kind[i];
    let k = 3;
    if (kind === MARKET_ORDER) k = 2;
    else if (kind === LIMIT) k = result.events.some((e) => e.type === 'deal') ? 1 : 0;
    if (grown < 0) {
      skipped++;
      continue;
    }
    bytes[k]! += grown;
    count[k]!++;
  }
  let total = 0;
  let n = 0;
  for (let k = 0; k < ALLOC_KINDS.length; k++) {
    total += bytes[k]!;
    n += count[k]!;
    const per = count[k]! === 0 ? 0 : bytes[k]! / count[k]!;
    console.log(`${ALLOC_KINDS[k]}: ${count[k]} ops, ${Math.round(per)} bytes/op`);
  }
  console.log(`all: ${Math.round(total / n)} bytes/op (${skipped} ops left out: a collection ran)`);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.snapshotOrders > 0) {
    runSnapshot(args);
    return;
  }
  const w = generate(args);
  if (args.alloc) {
    runAlloc(w);
    return;
  }
  const counts = [0, 0, 0];
  for (let i = 0; i < w.ops.length; i++) counts[w.ops.kind[i]!]!++;
  console.log(
    `operations: ${w.ops.length} (limit ${counts[LIMIT]}, cancel ${counts[CANCEL]}, ` +
      `market ${counts[MARKET_ORDER]}), seed ${args.seed}`,
  );
  bigintCore = args.bigint;
  if (args.wasmFloor) wasmFloorModule = await compileWasmLedgerFloor();
  const ledgerFloor = args.ledgerFloor || args.wasmFloor;
  const fresh: (w: Workload) => Contender = args.floor
    ? freshFloor
    : ledgerFloor
      ? freshLedgerFloor
      : freshEngine;
  if (args.floor) checkFloor(w, Math.min(w.ops.length, 100_000));
  if (ledgerFloor) checkLedgerFloor(w, w.ops.length);
  // NOTE: the engine alone first. The baseline's objects, once made, stay in the heap until a
  // full collection, and V8's full collections in the alternating pass below come from its
  // garbage: with the baseline's calls left out, that pass ran without one.
  // Each pass's contenders are seeded, then the heap collected, before its timing starts: the
  // gc figures are the timed passes' own.
  warmUp(w, fresh);
  const alone = withCollectedHeap(fresh(w), (engine) => runEngineLatency(w, engine));
  const latency = alone.result;
  const gcMs = await alone.gcMs;
  const book = freshBaseline(w);
  const shared = withCollectedHeap(fresh(w), (engine) => runThroughput(w, engine, book));
  const throughput = shared.result;
  const sharedGcMs = await shared.gcMs;
  const engineOps = throughput.engineOpsPerSecond;
  const baselineOps = throughput.baselineOpsPerSecond;
  // The floor's figures are labelled as such: they are not the engine's.
  const who = args.floor
    ? 'floor'
    : args.wasmFloor
      ? 'wasm ledger floor'
      : args.ledgerFloor
        ? 'ledger floor'
        : 'engine';
  // After every operation ran through it: a hand-over to the bigint core would show here.
  if (lastEngine !== undefined) console.log(`engine core: ${lastEngine.coreName}`);
  console.log(`${who} ops/s: ${Math.round(engineOps)}`);
  console.log(`p50 us: ${latency.p50.toFixed(2)}`);
  console.log(`p99 us: ${latency.p99.toFixed(2)}`);
  console.log(`max pause ms: ${latency.longestMs.toFixed(2)}`);
  const byKind = latency.meanUsByKind;
  console.log(
    `mean us by kind: limit ${byKind[LIMIT]!.toFixed(2)}, market ${byKind[MARKET_ORDER]!.toFixed(2)}, ` +
      `cancel ${byKind[CANCEL]!.toFixed(2)}`,
  );
  console.log(`longest gc pause ms: ${gcMs.toFixed(2)}`);
  console.log(
    `with the baseline in the same heap: max pause ms ${throughput.maxPauseMs.toFixed(2)} ` +
      `(the longest ${BATCH} operations), longest gc pause ms ${sharedGcMs.toFixed(2)}`,
  );
  console.log(`baseline ops/s: ${Math.round(baselineOps)}`);
  console.log(`ratio: ${(engineOps / baselineOps).toFixed(2)}`);
  // On a shared machine wall time includes waiting for a core; CPU time does not.
  const cpuRatio = throughput.engineOpsPerCpuSecond / throughput.baselineOpsPerCpuSecond;
  console.log(
    `per CPU second: ${who} ${Math.round(throughput.engineOpsPerCpuSecond)}, ` +
      `baseline ${Math.round(throughput.baselineOpsPerCpuSecond)}, ratio ${cpuRatio.toFixed(2)}`,
  );
}

await main();
