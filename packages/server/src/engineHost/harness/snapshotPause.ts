// Measures what a snapshot costs the sequencer: builds a host holding 100,000 resting orders
// (1,000 users) on a temporary SQLite file, then takes snapshots while a 1 ms timer probes the
// event loop and a trickle of orders (one every 2 ms) measures their acknowledgement time.
// Usage: npx tsx packages/server/src/engineHost/harness/snapshotPause.ts [resting] [runs]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { migrateToLatest } from '../../db/migrate.js';
import { openDatabase } from '../../db/open.js';
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

async function measure(host: EngineHost, next: () => HostCommand) {
  let longestStopMs = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    longestStopMs = Math.max(longestStopMs, now - last);
    last = now;
  }, 1);
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const acks: number[] = [];
  const pending: Promise<unknown>[] = [];
  const trickle = setInterval(() => {
    const sent = performance.now();
    pending.push(host.submit(next()).then(() => acks.push(performance.now() - sent)));
  }, 2);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = performance.now();
  await host.snapshotNow();
  const snapshotMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 100));
  clearInterval(trickle);
  clearInterval(probe);
  histogram.disable();
  await Promise.all(pending);
  acks.sort((a, b) => a - b);
  return {
    snapshotMs,
    longestStopMs,
    delayMaxMs: histogram.max / 1e6,
    acks: acks.length,
    ackP50Ms: acks[Math.floor(acks.length * 0.5)] ?? 0,
    ackP99Ms: acks[Math.floor(acks.length * 0.99)] ?? 0,
    ackMaxMs: acks[acks.length - 1] ?? 0,
  };
}

async function main(resting: number, runs: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lattice-snapshot-pause-'));
  const database = openDatabase({
    databaseUrl: null,
    dataDir: dir,
    sqliteFile: join(dir, 'db.sqlite'),
  });
  try {
    await migrateToLatest(database.db, database.dialect);
    const host = await openHost(database.db, database.dialect, {
      snapshots: { everyCommands: 10_000_000, everyMs: 3_600_000 },
      queueMax: 2 * wave,
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
    for (let run = 1; run <= runs; run++) {
      const r = await measure(host, () => restingOrder(i++));
      console.log(
        `snapshot ${run}: ${r.snapshotMs.toFixed(0)} ms; longest event-loop stop ` +
          `${r.longestStopMs.toFixed(1)} ms (delay max ${r.delayMaxMs.toFixed(1)} ms); ` +
          `${r.acks} acks during it: p50 ${r.ackP50Ms.toFixed(1)} ms, p99 ${r.ackP99Ms.toFixed(1)} ms, ` +
          `max ${r.ackMaxMs.toFixed(1)} ms`,
      );
    }
    await host.close();
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main(Number(process.argv[2] ?? 100_000), Number(process.argv[3] ?? 3));
