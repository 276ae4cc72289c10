// What the engine bench times (bench/engine.ts): the engine, seeded with the workload's book,
// or a floor in its place (the columnar prototype of engineFloor.ts, the ledger floor of
// ledgerFloor.ts or its WebAssembly build), each made fresh per pass in the state the engine is
// in after the workload's setup and seed. It also holds which of them the arguments chose: the
// bigint core for the engine, the compiled WebAssembly module for the ledger floor.
import { type Command, Engine } from '@lattice/engine';
import { State } from '../packages/engine/src/state.js';
import { EngineFloor } from './engineFloor.js';
import {
  commandAt,
  MARKET,
  MID_TICKS,
  SETUP_TIME,
  seeded,
  setupCommands,
  USERS,
  type Workload,
} from './engineWorkload.js';
import { LedgerFloor } from './ledgerFloor.js';
import type { LedgerFloorBase, LedgerFloorSetup } from './ledgerFloorBase.js';
import { WasmLedgerFloor } from './wasmLedgerFloor.js';

/** Whether the timed engines run on the bigint core (--bigint). */
let bigintCore = false;
/** The last engine made for timing: which core it ended on is printed. */
let lastEngine: Engine | undefined;

/** Times the engine on its bigint core from the start (--bigint). */
export function useBigintCore(on: boolean): void {
  bigintCore = on;
}

/** The last engine made for timing, if an engine was timed. */
export function lastTimedEngine(): Engine | undefined {
  return lastEngine;
}

/** An engine on the core the arguments chose, seeded with the workload's book. */
export function freshEngine(w: Workload): Engine {
  const engine = bigintCore ? new Engine(new State()) : new Engine();
  lastEngine = engine;
  return seeded(w, engine);
}

/** What the timed loops drive: the engine, or the floor prototype. */
export interface Contender {
  apply(cmd: Command): { ok: boolean };
  /** No result so far will be read (Engine.releaseResults). */
  releaseResults?(): void;
}

/**
 * The floor prototype in the state setupCommands() leaves the engine in, before the seed: the
 * market, balances and counters are read from an engine so set up.
 */
export function setUpFloor(): EngineFloor {
  const engine = new Engine();
  for (const cmd of setupCommands()) engine.apply(cmd);
  const market = engine.markets().find((m) => m.name === MARKET)!;
  const decimals = engine.assets().find((a) => a.asset === market.stock)!.decimals;
  const balances = engine.balances(1);
  return new EngineFloor(
    { ...market, scale: 10n ** BigInt(decimals) },
    {
      users: USERS,
      stockBalance: balances[market.stock]!.trade.available,
      moneyBalance: balances[market.money]!.trade.available,
      lastEventSeq: engine.lastEventSeq,
      nextOrderId: engine.nextOrderId,
      nextDealId: engine.nextDealId,
    },
  );
}

/** The floor prototype, seeded with the workload's book. */
export function freshFloor(w: Workload): EngineFloor {
  const floor = setUpFloor();
  for (let i = 0; i < w.seed.length; i++) floor.apply(commandAt(w.seed, w.amounts, i, SETUP_TIME));
  return floor;
}

/** A ledger floor of either kind: the JS one, or the WebAssembly one. */
type Floor = LedgerFloorBase & Contender & { releaseResults(): void };

/** The compiled WebAssembly floor, with --wasm-floor (compiled once, before any timing). */
let wasmFloorModule: WebAssembly.Module | undefined;

/** Times `module`, the compiled WebAssembly floor, in the JS ledger floor's place. */
export function useWasmLedgerFloor(module: WebAssembly.Module): void {
  wasmFloorModule = module;
}

/** The floor to time: the WebAssembly one with --wasm-floor, else the JS one. */
function newLedgerFloor(setup: LedgerFloorSetup): Floor {
  return wasmFloorModule === undefined
    ? new LedgerFloor(setup)
    : new WasmLedgerFloor(wasmFloorModule, setup);
}

/**
 * A ledger floor in the state setupCommands() leaves the engine in, before the seed: the
 * market, balances and counters are read from an engine so set up.
 */
export function setUpLedgerFloor(): Floor {
  const engine = new Engine();
  const setup = setupCommands();
  for (const cmd of setup) engine.apply(cmd);
  const market = engine.markets().find((m) => m.name === MARKET)!;
  const decimals = engine.assets().find((a) => a.asset === market.stock)!.decimals;
  const deposit = setup.find((cmd) => cmd.type === 'balance.deposit');
  return newLedgerFloor({
    market: MARKET,
    users: USERS,
    tickSize: Number(market.tickSize),
    stockScale: 10 ** decimals,
    minAmount: Number(market.minAmount),
    makerFeePpm: market.makerFeePpm,
    takerFeePpm: market.takerFeePpm,
    balance: deposit?.type === 'balance.deposit' ? deposit.amount : 0n,
    midTicks: MID_TICKS,
    nextOrderId: engine.nextOrderId,
  });
}

/** The ledger floor the arguments chose, seeded with the workload's book. */
export function freshLedgerFloor(w: Workload): Floor {
  const floor = setUpLedgerFloor();
  for (let i = 0; i < w.seed.length; i++) {
    floor.apply(commandAt(w.seed, w.amounts, i, SETUP_TIME));
    floor.releaseResults();
  }
  return floor;
}
