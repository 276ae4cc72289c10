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
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { PushStats } from '../packages/server/src/realtime/hub.js';
import { openSubscriber, textFrame } from './wsSubscribers.js';

const market = 'BTC_USDT';
/** Probe prices start here (USDT cents) and go up by one cent per probe, never repeating. */
const basePriceCents = 2_000_000;
const updatesPerSecond = 20;
/** Histogram bins of 0.1 ms up to 10 s. */
const binsPerMs = 10;
const binCount = 100_000;
/** One subscriber in this many records latencies; all of them read every frame. */
const sampleEvery = 10;
const clientProcesses = 2;
const runTimeoutMs = 300_000;

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes. */
const now = () => performance.timeOrigin + performance.now();

/** What a sampled subscriber saw: a probe's level appear or leave, or its deal. */
const seen = { put: 0, removed: 1, deal: 2 } as const;

/** When the server published each probe's changes, by probe price in cents. */
interface Published {
  cents: number[];
  put: number[];
  deal: number[];
}

interface ClientReport {
  depthBins: number[];
  dealsBins: number[];
  /** Changes seen whose publication was not stamped (should be 0). */
  unmatched: number;
  frames: number;
  closed: number;
}

if (process.argv[2] === 'client') runClient();
else await runBench();

// ---------------------------------------------------------------------------------------------
// Subscribers (child process)

/**
 * What sampled subscribers saw, and when; turned into latencies once the parent sends when each
 * change was published (a frame may arrive before word of its publication would).
 */
function sightings() {
  const kinds: number[] = [];
  const cents: number[] = [];
  const times: number[] = [];
  let measuring = false;
  const add = (kind: number, price: string, at: number) => {
    // A probe's price in cents names it ("20001.23" is 2,000,123 cents).
    const [whole = '', fraction = ''] = price.split('.');
    kinds.push(kind);
    cents.push(Number.parseInt(whole + fraction.padEnd(2, '0').slice(0, 2), 10));
    times.push(at);
  };
  const onSampled = (payload: Buffer) => {
    if (!measuring) return;
    const received = now();
    const message = JSON.parse(payload.toString()) as { method?: string; params?: unknown[] };
    if (message.method === 'deals.update') {
      for (const deal of (message.params?.[1] ?? []) as { price: string }[]) {
        add(seen.deal, deal.price, received);
      }
    } else if (message.method === 'depth.update' && message.params?.[0] === false) {
      const { bids = [] } = message.params[1] as { bids?: string[][] };
      for (const [price = '', amount] of bids) {
        add(amount === '0' ? seen.removed : seen.put, price, received);
      }
    }
  };
  const report = (published: Published) => {
    const put = new Map<number, number>();
    const deal = new Map<number, number>();
    published.cents.forEach((price, i) => {
      put.set(price, published.put[i]!);
      deal.set(price, published.deal[i]!);
    });
    const depthBins = new Array<number>(binCount + 1).fill(0);
    const dealsBins = new Array<number>(binCount + 1).fill(0);
    let unmatched = 0;
    for (let i = 0; i < kinds.length; i++) {
      const kind = kinds[i]!;
      const at = (kind === seen.put ? put : deal).get(cents[i]!);
      if (at === undefined || at === 0) {
        unmatched += 1;
        continue;
      }
      const bins = kind === seen.deal ? dealsBins : depthBins;
      const latencyMs = Math.max(0, times[i]! - at);
      bins[Math.min(binCount, Math.floor(latencyMs * binsPerMs))]! += 1;
    }
    return { depthBins, dealsBins, unmatched };
  };
  return {
    onSampled,
    report,
    start: () => {
      measuring = true;
    },
    stop: () => {
      measuring = false;
    },
  };
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
  const recorder = sightings();
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
      framesBefore = frames();
      recorder.start();
    } else if (message.kind === 'stop') {
      recorder.stop();
      const report: ClientReport = {
        ...recorder.report(message.published as Published),
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
  const probes = { next: basePriceCents };

  try {
    for (const count of counts) {
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
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Stamps when the host publishes each probe's committed changes: the bid resting, and its deal.
 * Listens on the bus the socket's feeds listen on, so the stamp is the start of their work.
 */
function stampPublications(app: FastifyInstance, maker: number) {
  const put = new Map<number, number>();
  const deal = new Map<number, number>();
  const centsOf = (price: bigint) => Number(price / 10_000n);
  const stop = app.engineHost.bus.subscribe((events) => {
    const at = now();
    for (const event of events) {
      if (event.type === 'order.put' && event.order.userId === maker) {
        put.set(centsOf(event.order.price), at);
      } else if (event.type === 'deal' && event.market === market) {
        deal.set(centsOf(event.price), at);
      }
    }
  });
  return {
    stop,
    table: (): Published => {
      const cents = [...put.keys()];
      return {
        cents,
        put: cents.map((c) => put.get(c)!),
        deal: cents.map((c) => deal.get(c) ?? 0),
      };
    },
  };
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
 * 20 changes a second: a probe bid at the next unused price, then a market sell that trades with
 * it (a deal, and the bid leaves the book). The pace follows the wall clock: when the server's
 * event loop was busy, the changes that fell due meanwhile are submitted at once, so a slow
 * server gets the same load, not a lighter one. Returns each command's submit-to-commit time
 * and the pace achieved.
 */
async function drive(
  app: FastifyInstance,
  maker: number,
  taker: number,
  probes: { next: number },
  seconds: number,
): Promise<{ commitMs: number[]; perSecond: number }> {
  const host = app.engineHost;
  const commitMs: number[] = [];
  const total = seconds * updatesPerSecond;
  const pending: Promise<unknown>[] = [];
  const started = now();
  const submit = (tick: number) => {
    const sent = now();
    const submitted =
      tick % 2 === 0
        ? host.submit({
            type: 'order.limit',
            userId: maker,
            market,
            side: 2,
            price: BigInt(probes.next++) * 10_000n,
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
  };
  await new Promise<void>((resolve) => {
    let tick = 0;
    const timer = setInterval(
      () => {
        const due = Math.min(total, Math.floor(((now() - started) * updatesPerSecond) / 1000) + 1);
        while (tick < due) submit(tick++);
        if (tick >= total) {
          clearInterval(timer);
          resolve();
        }
      },
      1000 / updatesPerSecond / 2,
    );
  });
  const perSecond = total / ((now() - started) / 1000);
  await Promise.all(pending);
  return { commitMs, perSecond };
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

function printLine(count: number, reports: ClientReport[], cpuPercent: number): void {
  const depth = merged(reports.map((report) => report.depthBins));
  const deals = merged(reports.map((report) => report.dealsBins));
  const all = merged([depth, deals]);
  const frames = reports.reduce((sum, report) => sum + report.frames, 0);
  const closed = reports.reduce((sum, report) => sum + report.closed, 0);
  const unmatched = reports.reduce((sum, report) => sum + report.unmatched, 0);
  const ms = (bins: number[], fraction: number) => percentile(bins, fraction).toFixed(1);
  console.log(
    `subscribers: ${count} p50 ms: ${ms(all, 0.5)} p99 ms: ${ms(all, 0.99)} server cpu %: ${cpuPercent.toFixed(0)}`,
  );
  console.log(
    `  depth p50/p99 ${ms(depth, 0.5)}/${ms(depth, 0.99)} ms (${total(depth)} samples), ` +
      `deals p50/p99 ${ms(deals, 0.5)}/${ms(deals, 0.99)} ms (${total(deals)} samples), ` +
      `${frames} frames received, ${closed} sockets closed, ${unmatched} changes not stamped`,
  );
}

/**
 * What the fan-out cost the server during the run: flushes, their length and wall time per
 * socket write, and the server process's CPU time (all of its work) per socket write.
 */
function printPushes(
  before: Readonly<PushStats>,
  after: Readonly<PushStats>,
  serverCpuMs: number,
): void {
  const flushes = after.flushes - before.flushes;
  const busyMs = after.busyMs - before.busyMs;
  const writes = after.socketWrites - before.socketWrites;
  console.log(
    `  server: ${flushes} flushes, mean ${(busyMs / Math.max(1, flushes)).toFixed(1)} ms, ` +
      `longest so far ${after.longestMs.toFixed(1)} ms, ${writes} socket writes, ` +
      `${((busyMs * 1000) / Math.max(1, writes)).toFixed(1)} µs a write, ` +
      `server CPU ${((serverCpuMs * 1000) / Math.max(1, writes)).toFixed(1)} µs a write`,
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
