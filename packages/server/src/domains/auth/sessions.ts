import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.js';
import {
  deleteSession,
  findSessionWithUser,
  insertSession,
  rememberedSessionWithUser,
  type SessionRow,
  touchSession,
} from './sessions.repo.js';
import { hashToken, randomToken } from './tokens.js';
import type { UserRow } from './users.repo.js';

/** The cookie holding the session credential (or an anonymous visitor's id). */
export const SESSION_COOKIE = 'lattice_sid';

export type SessionStage = 'active' | '2fa' | 'device';

export const SESSION_ABSOLUTE_MS = 7 * 24 * 3_600_000;
/** A half-finished sign-in (waiting for the device code or the 2FA code) ends after this. */
export const SESSION_PENDING_MS = 15 * 60_000;
/** `last_seen_at` is written at most this often, so reads do not turn into writes. */
const TOUCH_EVERY_MS = 60_000;

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export function clientInfo(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'] ?? '';
  return { ip: request.ip, userAgent: agent.slice(0, 512) };
}

/** Creates a session row and returns the cookie value that proves it. */
export async function createSession(
  db: Db,
  userId: number,
  stage: SessionStage,
  client: ClientInfo,
  now: number,
): Promise<{ token: string; session: SessionRow }> {
  const token = randomToken(32);
  const session: SessionRow = {
    id: randomToken(12),
    token_hash: hashToken(token),
    user_id: userId,
    stage,
    csrf_token: randomToken(32),
    ip_address: client.ip,
    user_agent: client.userAgent,
    created_at: now,
    last_seen_at: now,
    expires_at: now + (stage === 'active' ? SESSION_ABSOLUTE_MS : SESSION_PENDING_MS),
  };
  await insertSession(db, session);
  return { token, session };
}

/**
 * The live session a cookie value's hash (`hashToken`) proves, with its user; null for an
 * unknown, expired or idle session (which is deleted). Idle time is the user's own logout setting.
 */
export async function resolveSessionOfHash(
  db: Db,
  tokenHash: string,
  client: ClientInfo,
  now: number,
): Promise<{ session: SessionRow; user: UserRow } | null> {
  const found = await findSessionWithUser(db, tokenHash);
  if (found === undefined) return null;
  const { session } = found;
  const standing = standingOf(found, now);
  if (standing === 'ended') {
    await deleteSession(db, session.id);
    return null;
  }
  if (standing === 'due for a touch') {
    await touchSession(db, session.id, now, client.ip);
    return { session: { ...session, last_seen_at: now }, user: found.user };
  }
  return found;
}

/**
 * What `resolveSessionOfHash` would answer, when the session is remembered and nothing is to be
 * written for it (neither ended nor due for a touch); undefined when only it can tell.
 */
// NOTE: nearly every request of a signed-in client is answered here, without a promise: the
// request's hooks then go on at once instead of waiting a turn of the microtask queue each.
export function rememberedLiveSession(
  db: Db,
  tokenHash: string,
  now: number,
): { session: SessionRow; user: UserRow } | undefined {
  const found = rememberedSessionWithUser(db, tokenHash);
  return found !== undefined && standingOf(found, now) === 'live' ? found : undefined;
}

/** Whether a found session has ended (expired, or idle past the user's setting) or is due a touch. */
function standingOf(
  { session, user }: { session: SessionRow; user: UserRow },
  now: number,
): 'ended' | 'due for a touch' | 'live' {
  const idleMs = user.logout_minutes * 60_000;
  const idle = session.stage === 'active' && now - session.last_seen_at > idleMs;
  if (now >= session.expires_at || idle) return 'ended';
  if (now - session.last_seen_at >= TOUCH_EVERY_MS) return 'due for a touch';
  return 'live';
}

/** Sets the session cookie: `HttpOnly`, `SameSite=Lax`, `Secure` when the request came over TLS. */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  value: string,
  maxAgeSeconds: number | undefined,
): void {
  reply.setCookie(SESSION_COOKIE, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  });
}
