import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { SessionsTable } from '../../db/tables/auth.js';
import type { UserRow } from './users.repo.js';

export type SessionRow = Selectable<SessionsTable>;

export async function insertSession(db: Db, row: SessionRow): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/** The session with this token hash and its user, in one query. */
export async function findSessionWithUser(
  db: Db,
  tokenHash: string,
): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select([
      'sessions.id as session_id',
      'sessions.token_hash as session_token_hash',
      'sessions.stage as session_stage',
      'sessions.csrf_token as session_csrf_token',
      'sessions.ip_address as session_ip_address',
      'sessions.user_agent as session_user_agent',
      'sessions.created_at as session_created_at',
      'sessions.last_seen_at as session_last_seen_at',
      'sessions.expires_at as session_expires_at',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const {
    session_id,
    session_token_hash,
    session_stage,
    session_csrf_token,
    session_ip_address,
    session_user_agent,
    session_created_at,
    session_last_seen_at,
    session_expires_at,
    ...user
  } = row;
  return {
    session: {
      id: session_id,
      token_hash: session_token_hash,
      user_id: user.id,
      stage: session_stage,
      csrf_token: session_csrf_token,
      ip_address: session_ip_address,
      user_agent: session_user_agent,
      created_at: session_created_at,
      last_seen_at: session_last_seen_at,
      expires_at: session_expires_at,
    },
    user,
  };
}

export async function findSession(db: Db, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function touchSession(db: Db, id: string, now: number, ip: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_seen_at: now, ip_address: ip })
    .where('id', '=', id)
    .execute();
}

/** Deletes one session; returns whether it existed (for a single winner under concurrency). */
export async function deleteSession(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('sessions').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Deletes the user's sessions, except `keepId` when given; returns how many. */
export async function deleteUserSessions(
  db: Db,
  userId: number,
  keepId: string | null,
): Promise<number> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepId !== null) query = query.where('id', '!=', keepId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function listActiveSessions(db: Db, userId: number): Promise<SessionRow[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('stage', '=', 'active')
    .orderBy('last_seen_at', 'desc')
    .execute();
}

export async function deleteExpiredSessions(db: Db, now: number): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<', now).execute();
}
