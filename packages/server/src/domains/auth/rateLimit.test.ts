import { describe, expect, it } from 'vitest';
import { FailureLimiter, retryAfterSeconds, WindowLimiter } from './rateLimit.js';

const limits = { failuresFree: 5, delayBaseMs: 1000, delayMaxMs: 60_000, failuresPerHourMax: 100 };

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('FailureLimiter', () => {
  it('lets five failures through at full speed, then makes each next attempt wait longer', () => {
    const time = clock();
    const limiter = new FailureLimiter(limits, time.now);
    for (let i = 0; i < 5; i += 1) {
      expect(limiter.waitMs('a')).toBe(0);
      limiter.recordFailure('a');
    }
    expect(limiter.waitMs('a')).toBe(0);
    limiter.recordFailure('a');
    expect(limiter.waitMs('a')).toBe(1000);
    time.advance(1000);
    limiter.recordFailure('a');
    expect(limiter.waitMs('a')).toBe(2000);
    expect(limiter.waitMs('b')).toBe(0);
  });

  it('caps the delay and resets the slow-down after a success', () => {
    const time = clock();
    const limiter = new FailureLimiter(limits, time.now);
    for (let i = 0; i < 20; i += 1) limiter.recordFailure('a');
    expect(limiter.waitMs('a')).toBe(60_000);
    limiter.recordSuccess('a');
    expect(limiter.waitMs('a')).toBe(0);
  });

  it('refuses after 100 failures in an hour until the oldest of them is an hour old', () => {
    const time = clock();
    const limiter = new FailureLimiter(limits, time.now);
    for (let i = 0; i < 100; i += 1) {
      limiter.recordFailure('a');
      limiter.recordSuccess('a');
      time.advance(10_000);
    }
    // 100 failures over 1000 s: the first leaves the hour 3600 s after it happened.
    expect(limiter.waitMs('a')).toBe(3_600_000 - 1_000_000);
    time.advance(3_600_000 - 1_000_000);
    expect(limiter.waitMs('a')).toBe(0);
  });

  it('forgets the oldest keys beyond its size', () => {
    const limiter = new FailureLimiter({ ...limits, failuresFree: 0 }, () => 0, 2);
    limiter.recordFailure('a');
    limiter.recordFailure('b');
    limiter.recordFailure('c');
    expect(limiter.waitMs('a')).toBe(0);
    expect(limiter.waitMs('c')).toBeGreaterThan(0);
  });
});

describe('WindowLimiter', () => {
  it('allows the limit per window and says how long to wait', () => {
    const time = clock();
    const limiter = new WindowLimiter({ requestsMax: 3, windowMs: 60_000 }, time.now);
    expect([limiter.take('ip'), limiter.take('ip'), limiter.take('ip')]).toEqual([0, 0, 0]);
    time.advance(15_000);
    expect(limiter.take('ip')).toBe(45_000);
    expect(limiter.take('other')).toBe(0);
    time.advance(45_000);
    expect(limiter.take('ip')).toBe(0);
  });

  it('rounds a wait up to whole seconds for Retry-After', () => {
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(45_000)).toBe(45);
    expect(retryAfterSeconds(45_001)).toBe(46);
  });
});
