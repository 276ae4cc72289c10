import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open.js';
import { checkAnswers, replayJournal, storedTotals } from './harness/crashChecks.js';
import { CrashClient, ServerGate } from './harness/crashWorkload.js';
import { HttpSession } from './harness/httpSession.js';
import { buildServerBundle } from './harness/serverBundle.js';
import { repoRoot, ServerProcess } from './harness/serverProcess.js';

// A real server process takes orders, cancels and transfers from several clients and is killed
// with SIGKILL at random moments, twice while it writes a snapshot. After every kill the database
// must hold every acknowledged command exactly once and no refused one, the journal must replay
// to the state the restarted server recovered, and per-asset totals must not move.

const killsMax = 11;
const snapshotKills = new Set([3, 8]);
const dataDir = mkdtempSync(join(tmpdir(), 'lattice-crash-'));
const cleanups: (() => Promise<void>)[] = [
  () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })),
];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A seeded pseudo-random generator, so a failing run can be repeated (mulberry32). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The server's own database: a file in its data directory, or a fresh PostgreSQL database. */
async function serverDatabaseUrl(): Promise<string | null> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return null;
  const name = `lattice_crash_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * On PostgreSQL, waits until the killed server's connections are gone. A backend that had read
 * a COMMIT when its client died still commits it, possibly after the checks below read the
 * journal; the database is the server's own, so no other connection is expected.
 */
async function serverConnectionsClosed(databaseUrl: string | null): Promise<void> {
  if (!databaseUrl) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const deadline = Date.now() + 20_000; ; ) {
      const { rows } = await client.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity ' +
          'where datname = current_database() and pid <> pg_backend_pid()',
      );
      if (rows[0]?.n === 0) return;
      if (Date.now() > deadline) throw new Error("the killed server's connections stay open");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}

describe('crash safety', () => {
  it('keeps every acknowledged command exactly once across SIGKILLs', {
    timeout: 180_000,
  }, async () => {
    const seed = Number(process.env.CRASH_SEED ?? Date.now() % 100_000);
    const random = seededRandom(seed);
    const databaseUrl = await serverDatabaseUrl();
    const env = {
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      RATE_LIMIT_SCALE: '1000',
      // Only the test's clients trade: every order in the journal is one of theirs.
      DEMO_MAKER: '0',
      ENGINE_SNAPSHOT_EVERY: '150',
      ENGINE_SNAPSHOT_WRITE_DELAY_MS: '400',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    const withDb = async <T>(read: (db: ReturnType<typeof openDatabase>['db']) => Promise<T>) => {
      const handle = openDatabase({ databaseUrl, dataDir });
      try {
        return await read(handle.db);
      } finally {
        await handle.close();
      }
    };

    // The production bundle: it starts faster than tsx, and it is what `npm start` runs.
    // A directory of its own: another run of the suite may be building and deleting its own.
    const bundleName = `crash-test-${process.pid}-${randomBytes(3).toString('hex')}`;
    const bundle = await buildServerBundle(bundleName);
    cleanups.push(async () =>
      rmSync(join(repoRoot, 'packages/server/dist', bundleName), { recursive: true, force: true }),
    );
    const start = () => ServerProcess.start(env, { bundle });
    const gate = new ServerGate();
    let server = await start();
    const users = [
      ['alice@example.com', 'Alice-demo-1'],
      ['bob@example.com', 'Bob-demo-1'],
    ] as const;
    const clients: CrashClient[] = [];
    for (const [index, [email, password]] of [...users, ...users].entries()) {
      const session = await HttpSession.signIn(server.url, email, password);
      const me = await session.request('GET', '/api/systemParams');
      const userId = (me.body as { user: { id: number } }).user.id;
      clients.push(new CrashClient(session, userId, `c${index}`, gate, seededRandom(seed + index)));
    }
    const initialTotals = (await withDb(replayJournal)).totals;
    gate.reopen(server.url);
    const running = clients.map((client) => client.run());

    let interruptedSnapshots = 0;
    for (let kill = 1; kill <= killsMax; kill++) {
      // The journal entry of a snapshot being written when the process dies, if any.
      let interrupted: number | null = null;
      if (snapshotKills.has(kill)) {
        const writing = await server.nextLog(
          (line) => line.msg === 'engine snapshot writing',
          20_000,
        );
        await server.kill();
        interrupted = Number(writing.journalSeq);
        const finished = server.logs.some(
          (line) => line.msg === 'engine snapshot written' && line.journalSeq === interrupted,
        );
        expect(finished, 'the kill came after the snapshot was written').toBe(false);
        interruptedSnapshots++;
      } else {
        await new Promise((resolve) => setTimeout(resolve, 150 + random() * 800));
        await server.kill();
      }
      gate.close();
      await serverConnectionsClosed(databaseUrl);

      const sent = clients.flatMap((client) => client.sent);
      const clean = await withDb(replayJournal);
      expect(await withDb((db) => checkAnswers(db, sent)), `seed ${seed}, kill ${kill}`).toEqual(
        [],
      );
      expect(clean.totals).toEqual(initialTotals);
      expect(await withDb(storedTotals)).toEqual(initialTotals);
      if (interrupted !== null) {
        const snapshots = await withDb((db) =>
          db.selectFrom('engine_snapshots').select('journal_seq').execute(),
        );
        expect(snapshots.map((row) => row.journal_seq)).not.toContain(interrupted);
      }

      server = await start();
      const recovered = await server.waitForLog((line) => line.msg === 'engine recovered');
      expect(recovered.journalSeq).toBe(clean.journalSeq);
      const engine = await (await fetch(`${server.url}/api/dev/engine`)).json();
      expect(engine).toMatchObject({
        journalSeq: clean.journalSeq,
        stateHash: clean.stateHash,
        halted: null,
      });
      // Recovery started from an older snapshot and replayed the entries after it, once.
      if (interrupted !== null) expect(Number(recovered.snapshotSeq)).toBeLessThan(interrupted);
      expect(server.logs.some((line) => line.msg === 'reconciliation failed')).toBe(false);
      gate.reopen(server.url);
    }

    for (const client of clients) client.stop();
    await Promise.all(running);
    const exitCode = await server.stop();
    // On a failed graceful stop, say why: what the server wrote to stderr and its last log lines.
    const lastLogs = server.logs.slice(-5).map((line) => JSON.stringify(line));
    expect(exitCode, [server.errorOutput, ...lastLogs].join('\n')).toBe(0);
    const sent = clients.flatMap((client) => client.sent);
    expect(await withDb((db) => checkAnswers(db, sent))).toEqual([]);
    const count = (keep: (command: (typeof sent)[number]) => boolean) => sent.filter(keep).length;
    console.info(
      `crash test (seed ${seed}): ${killsMax} kills, ${count((c) => c.acknowledged)} acknowledged, ` +
        `${count((c) => !c.acknowledged)} refused, ${count((c) => c.retried)} retried after a kill`,
    );
    // The run must have exercised what it claims to.
    expect(interruptedSnapshots).toBe(snapshotKills.size);
    expect(sent.filter((command) => command.acknowledged).length).toBeGreaterThan(200);
    expect(sent.filter((command) => !command.acknowledged).length).toBeGreaterThan(10);
    expect(sent.filter((command) => command.retried).length).toBeGreaterThan(0);
  });
});
