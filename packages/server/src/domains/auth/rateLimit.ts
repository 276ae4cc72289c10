/**
 * In-process rate limiters. They hold at most `keysMax` keys each (the oldest key is dropped
 * first), so a flood of distinct keys cannot grow memory without bound.
 *
 * NOTE: counters live in this process. Several API processes behind one balancer each count on
 * their own; a shared store (Redis) would replace the two Maps below.
 */

export interface FailureLimits {
  /** Failures allowed at full speed before each further attempt must wait. */
  failuresFree: number;
  /** Wait after the first failure past the free ones; doubles with each further failure. */
  delayBaseMs: number;
  delayMaxMs: number;
  /** Failures within one hour after which the key is refused until the hour has passed. */
  failuresPerHourMax: number;
}

export interface WindowLimit {
  requestsMax: number;
  windowMs: number;
}

const HOUR_MS = 3_600_000;
const KEYS_MAX_DEFAULT = 100_000;

interface FailureState {
  /** Failures since the last success, for the slow-down. */
  consecutive: number;
  lastFailureAt: number;
  /** Times of failures in the last hour, oldest first, for the hourly cap. */
  recent: number[];
}

/** Slows down and then caps repeated failures (passwords, 2FA codes) per key. */
export class FailureLimiter {
  private readonly states = new Map<string, FailureState>();

  constructor(
    private readonly limits: FailureLimits,
    private readonly now: () => number = Date.now,
    private readonly keysMax = KEYS_MAX_DEFAULT,
  ) {}

  /** Milliseconds the key must wait before its next attempt; 0 when it may try now. */
  waitMs(key: string): number {
    const state = this.states.get(key);
    if (state === undefined) return 0;
    const now = this.now();
    const recent = pruneOlderThan(state.recent, now - HOUR_MS);
    state.recent = recent;
    if (recent.length >= this.limits.failuresPerHourMax) {
      return recent[recent.length - this.limits.failuresPerHourMax]! + HOUR_MS - now;
    }
    const over = state.consecutive - this.limits.failuresFree;
    if (over <= 0) return 0;
    const delay = Math.min(this.limits.delayBaseMs * 2 ** (over - 1), this.limits.delayMaxMs);
    return Math.max(0, state.lastFailureAt + delay - now);
  }

  recordFailure(key: string): void {
    const now = this.now();
    const state = this.states.get(key) ?? { consecutive: 0, lastFailureAt: 0, recent: [] };
    state.consecutive += 1;
    state.lastFailureAt = now;
    state.recent = pruneOlderThan(state.recent, now - HOUR_MS);
    state.recent.push(now);
    this.states.delete(key);
    this.states.set(key, state);
    evictOldest(this.states, this.keysMax);
  }

  /** A success ends the slow-down; the failures of the hour still count toward the cap. */
  recordSuccess(key: string): void {
    const state = this.states.get(key);
    if (state !== undefined) state.consecutive = 0;
  }
}

interface WindowState {
  startedAt: number;
  count: number;
}

/** Counts requests per key in fixed windows (registrations, resets, all requests of an IP). */
export class WindowLimiter {
  private readonly windows = new Map<string, WindowState>();

  constructor(
    private readonly limit: WindowLimit,
    private readonly now: () => number = Date.now,
    private readonly keysMax = KEYS_MAX_DEFAULT,
  ) {}

  /** Counts one request; returns 0 when allowed, otherwise the milliseconds until it would be. */
  take(key: string): number {
    const now = this.now();
    let state = this.windows.get(key);
    if (state === undefined || now - state.startedAt >= this.limit.windowMs) {
      state = { startedAt: now, count: 0 };
      this.windows.delete(key);
      this.windows.set(key, state);
      evictOldest(this.windows, this.keysMax);
    }
    if (state.count >= this.limit.requestsMax) return state.startedAt + this.limit.windowMs - now;
    state.count += 1;
    return 0;
  }
}

function pruneOlderThan(times: number[], cutoff: number): number[] {
  let first = 0;
  while (first < times.length && times[first]! <= cutoff) first += 1;
  return first === 0 ? times : times.slice(first);
}

function evictOldest<V>(map: Map<string, V>, keysMax: number): void {
  while (map.size > keysMax) {
    const oldest = map.keys().next();
    if (oldest.done) return;
    map.delete(oldest.value);
  }
}

/** Whole seconds for a `Retry-After` header, never 0 while a wait remains. */
export function retryAfterSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}
