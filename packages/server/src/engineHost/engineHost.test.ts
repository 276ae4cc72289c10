import { gunzipSync } from 'node:zlib';
import { commandFromJson, Engine, type EngineEvent } from '@lattice/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { amountFromDb } from '../db/amount.js';
import { createTestDb, type TestDb } from '../testing/testDb.js';
import type { EngineHost, HostCommand } from './engineHost.js';
import {
  fixtureSetup,
  fundedUserCommands,
  limitOrder,
  oneBtc,
  oneUsdt,
  openHost,
  placedOrder,
  submitAll,
} from './hostFixtures.js';
import { silentLogger } from './hostLogger.js';
import { HostStore } from './hostStore.js';
import { readStoredSnapshotText } from './storedSnapshotText.js';

const opened: { host?: EngineHost; testDb?: TestDb }[] = [];

async function freshHost(options: Parameters<typeof openHost>[2] = {}) {
  const testDb = await createTestDb();
  const host = await openHost(testDb.db, testDb.dialect, options);
  opened.push({ host, testDb });
  return { host, testDb };
}

afterEach(async () => {
  const toClose = opened.splice(0);
  // NOTE: every host first: a host reopened on a database keeps its files open (and its worker
  // threads writing to them) until it closes, and deleting the files under it fails.
  for (const { host } of toClose) await host?.close();
  for (const { testDb } of toClose) await testDb?.destroy();
});

async function fundTwoUsers(host: EngineHost): Promise<void> {
  await submitAll(host, fixtureSetup);
  await submitAll(host, fundedUserCommands(1, 10n * oneBtc, 1_000_000n * oneUsdt));
  await submitAll(host, fundedUserCommands(2, 10n * oneBtc, 1_000_000n * oneUsdt));
}

/** A mix of resting, matching, refused and cancelled orders and transfers. */
async function trade(host: EngineHost): Promise<void> {
  const resting = placedOrder(await host.submit(limitOrder(1, 1, 3_000_000, 50)));
  await host.submit(limitOrder(1, 1, 3_000_100, 40));
  await host.submit(limitOrder(2, 2, 3_000_050, 70));
  await host.submit(limitOrder(2, 2, 2_900_000, 10));
  const refused = await host.submit(limitOrder(2, 2, 2_900_000, 10_000_000));
  expect(refused).toMatchObject({ ok: false, code: 'insufficient_balance' });
  await host.submit({ type: 'order.cancel', userId: 1, orderId: resting.id });
  await host.submit({
    type: 'balance.transfer',
    userId: 2,
    asset: 'USDT',
    amount: 5n * oneUsdt,
    from: 'trade',
    to: 'main',
    businessId: 'move-1',
  });
}

describe('EngineHost durability', () => {
  it('rebuilds the same state from the journal and from a snapshot plus the journal', async () => {
    const { host, testDb } = await freshHost();
    await fundTwoUsers(host);
    await trade(host);
    await host.snapshotNow();
    await trade(host);
    const liveHash = host.engine.stateHash();
    await host.close();

    const reopened = await openHost(testDb.db, testDb.dialect);
    opened.push({ host: reopened });
    expect(reopened.engine.stateHash()).toBe(liveHash);
    expect(reopened.halted).toBeNull();

    const rows = await testDb.db.selectFrom('engine_journal').selectAll().orderBy('seq').execute();
    const clean = new Engine();
    for (const row of rows)
      expect(clean.apply(commandFromJson(JSON.parse(row.command))).ok).toBe(true);
    expect(clean.stateHash()).toBe(liveHash);
    expect(rows.map((row) => row.seq)).toEqual(rows.map((_, index) => index + 1));
  });

  it('takes snapshots as the journal grows; an interrupted one leaves nothing to apply twice', async () => {
    const { host, testDb } = await freshHost({ snapshots: { everyCommands: 7 } });
    await fundTwoUsers(host);
    await trade(host);
    await host.close();
    const snapshots = await testDb.db
      .selectFrom('engine_snapshots')
      .select('journal_seq')
      .execute();
    expect(snapshots.length).toBe(2);

    class FailingSnapshotStore extends HostStore {
      override writeSnapshot(...args: Parameters<HostStore['writeSnapshot']>) {
        return super.writeSnapshot(args[0], args[1], async () => {
          throw new Error('killed while writing');
        });
      }
    }
    const failing = await openHost(testDb.db, testDb.dialect, {
      store: new FailingSnapshotStore(testDb.db, testDb.dialect),
    });
    await trade(failing);
    await failing.snapshotNow();
    const liveHash = failing.engine.stateHash();
    await failing.close();
    const newest = await testDb.db
      .selectFrom('engine_snapshots')
      .select((eb) => eb.fn.max('journal_seq').as('seq'))
      .executeTakeFirstOrThrow();
    expect(Number(newest.seq)).toBeLessThan(failing.lastJournalSeq);

    const reopened = await openHost(testDb.db, testDb.dialect);
    opened.push({ host: reopened });
    expect(reopened.engine.stateHash()).toBe(liveHash);
    expect(await reopened.reconcileNow()).toEqual([]);
  });

  it('stores snapshots compressed, and still restores one stored as text before', async () => {
    const { host, testDb } = await freshHost();
    await fundTwoUsers(host);
    await trade(host);
    await host.snapshotNow();
    const liveHash = host.engine.stateHash();
    const position = host.lastJournalSeq;
    await host.close();
    const stored = await testDb.db
      .selectFrom('engine_snapshots')
      .selectAll()
      .where('journal_seq', '=', position)
      .executeTakeFirstOrThrow();
    expect(stored.data).toBe('');
    const text = gunzipSync(stored.data_gzip ?? Buffer.alloc(0));
    expect(readStoredSnapshotText(text).stateHash).toBe(stored.state_hash);
    expect(stored.state_hash).toBe(liveHash);

    // As migration 0011 leaves a snapshot written before it: its JSON in `data`, on one line.
    await testDb.db
      .updateTable('engine_snapshots')
      .set({ data: text.toString('utf8').replaceAll('\n', ''), data_gzip: null })
      .where('journal_seq', '=', position)
      .execute();
    const recovered: object[] = [];
    const logger = {
      ...silentLogger,
      info: (details: object, message: string) => {
        if (message === 'engine recovered') recovered.push(details);
      },
    };
    const reopened = await openHost(testDb.db, testDb.dialect, { logger });
    opened.push({ host: reopened });
    expect(recovered).toEqual([expect.objectContaining({ snapshotSeq: position, replayed: 0 })]);
    expect(reopened.engine.stateHash()).toBe(liveHash);
  });

  it('snapshots, from its replica, the journal position of the call while commands go on', async () => {
    const { host, testDb } = await freshHost();
    await fundTwoUsers(host);
    await trade(host);
    const position = host.lastJournalSeq;
    const hashThen = host.engine.stateHash();
    const first = host.snapshotNow();
    // Applied and acknowledged while the replica takes the snapshot: not in it.
    await trade(host);
    const second = host.snapshotNow();
    await first;
    const snapshots = () =>
      testDb.db
        .selectFrom('engine_snapshots')
        .select(['journal_seq', 'state_hash'])
        .orderBy('journal_seq')
        .execute();
    expect((await snapshots())[0]).toEqual({ journal_seq: position, state_hash: hashThen });
    // One asked for while another was in flight is of the position when it was asked for.
    await second;
    expect(await snapshots()).toEqual([
      { journal_seq: position, state_hash: hashThen },
      { journal_seq: host.lastJournalSeq, state_hash: host.engine.stateHash() },
    ]);
  });

  it('writes projections that match the engine in the same transaction as the journal', async () => {
    const { host, testDb } = await freshHost();
    await fundTwoUsers(host);
    await trade(host);
    const rows = await testDb.db
      .selectFrom('balances')
      .selectAll()
      .where('user_id', '=', 2)
      .execute();
    const engineBalances = host.engine.balances(2);
    for (const row of rows) {
      const account = row.account as 'main' | 'trade';
      expect(amountFromDb(row.available)).toBe(engineBalances[row.asset]![account].available);
      expect(amountFromDb(row.frozen)).toBe(engineBalances[row.asset]![account].frozen);
    }
    const open = await testDb.db
      .selectFrom('orders')
      .select('id')
      .where('ftime', '=', 0)
      .orderBy('id')
      .execute();
    const engineOpen = [...host.engine.openOrders(1), ...host.engine.openOrders(2)];
    expect(open.map((row) => row.id)).toEqual(
      engineOpen.map((order) => order.id).sort((a, b) => a - b),
    );
    const trades = await testDb.db.selectFrom('trades').selectAll().execute();
    expect(trades.length).toBeGreaterThan(0);
    expect(await host.reconcileNow()).toEqual([]);
  });

  it('publishes events only after commit, in sequence order', async () => {
    const { host, testDb } = await freshHost();
    const seen: { seqs: number[]; journaled: number }[] = [];
    host.bus.subscribe((events: readonly EngineEvent[]) => {
      seen.push({ seqs: events.map((event) => event.seq), journaled: host.lastJournalSeq });
    });
    await fundTwoUsers(host);
    const seqs = seen.flatMap((batch) => batch.seqs);
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
    const count = await testDb.db
      .selectFrom('engine_journal')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(host.lastJournalSeq);
  });
});

describe('EngineHost and the engine’s cores', () => {
  it('logs when a command hands the engine over to its bigint core', async () => {
    const changes: { details: object; message: string }[] = [];
    const note = (details: object, message: string) => {
      if (message.startsWith('engine') && 'core' in details) changes.push({ details, message });
    };
    const { host } = await freshHost({ logger: { ...silentLogger, info: note, warn: note } });
    await fundTwoUsers(host);
    await host.submit(limitOrder(1, 1, 3_000_000, 50));
    expect(host.engine.coreName).toBe('columnar');
    // One BTC offered at 10^10 USDT: its fills at its own price would pass 2^53 in the
    // columnar core's numbers.
    const huge = await host.submit(limitOrder(2, 1, 1_000_000_000_000, 100_000));
    expect(huge).toMatchObject({ ok: true });
    expect(host.engine.coreName).toBe('bigint');
    expect(changes).toEqual([
      expect.objectContaining({ details: expect.objectContaining({ core: 'columnar' }) }),
      {
        details: { core: 'bigint', journalSeq: host.lastJournalSeq, commandsBeforeReturn: 1024 },
        message:
          'engine handed its state to the bigint core: a command did not fit the columnar core',
      },
    ]);
  });
});

describe('EngineHost idempotency', () => {
  it('answers a repeated key with the first result and applies the command once', async () => {
    const { host, testDb } = await freshHost();
    await fundTwoUsers(host);
    const key = { userId: 1, key: 'order-abc' };
    const command = limitOrder(1, 1, 3_100_000, 5);
    const [first, concurrent] = await Promise.all([
      host.submit(command, key),
      host.submit(command, key),
    ]);
    const later = await host.submit(command, key);
    expect(placedOrder(concurrent).id).toBe(placedOrder(first).id);
    expect(placedOrder(later)).toEqual(placedOrder(first));
    expect(later.ok && later.events).toEqual([]);
    expect(host.engine.openOrders(1)).toHaveLength(1);
    const orders = await testDb.db.selectFrom('orders').select('id').execute();
    expect(orders).toHaveLength(1);
    // The key is per user: another user's identical key is a different command.
    const other = await host.submit(limitOrder(2, 2, 2_000_000, 5), {
      userId: 2,
      key: 'order-abc',
    });
    expect(placedOrder(other).id).not.toBe(placedOrder(first).id);
  });

  it('refuses a key reused with another body with 409, also after a restart', async () => {
    const { host, testDb } = await freshHost();
    await fundTwoUsers(host);
    const key = { userId: 1, key: 'k-1' };
    await host.submit(limitOrder(1, 1, 3_100_000, 5), key);
    await expect(host.submit(limitOrder(1, 1, 3_100_000, 6), key)).rejects.toMatchObject({
      status: 409,
      code: 'idempotency_key_reused',
    });
    await host.close();
    const reopened = await openHost(testDb.db, testDb.dialect);
    opened.push({ host: reopened });
    await expect(reopened.submit(limitOrder(1, 1, 3_100_000, 6), key)).rejects.toMatchObject({
      status: 409,
    });
    const repeat = await reopened.submit(limitOrder(1, 1, 3_100_000, 5), key);
    expect(placedOrder(repeat).amount).toBe(5_000n);
    expect(reopened.engine.openOrders(1)).toHaveLength(1);
  });
});

describe('EngineHost limits and halts', () => {
  it('detects stored totals that no longer match deposits minus withdrawals', async () => {
    const { host, testDb } = await freshHost();
    await fundTwoUsers(host);
    expect(await host.reconcileNow()).toEqual([]);
    await testDb.db.deleteFrom('system_balances').where('owner', '=', 'external').execute();
    const problems = await host.reconcileNow();
    expect(problems).toContain(
      `USDT: stored deposits minus withdrawals are 0, journal ${2_000_000n * oneUsdt}`,
    );
    expect(host.halted).not.toBeNull();
  });

  it('refuses commands beyond the queue with 503 and Retry-After, applying none of them', async () => {
    const { host } = await freshHost({ queueMax: 5 });
    await fundTwoUsers(host);
    const commands: HostCommand[] = Array.from({ length: 12 }, (_, i) =>
      limitOrder(1, 1, 3_000_000 + i, 1),
    );
    const settled = await Promise.allSettled(commands.map((command) => host.submit(command)));
    const refused = settled.filter((s) => s.status === 'rejected');
    expect(refused).toHaveLength(7);
    for (const s of refused) {
      expect(s.reason).toMatchObject({ status: 503, code: 'engine_busy', retryAfterSeconds: 1 });
    }
    expect(host.engine.openOrders(1)).toHaveLength(5);
  });

  it('halts when reconciliation finds a tampered projection, and says why', async () => {
    const { host, testDb } = await freshHost();
    await fundTwoUsers(host);
    await testDb.db
      .updateTable('balances')
      .set({ available: '1' })
      .where('user_id', '=', 2)
      .where('asset', '=', 'BTC')
      .where('account', '=', 'trade')
      .execute();
    const problems = await host.reconcileNow();
    expect(problems.join('\n')).toMatch(/user 2 BTC trade: stored 1\/0/);
    expect(problems.join('\n')).toMatch(/BTC: stored balances add up to/);
    expect(host.halted).toMatch(/reconciliation failed/);
    await expect(host.submit(limitOrder(1, 1, 3_000_000, 1))).rejects.toMatchObject({
      status: 503,
      code: 'engine_halted',
    });
    await host.close();
    // A restart checks again and stays halted while the tables disagree.
    const reopened = await openHost(testDb.db, testDb.dialect);
    opened.push({ host: reopened });
    expect(reopened.halted).toMatch(/user 2 BTC trade/);
  });
});
