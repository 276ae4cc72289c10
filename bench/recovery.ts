// Recovery benchmark: builds a data directory holding 1,000,000 journal entries and 100,000
// resting orders (through the engine host, in large batches, in a child process that then dies
// without a final snapshot, as in a crash), restarts the real server (the production bundle) on
// it, and prints how long the restart took. Usage:
// npm run bench:recovery [-- entries resting [deposits]]
// where `deposits` of the entries (none by default) are deposits, each a business id the engine
// keeps for good: a long history's snapshot.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ApplyResult,
  type Command,
  commandToJson,
  type Engine,
  type EngineEvent,
} from '@lattice/engine';
import type { Db } from '../packages/server/src/db/database.js';
import { migrateToLatest } from '../packages/server/src/db/migrate.js';
import { openDatabase, sqliteConnectionOf } from '../packages/server/src/db/open.js';
import type { EngineJournalTable } from '../packages/server/src/db/tables/engineHost.js';
import { bootstrapEngine } from '../packages/server/src/engineHost/bootstrap.js';
import type { HostCommand } from '../packages/server/src/engineHost/engineHost.js';
import { buildServerBundle } from '../packages/server/src/engineHost/harness/serverBundle.js';
import {
  repoRoot,
  ServerProcess,
} from '../packages/server/src/engineHost/harness/serverProcess.js';
import { openHost } from '../packages/server/src/engineHost/hostFixtures.js';
import { silentLogger } from '../packages/server/src/engineHost/hostLogger.js';
import { HostStore } from '../packages/server/src/engineHost/hostStore.js';
import { projectionRowsFrom } from '../packages/server/src/engineHost/projections.js';
import { recoverEngine } from '../packages/server/src/engineHost/recovery.js';
import { captureSnapshot, snapshotRow } from '../packages/server/src/engineHost/snapshots.js';
import {
  batchStatements,
  positionalBatch,
} from '../packages/server/src/engineHost/sqliteBatchSql.js';
import { seedReferenceData } from '../packages/server/src/reference/reference.seed.js';
import { prng, watcherDeposit } from './engineWorkload.js';

const userCount = 1_000;
// Journal entries after the last snapshot: what a restart replays (a host snapshots every
// 50,000 by default, so a crash leaves fewer).
const tail = 49_000;

async function main(entries: number, resting: number, deposits: number): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lattice-bench-recovery-'));
  const bundleName = `bench-recovery-${process.pid}`;
  try {
    const built = performance.now();
    await runChild(dataDir, entries, resting, deposits);
    const buildSeconds = (performance.now() - built) / 1000;
    const restingOrders = await countResting(dataDir);
    const bundle = await buildServerBundle(bundleName);
    const started = performance.now();
    const server = await ServerProcess.start(
      { DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'info' },
      { bundle, startTimeoutMs: 120_000 },
    );
    const seconds = (performance.now() - started) / 1000;
    const recovered = await server.waitForLog((line) => line.msg === 'engine recovered');
    const halted = server.logs.some((line) => line.msg === 'reconciliation failed');
    await server.stop();
    console.log(
      `data: ${recovered.journalSeq} journal entries, ${restingOrders} resting orders, ${userCount} users, ` +
        `${deposits} more deposits (built in ${buildSeconds.toFixed(1)} s); SQLite, production bundle`,
    );
    const snapshot = server.logs.find((line) => line.msg === 'engine snapshot read');
    if (snapshot) {
      console.log(
        `  snapshot at entry ${String(snapshot.journalSeq)}: ` +
          `${(Number(snapshot.textBytes) / 1e6).toFixed(1)} MB of text read and restored in ` +
          `${(Number(snapshot.ms) / 1000).toFixed(2)} s`,
      );
    }
    console.log(
      `  engine: snapshot at entry ${recovered.snapshotSeq} + ${recovered.replayed} entries replayed ` +
        `in ${(Number(recovered.ms) / 1000).toFixed(2)} s on the ${String(recovered.core)} core; ` +
        `reconciliation ${halted ? 'FAILED' : 'passed'}`,
    );
    console.log(`recovery s: ${seconds.toFixed(2)}  (process start to answering HTTP)`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(join(repoRoot, 'packages/server/dist', bundleName), { recursive: true, force: true });
  }
}

async function countResting(dataDir: string): Promise<number> {
  const database = openDatabase({ databaseUrl: null, dataDir });
  try {
    const row = await database.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ftime', '=', 0)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await database.close();
  }
}

function runChild(
  dataDir: string,
  entries: number,
  resting: number,
  deposits: number,
): Promise<void> {
  const file = fileURLToPath(import.meta.url);
  const args = ['--import', 'tsx', file, '--build', dataDir];
  args.push(String(entries), String(resting), String(deposits));
  const child = spawn(process.execPath, args, { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`the build exited with ${code}`)),
    );
  });
}

/**
 * Fills `dataDir`: reference data through the engine host, then commands applied to an engine
 * here and written as the host writes them (journal rows and projections, same statements) in
 * large transactions, with one snapshot `tail` entries before the end: the journal after it is
 * what a restart replays, as after a crash.
 */
async function build(
  dataDir: string,
  entries: number,
  resting: number,
  deposits: number,
): Promise<void> {
  const database = openDatabase({ databaseUrl: null, dataDir });
  await migrateToLatest(database.db, database.dialect);
  await seedReferenceData(database.db, { demoUsers: false, hashPassword: async () => '' });
  const host = await openHost(database.db, database.dialect);
  await bootstrapEngine(host, database.db, { fundDemoUsers: false, logger: silentLogger });
  await host.close();
  const store = new HostStore(database.db, database.dialect);
  const recovered = await recoverEngine(store, silentLogger);
  const writer = new DirectWriter(
    database.db,
    recovered.engine,
    recovered.journalSeq,
    recovered.lastTime,
  );
  writer.apply(setupCommands());
  const rand = prng(42);
  for (let n = 0; n < deposits; n++) writer.apply([watcherDeposit(n, rand)]);
  // Each round places orders and cancels the oldest, so the book grows evenly to `resting`.
  const perRound = 2_000;
  const rounds = Math.ceil((entries - writer.position) / perRound);
  const open: { orderId: number; userId: number }[] = [];
  for (let round = 1; writer.position < entries; round++) {
    const target = Math.min(resting, Math.ceil((resting * round) / rounds));
    const budget = Math.min(perRound, entries - writer.position);
    const place = Math.min(budget, Math.max(0, Math.ceil((budget + target - open.length) / 2)));
    for (const result of writer.apply(placeCommands(place))) {
      if (result.ok && result.result.kind === 'order') {
        open.push({ orderId: result.result.order.id, userId: result.result.order.userId });
      }
    }
    const cancel = Math.min(budget - place, Math.max(0, open.length - target));
    const cancels: HostCommand[] = open
      .splice(0, cancel)
      .map(({ orderId, userId }) => ({ type: 'order.cancel', userId, orderId }));
    writer.apply(cancels);
    if (writer.position >= entries - tail && !writer.snapshotted) {
      writer.flush();
      const captured = captureSnapshot(writer.engine, writer.position, Date.now());
      await store.writeSnapshot(await snapshotRow(captured), 2);
      writer.snapshotted = true;
    }
  }
  writer.flush();
  console.log(`built: ${writer.journalSeq} journal entries, ${open.length} resting orders`);
  await store.close();
  await database.close();
}

/** Applies commands to the engine and writes them in batches, as the engine host commits. */
class DirectWriter {
  private pending: { command: Command; events: EngineEvent[]; eventSeqEnd: number }[] = [];
  private readonly write: (journal: EngineJournalTable[], events: EngineEvent[]) => void;
  snapshotted = false;

  constructor(
    db: Db,
    readonly engine: Engine,
    public journalSeq: number,
    private time: number,
  ) {
    const sqlite = sqliteConnectionOf(db);
    if (!sqlite) throw new Error('the recovery benchmark builds a SQLite database');
    const statements = {
      journal: sqlite.prepare(batchStatements.journal),
      order: sqlite.prepare(batchStatements.order),
      trade: sqlite.prepare(batchStatements.trade),
      balance: sqlite.prepare(batchStatements.balance),
      systemBalance: sqlite.prepare(batchStatements.systemBalance),
      history: sqlite.prepare(batchStatements.history),
    };
    this.write = sqlite.transaction((journal: EngineJournalTable[], events: EngineEvent[]) => {
      const rows = positionalBatch({
        journal,
        projections: projectionRowsFrom(events),
        idempotency: [],
        time: this.time,
      });
      for (const row of rows.journal) statements.journal.run(row);
      for (const row of rows.order) statements.order.run(row);
      for (const row of rows.trade) statements.trade.run(row);
      for (const row of rows.balance) statements.balance.run(row);
      for (const row of rows.systemBalance) statements.systemBalance.run(row);
      for (const row of rows.history) statements.history.run(row);
    });
  }

  apply(commands: readonly HostCommand[]): ApplyResult[] {
    return commands.map((input) => {
      const command = { ...input, time: ++this.time } as Command;
      const result = this.engine.apply(command);
      if (!result.ok) throw new Error(`${command.type} refused: ${result.code}`);
      this.pending.push({ command, events: result.events, eventSeqEnd: this.engine.lastEventSeq });
      if (this.pending.length >= 50_000) this.flush();
      return result;
    });
  }

  /** The journal position including what is not yet written. */
  get position(): number {
    return this.journalSeq + this.pending.length;
  }

  flush(): void {
    const journal: EngineJournalTable[] = [];
    const events: EngineEvent[] = [];
    for (const { command, events: own, eventSeqEnd } of this.pending) {
      journal.push({
        seq: ++this.journalSeq,
        time: command.time,
        type: command.type,
        command: JSON.stringify(commandToJson(command)),
        event_seq_end: eventSeqEnd,
      });
      for (const event of own) events.push(event);
    }
    this.write(journal, events);
    this.pending = [];
  }
}

function setupCommands(): HostCommand[] {
  const commands: HostCommand[] = [];
  for (let userId = 1; userId <= userCount; userId++) {
    commands.push({ type: 'user.add', userId });
    for (const [asset, amount] of [
      ['BTC', 1_000_000_000n],
      ['USDT', 10_000_000_000_000n],
    ] as const) {
      const businessId = `bench:${userId}:${asset}`;
      commands.push(
        { type: 'balance.deposit', userId, asset, amount, businessId },
        {
          type: 'balance.transfer',
          userId,
          asset,
          amount,
          from: 'main',
          to: 'trade',
          businessId: `${businessId}:trade`,
        },
      );
    }
  }
  return commands;
}

let placedCount = 0;

/** Sells rest above 40,000 and buys below 20,000 USDT, over 1,000 price levels a side. */
function placeCommands(count: number): HostCommand[] {
  const commands: HostCommand[] = [];
  for (let i = 0; i < count; i++) {
    const n = placedCount++;
    const userId = (n % userCount) + 1;
    const sell = userId % 2 === 1;
    const cents = sell ? 4_000_000 + (n % 1_000) : 2_000_000 - (n % 1_000);
    commands.push({
      type: 'order.limit',
      userId,
      market: 'BTC_USDT',
      side: sell ? 1 : 2,
      price: BigInt(cents) * 10_000n,
      amount: 100_000n,
      timeInForce: 'GTC',
      source: 'api',
    });
  }
  return commands;
}

if (process.argv[2] === '--build') {
  const [dataDir = '', entries, resting, deposits] = process.argv.slice(3);
  await build(dataDir, Number(entries), Number(resting), Number(deposits));
} else {
  const [entries = 1_000_000, resting = 100_000, deposits = 0] = process.argv.slice(2).map(Number);
  await main(entries, resting, deposits);
}
