import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { UsersTable } from '../../db/tables/users.js';
import { sessionCache } from './sessionCache.js';

/** A user row with every column, as the auth domain reads it. */
export type UserRow = Selectable<UsersTable>;

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByGoogleSubject(db: Db, subject: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('google_subject', '=', subject)
    .executeTakeFirst();
}

export interface NewUser {
  email: string;
  passwordHash: string;
  country: string;
  language: string;
  emailVerifiedAt: number | null;
  googleSubject: string | null;
  now: number;
}

/** Inserts a user; returns its id, or null when the e-mail is already registered. */
export async function insertUser(db: Db, user: NewUser): Promise<number | null> {
  const row = await db
    .insertInto('users')
    .values({
      email: user.email,
      password_hash: user.passwordHash,
      country: user.country,
      language: user.language,
      email_verified_at: user.emailVerifiedAt,
      google_subject: user.googleSubject,
      nickname: null,
      is_demo: 0,
      created_at: user.now,
      updated_at: user.now,
    })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Columns of `users` that settings and security flows change. */
export type UserUpdate = Partial<
  Pick<
    UserRow,
    | 'password_hash'
    | 'email_verified_at'
    | 'nickname'
    | 'nickname_changed_at'
    | 'language'
    | 'logout_minutes'
    | 'custom_fee_enabled'
    | 'totp_secret'
    | 'totp_pending_secret'
    | 'totp_last_step'
    | 'anti_phishing_code'
    | 'anti_phishing_enabled'
    | 'withdrawals_blocked_until'
    | 'kyc_status'
    | 'google_subject'
  >
>;

export async function updateUser(db: Db, id: number, changes: UserUpdate, now: number) {
  // The cached sessions hold this user's row: forgotten before and after the write.
  sessionCache.forgetUser(id);
  await db
    .updateTable('users')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .execute();
  sessionCache.forgetUser(id);
}

/**
 * Accepts a TOTP step once: stores it only if it is later than the last accepted step. One
 * conditional UPDATE, so of two concurrent requests with the same code exactly one wins.
 */
export async function claimTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  sessionCache.forgetUser(userId);
  const result = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  sessionCache.forgetUser(userId);
  return result.numUpdatedRows > 0n;
}
