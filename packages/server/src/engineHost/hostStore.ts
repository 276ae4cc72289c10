import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database, Db, SqlDialect } from '../db/database.js';
import { sqliteConnectionOf } from '../db/open.js';
import type { EngineJournalTable, EngineSnapshotsTable } from '../db/tables/engineHost.js';
import type { ProjectionRows } from './projections.js';
import { type SnapshotRow, storedSnapshotBytes } from './snapshots.js';
import { SqliteCommitWorker } from './sqliteCommitWorker.js';
import { SqliteSnapshotWriter } from './sqliteSnapshotWriter.js';

/** What one batch makes durable, all in one transaction. */
export interface BatchRecord {
  readonly journal: readonly EngineJournalTable[];
  readonly projections: ProjectionRows;
  readonly idempotency: readonly {
    userId: number;
    key: string;
    fingerprint: string;
    reply: string;
  }[];
  readonly time: number;
}

// NOTE: SQLite allows 32,766 bound parameters per statement and PostgreSQL 65,535; multi-row
// inserts are cut so that rows × columns stays below this.
const parametersPerStatementMax = 30_000;

/** The only SQL of the engine host: the journal, snapshots, idempotency and projections. */
export class HostStore {
  private readonly sqliteWorker: SqliteCommitWorker | null;
  private readonly sqliteFile: string | null;
  /** Started with the first snapshot (most stores never write one). */
  private snapshotWriter: SqliteSnapshotWriter | null = null;

  constructor(
    readonly db: Db,
    readonly dialect: SqlDialect,
  ) {
    const sqlite = sqliteConnectionOf(db);
    this.sqliteFile = sqlite?.name ?? null;
    this.sqliteWorker = sqlite ? new SqliteCommitWorker(sqlite.name) : null;
  }

  /** Writes a batch atomically: either every row is durable, or none is. */
  async commitBatch(batch: BatchRecord): Promise<void> {
    if (this.sqliteWorker) return this.sqliteWorker.commit(batch);
    await this.db.transaction().execute(async (trx) => {
      await insertChunked(trx, 'engine_journal', batch.journal);
      await this.writeProjections(trx, batch.projections);
      const keys = batch.idempotency.map((record) => ({
        user_id: record.userId,
        key: record.key,
        fingerprint: record.fingerprint,
        reply: record.reply,
        created_at: batch.time,
      }));
      for (const rows of chunks(keys)) {
        await trx
          .insertInto('idempotency_keys')
          .values(rows)
          .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
          .execute();
      }
    });
  }

  private async writeProjections(trx: Transaction<Database>, rows: ProjectionRows): Promise<void> {
    for (const chunk of chunks(rows.orders)) {
      await trx
        .insertInto('orders')
        .values(chunk)
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            left: eb.ref('excluded.left'),
            deal_stock: eb.ref('excluded.deal_stock'),
            deal_money: eb.ref('excluded.deal_money'),
            deal_fee: eb.ref('excluded.deal_fee'),
            deal_fee_ltt: eb.ref('excluded.deal_fee_ltt'),
            triggered: eb.ref('excluded.triggered'),
            oco_id: eb.ref('excluded.oco_id'),
            mtime: eb.ref('excluded.mtime'),
            ftime: eb.ref('excluded.ftime'),
            finish_reason: eb.ref('excluded.finish_reason'),
          })),
        )
        .execute();
    }
    await insertChunked(trx, 'trades', rows.trades);
    for (const chunk of chunks(rows.balances)) {
      await trx
        .insertInto('balances')
        .values(chunk)
        .onConflict((oc) =>
          oc.columns(['user_id', 'asset', 'account']).doUpdateSet((eb) => ({
            available: eb.ref('excluded.available'),
            frozen: eb.ref('excluded.frozen'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }
    for (const chunk of chunks(rows.systemBalances)) {
      await trx
        .insertInto('system_balances')
        .values(chunk)
        .onConflict((oc) =>
          oc.columns(['owner', 'asset', 'account']).doUpdateSet((eb) => ({
            available: eb.ref('excluded.available'),
            frozen: eb.ref('excluded.frozen'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }
    await insertChunked(trx, 'balance_history', rows.history);
  }

  /** Stops the SQLite workers, if any. */
  async close(): Promise<void> {
    await this.sqliteWorker?.close();
    await this.snapshotWriter?.close();
  }

  /** The newest journal entry, or undefined for an empty journal. */
  async lastJournalEntry(): Promise<Pick<EngineJournalTable, 'seq' | 'time'> | undefined> {
    return this.db
      .selectFrom('engine_journal')
      .select(['seq', 'time'])
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Journal entries after `afterSeq`, in order, at most `limit`. */
  async journalAfter(afterSeq: number, limit: number): Promise<EngineJournalTable[]> {
    return this.db
      .selectFrom('engine_journal')
      .selectAll()
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  /** Snapshot headers, newest first (without their data). */
  async snapshotHeaders(): Promise<Omit<EngineSnapshotsTable, 'data' | 'data_gzip'>[]> {
    return this.db
      .selectFrom('engine_snapshots')
      .select(['journal_seq', 'event_seq', 'state_hash', 'created_at'])
      .orderBy('journal_seq', 'desc')
      .execute();
  }

  /**
   * A snapshot's stored text in UTF-8 (see `storedSnapshotText.ts`), decompressed when it was
   * stored compressed.
   */
  async snapshotData(journalSeq: number): Promise<Uint8Array | undefined> {
    const row = await this.db
      .selectFrom('engine_snapshots')
      .select(['data', 'data_gzip'])
      .where('journal_seq', '=', journalSeq)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    return row.data_gzip === null
      ? Buffer.from(row.data, 'utf8')
      : storedSnapshotBytes(row.data_gzip);
  }

  /**
   * Stores a snapshot and drops all but the newest `keep`. `beforeCommit` runs inside the
   * transaction (a test hook that widens the window in which a crash interrupts the write).
   */
  async writeSnapshot(
    row: SnapshotRow,
    keep: number,
    beforeCommit?: () => Promise<void>,
  ): Promise<void> {
    if (this.sqliteFile !== null) {
      this.snapshotWriter ??= new SqliteSnapshotWriter(this.sqliteFile);
      return this.snapshotWriter.write(row, keep, beforeCommit);
    }
    const { gzip } = row;
    const values: EngineSnapshotsTable = {
      journal_seq: row.journal_seq,
      event_seq: row.event_seq,
      state_hash: row.state_hash,
      data: '',
      data_gzip: Buffer.from(gzip.buffer, gzip.byteOffset, gzip.byteLength),
      created_at: row.created_at,
    };
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('engine_snapshots').values(values).execute();
      const kept = await trx
        .selectFrom('engine_snapshots')
        .select('journal_seq')
        .orderBy('journal_seq', 'desc')
        .limit(keep)
        .execute();
      const oldest = kept[kept.length - 1]?.journal_seq ?? row.journal_seq;
      await trx.deleteFrom('engine_snapshots').where('journal_seq', '<', oldest).execute();
      await beforeCommit?.();
    });
  }

  async idempotencyRecord(
    userId: number,
    key: string,
  ): Promise<{ fingerprint: string; reply: string } | undefined> {
    return this.db
      .selectFrom('idempotency_keys')
      .select(['fingerprint', 'reply'])
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .executeTakeFirst();
  }

  /** Forgets keys older than `before` (a client retries within minutes, not days). */
  async deleteIdempotencyBefore(before: number): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('created_at', '<', before).execute();
  }
}

function chunks<T extends object>(rows: readonly T[]): T[][] {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0] as object).length;
  const size = Math.max(1, Math.floor(parametersPerStatementMax / columns));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

async function insertChunked<T extends 'engine_journal' | 'trades' | 'balance_history'>(
  trx: Kysely<Database>,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): Promise<void> {
  // NOTE: the cast is Kysely's: a generic table name cannot narrow its `values` overloads.
  for (const chunk of chunks(rows))
    await trx
      .insertInto(table)
      .values(chunk as never)
      .execute();
}
