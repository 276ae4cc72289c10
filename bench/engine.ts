// Engine benchmark: one market, a book of ~10k resting orders, and a stream of limit orders,
// cancels and market orders, run through our engine and through nodejs-order-book (v10) in
// the same process. `npm run bench:engine` runs it bundled, as the server runs the engine
// (bench/bundled.ts).
//
//   npm run bench:engine -- --ops 1000000 --seed 42
//   npm run bench:engine -- --snapshot 100000   (snapshot and restore at a large book instead)
//   npm run bench:engine -- --applied-ids 200000   (what 200,000 applied business ids cost instead)
//   npm run bench:engine -- --users 200000   (what 200,000 more users cost instead)
//   npm run bench:engine -- --book-growth 300000 [--levels]
//     (300,000 orders rested one at a time instead; with --levels, each a new price level)
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
//
// This file decides what runs, in what order; the parts are beside it: engineArgs.ts (the
// arguments), engineContenders.ts (the engine or a floor, made fresh for each pass),
// engineFloorChecks.ts (a floor checked against the engine before timing), engineTimedPasses.ts
// (the warm-up and the timed passes), engineReport.ts (the printed lines), engineSnapshot.ts,
// engineAppliedIds.ts, engineUsers.ts and engineAlloc.ts (--snapshot, --applied-ids, --users and
// --alloc).

import { freshBaseline } from './baselineBook.js';
import { runAlloc } from './engineAlloc.js';
import { runAppliedIds } from './engineAppliedIds.js';
import { parseArgs } from './engineArgs.js';
import { runBookGrowth } from './engineBookGrowth.js';
import {
  type Contender,
  freshEngine,
  freshFloor,
  freshLedgerFloor,
  lastTimedEngine,
  useBigintCore,
  useWasmLedgerFloor,
} from './engineContenders.js';
import { checkFloor, checkLedgerFloor } from './engineFloorChecks.js';
import { printOperations, printResults } from './engineReport.js';
import { runSnapshot } from './engineSnapshot.js';
import { runEngineLatency, runThroughput, warmUp, withCollectedHeap } from './engineTimedPasses.js';
import { runUsers } from './engineUsers.js';
import { generate, type Workload } from './engineWorkload.js';
import { compileWasmLedgerFloor } from './wasmLedgerFloor.js';

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.snapshotOrders > 0) {
    runSnapshot(args);
    return;
  }
  if (args.appliedIds > 0) {
    runAppliedIds(args);
    return;
  }
  if (args.users > 0) {
    await runUsers(args);
    return;
  }
  if (args.bookGrowth > 0) {
    await runBookGrowth(args);
    return;
  }
  const w = generate(args);
  if (args.alloc) {
    runAlloc(w);
    return;
  }
  printOperations(w, args.seed);
  useBigintCore(args.bigint);
  if (args.wasmFloor) useWasmLedgerFloor(await compileWasmLedgerFloor());
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
  // The floor's figures are labelled as such: they are not the engine's.
  const who = args.floor
    ? 'floor'
    : args.wasmFloor
      ? 'wasm ledger floor'
      : args.ledgerFloor
        ? 'ledger floor'
        : 'engine';
  printResults({ lastEngine: lastTimedEngine(), who, latency, gcMs, throughput, sharedGcMs });
}

await main();
