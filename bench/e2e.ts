// End-to-end order benchmark: the real server (the production bundle, embedded SQLite, fresh
// DATA_DIR) driven over HTTP by signed-in keep-alive clients placing and cancelling orders, and,
// with the same client code, a bare Fastify server with one POST route for comparison. Prints:
//   orders/s (closed loop, as fast as acknowledgements come), p50/p99 ms of acknowledgements at
//   a fixed offered rate (default 5,000 orders/s), baseline req/s and the ratio, the CPU time
//   each server spent per request in the closed loop (Linux; the server's also per thread), and
//   the clients' own (this process): when it nears one core, the closed loop measures the client.
// The two closed loops run in alternating rounds, so that other load on the machine falls on
// both alike. The bare route also takes the fixed offered rate: what it gives there is what the
// machine and the clients allow any server at that rate. Then the sync latency of the disk
// under the data directory, alone (every acknowledgement waits for a sync); and, to tell the
// HTTP path from the durable write, the engine host alone on the same place/cancel loop.
// Usage: npm run bench:e2e [-- clients seconds rate]. The demo market maker is off.
import { spawn } from 'node:child_process';
import {
  closeSync,
  fdatasyncSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
// Linux's USER_HZ, the unit of /proc/<pid>/stat times, is 100 on every common platform.
const clockTicksPerSecond = 100;
/** Connections each `HttpSession` keeps (its agent's `maxSockets`). */
const connectionsPerSession = 4;

if (process.argv[2] === '--baseline-server') await runBaselineServer();
else await main();

/** One client's next request: place a resting order, or cancel the one it placed. */
interface Trader {
  readonly session: HttpSession;
  readonly side: 'buy' | 'sell';
  resting: number[];
  sequence: number;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lattice-bench-e2e-'));
  // The server as `npm start` runs it: the production bundle (tsx would add its transform's
  // helpers to every request's work).
  const bundleName = `bench-e2e-${process.pid}`;
  const removeBundle = () =>
    rmSync(join(repoRoot, 'packages/server/dist', bundleName), { recursive: true, force: true });
  const server = await buildServerBundle(bundleName)
    .then((bundle) =>
      ServerProcess.start(
        {
          DATA_DIR: dataDir,
          NODE_ENV: 'development',
          LOG_LEVEL: 'warn',
          RATE_LIMIT_SCALE: '100000',
          DEMO_MAKER: '0',
        },
        { ...serverOptions(), bundle },
      ),
    )
    .catch((error: unknown) => {
      rmSync(dataDir, { recursive: true, force: true });
      removeBundle();
      throw error;
    });
  const baseline = await startBaseline().catch(async (error: unknown) => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    removeBundle();
    throw error;
  });
  try {
    const traders = await signIn(server.url, clientCount);
    const plain = Array.from({ length: clientCount }, () => ({
      session: new HttpSession(baseline.url),
      side: 'sell' as const,
      resting: [],
      sequence: 0,
    }));
    const ours: Side = { traders, send: orderRequest, pid: server.pid };
    const bare: Side = { traders: plain, send: baselineRequest, pid: baseline.pid };
    await closedLoop(traders, warmUpSeconds, orderRequest);
    await closedLoop(plain, warmUpSeconds, baselineRequest);
    const { run, baselineRun, roundRatios } = await alternatingClosedLoops(ours, bare);
    const paced = await fixedRate(traders, offeredRate, pacedSeconds, orderRequest);
    const bareFloor = await fixedRate(plain, offeredRate, pacedSeconds, baselineRequest);
    const light = await fixedRate(traders, lightRate, pacedSeconds, orderRequest);
    // Stopped before the disk probe and the host-alone phase, so that it takes no CPU there
    // (the `finally` below stops it again on an error; a second stop does nothing).
    baseline.stop();
    const baselineRate = baselineRun.perSecond;

    console.log(
      `server: production bundle, SQLite (WAL, synchronous=FULL), ${clientCount} signed-in ` +
        `keep-alive clients, each request one durable command (place or cancel)`,
    );
    console.log(
      `  closed loop, ${rounds} rounds of ${roundSeconds} s alternating with the bare route: ` +
        `${run.count} orders acknowledged, ${run.failed} failed, ` +
        `p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms; ratio per round ` +
        `${Math.min(...roundRatios).toFixed(2)} to ${Math.max(...roundRatios).toFixed(2)}`,
    );
    for (const [label, rate, result] of [
      ['', offeredRate, paced],
      ['the bare route, ', offeredRate, bareFloor],
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
    if (run.cpu !== null && baselineRun.cpu !== null) {
      // CPU time per request depends far less on other load on the machine than rates do.
      console.log(
        `  CPU time over the closed loop: server ${run.cpu.toFixed(3)} ms per order, ` +
          `bare route ${baselineRun.cpu.toFixed(3)} ms per request (all threads of each process)`,
      );
      console.log(`  the server's CPU time per order by thread: ${run.threads}`);
    }
    console.log(
      `  the clients' CPU time (this process, one event loop): ${run.clientCpu.toFixed(3)} ms per ` +
        `order, ${baselineRun.clientCpu.toFixed(3)} ms per bare-route request`,
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
  } finally {
    baseline.stop();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    removeBundle();
  }
}

/** One of the two servers compared: its clients, their request, its process. */
interface Side {
  readonly traders: Trader[];
  readonly send: (trader: Trader) => Promise<boolean>;
  readonly pid: number | undefined;
}

/**
 * The closed loops of both servers in alternating rounds (ours, then the bare route, and again),
 * so that a change in what else the machine runs falls on both alike instead of on whichever
 * ran in that stretch. Rates and percentiles are over all of a side's rounds; CPU time is the
 * sum of each process's use during its own rounds only.
 */
async function alternatingClosedLoops(
  ours: Side,
  bare: Side,
): Promise<{
  run: Measured & { cpu: number | null; threads: string; clientCpu: number };
  baselineRun: Measured & { cpu: number | null; clientCpu: number };
  roundRatios: number[];
}> {
  const oursLatencies: number[] = [];
  const bareLatencies: number[] = [];
  const totals = { oursSeconds: 0, bareSeconds: 0, oursFailed: 0, bareFailed: 0 };
  let oursCpu: number | null = 0;
  let bareCpu: number | null = 0;
  const threadsUsed = new Map<number, number>();
  const roundRatios: number[] = [];
  // The clients' own CPU time (this process), per side.
  let oursClientMs = 0;
  let bareClientMs = 0;
  for (let round = 0; round < rounds; round++) {
    const cpuBefore = cpuMs(ours.pid);
    const threadsAtStart = threadCpuMs(ours.pid);
    let clientBefore = processCpuMs();
    const mine = await closedLoop(ours.traders, roundSeconds, ours.send, oursLatencies);
    oursClientMs += processCpuMs() - clientBefore;
    oursCpu = addCpu(oursCpu, cpuBefore, cpuMs(ours.pid));
    addThreadUse(threadsUsed, threadsAtStart, threadCpuMs(ours.pid));
    const bareBefore = cpuMs(bare.pid);
    clientBefore = processCpuMs();
    const theirs = await closedLoop(bare.traders, roundSeconds, bare.send, bareLatencies);
    bareClientMs += processCpuMs() - clientBefore;
    bareCpu = addCpu(bareCpu, bareBefore, cpuMs(bare.pid));
    totals.oursSeconds += mine.seconds;
    totals.bareSeconds += theirs.seconds;
    totals.oursFailed += mine.failed;
    totals.bareFailed += theirs.failed;
    roundRatios.push(mine.perSecond / theirs.perSecond);
  }
  const run = measured(oursLatencies, totals.oursFailed, totals.oursSeconds);
  const baselineRun = measured(bareLatencies, totals.bareFailed, totals.bareSeconds);
  return {
    run: {
      ...run,
      cpu: oursCpu === null || run.count === 0 ? null : oursCpu / run.count,
      threads: threadCpuPer(threadsUsed, run.count, ours.pid),
      clientCpu: oursClientMs / Math.max(1, run.count),
    },
    baselineRun: {
      ...baselineRun,
      cpu: bareCpu === null || baselineRun.count === 0 ? null : bareCpu / baselineRun.count,
      clientCpu: bareClientMs / Math.max(1, baselineRun.count),
    },
    roundRatios,
  };
}

/** `sum` plus the CPU time between two readings; null once any reading was unavailable. */
function addCpu(sum: number | null, before: number | null, after: number | null): number | null {
  return sum === null || before === null || after === null ? null : sum + after - before;
}

/** This process's CPU time so far, user and system, in ms. */
function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Adds each thread's CPU time between two readings to `sum`. */
function addThreadUse(
  sum: Map<number, number>,
  before: Map<number, number>,
  after: Map<number, number>,
): void {
  for (const [tid, ms] of after) sum.set(tid, (sum.get(tid) ?? 0) + ms - (before.get(tid) ?? 0));
}

/** With BENCH_CPU_PROF=dir the server writes a V8 CPU profile there when it stops. */
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

interface Measured {
  count: number;
  failed: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** How long the phase ran. */
  seconds: number;
}

/** Every trader sends its next request as soon as the previous one is answered. */
async function closedLoop(
  traders: Trader[],
  durationSeconds: number,
  send: (trader: Trader) => Promise<boolean>,
  allLatencies?: number[],
): Promise<Measured> {
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  const end = started + durationSeconds * 1000;
  await Promise.all(
    traders.map(async (trader) => {
      while (performance.now() < end) {
        const sent = performance.now();
        if (await send(trader)) latencies.push(performance.now() - sent);
        else failed++;
      }
    }),
  );
  if (allLatencies) for (const latency of latencies) allLatencies.push(latency);
  return measured(latencies, failed, (performance.now() - started) / 1000);
}

/**
 * Requests leave at a fixed pace whatever the answers (open loop), spread over the traders;
 * latency counts from the moment a request was due, so queueing in the client counts too.
 * Each trader may have as many requests in flight as its session has connections
 * (`HttpSession`'s agent keeps 4), so that the client's own connection limit does not hold
 * requests back at the offered rate; `queuedInClient` is the most requests that were due and
 * waiting for a free connection at once (0 when the client never held one back).
 */
async function fixedRate(
  traders: Trader[],
  rate: number,
  durationSeconds: number,
  send: (trader: Trader) => Promise<boolean>,
): Promise<Measured & { queuedInClient: number }> {
  const latencies: number[] = [];
  let failed = 0;
  let issued = 0;
  let queuedInClient = 0;
  const inFlight = new Set<Promise<void>>();
  const idle = Array.from({ length: connectionsPerSession }, () => traders).flat();
  const waiting: number[] = [];
  const started = performance.now();
  const total = Math.round(rate * durationSeconds);
  const dispatch = () => {
    while (waiting.length > 0 && idle.length > 0) {
      const due = waiting.shift()!;
      const trader = idle.pop()!;
      const task = send(trader).then((ok) => {
        if (ok) latencies.push(performance.now() - due);
        else failed++;
        idle.push(trader);
        inFlight.delete(task);
        dispatch();
      });
      inFlight.add(task);
    }
  };
  while (issued < total) {
    const now = performance.now();
    const dueCount = Math.min(total, Math.floor(((now - started) * rate) / 1000));
    for (; issued < dueCount; issued++) waiting.push(started + (issued * 1000) / rate);
    dispatch();
    queuedInClient = Math.max(queuedInClient, waiting.length);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  while (waiting.length > 0 || inFlight.size > 0) {
    dispatch();
    await Promise.race([...inFlight, new Promise((resolve) => setTimeout(resolve, 5))]);
  }
  return { ...measured(latencies, failed, (performance.now() - started) / 1000), queuedInClient };
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

function measured(latencies: number[], failed: number, elapsedSeconds: number): Measured {
  latencies.sort((a, b) => a - b);
  const at = (fraction: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * fraction))] ?? 0;
  return {
    count: latencies.length,
    failed,
    perSecond: latencies.length / elapsedSeconds,
    p50: at(0.5),
    p99: at(0.99),
    seconds: elapsedSeconds,
  };
}

/** User plus system CPU milliseconds a process has used so far; null where /proc is missing. */
function cpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
  } catch {
    return null;
  }
}

/** User plus system CPU milliseconds of each of a process's threads, by thread id. */
function threadCpuMs(pid: number | undefined): Map<number, number> {
  const times = new Map<number, number>();
  if (pid === undefined) return times;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
        .split(') ')[1]!
        .split(' ');
      times.set(
        Number(tid),
        ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond,
      );
    }
  } catch {
    // A thread that ended between the listing and the read; the rest stand.
  }
  return times;
}

/**
 * Per order, the main thread's CPU time and that of the busiest other threads (Node names them
 * all "node": the commit worker is the busiest of them under this load), from each thread's
 * CPU milliseconds over the measured rounds. In the host-alone phase, the threads are this
 * process's, the idle client threads of the phases before among them.
 */
function threadCpuPer(used: Map<number, number>, count: number, pid: number | undefined): string {
  if (count === 0 || used.size === 0) return 'not available';
  const main = (used.get(pid ?? -1) ?? 0) / count;
  const others = [...used]
    .filter(([tid]) => tid !== pid)
    .map(([, ms]) => ms / count)
    .sort((a, b) => b - a);
  const busiest = others.slice(0, 3);
  const rest = others.slice(3);
  return (
    `main ${main.toFixed(3)} ms, busiest others ${busiest.map((ms) => ms.toFixed(3)).join(' / ')} ms, ` +
    `the remaining ${rest.length} together ${rest.reduce((sum, ms) => sum + ms, 0).toFixed(3)} ms`
  );
}

/** The bare route, in its own process like the real server. */
async function startBaseline(): Promise<{
  url: string;
  pid: number | undefined;
  stop: () => void;
}> {
  const file = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, ['--import', 'tsx', file, '--baseline-server'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`baseline server exited with ${code}`)));
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
  });
  return { url, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

async function runBaselineServer(): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.post('/api/v2/order', async (request, reply) => {
    const body = request.body as { pair: string; price: string; amount: string };
    return reply
      .status(201)
      .send({ order: { id: 1, market: body.pair, price: body.price, amount: body.amount } });
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${address}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}
