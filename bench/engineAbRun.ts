// Two engines, each bundled into a module of its own, over the engine bench's workload in one
// process: the timed part of `npm run bench:engine-ab` (bench/engineAb.ts builds the modules and
// runs this bundled, several times). Each round gives both a fresh engine, seeded alike, and runs
// the workload through them in alternating chunks of 10,000 operations, the first of the two
// alternating from chunk to chunk and round to round, timing each chunk in CPU time; at the end
// of the round their state hashes must be equal. The last line printed is the JSON list of the
// rounds' ratios, A's CPU time over B's.
// With --baseline, each engine has a nodejs-order-book beside it, driven (untimed) through each
// chunk right after the engine: the engines then share their heap with the baseline's objects
// as in the engine bench, where a collection that starts in an engine's chunk copies or marks
// them too, so what an engine allocates shows in its time. With --bigint, both engines run on
// their bigint core from the start, as `npm run bench:engine -- --bigint` runs one.
// NOTE: two engines a process, each run as often as the other: with a third engine in the
// process, one that ran in two pairs of each round took a tenth less time than one that ran in
// one, the same file in either place.
//
//   node --expose-gc engineAbRun.mjs --a A.mjs --b B.mjs [--ops N] [--seed S] [--rounds R]
//     [--baseline] [--bigint]
import { pathToFileURL } from 'node:url';
import type { Command, Engine } from '@lattice/engine';
import type { OrderBook } from 'nodejs-order-book';
import { driveBaselineThrough, freshBaseline } from './baselineBook.js';
import {
  BATCH,
  CHUNK,
  commandAt,
  generate,
  SETUP_TIME,
  seeded,
  WARM_UP,
  type Workload,
} from './engineWorkload.js';

interface Args {
  a: string;
  b: string;
  ops: number;
  seed: number;
  rounds: number;
  baseline: boolean;
  bigint: boolean;
}

function parseArgs(argv: string[]): Args {
  const baseline = argv.includes('--baseline');
  const bigint = argv.includes('--bigint');
  const args: Args = { a: '', b: '', ops: 1_000_000, seed: 42, rounds: 3, baseline, bigint };
  for (let i = 0; i < argv.length - 1; i++) {
    const value = argv[i + 1]!;
    const n = Number(value);
    if (argv[i] === '--a') args.a = value;
    if (argv[i] === '--b') args.b = value;
    if (argv[i] === '--ops' && Number.isSafeInteger(n) && n > 0) args.ops = n;
    if (argv[i] === '--seed' && Number.isSafeInteger(n)) args.seed = n;
    if (argv[i] === '--rounds' && Number.isSafeInteger(n) && n > 0) args.rounds = n;
  }
  if (args.a === '' || args.b === '') throw new Error('usage: engineAbRun.mjs --a A.mjs --b B.mjs');
  return args;
}

type EngineClass = new () => Engine;

/** A bundle's engine: on its bigint core from the start with --bigint (a State of its own). */
async function engineOf(path: string, bigint: boolean): Promise<EngineClass> {
  const module = (await import(pathToFileURL(path).href)) as {
    Engine: new (state?: object) => Engine;
    State: new () => object;
  };
  const { Engine: Of, State } = module;
  return bigint
    ? class extends Of {
        constructor() {
          super(new State());
        }
      }
    : Of;
}

/** Operations `from` to `to` through `engine`, as the engine bench's throughput pass runs them. */
function runChunk(w: Workload, engine: Engine, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const cmd: Command = commandAt(w.ops, w.amounts, i, SETUP_TIME + 1 + i);
    if (!engine.apply(cmd).ok) throw new Error(`operation ${i} rejected`);
    if (i % BATCH === BATCH - 1) engine.releaseResults();
  }
}

function cpuMicros(from: NodeJS.CpuUsage): number {
  const to = process.cpuUsage();
  return to.user - from.user + (to.system - from.system);
}

/**
 * Two engines over the whole workload in alternating chunks: the first one's CPU time over the
 * second's (above 1: the second is faster).
 */
function pair(
  w: Workload,
  first: EngineClass,
  second: EngineClass,
  flip: number,
  withBaseline: boolean,
  core: Engine['coreName'],
): number {
  const engines = [seeded(w, new first()), seeded(w, new second())];
  const books: OrderBook[] = withBaseline ? [freshBaseline(w), freshBaseline(w)] : [];
  (globalThis as { gc?: () => void }).gc?.();
  const micros = [0, 0];
  for (let from = 0, chunk = 0; from < w.ops.length; from += CHUNK, chunk++) {
    const to = Math.min(w.ops.length, from + CHUNK);
    const leader = (chunk + flip) % 2;
    for (const k of [leader, 1 - leader]) {
      const start = process.cpuUsage();
      runChunk(w, engines[k]!, from, to);
      micros[k]! += cpuMicros(start);
      const book = books[k];
      if (book !== undefined) driveBaselineThrough(book, w, from, to);
    }
  }
  if (engines[0]!.stateHash() !== engines[1]!.stateHash()) {
    throw new Error('the two engines ended in different states');
  }
  for (const engine of engines) {
    if (engine.coreName !== core) throw new Error(`an engine ended on its ${engine.coreName} core`);
  }
  return micros[0]! / micros[1]!;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const [A, B] = await Promise.all([engineOf(args.a, args.bigint), engineOf(args.b, args.bigint)]);
  const w = generate(args);
  // Both through the workload's first operations before anything is timed, so that each has
  // compiled every path the rounds take.
  for (const EngineOf of [A!, B!]) {
    runChunk(w, seeded(w, new EngineOf()), 0, Math.min(w.ops.length, WARM_UP));
  }
  if (args.baseline) driveBaselineThrough(freshBaseline(w), w, 0, Math.min(w.ops.length, WARM_UP));
  const ratios: number[] = [];
  for (let r = 0; r < args.rounds; r++)
    ratios.push(pair(w, A!, B!, r, args.baseline, args.bigint ? 'bigint' : 'columnar'));
  console.log(JSON.stringify(ratios));
}

await main();
