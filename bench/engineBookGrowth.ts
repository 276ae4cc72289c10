// The engine bench's book-growth measure (bench/engine.ts --book-growth N): N orders rested one
// after another on an engine set up as the workload's, each apply() timed alone. The order
// table grows as its open orders pass the sizes it was made for, so this shows what that
// growth costs the order that makes it: the longest apply()s, with how many orders were open.
import { type Command, Engine } from '@lattice/engine';
import type { Args } from './engineArgs.js';
import { withCollectedHeap } from './engineTimedPasses.js';
import {
  Amounts,
  MARKET,
  MID_TICKS,
  prng,
  SETUP_TIME,
  SIZE_POOL,
  setupCommands,
  USERS,
} from './engineWorkload.js';

/** The orders that are timed: bids below the mid and asks above it, so none trades. */
function restingOrders(count: number, seed: number): Command[] {
  const rand = prng(seed);
  const amounts = new Amounts(rand);
  const orders: Command[] = [];
  for (let n = 0; n < count; n++) {
    const side = n % 2 === 0 ? 2 : 1;
    const away = 1 + Math.floor(rand() * 3000);
    orders.push({
      type: 'order.limit',
      time: SETUP_TIME,
      userId: 1 + Math.floor(rand() * USERS),
      market: MARKET,
      side,
      price: amounts.price(side === 2 ? MID_TICKS - away : MID_TICKS + away),
      amount: amounts.sizeBig[Math.floor(rand() * SIZE_POOL)]!,
      timeInForce: 'GTC',
      source: 'api',
    });
  }
  return orders;
}

const SHOWN = 8;

export async function runBookGrowth(args: Args): Promise<void> {
  // The workload's market, users and funds, and no book: the orders below are its book.
  const engine = new Engine();
  for (const cmd of setupCommands()) engine.apply(cmd);
  const orders = restingOrders(args.bookGrowth, args.seed);
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
  console.log(`book growth: ${orders.length} orders rested one at a time, seed ${args.seed}`);
  console.log(`p50 us: ${us(0.5)}, p99 us: ${us(0.99)}`);
  console.log(`longest gc pause ms: ${gcMs.toFixed(2)}`);
  console.log(`longest ${SHOWN} apply() ms, with the open orders each made:`);
  for (const n of slowest) {
    console.log(`  ${times[n]!.toFixed(2)} ms at ${n + 1} open orders`);
  }
}
