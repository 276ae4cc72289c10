import type { Db } from '../../db/database.js';
import type { WhitelistAddressesTable } from '../../db/tables/whitelist.js';

export type WhitelistAddressRow = Omit<WhitelistAddressesTable, 'id'> & { id: number };

export async function insertWhitelistAddress(
  db: Db,
  row: Omit<WhitelistAddressesTable, 'id'>,
): Promise<number> {
  const inserted = await db
    .insertInto('whitelist_addresses')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export function userWhitelist(db: Db, userId: number) {
  return db
    .selectFrom('whitelist_addresses')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute() as Promise<WhitelistAddressRow[]>;
}

/** Deletes a saved address of `userId`; false when there is none with that id. */
export async function deleteWhitelistAddress(db: Db, userId: number, id: number) {
  const result = await db
    .deleteFrom('whitelist_addresses')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function isWhitelisted(
  db: Db,
  target: { userId: number; asset: string; address: string; memo: string },
): Promise<boolean> {
  const row = await db
    .selectFrom('whitelist_addresses')
    .select('id')
    .where('user_id', '=', target.userId)
    .where('asset', '=', target.asset)
    .where('address', '=', target.address)
    .where('memo', '=', target.memo)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function whitelistModeOn(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('whitelist_mode')
    .select('user_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function setWhitelistMode(db: Db, userId: number, on: boolean, now: number) {
  if (!on) {
    await db.deleteFrom('whitelist_mode').where('user_id', '=', userId).execute();
    return;
  }
  await db
    .insertInto('whitelist_mode')
    .values({ user_id: userId, enabled_at: now })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}
