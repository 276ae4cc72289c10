// End-to-end order benchmark: the real server (the production bundle, embedded SQLite, fresh
// DATA_DIR) driven over HTTP by signed-in keep-alive clients placing and cancelling orders, and,
// with the same client code, two servers for comparison, each in its own process:
// - the bare route, a Fastify server with one POST route that does nothing (bareRoute.ts): the
//   baseline of the ratio;
// - the durable floor (durableFloor.ts): the least a server can do for a signed-in order and
//   answer only once it is durable as the write path requires (no engine, no exchange code), so
//   what separates the server from the bare route is split into what any such server pays on
//   this machine and what is ours.
// Prints: orders/s (closed loop, as fast as acknowledgements come), p50/p99 ms of
// acknowledgements at a fixed offered rate (default 5,000 orders/s), baseline req/s and the
// ratio, the floor's rate and ratio, the CPU time each server spent per request in the closed
// loop (Linux; the server's also per thread), and the clients' own (this process): when it
// nears one core, the closed loop measures the client. The closed loops run in alternating
// rounds, so that other load on the machine falls on all alike. The bare route and the floor
// also take the fixed offered rate. Then the sync latency of the disk under the data directory,
// alone (every acknowledgement waits for a sync); and, to tell the HTTP path from the durable
// write, the engine host alone on the same place/cancel loop.
// Usage: npm run bench:e2e [-- clients seconds rate]. The demo market maker is off.
//
// This file starts the servers, runs the phases in order and prints their figures; the parts
// are beside it: httpLoad.ts (the load and what it measures), e2eClients.ts (the clients'
// sign-in and requests) and e2eWithoutHttp.ts (the disk and the engine host alone).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpSession } from '../packages/server/src/engineHost/harness/httpSession.js';
import { buildServerBundle } from '../packages/server/src/engineHost/harness/serverBundle.js';
import {
  repoRoot,
  ServerProcess,
} from '../packages/server/src/engineHost/harness/serverProcess.js';
import { baselineRequest, orderRequest, signIn, signInToFloor } from './e2eClients.js';
import { diskSyncLatency, hostAlone } from './e2eWithoutHttp.js';
import {
  alternatingClosedLoops,
  type ClosedLoopRun,
  closedLoop,
  fixedRate,
  type Measured,
  type Side,
} from './httpLoad.js';
import { type ScriptServer, startScriptServer } from './scriptServer.js';

// NOTE: 128 clients by default, not 32. Every acknowledgement waits for a commit, so a closed
// loop's rate is the clients in flight divided by the acknowledgement's latency until the
// server runs out of CPU: 32 clients measured that latency (32 / about 6 ms), not what the
// server can carry, while the bare route gave about the same req/s with 32 and 128 (with the
// node:http client of then, whose own core was that limit; see docs/decisions/engine-host.md).
// Group commit needs requests in flight, as an exchange's many clients give.
const clientCount = Number(process.argv[2] ?? 128);
const seconds = Number(process.argv[3] ?? 8);
const offeredRate = Number(process.argv[4] ?? 5_000);
const warmUpSeconds = 2;
/** The closed loops run in this many rounds per server, alternating (`alternatingClosedLoops`). */
const rounds = 4;
const roundSeconds = seconds / rounds;
// The paced phases are short: when the offered rate is not sustained, the backlog drains after.
const pacedSeconds = 4;
const lightRate = 1_000;
/** How long the disk's own sync latency is sampled, after the server's phases. */
const diskProbeSeconds = 10;

await main();

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lattice-bench-e2e-'));
  const floorDir = mkdtempSync(join(tmpdir(), 'lattice-bench-floor-'));
  // The server as `npm start` runs it: the production bundle (tsx would add its transform's
  // helpers to every request's work).
  const bundleName = `bench-e2e-${process.pid}`;
  const started: Started = { others: [] };
  try {
    const sides = await startSides(started, dataDir, floorDir, bundleName);
    const phases = await runPhases(sides);
    // Stopped before the disk probe and the host-alone phase, so that they take no CPU there
    // (the `finally` below stops them again on an error; a second stop does nothing).
    for (const other of started.others) other.stop();
    printClosedLoops(phases);
    printPaced(phases);
    printCpuTimes(phases);
    await printWithoutHttp(dataDir);
    printSummary(phases);
  } finally {
    for (const other of started.others) other.stop();
    await started.server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(floorDir, { recursive: true, force: true });
    rmSync(join(repoRoot, 'packages/server/dist', bundleName), { recursive: true, force: true });
  }
}

/** What `main` has started so far, for its `finally` to stop even when a later start fails. */
interface Started {
  server?: ServerProcess;
  others: ScriptServer[];
}

/** The three servers compared, each with its signed-in clients. */
interface Sides {
  ours: Side;
  theFloor: Side;
  bare: Side;
}

/** Starts our server, the durable floor and the bare route, and signs in their clients. */
async function startSides(
  started: Started,
  dataDir: string,
  floorDir: string,
  bundleName: string,
): Promise<Sides> {
  const bundle = await buildServerBundle(bundleName);
  const server = await ServerProcess.start(
    {
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_SCALE: '100000',
      DEMO_MAKER: '0',
    },
    { ...serverOptions(), bundle },
  );
  started.server = server;
  const floor = await startScriptServer('durableFloor', [floorDir]);
  started.others.push(floor);
  const baseline = await startScriptServer('bareRoute');
  started.others.push(baseline);
  const traders = await signIn(server.url, clientCount);
  const floorTraders = await signInToFloor(floor.url, clientCount);
  const plain = Array.from({ length: clientCount }, () => ({
    session: new HttpSession(baseline.url),
    side: 'sell' as const,
    resting: [],
    sequence: 0,
  }));
  const ours: Side = { traders, send: orderRequest, pid: server.pid };
  const theFloor: Side = { traders: floorTraders, send: orderRequest, pid: floor.pid };
  const bare: Side = { traders: plain, send: baselineRequest, pid: baseline.pid };
  return { ours, theFloor, bare };
}

function serverOptions(): { nodeArgs?: string[] } {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] } : {};
}

type Paced = Measured & { queuedInClient: number };

/** What the servers' phases measured: the closed loops' runs, then the paced phases. */
interface Phases {
  run: ClosedLoopRun;
  floorRun: ClosedLoopRun;
  baselineRun: ClosedLoopRun;
  roundRatios: number[][];
  paced: Paced;
  floorPaced: Paced;
  barePaced: Paced;
  light: Paced;
}

/** The warm-up, the closed loops in alternating rounds, then the paced phases. */
async function runPhases({ ours, theFloor, bare }: Sides): Promise<Phases> {
  for (const side of [ours, theFloor, bare])
    await closedLoop(side.traders, warmUpSeconds, side.send);
  const { runs, roundRatios } = await alternatingClosedLoops(
    [ours, theFloor, bare],
    rounds,
    roundSeconds,
  );
  const [run, floorRun, baselineRun] = runs as [ClosedLoopRun, ClosedLoopRun, ClosedLoopRun];
  const paced = await fixedRate(ours.traders, offeredRate, pacedSeconds, orderRequest);
  const floorPaced = await fixedRate(theFloor.traders, offeredRate, pacedSeconds, orderRequest);
  const barePaced = await fixedRate(bare.traders, offeredRate, pacedSeconds, baselineRequest);
  const light = await fixedRate(ours.traders, lightRate, pacedSeconds, orderRequest);
  return { run, floorRun, baselineRun, roundRatios, paced, floorPaced, barePaced, light };
}

function ratioRange(ratios: number[]): string {
  return `${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)}`;
}

/** The set-up, and the closed loops of the server and of the durable floor. */
function printClosedLoops({ run, floorRun, baselineRun, roundRatios }: Phases): void {
  const baselineRate = baselineRun.perSecond;
  console.log(
    `server: production bundle, SQLite (WAL, synchronous=FULL), ${clientCount} signed-in ` +
      `keep-alive clients, each request one durable command (place or cancel)`,
  );
  console.log(
    `  closed loop, ${rounds} rounds of ${roundSeconds} s alternating with the durable floor ` +
      `and the bare route: ${run.count} orders acknowledged, ${run.failed} failed, ` +
      `p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms; ratio per round ` +
      `${ratioRange(roundRatios[0]!)}`,
  );
  console.log(
    `  the durable floor's closed loop: ${Math.round(floorRun.perSecond)} orders/s, ` +
      `${floorRun.failed} failed, p50 ${floorRun.p50.toFixed(2)} ms; ratio to the bare route ` +
      `${(floorRun.perSecond / baselineRate).toFixed(2)} (per round ${ratioRange(roundRatios[1]!)})`,
  );
}

/** The paced phases, a line each. */
function printPaced({ paced, floorPaced, barePaced, light }: Phases): void {
  for (const [label, rate, result] of [
    ['', offeredRate, paced],
    ['the durable floor, ', offeredRate, floorPaced],
    ['the bare route, ', offeredRate, barePaced],
    ['', lightRate, light],
  ] as const) {
    console.log(
      `  ${label}offered ${rate}/s for ${pacedSeconds} s: ${result.count} acknowledged at ` +
        `${Math.round(result.perSecond)}/s, ${result.failed} failed, ` +
        `p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms (from the time each was due)` +
        (result.queuedInClient > 0
          ? `, up to ${result.queuedInClient} at once waited in the client for a connection`
          : ''),
    );
  }
}

/** The CPU time per request over the closed loops: the servers' (Linux), then the clients'. */
function printCpuTimes({ run, floorRun, baselineRun }: Phases): void {
  if (run.cpu !== null && floorRun.cpu !== null && baselineRun.cpu !== null) {
    // CPU time per request depends far less on other load on the machine than rates do.
    console.log(
      `  CPU time over the closed loop: server ${run.cpu.toFixed(3)} ms per order, durable ` +
        `floor ${floorRun.cpu.toFixed(3)} ms per order, bare route ` +
        `${baselineRun.cpu.toFixed(3)} ms per request (all threads of each process)`,
    );
    console.log(`  the server's CPU time per order by thread: ${run.threads}`);
  }
  console.log(
    `  the clients' CPU time (this process, one event loop): ${run.clientCpu.toFixed(3)} ms per ` +
      `order, ${floorRun.clientCpu.toFixed(3)} ms per durable floor order, ` +
      `${baselineRun.clientCpu.toFixed(3)} ms per bare-route request`,
  );
}

/** Measures and prints the disk alone, then the engine host alone (e2eWithoutHttp.ts). */
async function printWithoutHttp(dataDir: string): Promise<void> {
  const disk = diskSyncLatency(dataDir, diskProbeSeconds);
  console.log(
    `  the disk under the data directory, alone: ${disk.count} writes of 16 KB each followed by ` +
      `fdatasync in ${diskProbeSeconds} s, p50 ${disk.p50.toFixed(2)} ms, p99 ${disk.p99.toFixed(2)} ms, ` +
      `max ${disk.max.toFixed(1)} ms, ${disk.over50} over 50 ms (every acknowledgement waits for one)`,
  );
  const hostOnly = await hostAlone(clientCount, seconds);
  console.log(
    `  for comparison, the engine host alone (in this process, no HTTP, ${clientCount} ` +
      `submitters): ${Math.round(hostOnly.perSecond)} commands/s, p50 ${hostOnly.p50.toFixed(2)} ms, ` +
      `p99 ${hostOnly.p99.toFixed(2)} ms; CPU time per command by thread: ${hostOnly.threads}`,
  );
}

/** The headline figures, a name and a value a line, last. */
function printSummary({ run, floorRun, baselineRun, paced }: Phases): void {
  const baselineRate = baselineRun.perSecond;
  console.log(`orders/s: ${Math.round(run.perSecond)}`);
  console.log(`p50 ms: ${paced.p50.toFixed(2)}`);
  console.log(`p99 ms: ${paced.p99.toFixed(2)}`);
  console.log(`baseline req/s: ${Math.round(baselineRate)}`);
  console.log(`ratio: ${(run.perSecond / baselineRate).toFixed(2)}`);
  console.log(`durable floor orders/s: ${Math.round(floorRun.perSecond)}`);
  console.log(`durable floor ratio: ${(floorRun.perSecond / baselineRate).toFixed(2)}`);
}
