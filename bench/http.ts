// HTTP benchmark: the whole server (Fastify, logging hooks, error handler, SQLite) answering
// GET /api/health over real sockets from concurrent keep-alive clients. Prints throughput and
// latency percentiles. Usage: npm run bench:http [-- requests concurrency]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../packages/server/src/app.js';
import { configFromEnv } from '../packages/server/src/config.js';
import { migrateToLatest } from '../packages/server/src/db/migrate.js';
import { openDatabase } from '../packages/server/src/db/open.js';

const requests = Number(process.argv[2] ?? 10_000);
const concurrency = Number(process.argv[3] ?? 32);

const dataDir = mkdtempSync(join(tmpdir(), 'lattice-bench-'));
const config = configFromEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
const database = openDatabase({ databaseUrl: null, dataDir });
await migrateToLatest(database.db, database.dialect);
const app = await buildApp(config, { db: database.db, dialect: database.dialect });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const url = `${address}/api/health`;

async function client(count: number, latenciesMs: number[]): Promise<void> {
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    latenciesMs.push(performance.now() - started);
  }
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

try {
  await client(500, []); // warm-up: JIT, connection pool
  const latenciesMs: number[] = [];
  const started = performance.now();
  const perClient = Math.ceil(requests / concurrency);
  await Promise.all(Array.from({ length: concurrency }, () => client(perClient, latenciesMs)));
  const seconds = (performance.now() - started) / 1000;
  latenciesMs.sort((a, b) => a - b);
  console.log(`GET /api/health (SQLite), ${latenciesMs.length} requests, ${concurrency} clients`);
  console.log(`  throughput   ${Math.round(latenciesMs.length / seconds)} requests/s`);
  for (const [label, fraction] of [
    ['p50', 0.5],
    ['p99', 0.99],
    ['max', 1],
  ] as const) {
    console.log(`  latency ${label}  ${percentile(latenciesMs, fraction).toFixed(2)} ms`);
  }
} finally {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
