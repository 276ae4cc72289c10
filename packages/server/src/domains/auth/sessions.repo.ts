import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { type PreparedRead, preparedRead } from '../../db/preparedRead.js';
import type { SessionsTable } from '../../db/tables/auth.js';
import { type SessionWithUser, sessionCache } from './sessionCache.js';

export type SessionRow = Selectable<SessionsTable>;

export async function insertSession(db: Db, row: SessionRow): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/** The session with this token hash and its user, in one query. */
export async function findSessionWithUser(
  db: Db,
  tokenHash: string,
): Promise<SessionWithUser | undefined> {
  const cached = rememberedSessionWithUser(db, tokenHash);
  if (cached !== undefined) return cached;
  const generation = sessionCache.generation;
  const row = await sessionWithUserRead(db)([tokenHash]);
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
  const found = {
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
  // Inside a transaction the row may not be committed yet: it is not remembered.
  if (!db.isTransaction) sessionCache.set(db, tokenHash, found, generation);
  return found;
}

/** The session with this token hash and its user when remembered (`sessionCache`), at once. */
export function rememberedSessionWithUser(db: Db, tokenHash: string): SessionWithUser | undefined {
  return sessionCache.get(db, tokenHash);
}

function sessionWithUserQuery(db: Db, tokenHash: string) {
  return db
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
    .where('sessions.token_hash', '=', tokenHash);
}

type SessionWithUserRow = Awaited<
  ReturnType<ReturnType<typeof sessionWithUserQuery>['executeTakeFirstOrThrow']>
>;

// Every authenticated request runs this read: it is compiled (and on SQLite prepared) once per
// database.
const sessionWithUserReads = new WeakMap<Db, PreparedRead<SessionWithUserRow>>();

function sessionWithUserRead(db: Db): PreparedRead<SessionWithUserRow> {
  let read = sessionWithUserReads.get(db);
  if (read === undefined) {
    read = preparedRead(db, sessionWithUserQuery(db, ''));
    sessionWithUserReads.set(db, read);
  }
  return read;
}

export async function findSession(db: Db, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function touchSession(db: Db, id: string, now: number, ip: string): Promise<void> {
  sessionCache.forgetSession(id);
  await db
    .updateTable('sessions')
    .set({ last_seen_at: now, ip_address: ip })
    .where('id', '=', id)
    .execute();
  sessionCache.forgetSession(id);
}

// NOTE: a write forgets the cached entries it affects both before (no request is answered from
// the old row meanwhile) and after (a read in flight during the write is not remembered).

/** Deletes one session; returns whether it existed (for a single winner under concurrency). */
export async function deleteSession(db: Db, id: string): Promise<boolean> {
  sessionCache.forgetSession(id);
  const result = await db.deleteFrom('sessions').where('id', '=', id).executeTakeFirst();
  sessionCache.forgetSession(id);
  return result.numDeletedRows > 0n;
}

/** Deletes the user's sessions, except `keepId` when given; returns how many. */
export async function deleteUserSessions(
  db: Db,
  userId: number,
  keepId: string | null,
): Promise<number> {
  sessionCache.forgetUser(userId);
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepId !== null) query = query.where('id', '!=', keepId);
  const result = await query.executeTakeFirst();
  sessionCache.forgetUser(userId);
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
  sessionCache.forgetEndingBefore(now);
  await db.deleteFrom('sessions').where('expires_at', '<', now).execute();
  sessionCache.forgetEndingBefore(now);
}
