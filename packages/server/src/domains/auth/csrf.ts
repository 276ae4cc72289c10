import { createHmac } from 'node:crypto';
import { safeEqual } from './tokens.js';

/** Methods that change nothing: every other method needs the session's CSRF token. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

export const CSRF_HEADER = 'x-csrf-token';

/**
 * The CSRF token of a visitor who is not signed in. Such a visitor has no session row, so the
 * token is derived from the anonymous cookie with a server key: one token per cookie, stable
 * for concurrent requests, and replaced when sign-in creates a real session.
 */
export function anonymousCsrfToken(serverKey: string, anonymousId: string): string {
  return createHmac('sha256', serverKey).update(`csrf:${anonymousId}`).digest('base64url');
}

/** Whether the header holds the expected token (constant-time). */
export function csrfTokenMatches(expected: string, sent: string | undefined): boolean {
  return typeof sent === 'string' && sent.length > 0 && safeEqual(expected, sent);
}

/**
 * The second line of defence: a browser sends `Origin` on cross-site POSTs, and it must name
 * this host. A request without `Origin` (curl, server-to-server, old browsers on same-origin
 * POSTs) relies on the token alone.
 */
export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  allowedOrigins: readonly string[],
): boolean {
  if (origin === undefined) return true;
  if (origin === 'null') return false;
  if (allowedOrigins.includes(origin)) return true;
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}
