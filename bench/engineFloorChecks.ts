// The checks the engine bench runs before timing a floor in the engine's place (bench/engine.ts
// --floor, --ledger-floor, --wasm-floor): that the floor does the engine's work on the workload,
// so that its figures measure that work and not less. Each runs the floor and an engine through
// the same operations and throws at the first difference; nothing in it is timed.
import { Engine } from '@lattice/engine';
import { freshLedgerFloor, setUpFloor } from './engineContenders.js';
import {
  BATCH,
  commandAt,
  MARKET,
  type Ops,
  SETUP_TIME,
  seeded,
  setupCommands,
  TICK,
  USERS,
  type Workload,
} from './engineWorkload.js';

/**
 * The ledger floor does the engine's work on the workload: after the seed and the first `count`
 * operations through both, the book (every level's price and amount) and every user's trade
 * balances are the same, and each asset's total is what it was. Throws on a difference.
 */
export function checkLedgerFloor(w: Workload, count: number): void {
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
export function checkFloor(w: Workload, count: number): void {
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
