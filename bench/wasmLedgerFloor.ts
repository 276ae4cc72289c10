// The ledger floor in WebAssembly: bench/assembly/ledgerFloor.ts (AssemblyScript) does the
// floor's work, and this reads each command as the JS floor does (ledgerFloorBase.ts) and calls
// in with plain numbers. `npm run bench:engine -- --wasm-floor` times it in the engine's place,
// after checking it against the engine as the JS floor is checked.
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Command } from '@lattice/engine';
import { limbsToBigInt, setLimbs } from '../packages/engine/src/columnar/limbs.js';
import { LedgerFloorBase, type LedgerFloorSetup } from './ledgerFloorBase.js';

/** What bench/assembly/ledgerFloor.ts exports (the module's exports are its entry's alone). */
interface FloorExports {
  init(
    users: number,
    tickSize: number,
    stockScale: number,
    makerPpm: number,
    takerPpm: number,
    balanceHi: number,
    balanceLo: number,
    midTicks: number,
    nextOrderId: number,
  ): void;
  release(): void;
  limit(user: number, side: number, ticks: number, amount: number, time: number): number;
  market(user: number, side: number, amount: number, time: number): number;
  cancel(user: number, orderId: number, time: number): number;
  levelTotal(side: number, level: number): number;
  balanceLimb(holder: number, asset: number, limb: number): number;
}

/** Why a command was refused, by the code the module returns (see its commands). */
const REFUSED = [
  '',
  'insufficient',
  'price beyond the window',
  'empty book',
  'no such open order of the user',
];

/** bench/ (this file's folder, or the bundle's folder's parent: bench/dist/engine.mjs). */
function benchDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return basename(here) === 'dist' ? dirname(here) : here;
}

/** The module's sources, bench/assembly/*.ts by name: ledgerFloor.ts and what it imports. */
function readAssembly(): Record<string, string> {
  const dir = join(benchDir(), 'assembly');
  const sources: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    if (name.endsWith('.ts')) sources[name] = readFileSync(join(dir, name), 'utf8');
  }
  return sources;
}

// The worker's program (CommonJS, as `eval` runs it). NOTE: loading the compiler reads
// process.argv, where the argument after a `--wasm` names a compiler binary to load instead of
// its own; a worker's process.argv holds none of the bench's arguments.
//
// It runs the compiler's main as its compileString does, but with ledgerFloor.ts the only
// entry: compileString makes an entry of every source it is given, and every entry's exports
// become the module's, so the helpers' (ledgerFloorBook.ts, ledgerFloorLedger.ts) would too.
// The compiler reads what ledgerFloor.ts imports from the same sources.
const COMPILE = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.compiler).then(async ({ main, configToArguments }) => {
  const { sources, options } = workerData;
  const files = {};
  const out = await main(configToArguments(options, ['--outFile', 'binary', 'ledgerFloor.ts']), {
    readFile: (name) => (Object.hasOwn(sources, name) ? sources[name] : null),
    writeFile: (name, contents) => {
      files[name] = contents;
    },
    listFiles: () => [],
  });
  parentPort.postMessage(
    out.error || files.binary === undefined
      ? { error: (out.error ? out.error.message : '') + '\\n' + out.stderr.toString() }
      : { binary: files.binary },
  );
});
`;

/**
 * Compile the module from its source, optimised (-O3), without assertions, and on
 * AssemblyScript's `stub` runtime: its allocator without a garbage collector, which the module
 * needs none of (it allocates only when it is set up). About two seconds here: done once, before
 * anything is timed.
 *
 * In a worker thread, whose heap goes when it ends: loaded, the compiler keeps its source text
 * and Binaryen's WebAssembly instance in its heap (about 27 MB of strings), which the floor and
 * the baseline would otherwise be timed beside (columnar-engine-speed.md, "The compiler in
 * the heap").
 */
export async function compileWasmLedgerFloor(): Promise<WebAssembly.Module> {
  const sources = readAssembly();
  const worker = new Worker(COMPILE, {
    eval: true,
    workerData: {
      compiler: import.meta.resolve('assemblyscript/asc'),
      sources,
      options: { optimizeLevel: 3, shrinkLevel: 0, runtime: 'stub', noAssert: true },
    },
  });
  const [answer] = (await once(worker, 'message')) as [
    { binary?: Uint8Array<ArrayBuffer>; error?: string },
  ];
  await worker.terminate();
  if (answer.binary === undefined) throw new Error(`ledger floor module: ${answer.error}`);
  return new WebAssembly.Module(answer.binary);
}

export class WasmLedgerFloor extends LedgerFloorBase {
  private readonly floor: FloorExports;
  private readonly accepted = { ok: true };
  /** Room for a balance's limbs on their way in and out of the module (limbs.ts). */
  private readonly limbs = new Float64Array(4);

  /** A fresh instance of the compiled module: a floor of its own, set up. */
  constructor(module: WebAssembly.Module, setup: LedgerFloorSetup) {
    super(setup);
    const imports = {
      env: {
        abort: () => {
          throw new Error('ledger floor module: abort');
        },
      },
    };
    this.floor = new WebAssembly.Instance(module, imports).exports as unknown as FloorExports;
    const limbs = this.limbs;
    if (!setLimbs(limbs, 0, setup.balance)) {
      throw new Error('ledger floor: an opening balance beyond the limbs');
    }
    this.floor.init(
      setup.users,
      setup.tickSize,
      setup.stockScale,
      setup.makerFeePpm,
      setup.takerFeePpm,
      limbs[0]!,
      limbs[1]!,
      setup.midTicks,
      setup.nextOrderId,
    );
  }

  releaseResults(): void {
    this.floor.release();
  }

  apply(cmd: Command): { ok: boolean } {
    const floor = this.floor;
    let code: number;
    switch (cmd.type) {
      case 'order.limit': {
        const user = this.userOf(cmd.userId);
        this.checkOrder(cmd.market, cmd.side, cmd.source);
        if (cmd.timeInForce !== 'GTC') throw new Error('ledger floor: GTC only');
        const ticks = this.ticksOf(cmd.price);
        code = floor.limit(user, cmd.side, ticks, this.amountOf(cmd.amount), cmd.time);
        break;
      }
      case 'order.market': {
        const user = this.userOf(cmd.userId);
        this.checkOrder(cmd.market, cmd.side, cmd.source);
        code = floor.market(user, cmd.side, this.amountOf(cmd.amount), cmd.time);
        break;
      }
      case 'order.cancel': {
        const user = this.userOf(cmd.userId);
        const id = cmd.orderId;
        if (!Number.isSafeInteger(id)) throw new Error('ledger floor: bad order id');
        code = floor.cancel(user, id, cmd.time);
        break;
      }
      default:
        throw new Error(`ledger floor: ${cmd.type} is not in the workload`);
    }
    if (code !== 0) throw new Error(`ledger floor: ${REFUSED[code] ?? `code ${code}`}`);
    return this.accepted;
  }

  balance(holder: number, asset: 0 | 1): [bigint, bigint] {
    const limbs = this.limbs;
    for (let k = 0; k < 4; k++) limbs[k] = this.floor.balanceLimb(holder, asset, k);
    return [limbsToBigInt(limbs, 0), limbsToBigInt(limbs, 2)];
  }

  protected levelTotal(side: 1 | 2, level: number): number {
    return this.floor.levelTotal(side, level);
  }
}
