import { fail } from './fail.js';
import type { AuthLimiters } from './limits.js';
import { retryAfterSeconds, type WindowLimiter } from './rateLimit.js';

/** Keys of one guessing attempt: the account attacked and the address attacking. */
export interface AttemptKeys {
  account: string;
  ip: string;
}

/** Answers 429 while either the account or the address must wait after failures. */
export function guardAttempt(limiters: AuthLimiters, keys: AttemptKeys): void {
  const waitMs = Math.max(
    limiters.failuresPerAccount.waitMs(keys.account),
    limiters.failuresPerIp.waitMs(keys.ip),
  );
  if (waitMs > 0) fail('rate_limited', { retryAfterSeconds: retryAfterSeconds(waitMs) });
}

export function recordAttemptFailure(limiters: AuthLimiters, keys: AttemptKeys): void {
  limiters.failuresPerAccount.recordFailure(keys.account);
  limiters.failuresPerIp.recordFailure(keys.ip);
}

export function recordAttemptSuccess(limiters: AuthLimiters, keys: AttemptKeys): void {
  limiters.failuresPerAccount.recordSuccess(keys.account);
  limiters.failuresPerIp.recordSuccess(keys.ip);
}

/** Counts one request against a window limit; answers 429 when it is used up. */
export function takeOrFail(limiter: WindowLimiter, key: string): void {
  const waitMs = limiter.take(key);
  if (waitMs > 0) fail('rate_limited', { retryAfterSeconds: retryAfterSeconds(waitMs) });
}
