import type { FastifyReply, FastifyRequest } from 'fastify';
import { anonymousCsrfToken } from './csrf.js';
import { authStateOf, cookieSession } from './requestAuth.js';
import {
  clientInfo,
  createSession,
  SESSION_ABSOLUTE_MS,
  type SessionStage,
  setSessionCookie,
} from './sessions.js';
import { deleteSession } from './sessions.repo.js';
import { randomToken } from './tokens.js';

/**
 * Starts a session at a sign-in step. The session the request came with (an anonymous id, or
 * the pending session of the step before) is replaced, never upgraded: the id changes at every
 * step, so an id planted in a victim's browser before sign-in is worth nothing after it.
 */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  stage: SessionStage,
): Promise<void> {
  const { db, now } = request.server.accounts;
  const previous = await cookieSession(request);
  if (previous !== null) await deleteSession(db, previous.session.id);
  const { token, session } = await createSession(db, userId, stage, clientInfo(request), now());
  setSessionCookie(
    request,
    reply,
    token,
    stage === 'active' ? Math.floor(SESSION_ABSOLUTE_MS / 1000) : undefined,
  );
  const state = authStateOf(request);
  state.session = Promise.resolve(null);
  state.nextCsrfToken = session.csrf_token;
}

/** Ends the request's session (if any) and leaves the browser an anonymous id. */
export async function endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { db, secretKey } = request.server.accounts;
  const current = await cookieSession(request);
  if (current !== null) await deleteSession(db, current.session.id);
  const anonymousId = randomToken(32);
  setSessionCookie(request, reply, anonymousId, undefined);
  const state = authStateOf(request);
  state.session = Promise.resolve(null);
  state.nextCsrfToken = anonymousCsrfToken(secretKey, anonymousId);
}
