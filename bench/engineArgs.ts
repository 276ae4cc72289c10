// The engine bench's arguments (bench/engine.ts): the workload's size and seed, and which one
// of its other measures to run instead of the default timed passes (a snapshot at a large book,
// the cost of applied business ids or of users, the order table's growth, bytes allocated per
// operation, or a floor or the bigint core timed in the engine's place).
// An argument it does not know, or a number out of range, leaves the default.

export interface Args {
  ops: number;
  seed: number;
  /** With --snapshot N: time snapshot and restore at N resting orders instead. */
  snapshotOrders: number;
  /** With --applied-ids N: measure what N applied business ids cost instead. */
  appliedIds: number;
  /** With --users N: measure what N more users cost instead. */
  users: number;
  /** With --book-growth N: time N orders rested one at a time instead. */
  bookGrowth: number;
  /** With --book-growth N --levels: each order an ask a tick above the one before, a new level. */
  levels: boolean;
  /** With --alloc: measure bytes allocated per operation, by kind, instead. */
  alloc: boolean;
  /** With --floor: time the columnar prototype (engineFloor.ts) instead of the engine. */
  floor: boolean;
  /** With --ledger-floor: time the ledger floor (ledgerFloor.ts) instead of the engine. */
  ledgerFloor: boolean;
  /** With --wasm-floor: time the ledger floor in WebAssembly (wasmLedgerFloor.ts) instead. */
  wasmFloor: boolean;
  /** With --bigint: time the engine on its bigint core (docs/decisions/columnar-engine.md). */
  bigint: boolean;
}

export function parseArgs(argv: string[]): Args {
  const args: Args = {
    ops: 1_000_000,
    seed: 42,
    snapshotOrders: 0,
    appliedIds: 0,
    users: 0,
    bookGrowth: 0,
    levels: false,
    alloc: false,
    floor: false,
    ledgerFloor: false,
    wasmFloor: false,
    bigint: false,
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--alloc') args.alloc = true;
    if (argv[i] === '--floor') args.floor = true;
    if (argv[i] === '--ledger-floor') args.ledgerFloor = true;
    if (argv[i] === '--wasm-floor') args.wasmFloor = true;
    if (argv[i] === '--bigint') args.bigint = true;
    if (argv[i] === '--levels') args.levels = true;
    const value = Number(argv[i + 1]);
    if (argv[i] === '--ops' && Number.isSafeInteger(value) && value > 0) args.ops = value;
    if (argv[i] === '--seed' && Number.isSafeInteger(value)) args.seed = value;
    if (argv[i] === '--snapshot' && Number.isSafeInteger(value) && value > 0) {
      args.snapshotOrders = value;
    }
    if (argv[i] === '--applied-ids' && Number.isSafeInteger(value) && value > 0) {
      args.appliedIds = value;
    }
    if (argv[i] === '--users' && Number.isSafeInteger(value) && value > 0) args.users = value;
    if (argv[i] === '--book-growth' && Number.isSafeInteger(value) && value > 0) {
      args.bookGrowth = value;
    }
  }
  return args;
}
