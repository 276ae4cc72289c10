import { describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { createSession, resolveSessionOfHash } from './sessions.js';
import { findSession } from './sessions.repo.js';
import { hashToken } from './tokens.js';
import { insertUser } from './users.repo.js';

const testDb = useTestDb();
const client = { ip: '127.0.0.1', userAgent: 'test' };

describe('resolveSessionOfHash', () => {
  it('touches a remembered session after a minute without changing the remembered one', async () => {
    const { db } = testDb.current;
    const start = 1_800_000_000_000;
    const userId = await insertUser(db, {
      email: 'touch@example.com',
      passwordHash: 'x',
      country: 'DE',
      language: 'en',
      emailVerifiedAt: start,
      googleSubject: null,
      now: start,
    });
    if (userId === null) throw new Error('no user');
    const { token, session } = await createSession(db, userId, 'active', client, start);
    // The first read remembers the session; the second is answered from memory (frozen).
    expect(
      (await resolveSessionOfHash(db, hashToken(token), client, start))?.session.last_seen_at,
    ).toBe(start);
    const remembered = await resolveSessionOfHash(db, hashToken(token), client, start + 1_000);
    expect(Object.isFrozen(remembered?.session)).toBe(true);
    const later = start + 61_000;
    const touched = await resolveSessionOfHash(db, hashToken(token), client, later);
    expect(touched?.session.last_seen_at).toBe(later);
    expect(remembered?.session.last_seen_at).toBe(start);
    expect((await findSession(db, session.id))?.last_seen_at).toBe(later);
  });
});
