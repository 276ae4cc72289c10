// Socket fan-out benchmark: N subscribers on one market's depth and deals while the book changes
// 20 times a second, for N = 1,000 and 10,000. Prints, per N:
//   subscribers: N p50 ms: X p99 ms: Y server cpu %: Z
//
// Set-up: the server and the order driver run in this process; the subscribers run in two child
// processes, so that reading 10,000 sockets does not sit in the server's event loop. All of them
// share the machine's cores (printed with the load average before each run).
//
// Latency runs from the moment the server publishes a change to the moment a sampled subscriber
// holds the frame that shows it. "Published" is when the engine host's event bus delivers the
// committed batch that holds the change: the event after the commit, where the socket's own
// work starts (every feed follows that bus). This process stamps it by listening on the same
// bus. The figure is therefore the socket's path (push scheduling, the diff, encoding, the
// writes to N sockets, the loopback, the subscriber's read), not the durable commit before it
// (`bench:e2e` measures that; the commit time is printed beside it). One wait is left out: a
// commit that completes while a flush holds the event loop is published when the flush ends,
// so that wait shows in the commit time only. Each change is keyed by price: a probe bid at a
// price no other probe uses, then a market sell that trades with it. Three things are timed
// per probe: its level appearing in `depth.update`, its level leaving (amount "0"), its deal.
// Usage: npm run bench:ws [-- 1000,10000 [seconds]]
//
// This file starts the server, forks the subscribers' processes (this same file, as `client`)
// and runs each subscriber count; the parts are beside it: wsBase.ts (what both sides share),
// wsSubscriberProcess.ts and wsSubscribers.ts (the subscribers), wsDriver.ts (the traders, the
// driver and the publication stamps) and wsReport.ts (the printed lines).
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../packages/server/src/db/open.js';
import { type ClientReport, now, type Published } from './wsBase.js';
import { benchUsers, drive, stampPublications } from './wsDriver.js';
import { printLine, printPushes } from './wsReport.js';
import { runClient } from './wsSubscriberProcess.js';

/** Probe prices start here (USDT cents) and go up by one cent per probe, never repeating. */
const basePriceCents = 2_000_000;
const clientProcesses = 2;
const runTimeoutMs = 300_000;

if (process.argv[2] === 'client') runClient();
else await runBench();

async function runBench(): Promise<void> {
  const counts = (process.argv[2] ?? '1000,10000').split(',').map((n) => Number.parseInt(n, 10));
  const seconds = Number.parseInt(process.argv[3] ?? '10', 10);
  const watchdog = setTimeout(() => {
    console.error('bench:ws took too long; stopping');
    process.exit(1);
  }, runTimeoutMs);
  watchdog.unref();

  const { app, database, dataDir, port } = await startServer();
  const [maker, taker] = await benchUsers(app);
  const probes = { next: basePriceCents };

  try {
    for (const count of counts) {
      await measureSubscribers({ app, port, maker, taker, probes, seconds }, count);
    }
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The server on a fresh data directory, listening on a free port of the loopback. */
async function startServer(): Promise<{
  app: FastifyInstance;
  database: DatabaseHandle;
  dataDir: string;
  port: number;
}> {
  const { buildApp } = await import('../packages/server/src/app.js');
  const { configFromEnv } = await import('../packages/server/src/config.js');
  const { openPreparedDatabase } = await import('../packages/server/src/startup.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'lattice-bench-ws-'));
  const config = configFromEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DEV_TOOLS: '0',
    DEMO_MAKER: '0',
    CHAIN_BLOCK_MS: '0',
    RATE_LIMIT_SCALE: '1000',
    WS_CONNECTIONS_PER_IP: '20000',
  });
  const database = await openPreparedDatabase(config);
  const app = await buildApp(config, { db: database.db, dialect: database.dialect });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(address).port);
  return { app, database, dataDir, port };
}

/** What each subscriber count's run uses: the server, its two traders, the next probe price. */
interface Bench {
  app: FastifyInstance;
  port: number;
  maker: number;
  taker: number;
  probes: { next: number };
  seconds: number;
}

/** One subscriber count: subscribes them, drives the changes, and prints what they saw. */
async function measureSubscribers(bench: Bench, count: number): Promise<void> {
  const { app, port, maker, taker, probes, seconds } = bench;
  const host = app.engineHost;
  const connectStarted = now();
  const clients = await startClients(port, count);
  const connectSeconds = ((now() - connectStarted) / 1000).toFixed(1);
  await host.submit({ type: 'order.cancelAll', userId: maker });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const load = loadavg()[0]!.toFixed(1);
  for (const client of clients) client.send({ kind: 'measure' });
  const published = stampPublications(app, maker);
  const pushesBefore = { ...app.realtime.pushStats };
  const cpuBefore = process.cpuUsage();
  const wallBefore = now();
  const { commitMs, perSecond } = await drive(app, maker, taker, probes, seconds);
  // Let the last frames arrive before the clients stop counting.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const cpu = process.cpuUsage(cpuBefore);
  const wallMs = now() - wallBefore;
  published.stop();
  const reports = await stopClients(clients, published.table());
  printLine(count, reports, ((cpu.user + cpu.system) / 1000 / wallMs) * 100);
  printPushes(pushesBefore, app.realtime.pushStats, (cpu.user + cpu.system) / 1000);
  console.log(
    `  set-up: server and driver in one process, subscribers in ${clientProcesses} child ` +
      `processes, ${availableParallelism()} cores, load average ${load} before the run; ` +
      `${perSecond.toFixed(1)} changes/s submitted; subscribed in ${connectSeconds} s; slow consumers cut so far: ${app.realtime.slowConsumersCutCount}`,
  );
  commitMs.sort((a, b) => a - b);
  const at = (fraction: number) =>
    (commitMs[Math.floor((commitMs.length - 1) * fraction)] ?? 0).toFixed(1);
  console.log(
    `  submit to commit (before publication, not included) p50/p99 ${at(0.5)}/${at(0.99)} ms`,
  );
}

async function startClients(port: number, count: number): Promise<ChildProcess[]> {
  const file = fileURLToPath(import.meta.url);
  const clients: ChildProcess[] = [];
  const per = Math.ceil(count / clientProcesses);
  await Promise.all(
    Array.from({ length: clientProcesses }, (_, index) => {
      const child = fork(file, ['client'], { execArgv: process.execArgv, stdio: 'inherit' });
      clients.push(child);
      return new Promise<void>((resolve) => {
        child.on('message', (message: { kind: string }) => {
          if (message.kind === 'ready') resolve();
        });
        const share = Math.min(per, count - index * per);
        child.send({ kind: 'open', port, count: share, offset: index * per });
      });
    }),
  );
  return clients;
}

function stopClients(clients: ChildProcess[], published: Published): Promise<ClientReport[]> {
  return Promise.all(
    clients.map(
      (child) =>
        new Promise<ClientReport>((resolve) => {
          child.on('message', (message: { kind: string; report: ClientReport }) => {
            if (message.kind === 'report') resolve(message.report);
          });
          child.send({ kind: 'stop', published });
        }),
    ),
  );
}
