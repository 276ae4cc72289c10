// The engine bench's snapshot measure (bench/engine.ts --snapshot N): the engine host's
// snapshot and recovery path timed at a book of N resting orders, instead of the workload's
// timed passes.
import { Engine } from '@lattice/engine';
import type { Args } from './engineArgs.js';
import { Amounts, prng, restingOrder, setupCommands } from './engineWorkload.js';

function msSince(start: number): string {
  return (performance.now() - start).toFixed(0);
}

/**
 * The engine host's snapshot and recovery path at a large book: N resting orders (1,000
 * users, bids below and asks above the mid, never crossing), then snapshot(), its JSON text,
 * stateHash(), JSON.parse and restore, each timed once per round.
 */
export function runSnapshot(args: Args): void {
  const rand = prng(args.seed);
  const amounts = new Amounts(rand);
  const engine = new Engine();
  for (const cmd of setupCommands()) engine.apply(cmd);
  for (let n = 0; n < args.snapshotOrders; n++) {
    const result = engine.apply(restingOrder(n, rand, amounts));
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
