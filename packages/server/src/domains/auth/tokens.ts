import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random token for cookies, links and one-time secrets: URL-safe, `bytes` of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Six random decimal digits for codes a person types (device confirmation). */
export function randomDigits(count = 6): string {
  // NOTE: rejection sampling over bytes keeps every digit equally likely.
  let digits = '';
  while (digits.length < count) {
    for (const byte of randomBytes(count * 2)) {
      if (byte < 250 && digits.length < count) digits += String(byte % 10);
    }
  }
  return digits;
}

/**
 * What the database keeps of a bearer token: its SHA-256. A leaked table then holds no
 * usable session, link or code.
 */
export function hashToken(token: string): string {
  // NOTE: the one-shot `hash` (Node 20.12+) costs a half to a third of a `createHash` object;
  // a signed-in client's every request hashes its session cookie.
  return hash('sha256', token, 'hex');
}

/** Compares two strings in time that depends only on their lengths. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
