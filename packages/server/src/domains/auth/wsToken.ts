import { createHmac } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { findSession } from './sessions.repo.js';
import { safeEqual } from './tokens.js';
import { findUserById, type UserRow } from './users.repo.js';

/**
 * The socket's `server.auth` token: the session's public id with a MAC, so the socket can name
 * the session without the cookie, and the token dies with the session.
 */
export function wsTokenFor(key: string, sessionId: string): string {
  return `${sessionId}.${createHmac('sha256', key).update(`ws:${sessionId}`).digest('base64url')}`;
}

/** The user a socket token belongs to while its session is signed in; null otherwise. */
export async function userForWsToken(
  db: Db,
  key: string,
  token: string,
  now: number,
): Promise<UserRow | null> {
  const sessionId = token.split('.')[0] ?? '';
  if (sessionId === '' || !safeEqual(wsTokenFor(key, sessionId), token)) return null;
  const session = await findSession(db, sessionId);
  if (session === undefined || session.stage !== 'active' || session.expires_at <= now) return null;
  return (await findUserById(db, session.user_id)) ?? null;
}
