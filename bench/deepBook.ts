// What an order far from the best price costs on a deep book, on each of the engine's cores: a
// side of asks with one order a level, a thousand and a hundred thousand levels deep, then pairs
// of a cancel and a new ask at the same price (the level leaves and is made again), at prices
// among the best hundred levels (near) and among the worst hundred (far).
//
//   npm run bench:deep-book -- [--pairs 10000] [--rounds 3] [--seed 42]
//
// Printed per core and depth: the mean µs of a pair in each round, near and far, and the
// ratio of far to near in the same rounds (this machine's speed drifts; the ratio is what a
// change of the book's structure should move). For the columnar core, also the ms of a restart
// from the book's snapshot (Engine.restore) and of a hand-over of that book to the bigint core
// (a deposit past what the columnar core's balances hold), each round: both put every level
// back in order, best first. The book is the engine bench's market (tick 0.01 USDT, mid
// 1000.00); its asks rise from 1000.01 one tick a level.
import { type Command, Engine } from '@lattice/engine';
import { State } from '../packages/engine/src/state.js';
import { MARKET, MID_TICKS, prng, SETUP_TIME, setupCommands, TICK } from './engineWorkload.js';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at < 0 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(value) || value < 1) {
    console.error(`${name} needs a positive whole number`);
    process.exit(2);
  }
  return value;
}

const pairs = option('--pairs', 10_000);
const rounds = option('--rounds', 3);
const seed = option('--seed', 42);
const DEPTHS = [1_000, 100_000];
/** How many of the best levels are near, and of the worst far. */
const BAND = 100;
const SIZE = 100_000n; // 0.001 BTC, the market's minimum
const SELLER = 1;

let time = SETUP_TIME;

function ask(ticks: number): Command {
  return {
    type: 'order.limit',
    time: time++,
    userId: SELLER,
    market: MARKET,
    side: 1,
    price: BigInt(ticks) * TICK,
    amount: SIZE,
    timeInForce: 'GTC',
    source: 'api',
  };
}

/** Apply, and the id of the order it placed. */
function place(engine: Engine, ticks: number): number {
  const result = engine.apply(ask(ticks));
  if (!result.ok || result.result.kind !== 'order') throw new Error(`ask at ${ticks} refused`);
  return result.result.order.id;
}

/** A book `depth` levels deep, placed best level last so that each level is made at the end. */
function deepBook(core: 'columnar' | 'bigint', depth: number): { engine: Engine; ids: number[] } {
  const engine = core === 'columnar' ? new Engine() : new Engine(new State());
  for (const cmd of setupCommands()) engine.apply(cmd);
  const ids: number[] = new Array(depth);
  for (let level = depth - 1; level >= 0; level--)
    ids[level] = place(engine, MID_TICKS + 1 + level);
  if (engine.coreName !== core) throw new Error(`the book moved to the ${engine.coreName} core`);
  return { engine, ids };
}

/** Mean µs of `pairs` cancels and asks again at levels drawn from [from, to). */
function pairsAt(engine: Engine, ids: number[], from: number, to: number, random: () => number) {
  const levels = Int32Array.from(
    { length: pairs },
    () => from + Math.floor(random() * (to - from)),
  );
  const start = process.hrtime.bigint();
  for (const level of levels) {
    const cancel = engine.apply({
      type: 'order.cancel',
      time: time++,
      userId: SELLER,
      orderId: ids[level]!,
    });
    if (!cancel.ok) throw new Error(`cancel at level ${level} refused`);
    ids[level] = place(engine, MID_TICKS + 1 + level);
  }
  return Number(process.hrtime.bigint() - start) / 1000 / pairs;
}

const fixed = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ');

/** Ms of a restore of the engine's snapshot, then of a hand-over of the restored engine. */
function restoreAndHandOver(engine: Engine): [number, number] {
  const snapshot = engine.snapshot();
  let start = performance.now();
  const restored = Engine.restore(snapshot);
  const restoreMs = performance.now() - start;
  if (restored.coreName !== 'columnar') throw new Error('restored onto the bigint core');
  start = performance.now();
  const deposit = restored.apply({
    type: 'balance.deposit',
    time: time++,
    userId: SELLER,
    asset: 'BTC',
    amount: 2n ** 104n,
    businessId: `past-two-limbs-${time}`,
  });
  const handOverMs = performance.now() - start;
  // Read again: the deposit moved the engine (a getter TypeScript takes as still 'columnar').
  const coreAfter: string = restored.coreName;
  if (!deposit.ok || coreAfter !== 'bigint') throw new Error('no hand-over');
  return [restoreMs, handOverMs];
}

for (const core of ['columnar', 'bigint'] as const) {
  for (const depth of DEPTHS) {
    const { engine, ids } = deepBook(core, depth);
    const random = prng(seed);
    // A warm-up round of each, untimed, so that the timed rounds run optimised code.
    pairsAt(engine, ids, 0, BAND, random);
    pairsAt(engine, ids, depth - BAND, depth, random);
    const near: number[] = [];
    const far: number[] = [];
    for (let round = 0; round < rounds; round++) {
      near.push(pairsAt(engine, ids, 0, BAND, random));
      far.push(pairsAt(engine, ids, depth - BAND, depth, random));
    }
    const ratios = far.map((f, i) => f / near[i]!);
    console.log(`${core} core, ${depth} levels: near us/pair: ${fixed(near)}`);
    console.log(`${core} core, ${depth} levels: far us/pair: ${fixed(far)}`);
    console.log(`${core} core, ${depth} levels: far/near: ${fixed(ratios)}`);
    if (core !== 'columnar') continue;
    const moves = Array.from({ length: rounds }, () => restoreAndHandOver(engine));
    console.log(`${core} core, ${depth} levels: restore ms: ${fixed(moves.map((m) => m[0]))}`);
    console.log(`${core} core, ${depth} levels: hand-over ms: ${fixed(moves.map((m) => m[1]))}`);
  }
}
