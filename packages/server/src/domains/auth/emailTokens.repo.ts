import type { Db } from '../../db/database.js';
import { hashToken, randomToken } from './tokens.js';

export type EmailTokenPurpose = 'verify_email' | 'password_reset';

/** Stores a new single-use token for a link we e-mail; returns the token for the link. */
export async function issueEmailToken(
  db: Db,
  userId: number,
  purpose: EmailTokenPurpose,
  ttlMs: number,
  now: number,
): Promise<string> {
  const token = randomToken(32);
  await db
    .insertInto('email_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      purpose,
      expires_at: now + ttlMs,
      used_at: null,
      created_at: now,
    })
    .execute();
  return token;
}

/** The user a live, unused token belongs to, without using it up. */
export async function peekEmailToken(
  db: Db,
  token: string,
  purpose: EmailTokenPurpose,
  now: number,
): Promise<number | null> {
  const row = await db
    .selectFrom('email_tokens')
    .select('user_id')
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/**
 * Uses a token up and returns its user; null when unknown, expired or already used. The
 * conditional UPDATE lets exactly one of two concurrent requests with the same link win.
 */
export async function consumeEmailToken(
  db: Db,
  token: string,
  purpose: EmailTokenPurpose,
  now: number,
): Promise<number | null> {
  const userId = await peekEmailToken(db, token, purpose, now);
  if (userId === null) return null;
  const result = await db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n ? userId : null;
}

/** Voids a user's unused tokens of one purpose (a new password voids older reset links). */
export async function voidEmailTokens(
  db: Db,
  userId: number,
  purpose: EmailTokenPurpose,
  now: number,
): Promise<void> {
  await db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}
