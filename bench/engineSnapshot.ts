// The engine bench's snapshot measure (bench/engine.ts --snapshot N): the engine host's
// snapshot and recovery path timed at a book of N resting orders, instead of the workload's
// timed passes.
import { type Command, Engine } from '@lattice/engine';
import type { Args } from './engineArgs.js';
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
