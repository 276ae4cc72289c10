import type { ApiKeyScope } from '@lattice/contracts';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ApiKeysTable } from '../../db/tables/auth.js';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export function findApiKeyByKey(db: Db, apiKey: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('api_key', '=', apiKey).executeTakeFirst();
}

export function listApiKeys(db: Db, userId: number): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

export interface NewApiKey {
  userId: number;
  name: string;
  apiKey: string;
  secretSealed: string;
  scopes: readonly ApiKeyScope[];
  ipAllowList: readonly string[];
  now: number;
}

export async function insertApiKey(db: Db, key: NewApiKey): Promise<ApiKeyRow> {
  return db
    .insertInto('api_keys')
    .values({
      user_id: key.userId,
      name: key.name,
      api_key: key.apiKey,
      secret_sealed: key.secretSealed,
      scopes: key.scopes.join(','),
      ip_allow_list: JSON.stringify(key.ipAllowList),
      is_enabled: 1,
      created_at: key.now,
      last_used_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Sets one key of the user on or off; false when the user has no such key. */
export async function setApiKeyEnabled(
  db: Db,
  userId: number,
  id: number,
  enabled: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ is_enabled: enabled ? 1 : 0 })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function disableUserApiKeys(db: Db, userId: number): Promise<void> {
  await db.updateTable('api_keys').set({ is_enabled: 0 }).where('user_id', '=', userId).execute();
}

export async function deleteApiKey(db: Db, userId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('api_keys')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function touchApiKey(db: Db, id: number, now: number): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
}

/**
 * Records a signature as used; false when it already was. The primary key makes the check
 * and the record one atomic step, across requests and processes.
 */
export async function recordSignature(
  db: Db,
  signature: string,
  expiresAt: number,
): Promise<boolean> {
  const result = await db
    .insertInto('api_signatures')
    .values({ signature, expires_at: expiresAt })
    .onConflict((conflict) => conflict.column('signature').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function deleteExpiredSignatures(db: Db, now: number): Promise<void> {
  await db.deleteFrom('api_signatures').where('expires_at', '<', now).execute();
}

export function scopesOf(row: ApiKeyRow): ApiKeyScope[] {
  return row.scopes
    .split(',')
    .filter(
      (scope): scope is ApiKeyScope =>
        scope === 'read' || scope === 'trade' || scope === 'withdraw',
    );
}

export function ipAllowListOf(row: ApiKeyRow): string[] {
  const parsed: unknown = JSON.parse(row.ip_allow_list);
  return Array.isArray(parsed) ? parsed.filter((item) => typeof item === 'string') : [];
}
