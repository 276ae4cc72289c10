// Socket fan-out benchmark: N subscribers on one market's depth and deals while the book changes
// 20 times a second, for N = 1,000 and 10,000. The server runs in this process; the subscribers
// run in two child processes. Prints, per N:
//   subscribers: N p50 ms: X p99 ms: Y server cpu %: Z
// Latency is from the moment a change is submitted to the engine host to the moment a
// subscriber has the frame that shows it: a deal's own time for `deals.update`; for
// `depth.update`, each resting order's price encodes its submission time (one tick per ms).
// Usage: npm run bench:ws [-- 1000,10000 [seconds]]
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { openSubscriber, textFrame } from './wsSubscribers.js';

const market = 'BTC_USDT';
/** Prices of the probe orders start here (USDT cents); one cent per millisecond after. */
const basePriceCents = 2_000_000;
const updatesPerSecond = 20;
/** Histogram bins of 0.1 ms up to 10 s. */
const binsPerMs = 10;
const binCount = 100_000;
/** One subscriber in this many records latencies; all of them read every frame. */
const sampleEvery = 10;
const clientProcesses = 2;
const runTimeoutMs = 300_000;

const now = () => performance.timeOrigin + performance.now();

interface ClientReport {
  depthBins: number[];
  dealsBins: number[];
  frames: number;
  closed: number;
}

if (process.argv[2] === 'client') runClient();
else await runBench();

// ---------------------------------------------------------------------------------------------
// Subscribers (child process)

/** Latency histograms of one subscriber process, fed with the frames sampled subscribers get. */
function latencyRecorder() {
  const depthBins = new Uint32Array(binCount + 1);
  const dealsBins = new Uint32Array(binCount + 1);
  const state = { phaseStart: 0, measuring: false };
  const record = (bins: Uint32Array, latencyMs: number) => {
    if (!state.measuring || latencyMs < 0) return;
    bins[Math.min(binCount, Math.floor(latencyMs * binsPerMs))]! += 1;
  };
  const onSampled = (payload: Buffer) => {
    const received = now();
    const message = JSON.parse(payload.toString()) as { method?: string; params?: unknown[] };
    if (message.method === 'deals.update') {
      for (const deal of (message.params?.[1] ?? []) as { time: number }[]) {
        record(dealsBins, received - deal.time * 1000);
      }
    } else if (message.method === 'depth.update' && message.params?.[0] === false) {
      const { bids = [] } = message.params[1] as { bids?: string[][] };
      for (const [price = '', amount] of bids) {
        if (amount === '0') continue;
        // The probe's price in cents is its submission time in ms after the phase began.
        const [whole = '', fraction = ''] = price.split('.');
        const cents = Number.parseInt(whole + fraction.padEnd(2, '0'), 10);
        record(depthBins, received - (state.phaseStart + (cents - basePriceCents)));
      }
    }
  };
  return { depthBins, dealsBins, state, onSampled };
}

/** One subscriber on depth and deals; resolves once its depth snapshot arrived. */
function subscribe(
  port: number,
  sampled: boolean,
  onSampled: (payload: Buffer) => void,
): Promise<{ socket: Socket; frames: () => number }> {
  return new Promise((resolve, reject) => {
    let ready = false;
    let opened: { socket: Socket; frames: () => number } | undefined;
    openSubscriber({
      port,
      requests: [
        JSON.stringify({ id: 1, method: 'depth.subscribe', params: [market, 50, '0'] }),
        JSON.stringify({ id: 2, method: 'deals.subscribe', params: [market] }),
      ],
      onFrame: (payload) => {
        if (ready) {
          onSampled(payload);
          return true;
        }
        if (!payload.includes('"depth.update"')) return true;
        ready = true;
        // The snapshot follows the upgrade, so the subscriber is known by now.
        setImmediate(() => (opened ? resolve(opened) : reject(new Error('no subscriber'))));
        return sampled;
      },
    })
      .then((subscriber) => {
        opened = subscriber;
      })
      .catch(reject);
  });
}

function runClient(): void {
  const subscribers: { socket: Socket; frames: () => number }[] = [];
  const recorder = latencyRecorder();
  let framesBefore = 0;
  let closed = 0;
  // Like the web app, every subscriber pings every 30 s; a silent one is closed after 90 s.
  const ping = textFrame('{"id":3,"method":"server.ping","params":[]}');
  const keepAlive = setInterval(() => {
    for (const { socket } of subscribers) if (!socket.destroyed) socket.write(ping);
  }, 30_000);
  keepAlive.unref();
  const frames = () => subscribers.reduce((sum, subscriber) => sum + subscriber.frames(), 0);

  process.on('message', async (message: { kind: string; [key: string]: unknown }) => {
    if (message.kind === 'open') {
      const { port = 0, count = 0, offset = 0 } = message as unknown as Record<string, number>;
      // A few hundred handshakes at a time keep the listen backlog from overflowing.
      for (let i = 0; i < count; i += 200) {
        const batch = Array.from({ length: Math.min(200, count - i) }, async (_, k) => {
          const sampled = (offset + i + k) % sampleEvery === 0;
          const subscriber = await subscribe(port, sampled, recorder.onSampled);
          subscriber.socket.on('close', () => {
            closed += 1;
          });
          subscribers.push(subscriber);
        });
        await Promise.all(batch);
      }
      process.send?.({ kind: 'ready' });
    } else if (message.kind === 'measure') {
      recorder.state.phaseStart = message.phaseStart as number;
      framesBefore = frames();
      recorder.state.measuring = true;
    } else if (message.kind === 'stop') {
      recorder.state.measuring = false;
      const report: ClientReport = {
        depthBins: [...recorder.depthBins],
        dealsBins: [...recorder.dealsBins],
        frames: frames() - framesBefore,
        closed,
      };
      process.send?.({ kind: 'report', report }, () => {
        for (const { socket } of subscribers) socket.destroy();
        process.exit(0);
      });
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Server, driver and report (parent process)

async function runBench(): Promise<void> {
  const counts = (process.argv[2] ?? '1000,10000').split(',').map((n) => Number.parseInt(n, 10));
  const seconds = Number.parseInt(process.argv[3] ?? '10', 10);
  const watchdog = setTimeout(() => {
    console.error('bench:ws took too long; stopping');
    process.exit(1);
  }, runTimeoutMs);
  watchdog.unref();

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
  const host = app.engineHost;
  const [maker, taker] = await benchUsers(app);

  try {
    for (const count of counts) {
      const connectStarted = now();
      const clients = await startClients(port, count);
      const connectSeconds = ((now() - connectStarted) / 1000).toFixed(1);
      await host.submit({ type: 'order.cancelAll', userId: maker });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const phaseStart = now();
      for (const client of clients) client.send({ kind: 'measure', phaseStart });
      const cpuBefore = process.cpuUsage();
      const wallBefore = now();
      const commitMs = await drive(app, maker, taker, phaseStart, seconds);
      // Let the last frames arrive before the clients stop counting.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const cpu = process.cpuUsage(cpuBefore);
      const wallMs = now() - wallBefore;
      const reports = await stopClients(clients);
      printLine(count, reports, ((cpu.user + cpu.system) / 1000 / wallMs) * 100);
      console.log(
        `  subscribed in ${connectSeconds} s; slow consumers cut so far: ${app.realtime.slowConsumersCutCount}`,
      );
      commitMs.sort((a, b) => a - b);
      const at = (fraction: number) =>
        (commitMs[Math.floor((commitMs.length - 1) * fraction)] ?? 0).toFixed(1);
      console.log(`  submit to commit (included above) p50/p99 ${at(0.5)}/${at(0.99)} ms`);
    }
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Two funded traders: one rests probe bids, the other sells into them. */
async function benchUsers(app: FastifyInstance): Promise<readonly [number, number]> {
  const ids: number[] = [];
  for (const email of ['bench-maker@lattice.localhost', 'bench-taker@lattice.localhost']) {
    const row = await app.db
      .insertInto('users')
      .values({
        email,
        password_hash: '!',
        nickname: null,
        country: null,
        email_verified_at: 0,
        is_demo: 0,
        created_at: 0,
        updated_at: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const userId = Number(row.id);
    await app.engineHost.ensureUser(userId);
    for (const [asset, amount] of [
      ['USDT', 10n ** 15n],
      ['BTC', 10n ** 12n],
    ] as const) {
      const businessId = `bench:${userId}:${asset}`;
      await app.engineHost.submit({ type: 'balance.deposit', userId, asset, amount, businessId });
      await app.engineHost.submit({
        type: 'balance.transfer',
        userId,
        asset,
        amount,
        from: 'main',
        to: 'trade',
        businessId: `${businessId}:trade`,
      });
    }
    ids.push(userId);
  }
  return [ids[0]!, ids[1]!] as const;
}

/**
 * 20 changes a second: a probe bid whose price encodes its submission time, then a market sell
 * that trades with the newest bid (a deal, and the bid leaves the book).
 */
async function drive(
  app: FastifyInstance,
  maker: number,
  taker: number,
  phaseStart: number,
  seconds: number,
): Promise<number[]> {
  const host = app.engineHost;
  const commitMs: number[] = [];
  const total = seconds * updatesPerSecond;
  const pending: Promise<unknown>[] = [];
  await new Promise<void>((resolve) => {
    let tick = 0;
    const timer = setInterval(() => {
      if (tick >= total) {
        clearInterval(timer);
        resolve();
        return;
      }
      const sent = now();
      const sentCents = basePriceCents + Math.round(sent - phaseStart);
      const submitted =
        tick % 2 === 0
          ? host.submit({
              type: 'order.limit',
              userId: maker,
              market,
              side: 2,
              price: BigInt(sentCents) * 10_000n,
              amount: 100_000n,
              timeInForce: 'GTC',
              source: 'api',
            })
          : host.submit({
              type: 'order.market',
              userId: taker,
              market,
              side: 1,
              amount: 100_000n,
              source: 'api',
            });
      pending.push(submitted.then(() => commitMs.push(now() - sent)));
      tick += 1;
    }, 1000 / updatesPerSecond);
  });
  await Promise.all(pending);
  return commitMs;
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

function stopClients(clients: ChildProcess[]): Promise<ClientReport[]> {
  return Promise.all(
    clients.map(
      (child) =>
        new Promise<ClientReport>((resolve) => {
          child.on('message', (message: { kind: string; report: ClientReport }) => {
            if (message.kind === 'report') resolve(message.report);
          });
          child.send({ kind: 'stop' });
        }),
    ),
  );
}

function printLine(count: number, reports: ClientReport[], cpuPercent: number): void {
  const depth = merged(reports.map((report) => report.depthBins));
  const deals = merged(reports.map((report) => report.dealsBins));
  const all = merged([depth, deals]);
  const frames = reports.reduce((sum, report) => sum + report.frames, 0);
  const closed = reports.reduce((sum, report) => sum + report.closed, 0);
  const ms = (bins: number[], fraction: number) => percentile(bins, fraction).toFixed(1);
  console.log(
    `subscribers: ${count} p50 ms: ${ms(all, 0.5)} p99 ms: ${ms(all, 0.99)} server cpu %: ${cpuPercent.toFixed(0)}`,
  );
  console.log(
    `  depth p50/p99 ${ms(depth, 0.5)}/${ms(depth, 0.99)} ms (${total(depth)} samples), ` +
      `deals p50/p99 ${ms(deals, 0.5)}/${ms(deals, 0.99)} ms (${total(deals)} samples), ` +
      `${frames} frames received, ${closed} sockets closed`,
  );
}

function merged(histograms: readonly number[][]): number[] {
  const bins = new Array<number>(binCount + 1).fill(0);
  for (const histogram of histograms) {
    for (let i = 0; i < histogram.length; i++) bins[i]! += histogram[i]!;
  }
  return bins;
}

function total(bins: readonly number[]): number {
  return bins.reduce((sum, n) => sum + n, 0);
}

function percentile(bins: readonly number[], fraction: number): number {
  const wanted = total(bins) * fraction;
  let seen = 0;
  for (let i = 0; i < bins.length; i++) {
    seen += bins[i]!;
    if (seen >= wanted && seen > 0) return i / binsPerMs;
  }
  return 0;
}
