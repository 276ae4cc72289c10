// Measures what a snapshot costs the sequencer: builds a host holding 100,000 resting orders
// (1,000 users) on a temporary SQLite file (or, with DATABASE_URL, in a fresh PostgreSQL
// schema), then takes snapshots while a 1 ms timer probes the event loop and a trickle of orders
// (one every 2 ms) measures their acknowledgement time, apart for those that waited on the
// snapshot's write (on SQLite it holds the write lock, which the batch commits wait for).
// Usage: npx tsx packages/server/src/engineHost/harness/snapshotPause.ts [resting] [runs]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { migrateToLatest } from '../../db/migrate.js';
import { checkedSchemaName, openDatabase } from '../../db/open.js';
import type { EngineHost, HostCommand } from '../engineHost.js';
import {
  fixtureSetup,
  fundedUserCommands,
  limitOrder,
  oneBtc,
  oneUsdt,
  openHost,
} from '../hostFixtures.js';

const userCount = 1_000;
/** When the last snapshot's write began and ended (performance.now()). */
const writing = { started: 0, ended: 0 };
const logger = {
  debug: () => {},
  info: (_details: object, message: string) => {
    if (message === 'engine snapshot writing') writing.started = performance.now();
    if (message === 'engine snapshot written') writing.ended = performance.now();
  },
  warn: () => {},
  error: (details: object, message: string) => console.error(message, details),
};
const wave = 5_000;

async function submitWave(host: EngineHost, commands: readonly HostCommand[]): Promise<void> {
  for (let i = 0; i < commands.length; i += wave) {
    const results = await Promise.all(commands.slice(i, i + wave).map((c) => host.submit(c)));
    const refused = results.find((result) => !result.ok);
    if (refused && !refused.ok) throw new Error(`refused: ${refused.code} ${refused.message}`);
  }
}

/** A resting order that crosses nothing: buys below 29,000 USDT, sells above 31,000. */
function restingOrder(i: number): HostCommand {
  const userId = 1 + (i % userCount);
  return i % 2 === 0
    ? limitOrder(userId, 2, 2_000_000 + (i % 90_000), 1 + (i % 7))
    : limitOrder(userId, 1, 3_100_000 + (i % 90_000), 1 + (i % 7));
}

/** The probes around `host.snapshotNow()`, or around a wait as long when `snapshot` is false. */
async function measure(host: EngineHost, next: () => HostCommand, snapshot = true) {
  let longestStopMs = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    longestStopMs = Math.max(longestStopMs, now - last);
    last = now;
  }, 1);
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const acks: { sent: number; ms: number }[] = [];
  const pending: Promise<unknown>[] = [];
  const trickle = setInterval(() => {
    const sent = performance.now();
    pending.push(host.submit(next()).then(() => acks.push({ sent, ms: performance.now() - sent })));
  }, 2);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = performance.now();
  if (snapshot) await host.snapshotNow();
  else await new Promise((resolve) => setTimeout(resolve, 600));
  const snapshotMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 100));
  clearInterval(trickle);
  clearInterval(probe);
  histogram.disable();
  await Promise.all(pending);
  const overlapsWrite = (ack: { sent: number; ms: number }) =>
    ack.sent < writing.ended && ack.sent + ack.ms > writing.started;
  return {
    snapshotMs,
    writeMs: writing.ended - writing.started,
    longestStopMs,
    delayMaxMs: histogram.max / 1e6,
    acks: percentiles(acks.filter((ack) => !overlapsWrite(ack)).map((ack) => ack.ms)),
    acksDuringWrite: percentiles(acks.filter(overlapsWrite).map((ack) => ack.ms)),
  };
}

function percentiles(values: number[]): string {
  values.sort((a, b) => a - b);
  const at = (q: number) =>
    (values[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0).toFixed(1);
  return `${values.length} acks: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`;
}

/** A temporary database: a SQLite file, or a fresh schema where DATABASE_URL points. */
async function temporaryDatabase() {
  const databaseUrl = process.env.DATABASE_URL || null;
  const dir = mkdtempSync(join(tmpdir(), 'lattice-snapshot-pause-'));
  const pgSchema = checkedSchemaName(`snapshot_pause_${process.pid}`);
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: databaseUrl ?? '' });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  if (databaseUrl) await admin(`create schema ${pgSchema}`);
  const database = openDatabase({
    databaseUrl,
    dataDir: dir,
    sqliteFile: join(dir, 'db.sqlite'),
    pgSchema,
  });
  const drop = async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
    if (databaseUrl) await admin(`drop schema ${pgSchema} cascade`);
  };
  return { database, drop };
}

async function main(resting: number, runs: number): Promise<void> {
  const { database, drop } = await temporaryDatabase();
  try {
    await migrateToLatest(database.db, database.dialect);
    const host = await openHost(database.db, database.dialect, {
      snapshots: { everyCommands: 10_000_000, everyMs: 3_600_000 },
      queueMax: 2 * wave,
      logger,
    });
    const built = performance.now();
    await submitWave(host, fixtureSetup);
    const funding: HostCommand[] = [];
    for (let userId = 1; userId <= userCount; userId++) {
      funding.push(...fundedUserCommands(userId, 10n * oneBtc, 1_000_000n * oneUsdt));
    }
    await submitWave(host, funding);
    const orders: HostCommand[] = [];
    for (let i = 0; i < resting; i++) orders.push(restingOrder(i));
    await submitWave(host, orders);
    console.log(
      `built: ${host.lastJournalSeq} journal entries, ${resting} resting orders in ` +
        `${((performance.now() - built) / 1000).toFixed(1)} s`,
    );
    let i = resting;
    const baseline = await measure(host, () => restingOrder(i++), false);
    console.log(
      `no snapshot, 600 ms: longest event-loop stop ${baseline.longestStopMs.toFixed(1)} ms; ` +
        `${baseline.acks}`,
    );
    for (let run = 1; run <= runs; run++) {
      const r = await measure(host, () => restingOrder(i++));
      console.log(
        `snapshot ${run} (${database.dialect}): ${r.snapshotMs.toFixed(0)} ms, its write ` +
          `${r.writeMs.toFixed(0)} ms; longest event-loop stop ${r.longestStopMs.toFixed(1)} ms ` +
          `(delay max ${r.delayMaxMs.toFixed(1)} ms)\n  orders sent before or after the write: ` +
          `${r.acks}\n  orders waiting while it was written: ${r.acksDuringWrite}`,
      );
    }
    await host.close();
  } finally {
    await drop();
  }
}

await main(Number(process.argv[2] ?? 100_000), Number(process.argv[3] ?? 3));
