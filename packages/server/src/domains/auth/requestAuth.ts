import type { ApiKeyScope } from '@lattice/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountsDeps } from './accountsDeps.js';
import { anonymousCsrfToken } from './csrf.js';
import { fail } from './fail.js';
import {
  clientInfo,
  rememberedLiveSession,
  resolveSessionOfHash,
  SESSION_COOKIE,
} from './sessions.js';
import type { SessionRow } from './sessions.repo.js';
import { hashToken } from './tokens.js';
import type { UserRow } from './users.repo.js';

/** Who is calling: a user signed in by session cookie or by a signed API-key request. */
export interface AuthContext {
  user: UserRow;
  /** Null when the request was signed with an API key. */
  session: SessionRow | null;
  apiKey: { id: number; scopes: readonly ApiKeyScope[] } | null;
}

/** A cookie's session and its user. */
type FoundSession = { session: SessionRow; user: UserRow };

/** What one request learned about its caller, filled lazily. */
export interface RequestAuthState {
  /**
   * The cookie's session, looked up at most once per request: the answer itself once known (at
   * once for a remembered session), its promise while the database is asked.
   */
  session?: FoundSession | null | Promise<FoundSession | null>;
  /** Set by the API-key hook when the request carries a valid signature. */
  apiKeyAuth?: AuthContext;
  /** The CSRF token to send back; sign-in and sign-out replace it. */
  nextCsrfToken?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    accounts: AccountsDeps;
  }
  interface FastifyRequest {
    /** The signed-in caller, set by `requireUser` / `optionalUser`; null elsewhere. */
    auth: AuthContext | null;
    authState: RequestAuthState | null;
  }
  interface FastifyContextConfig {
    /**
     * `false` on a route that proves its caller another way (a provider's signed webhook):
     * it is then exempt from the CSRF check. Everything else that is not GET needs the token.
     */
    csrf?: false;
    /** The scope an API key needs to call this route; a route without it refuses API keys. */
    apiKeyScope?: ApiKeyScope;
  }
}

export function authStateOf(request: FastifyRequest): RequestAuthState {
  request.authState ??= {};
  return request.authState;
}

/** The session the request's cookie proves (memoised per request), or null. */
export function cookieSession(request: FastifyRequest): Promise<FoundSession | null> {
  const lookup = cookieSessionLookup(request);
  return lookup instanceof Promise ? lookup : Promise.resolve(lookup);
}

/** The cookie's session as far as known: the answer, or its promise while it is read. */
function cookieSessionLookup(
  request: FastifyRequest,
): FoundSession | null | Promise<FoundSession | null> {
  const state = authStateOf(request);
  state.session ??= lookUpCookieSession(request, state);
  return state.session;
}

function lookUpCookieSession(
  request: FastifyRequest,
  state: RequestAuthState,
): FoundSession | null | Promise<FoundSession | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (token === undefined || token.length > 64) return null;
  const { db, now } = request.server.accounts;
  const time = now();
  const tokenHash = hashToken(token);
  const remembered = rememberedLiveSession(db, tokenHash, time);
  if (remembered !== undefined) return remembered;
  const read = resolveSessionOfHash(db, tokenHash, clientInfo(request), time);
  // Once read, the request's later hooks take the answer without waiting for it again.
  read.then(
    (found) => {
      if (state.session === read) state.session = found;
    },
    () => {},
  );
  return read;
}

/** The CSRF token this request's cookie entitles it to; null without any cookie. */
export async function currentCsrfToken(request: FastifyRequest): Promise<string | null> {
  const known = knownCsrfToken(request);
  if (known !== undefined) return known;
  const found = await cookieSession(request);
  return csrfTokenOf(request, found);
}

/**
 * Calls `use` with the request's CSRF token (`currentCsrfToken`): at once when it is known
 * without waiting (a remembered session, or no cookie), else once the session is read; a failed
 * read goes to `failed`. For the callback-style hooks every request passes.
 */
export function withCsrfToken(
  request: FastifyRequest,
  use: (token: string | null) => void,
  failed: (error: Error) => void,
): void {
  const known = knownCsrfToken(request);
  if (known !== undefined) use(known);
  else cookieSession(request).then((found) => use(csrfTokenOf(request, found)), failed);
}

/** `currentCsrfToken` when known without waiting; undefined while the session is read. */
function knownCsrfToken(request: FastifyRequest): string | null | undefined {
  const state = authStateOf(request);
  if (state.nextCsrfToken !== undefined) return state.nextCsrfToken;
  const found = cookieSessionLookup(request);
  return found instanceof Promise ? undefined : csrfTokenOf(request, found);
}

function csrfTokenOf(request: FastifyRequest, found: FoundSession | null): string | null {
  if (found !== null) return found.session.csrf_token;
  const cookie = request.cookies[SESSION_COOKIE];
  if (cookie === undefined) return null;
  return anonymousCsrfToken(request.server.accounts.secretKey, cookie);
}

/**
 * The signed-in caller, or null: session cookie (fully signed in) or API-key signature;
 * undefined while the session is read.
 */
function knownCaller(request: FastifyRequest): AuthContext | null | undefined {
  const state = authStateOf(request);
  if (state.apiKeyAuth !== undefined) return state.apiKeyAuth;
  const found = cookieSessionLookup(request);
  return found instanceof Promise ? undefined : callerOfSession(found);
}

function callerOfSession(found: FoundSession | null): AuthContext | null {
  if (found === null || found.session.stage !== 'active') return null;
  return { user: found.user, session: found.session, apiKey: null };
}

function checkApiKeyScope(request: FastifyRequest, auth: AuthContext): void {
  if (auth.apiKey === null) return;
  const needed = request.routeOptions.config.apiKeyScope;
  if (needed === undefined) fail('api_key_not_accepted');
  if (!auth.apiKey.scopes.includes(needed)) fail('api_key_scope_missing');
}

/**
 * preHandler for routes that need a signed-in user: sets `request.auth`, or answers 401.
 * A request signed with an API key passes only when the route declares `apiKeyScope` and the
 * key holds that scope.
 */
// NOTE: this and `optionalUser` are callback-style hooks, not async ones: Fastify then spends
// no promise of its own on them, on nearly every request.
export function requireUser(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  settleCaller(request, true, done);
}

/** preHandler for public routes that show more to a signed-in user: sets `request.auth` or null. */
export function optionalUser(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  settleCaller(request, false, done);
}

/** Sets `request.auth` once the caller is known, or calls `done` with the refusal. */
function settleCaller(
  request: FastifyRequest,
  required: boolean,
  done: (error?: Error) => void,
): void {
  const known = knownCaller(request);
  if (known !== undefined) {
    done(refusalOf(request, known, required));
    return;
  }
  // Only the cookie's session is still being read (an API-key caller is known at once).
  cookieSession(request).then(
    (found) => done(refusalOf(request, callerOfSession(found), required)),
    done,
  );
}

/** Sets `request.auth` to the caller, or returns why the request is refused. */
function refusalOf(
  request: FastifyRequest,
  auth: AuthContext | null,
  required: boolean,
): Error | undefined {
  try {
    if (auth === null && required) fail('auth_required');
    if (auth !== null) checkApiKeyScope(request, auth);
    request.auth = auth;
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

/** The caller set by `requireUser`; for handlers behind it. */
export function signedInUser(request: FastifyRequest): AuthContext {
  if (request.auth === null) fail('auth_required');
  return request.auth;
}
