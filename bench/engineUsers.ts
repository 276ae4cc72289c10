// The engine bench's users measure (bench/engine.ts --users N): what N more users cost the
// engine, each funded and with the trade balances of the bench's market, against the same
// engine without them: heap, array-buffer and resident bytes a user, the longest users added, a
// full collection's time, and the workload's operations timed one at a time with them in the
// heap. A user stays in the engine for good, so this cost grows with the exchange's sign-ups,
// not with its book.
import type { Command, Engine } from '@lattice/engine';
import {
  collector,
  longestOf,
  memoryAfterCollection,
  timeFullCollections,
} from './engineAppliedIds.js';
import type { Args } from './engineArgs.js';
import { freshEngine } from './engineContenders.js';
import { runEngineLatency, warmUp, withCollectedHeap } from './engineTimedPasses.js';
import { generate, MARKET, SETUP_TIME, USERS } from './engineWorkload.js';

/**
 * A user as one who has traded leaves the engine: added, USDT deposited and moved to trade,
 * and a trade balance of BTC too. The sell that makes the BTC balance is refused (the user has
 * none), as the engine makes a user's balances of a market on any order there: a refused order
 * takes no order id, so the workload's cancels still name the orders they were generated for.
 */
function addTrader(engine: Engine, userId: number): void {
  const time = SETUP_TIME;
  const funds = { time, userId, asset: 'USDT', amount: 10n ** 12n } as const;
  const commands: Command[] = [
    { type: 'user.add', time, userId },
    { ...funds, type: 'balance.deposit', businessId: `users:d${userId}` },
    {
      ...funds,
      type: 'balance.transfer',
      from: 'main',
      to: 'trade',
      businessId: `users:t${userId}`,
    },
  ];
  for (const cmd of commands) {
    if (!engine.apply(cmd).ok) throw new Error(`${cmd.type} rejected for user ${userId}`);
  }
  const sell = engine.apply({
    type: 'order.limit',
    time,
    userId,
    market: MARKET,
    side: 1,
    price: 10n ** 11n,
    amount: 10n ** 6n,
    timeInForce: 'GTC',
    source: 'api',
  });
  if (sell.ok) throw new Error(`a sell of BTC user ${userId} does not have was accepted`);
}

function latencyLine(label: string, latency: { p99: number; longestMs: number }, gcMs: number) {
  return (
    `${label}: p99 us ${latency.p99.toFixed(2)}, longest apply() ms ${latency.longestMs.toFixed(2)}, ` +
    `longest gc pause ms ${gcMs.toFixed(2)}`
  );
}

export async function runUsers(args: Args): Promise<void> {
  const gc = collector();
  const w = generate(args);
  warmUp(w, freshEngine);
  const without = withCollectedHeap(freshEngine(w), (engine) => runEngineLatency(w, engine));
  const withoutGcMs = await without.gcMs;

  const engine = freshEngine(w);
  const fullWithout = timeFullCollections(gc, 5);
  const before = memoryAfterCollection(gc);
  const start = performance.now();
  const addMs = new Float64Array(args.users);
  // Ids after the workload's own users: a database issues them densely.
  for (let n = 0; n < args.users; n++) {
    const added = performance.now();
    addTrader(engine, USERS + 1 + n);
    addMs[n] = performance.now() - added;
    if (n % 1000 === 999) engine.releaseResults();
  }
  engine.releaseResults();
  const allAddedMs = performance.now() - start;
  const after = memoryAfterCollection(gc);
  const fullWith = timeFullCollections(gc, 5);
  const withUsers = withCollectedHeap(engine, (e) => runEngineLatency(w, e));
  const withGcMs = await withUsers.gcMs;

  console.log(`users: ${args.users} more, each funded with both trade balances; seed ${args.seed}`);
  // Rounded to whole bytes; a difference of less than one a user, either way, is 0 (not -0).
  const perUser = (bytes: number) => String(Math.round(bytes / args.users) || 0);
  console.log(`heap bytes per user: ${perUser(after.heap - before.heap)}`);
  console.log(`array buffer bytes per user: ${perUser(after.buffers - before.buffers)}`);
  console.log(`resident bytes per user: ${perUser(after.resident - before.resident)}`);
  console.log(
    `us per user added (four commands): ${((allAddedMs * 1000) / args.users).toFixed(2)}`,
  );
  console.log(`longest 5 users added, ms (which of them): ${longestOf(addMs, 5)}`);
  console.log(
    `full collection ms, median (longest) of 5: ` +
      `${fullWith.median.toFixed(2)} (${fullWith.max.toFixed(2)}) with the users, ` +
      `${fullWithout.median.toFixed(2)} (${fullWithout.max.toFixed(2)}) without`,
  );
  console.log(latencyLine('the workload with the users', withUsers.result, withGcMs));
  console.log(latencyLine('the workload without them', without.result, withoutGcMs));
}
