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
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest } from '../packages/server/src/db/migrate.js';
import { openDatabase } from '../packages/server/src/db/open.js';
import { HttpSession } from '../packages/server/src/engineHost/harness/httpSession.js';
import { buildServerBundle } from '../packages/server/src/engineHost/harness/serverBundle.js';
import {
  repoRoot,
  ServerProcess,
} from '../packages/server/src/engineHost/harness/serverProcess.js';
import {
  fixtureSetup,
  fundedUserCommands,
  limitOrder,
  oneBtc,
  oneUsdt,
  openHost,
  placedOrder,
  submitAll,
} from '../packages/server/src/engineHost/hostFixtures.js';
import {
  addThreadUse,
  alternatingClosedLoops,
  type ClosedLoopRun,
  closedLoop,
  fixedRate,
  type Measured,
  measured,
  type Side,
  type Trader,
  threadCpuMs,
  threadCpuPer,
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
  const others: ScriptServer[] = [];
  let server: ServerProcess | undefined;
  try {
    const bundle = await buildServerBundle(bundleName);
    server = await ServerProcess.start(
      {
        DATA_DIR: dataDir,
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_SCALE: '100000',
        DEMO_MAKER: '0',
      },
      { ...serverOptions(), bundle },
    );
    const floor = await startScriptServer('durableFloor', [floorDir]);
    others.push(floor);
    const baseline = await startScriptServer('bareRoute');
    others.push(baseline);
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
    for (const side of [ours, theFloor, bare])
      await closedLoop(side.traders, warmUpSeconds, side.send);
    const { runs, roundRatios } = await alternatingClosedLoops(
      [ours, theFloor, bare],
      rounds,
      roundSeconds,
    );
    const [run, floorRun, baselineRun] = runs as [ClosedLoopRun, ClosedLoopRun, ClosedLoopRun];
    const paced = await fixedRate(traders, offeredRate, pacedSeconds, orderRequest);
    const floorPaced = await fixedRate(floorTraders, offeredRate, pacedSeconds, orderRequest);
    const barePaced = await fixedRate(plain, offeredRate, pacedSeconds, baselineRequest);
    const light = await fixedRate(traders, lightRate, pacedSeconds, orderRequest);
    // Stopped before the disk probe and the host-alone phase, so that they take no CPU there
    // (the `finally` below stops them again on an error; a second stop does nothing).
    for (const other of others) other.stop();
    const baselineRate = baselineRun.perSecond;
    const ratioRange = (ratios: number[]) =>
      `${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)}`;

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
    console.log(`orders/s: ${Math.round(run.perSecond)}`);
    console.log(`p50 ms: ${paced.p50.toFixed(2)}`);
    console.log(`p99 ms: ${paced.p99.toFixed(2)}`);
    console.log(`baseline req/s: ${Math.round(baselineRate)}`);
    console.log(`ratio: ${(run.perSecond / baselineRate).toFixed(2)}`);
    console.log(`durable floor orders/s: ${Math.round(floorRun.perSecond)}`);
    console.log(`durable floor ratio: ${(floorRun.perSecond / baselineRate).toFixed(2)}`);
  } finally {
    for (const other of others) other.stop();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(floorDir, { recursive: true, force: true });
    rmSync(join(repoRoot, 'packages/server/dist', bundleName), { recursive: true, force: true });
  }
}

function serverOptions(): { nodeArgs?: string[] } {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] } : {};
}

/** Signs in the two demo accounts, alternately, as `count` separate sessions. */
async function signIn(url: string, count: number): Promise<Trader[]> {
  const accounts = [
    ['alice@example.com', 'Alice-demo-1', 'sell'],
    ['bob@example.com', 'Bob-demo-1', 'buy'],
  ] as const;
  const traders: Trader[] = [];
  for (let i = 0; i < count; i++) {
    const [email, password, side] = accounts[i % 2]!;
    const session = await HttpSession.signIn(url, email, password);
    traders.push({ session, side, resting: [], sequence: 0 });
  }
  return traders;
}

/** Sessions of the durable floor, which signs in anyone: half sell, half buy. */
async function signInToFloor(url: string, count: number): Promise<Trader[]> {
  const traders: Trader[] = [];
  for (let i = 0; i < count; i++) {
    const session = new HttpSession(url);
    const answer = await session.request('POST', '/api/v2/login', {});
    if (answer.status !== 200) throw new Error(`the durable floor's sign-in: ${answer.status}`);
    traders.push({ session, side: i % 2 === 0 ? 'sell' : 'buy', resting: [], sequence: 0 });
  }
  return traders;
}

/** A sell rests far above a buy, so orders stay on the book until cancelled. */
async function orderRequest(trader: Trader): Promise<boolean> {
  const resting = trader.resting.pop();
  if (resting !== undefined) {
    const answer = await trader.session.request('DELETE', `/api/v2/order/${resting}`);
    return answer.status === 200;
  }
  trader.sequence++;
  const price =
    trader.side === 'sell' ? 40_000 + (trader.sequence % 100) : 20_000 - (trader.sequence % 100);
  const answer = await trader.session.request('POST', '/api/v2/order', {
    pair: 'BTC_USDT',
    direction: trader.side,
    price: String(price),
    amount: '0.001',
  });
  const id = (answer.body as { order?: { id: number } }).order?.id;
  if (id !== undefined) trader.resting.push(id);
  return answer.status === 201;
}

async function baselineRequest(trader: Trader): Promise<boolean> {
  const answer = await trader.session.request('POST', '/api/v2/order', {
    pair: 'BTC_USDT',
    direction: trader.side,
    price: '40000',
    amount: '0.001',
  });
  return answer.status === 201;
}

/** The same place-then-cancel loop straight into an engine host on its own SQLite file. */
async function hostAlone(
  submitters: number,
  durationSeconds: number,
): Promise<Measured & { threads: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lattice-bench-host-'));
  const database = openDatabase({ databaseUrl: null, dataDir });
  try {
    await migrateToLatest(database.db, database.dialect);
    const host = await openHost(database.db, database.dialect);
    await submitAll(host, fixtureSetup);
    for (let userId = 1; userId <= submitters; userId++) {
      await submitAll(host, fundedUserCommands(userId, 100n * oneBtc, 10_000_000n * oneUsdt));
    }
    const latencies: number[] = [];
    const threadsAtStart = threadCpuMs(process.pid);
    const started = performance.now();
    const end = started + durationSeconds * 1000;
    await Promise.all(
      Array.from({ length: submitters }, async (_, index) => {
        const userId = index + 1;
        const side = userId % 2 === 1 ? 1 : 2;
        while (performance.now() < end) {
          let sent = performance.now();
          const placed = placedOrder(
            await host.submit(limitOrder(userId, side, side === 1 ? 4_000_000 : 2_000_000, 1)),
          );
          latencies.push(performance.now() - sent);
          sent = performance.now();
          await host.submit({ type: 'order.cancel', userId, orderId: placed.id });
          latencies.push(performance.now() - sent);
        }
      }),
    );
    const result = measured(latencies, 0, (performance.now() - started) / 1000);
    const threadsUsed = new Map<number, number>();
    addThreadUse(threadsUsed, threadsAtStart, threadCpuMs(process.pid));
    await host.close();
    return { ...result, threads: threadCpuPer(threadsUsed, result.count, process.pid) };
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The storage's own sync latency: 16 KB written and `fdatasync`ed in a loop, as a commit's WAL
 * append is. A durable acknowledgement cannot come sooner than its commit's sync, so this
 * distribution's tail bounds the acknowledgements' tail whatever the server does.
 */
function diskSyncLatency(
  dir: string,
  durationSeconds: number,
): { count: number; p50: number; p99: number; max: number; over50: number } {
  const file = join(dir, 'disk-probe.bin');
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(16 * 1024, 1);
  const latencies: number[] = [];
  const end = performance.now() + durationSeconds * 1000;
  let position = 0;
  try {
    while (performance.now() < end) {
      const started = performance.now();
      writeSync(fd, block, 0, block.length, position);
      fdatasyncSync(fd);
      latencies.push(performance.now() - started);
      position = (position + block.length) % (64 * 1024 * 1024);
    }
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
  const { count, p50, p99 } = measured(latencies, 0, durationSeconds);
  return {
    count,
    p50,
    p99,
    max: latencies[latencies.length - 1] ?? 0,
    over50: latencies.filter((ms) => ms > 50).length,
  };
}
