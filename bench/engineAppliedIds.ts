// The engine bench's applied-ids measure (bench/engine.ts --applied-ids N): what the engine's
// record of applied business ids costs once it holds N of them, against the same engine
// holding none. Every deposit, transfer, withdrawal and freeze of the exchange's history stays
// in that record for good (docs/decisions/engine.md, "Ids, idempotency, rejections"), so its
// cost grows with the history, not with the book.
import { Engine, jsonTextPieces } from '@lattice/engine';
import type { Args } from './engineArgs.js';
import { prng, setupCommands, watcherDeposit } from './engineWorkload.js';

/** Node's full collection; the bench runs with --expose-gc (bench/bundled.ts). */
export function collector(): () => void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('this measure needs node --expose-gc');
  return gc;
}

/** Full collections timed one at a time, in ms: the median and the longest of `rounds`. */
export function timeFullCollections(
  gc: () => void,
  rounds: number,
): { median: number; max: number } {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    gc();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(rounds / 2)]!, max: times[rounds - 1]! };
}

/** The `count` longest of `ms` (one a command), each with which command it was, counting from 1. */
export function longestOf(ms: Float64Array, count: number): string {
  return [...ms.keys()]
    .sort((a, b) => ms[b]! - ms[a]!)
    .slice(0, count)
    .map((n) => `${ms[n]!.toFixed(2)} (${n + 1})`)
    .join(', ');
}

/**
 * Bytes in the heap, in array buffers, and resident in the process, once collected. NOTE: V8
 * counts no shared memory as array buffers, and the engine's large tables are in shared
 * memories (docs/decisions/growing-in-place.md): the resident bytes include them, as far as
 * their pages have been written.
 */
export function memoryAfterCollection(gc: () => void): {
  heap: number;
  buffers: number;
  resident: number;
} {
  gc();
  gc();
  const { heapUsed, arrayBuffers, rss } = process.memoryUsage();
  return { heap: heapUsed, buffers: arrayBuffers, resident: rss };
}

/**
 * N deposits on an engine set up as the workload's, then: heap and array-buffer bytes per
 * applied id, a full collection's time with and without them, each deposit repeated (a no-op
 * that returns the first result), and the snapshot's characters per id.
 */
export function runAppliedIds(args: Args): void {
  const gc = collector();
  const engine = new Engine();
  for (const cmd of setupCommands()) engine.apply(cmd);
  const none = timeFullCollections(gc, 9);
  const before = memoryAfterCollection(gc);

  // NOTE: each deposit is made as it is applied, and made again for its repeat, so that the
  // collections timed hold the engine's objects and not a list of commands.
  let rand = prng(args.seed);
  const depositMs = new Float64Array(args.appliedIds);
  let start = performance.now();
  for (let n = 0; n < args.appliedIds; n++) {
    const deposit = watcherDeposit(n, rand);
    const applied = performance.now();
    const result = engine.apply(deposit);
    depositMs[n] = performance.now() - applied;
    if (!result.ok) throw new Error(`deposit rejected: ${result.code}`);
  }
  const applyMs = performance.now() - start;
  engine.releaseResults();
  const after = memoryAfterCollection(gc);
  const heapPerId = (after.heap - before.heap) / args.appliedIds;
  const buffersPerId = (after.buffers - before.buffers) / args.appliedIds;
  const held = timeFullCollections(gc, 9);

  rand = prng(args.seed);
  start = performance.now();
  for (let n = 0; n < args.appliedIds; n++) {
    const result = engine.apply(watcherDeposit(n, rand));
    if (!result.ok || result.events.length > 0 || result.result.kind !== 'balance') {
      throw new Error('a repeated deposit was not a no-op returning its first result');
    }
  }
  const repeatMs = performance.now() - start;

  // The snapshot's text as the engine host writes it: in pieces, never one string, which a long
  // history's text outgrows (docs/decisions/engine-host.md, "A piece a line").
  start = performance.now();
  const snapshot = engine.snapshot();
  const snapshotMs = performance.now() - start;
  start = performance.now();
  let textChars = 0;
  for (const piece of jsonTextPieces(snapshot)) textChars += piece.length;
  const piecesMs = performance.now() - start;
  const ids = snapshot.done.length;
  // Each id's row and the comma after it.
  let doneChars = 0;
  for (const row of snapshot.done) doneChars += JSON.stringify(row).length + 1;
  const idChars = doneChars / ids;

  // The next snapshot, as the engine host takes one after more commands: a hundredth more
  // deposits, of other ids, then snapshot() again, from a collected heap.
  for (let n = args.appliedIds; n < args.appliedIds * 1.01; n++) {
    if (!engine.apply(watcherDeposit(n, rand)).ok) throw new Error('deposit rejected');
  }
  engine.releaseResults();
  gc();
  start = performance.now();
  engine.snapshot();
  const nextSnapshotMs = performance.now() - start;
  console.log(`applied ids: ${args.appliedIds} deposits, ${ids} in all, seed ${args.seed}`);
  console.log(`heap bytes per id: ${heapPerId.toFixed(0)}`);
  console.log(`array buffer bytes per id: ${buffersPerId.toFixed(0)}`);
  console.log(
    `full collection ms, median (longest) of 9: ` +
      `${held.median.toFixed(2)} (${held.max.toFixed(2)}) with the ids, ` +
      `${none.median.toFixed(2)} (${none.max.toFixed(2)}) without`,
  );
  console.log(
    `us per deposit: ${((applyMs * 1000) / args.appliedIds).toFixed(2)}, ` +
      `per repeat: ${((repeatMs * 1000) / args.appliedIds).toFixed(2)}`,
  );
  console.log(`longest 5 deposits, ms (which of them): ${longestOf(depositMs, 5)}`);
  console.log(
    `snapshot chars per id: ${idChars.toFixed(0)}; ` +
      `snapshot ${(textChars / 1e6).toFixed(1)} MB, ` +
      `snapshot() ms: ${snapshotMs.toFixed(0)}, its text's pieces ms: ${piecesMs.toFixed(0)}`,
  );
  console.log(
    `the next snapshot() ms, a hundredth more deposits after: ${nextSnapshotMs.toFixed(0)}`,
  );
}
