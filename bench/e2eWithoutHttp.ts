// What the end-to-end bench (bench/e2e.ts) measures without HTTP, after the servers' phases:
// the sync latency of the disk under the data directory, alone, which bounds every durable
// acknowledgement from below; and the engine host alone on the same place/cancel loop, in this
// process, to tell the HTTP path from the durable write.
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest } from '../packages/server/src/db/migrate.js';
import { openDatabase } from '../packages/server/src/db/open.js';
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
import { addThreadUse, type Measured, measured, threadCpuMs, threadCpuPer } from './httpLoad.js';

/** The same place-then-cancel loop straight into an engine host on its own SQLite file. */
export async function hostAlone(
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
export function diskSyncLatency(
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
