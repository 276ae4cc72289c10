// The engine bench's book-growth measure (bench/engine.ts --book-growth N): N orders rested one
// after another on an engine set up as the workload's, each apply() timed alone. The order
// table grows as its open orders pass the sizes it was made for, so this shows what that
// growth costs the order that makes it: the longest apply()s, with how many orders were open.
// With --levels, each order is an ask a tick above the one before, so each makes a price level
// of its own and the book side's level arrays grow too.
import { Engine } from '@lattice/engine';
import type { Args } from './engineArgs.js';
import { withCollectedHeap } from './engineTimedPasses.js';
import { Amounts, newLevelOrder, prng, restingOrder, setupCommands } from './engineWorkload.js';

const SHOWN = 8;

export async function runBookGrowth(args: Args): Promise<void> {
  // The workload's market, users and funds, and no book: the orders below are its book.
  const engine = new Engine();
  for (const cmd of setupCommands()) engine.apply(cmd);
  const rand = prng(args.seed);
  const amounts = new Amounts(rand);
  const order = args.levels ? newLevelOrder : restingOrder;
  const orders = Array.from({ length: args.bookGrowth }, (_, n) => order(n, rand, amounts));
  const times = new Float64Array(orders.length);
  const timed = withCollectedHeap(engine, () => {
    for (let n = 0; n < orders.length; n++) {
      const start = performance.now();
      const result = engine.apply(orders[n]!);
      times[n] = performance.now() - start;
      if (!result.ok) throw new Error(`resting order rejected: ${result.code}`);
      if (n % 1000 === 999) engine.releaseResults();
    }
  });
  const gcMs = await timed.gcMs;
  const slowest = [...times.keys()].sort((a, b) => times[b]! - times[a]!).slice(0, SHOWN);
  const sorted = [...times].sort((a, b) => a - b);
  const us = (q: number) => (sorted[Math.floor(q * (sorted.length - 1))]! * 1000).toFixed(2);
  const how = args.levels ? ', each a new level (asks a tick apart)' : '';
  console.log(`book growth: ${orders.length} orders rested one at a time${how}, seed ${args.seed}`);
  console.log(`p50 us: ${us(0.5)}, p99 us: ${us(0.99)}`);
  console.log(`longest gc pause ms: ${gcMs.toFixed(2)}`);
  console.log(`longest ${SHOWN} apply() ms, with the open orders each made:`);
  for (const n of slowest) {
    console.log(`  ${times[n]!.toFixed(2)} ms at ${n + 1} open orders`);
  }
}
