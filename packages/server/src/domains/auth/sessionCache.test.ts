import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionCache, type SessionWithUser } from './sessionCache.js';

const dbA = {};
const dbB = {};

function found(sessionId: string, userId: number): SessionWithUser {
  return {
    session: { id: sessionId, user_id: userId, last_seen_at: 1 },
    user: { id: userId, logout_minutes: 30 },
  } as unknown as SessionWithUser;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('SessionCache', () => {
  it('answers a stored session, frozen, only for the database it came from', () => {
    const cache = new SessionCache();
    const stored = found('s1', 7);
    cache.set(dbA, 'hash-1', stored, cache.generation);
    (stored.session as { last_seen_at: number }).last_seen_at = 98;
    const first = cache.get(dbA, 'hash-1');
    expect(first?.session.id).toBe('s1');
    expect(first?.session.last_seen_at).toBe(1);
    expect(Object.isFrozen(first?.session) && Object.isFrozen(first?.user)).toBe(true);
    expect(() => {
      (first!.session as { last_seen_at: number }).last_seen_at = 99;
    }).toThrow(TypeError);
    expect(cache.get(dbA, 'hash-1')?.session.last_seen_at).toBe(1);
    expect(cache.get(dbB, 'hash-1')).toBeUndefined();
    expect(cache.get(dbA, 'hash-2')).toBeUndefined();
  });

  it('forgets by session id and by user id', () => {
    const cache = new SessionCache();
    cache.set(dbA, 'hash-1', found('s1', 7), cache.generation);
    cache.set(dbA, 'hash-2', found('s2', 7), cache.generation);
    cache.set(dbA, 'hash-3', found('s3', 8), cache.generation);
    cache.forgetSession('s1');
    expect(cache.get(dbA, 'hash-1')).toBeUndefined();
    expect(cache.get(dbA, 'hash-2')).toBeDefined();
    cache.forgetUser(7);
    expect(cache.get(dbA, 'hash-2')).toBeUndefined();
    expect(cache.get(dbA, 'hash-3')?.user.id).toBe(8);
  });

  it('forgets the sessions that end before a time', () => {
    const cache = new SessionCache();
    const ending = (sessionId: string, expiresAt: number): SessionWithUser => {
      const row = found(sessionId, 7);
      return { ...row, session: { ...row.session, expires_at: expiresAt } };
    };
    cache.set(dbA, 'hash-1', ending('s1', 100), cache.generation);
    cache.set(dbA, 'hash-2', ending('s2', 200), cache.generation);
    cache.forgetEndingBefore(150);
    expect(cache.get(dbA, 'hash-1')).toBeUndefined();
    expect(cache.get(dbA, 'hash-2')).toBeDefined();
  });

  it('does not remember a read that was in flight when something was forgotten', () => {
    const cache = new SessionCache();
    const before = cache.generation;
    cache.forgetUser(42);
    cache.set(dbA, 'hash-1', found('s1', 7), before);
    expect(cache.get(dbA, 'hash-1')).toBeUndefined();
  });

  it('trusts an entry for one second of real time', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const cache = new SessionCache();
    cache.set(dbA, 'hash-1', found('s1', 7), cache.generation);
    vi.advanceTimersByTime(999);
    expect(cache.get(dbA, 'hash-1')).toBeDefined();
    vi.advanceTimersByTime(1);
    expect(cache.get(dbA, 'hash-1')).toBeUndefined();
  });
});
