import { amountToDb } from '../../db/amount.js';
import type { Db } from '../../db/database.js';
import type { DepositAddressesTable, DepositsTable } from '../../db/tables/chains.js';
import type { IncomingTransfer } from '../chains/chainAdapter.js';
import { type HistoryFilter, userHistoryPage } from '../wallet/historyPage.js';

export type DepositAddressRow = Omit<DepositAddressesTable, 'id'> & { id: number };
export type DepositRow = Omit<DepositsTable, 'id'> & { id: number };

/** A user's addresses on a network, newest first. */
export function userAddresses(db: Db, userId: number, network: string) {
  return db
    .selectFrom('deposit_addresses')
    .selectAll()
    .where('user_id', '=', userId)
    .where('network', '=', network)
    .orderBy('id', 'desc')
    .execute() as Promise<DepositAddressRow[]>;
}

/** Records an address; a concurrent request that recorded the same one wins, silently. */
export async function insertAddress(
  db: Db,
  row: { userId: number; network: string; address: string; memo: string | null; now: number },
): Promise<void> {
  await db
    .insertInto('deposit_addresses')
    .values({
      user_id: row.userId,
      network: row.network,
      address: row.address,
      memo: row.memo ?? '',
      created_at: row.now,
    })
    .onConflict((oc) => oc.columns(['network', 'address', 'memo']).doNothing())
    .execute();
}

/** Whether any deposit reached an address. */
export async function addressUsed(db: Db, network: string, address: string, memo: string) {
  const row = await db
    .selectFrom('deposits')
    .select('id')
    .where('network', '=', network)
    .where('address', '=', address)
    .where('memo', '=', memo)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The owners of the addresses among `targets` on a network, by `address|memo`. */
export async function addressOwners(
  db: Db,
  network: string,
  addresses: readonly string[],
): Promise<Map<string, number>> {
  if (addresses.length === 0) return new Map();
  const rows = await db
    .selectFrom('deposit_addresses')
    .select(['user_id', 'address', 'memo'])
    .where('network', '=', network)
    .where('address', 'in', [...new Set(addresses)])
    .execute();
  return new Map(rows.map((row) => [`${row.address}|${row.memo}`, Number(row.user_id)]));
}

/**
 * Records what the watcher saw in new blocks, and how far it read, in one transaction: a
 * transfer is recorded once whatever happens, by (network, txHash, output).
 */
export async function recordSeenTransfers(
  db: Db,
  network: string,
  seen: readonly { transfer: IncomingTransfer; userId: number; required: number }[],
  height: number,
  now: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const { transfer, userId, required } of seen) {
      await trx
        .insertInto('deposits')
        .values({
          user_id: userId,
          asset: transfer.asset,
          network,
          tx_hash: transfer.txHash,
          output: transfer.output,
          address: transfer.address,
          memo: transfer.memo ?? '',
          amount: amountToDb(transfer.amount),
          block_height: transfer.blockHeight,
          confirmations_required: required,
          status: 2,
          created_at: now,
          credited_at: null,
        })
        .onConflict((oc) => oc.columns(['network', 'tx_hash', 'output']).doNothing())
        .execute();
    }
    await trx
      .insertInto('chain_scan_cursors')
      .values({ network, height })
      .onConflict((oc) => oc.column('network').doUpdateSet({ height }))
      .execute();
  });
}

export async function scanCursor(db: Db, network: string): Promise<number> {
  const row = await db
    .selectFrom('chain_scan_cursors')
    .select('height')
    .where('network', '=', network)
    .executeTakeFirst();
  return row ? Number(row.height) : 0;
}

/** Pending deposits of a network whose block is at or below `maturedHeight`. */
export function maturedDeposits(db: Db, network: string, tip: number) {
  return db
    .selectFrom('deposits')
    .selectAll()
    .where('status', '=', 2)
    .where('network', '=', network)
    .where('block_height', '<=', tip)
    .orderBy('id')
    .execute() as Promise<DepositRow[]>;
}

export async function markCredited(db: Db, id: number, now: number): Promise<void> {
  await db
    .updateTable('deposits')
    .set({ status: 3, credited_at: now })
    .where('id', '=', id)
    .where('status', '=', 2)
    .execute();
}

/** A user's deposits, newest first, with the count of all that match the filters. */
export function userDeposits(db: Db, userId: number, filter: HistoryFilter) {
  // An empty currency filter means every currency here.
  const ticker = filter.ticker || undefined;
  return userHistoryPage<DepositRow>(db, 'deposits', userId, { ...filter, ticker });
}
