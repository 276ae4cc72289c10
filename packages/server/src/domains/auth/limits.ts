import {
  FailureLimiter,
  type FailureLimits,
  type WindowLimit,
  WindowLimiter,
} from './rateLimit.js';

/**
 * Every rate limit of the account flows. Defaults stop guessing without stopping ordinary use
 * (API.md: at least 20 registrations per hour per IP; the spec's flows many times a minute).
 * `scale` (config `RATE_LIMIT_SCALE`) multiplies the counts, never the delays.
 */
export interface AuthLimiters {
  /** Password and 2FA failures per account (by e-mail or user id). */
  failuresPerAccount: FailureLimiter;
  /** Password and 2FA failures per client IP, across accounts. */
  failuresPerIp: FailureLimiter;
  registrationsPerIp: WindowLimiter;
  passwordResetsPerIp: WindowLimiter;
  /** Every `/api` request of one IP. */
  requestsPerIp: WindowLimiter;
  /** Mails a user can make us send on demand (device codes, confirmation links). */
  mailsPerAccount: WindowLimiter;
}

const HOUR_MS = 3_600_000;

export const defaultAccountFailures: FailureLimits = {
  failuresFree: 5,
  delayBaseMs: 1_000,
  // NOTE: below 36 s, so that the hourly cap (not only the slow-down) is what stops a patient
  // guesser at 100 tries per hour.
  delayMaxMs: 20_000,
  failuresPerHourMax: 100,
};

export const defaultIpFailures: FailureLimits = {
  failuresFree: 10,
  delayBaseMs: 1_000,
  delayMaxMs: 10_000,
  failuresPerHourMax: 300,
};

export const defaultWindows = {
  registrationsPerIp: { requestsMax: 50, windowMs: HOUR_MS },
  passwordResetsPerIp: { requestsMax: 30, windowMs: HOUR_MS },
  requestsPerIp: { requestsMax: 6_000, windowMs: 60_000 },
  mailsPerAccount: { requestsMax: 10, windowMs: HOUR_MS },
} satisfies Record<string, WindowLimit>;

function scaled(count: number, scale: number): number {
  return Math.max(1, Math.round(count * scale));
}

function scaledFailures(limits: FailureLimits, scale: number): FailureLimits {
  return {
    ...limits,
    failuresFree: scaled(limits.failuresFree, scale),
    failuresPerHourMax: scaled(limits.failuresPerHourMax, scale),
  };
}

function scaledWindow(limit: WindowLimit, scale: number): WindowLimit {
  return { ...limit, requestsMax: scaled(limit.requestsMax, scale) };
}

export function createAuthLimiters(scale: number, now: () => number): AuthLimiters {
  return {
    failuresPerAccount: new FailureLimiter(scaledFailures(defaultAccountFailures, scale), now),
    failuresPerIp: new FailureLimiter(scaledFailures(defaultIpFailures, scale), now),
    registrationsPerIp: new WindowLimiter(
      scaledWindow(defaultWindows.registrationsPerIp, scale),
      now,
    ),
    passwordResetsPerIp: new WindowLimiter(
      scaledWindow(defaultWindows.passwordResetsPerIp, scale),
      now,
    ),
    requestsPerIp: new WindowLimiter(scaledWindow(defaultWindows.requestsPerIp, scale), now),
    mailsPerAccount: new WindowLimiter(scaledWindow(defaultWindows.mailsPerAccount, scale), now),
  };
}
