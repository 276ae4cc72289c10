import { createHmac } from 'node:crypto';
import { safeEqual } from '../auth/tokens.js';

export const API_KEY_HEADER = 'x-api-key';
export const API_TIMESTAMP_HEADER = 'x-api-timestamp';
export const API_SIGNATURE_HEADER = 'x-api-signature';

/** A signed request is refused when its timestamp is further than this from the server's clock. */
export const SIGNATURE_WINDOW_MS = 5_000;

export interface SignedParts {
  /** Milliseconds since the epoch, as sent in `X-API-TIMESTAMP`. */
  timestamp: string;
  method: string;
  /** The request target as sent: path plus `?query` when there is one (`/api/v2/order?x=1`). */
  pathAndQuery: string;
  /** The body bytes exactly as sent; empty for a request without a body. */
  body: string;
}

/** hex HMAC-SHA256(secret, timestamp + METHOD + path + query + body), as API.md fixes it. */
export function signRequest(secret: string, parts: SignedParts): string {
  return createHmac('sha256', secret)
    .update(parts.timestamp + parts.method.toUpperCase() + parts.pathAndQuery + parts.body)
    .digest('hex');
}

export type SignatureCheck = 'ok' | 'malformed' | 'expired' | 'mismatch';

/** Checks form, freshness and the HMAC (constant-time); replay is checked by the caller. */
export function checkSignature(
  secret: string,
  parts: SignedParts,
  signature: string,
  nowMs: number,
): SignatureCheck {
  if (!/^\d{1,16}$/.test(parts.timestamp) || !/^[0-9a-f]{64}$/.test(signature)) {
    return 'malformed';
  }
  if (Math.abs(nowMs - Number(parts.timestamp)) > SIGNATURE_WINDOW_MS) return 'expired';
  return safeEqual(signRequest(secret, parts), signature) ? 'ok' : 'mismatch';
}
