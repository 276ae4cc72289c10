import type { SessionRow } from './sessions.repo.js';
import type { UserRow } from './users.repo.js';

/**
 * A session and its user as read. NOTE: a remembered one is shared by every request it answers
 * and is frozen; a change makes a new object (see `resolveSessionOfHash`).
 */
export interface SessionWithUser {
  readonly session: Readonly<SessionRow>;
  readonly user: Readonly<UserRow>;
}

interface Entry {
  /** The database it was read from: tests open several, whose sessions must not mix. */
  readonly source: object;
  readonly found: SessionWithUser;
  /** `performance.now()` when stored: real time, whatever clock the caller's rules use. */
  readonly storedAt: number;
}

/** Sessions kept at most; the least recently stored is dropped first. */
const entriesMax = 10_000;
/**
 * How long a remembered session is trusted without reading it again. Every write this process
 * makes to a session or a user forgets the affected entries at once; this bound is for a change
 * made outside the process (an operator's SQL), which then shows within this time.
 */
const trustedMs = 1_000;

/**
 * The sessions that authenticated recent requests, by token hash, so that a signed-in client's
 * every request does not read its session and user from the database. The session and user
 * repositories forget an entry whenever they write its session or its user; a read that was in
 * flight across such a write is not remembered (the generation moved on meanwhile).
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly hashBySession = new Map<string, string>();
  private readonly hashesByUser = new Map<number, Set<string>>();
  private generationNow = 0;

  /** Changes with every forgetting; a read started before a change must not be remembered. */
  get generation(): number {
    return this.generationNow;
  }

  /**
   * The remembered session and user, frozen, or undefined. They are shared, not copied: a
   * signed-in client's every request reads them, and nothing may change them.
   */
  get(source: object, tokenHash: string): SessionWithUser | undefined {
    const entry = this.entries.get(tokenHash);
    if (entry === undefined || entry.source !== source) return undefined;
    if (performance.now() - entry.storedAt >= trustedMs) {
      this.remove(tokenHash);
      return undefined;
    }
    return entry.found;
  }

  /** Remembers what a read found, unless something was forgotten since `generation`. */
  set(source: object, tokenHash: string, found: SessionWithUser, generation: number): void {
    if (generation !== this.generationNow) return;
    this.remove(tokenHash);
    // A copy: the objects of the read that found it stay its own.
    const copy = Object.freeze({
      session: Object.freeze({ ...found.session }),
      user: Object.freeze({ ...found.user }),
    });
    this.entries.set(tokenHash, { source, found: copy, storedAt: performance.now() });
    this.hashBySession.set(copy.session.id, tokenHash);
    let hashes = this.hashesByUser.get(copy.user.id);
    if (hashes === undefined) {
      hashes = new Set();
      this.hashesByUser.set(copy.user.id, hashes);
    }
    hashes.add(tokenHash);
    if (this.entries.size > entriesMax) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.remove(oldest.value);
    }
  }

  forgetSession(sessionId: string): void {
    this.generationNow++;
    const tokenHash = this.hashBySession.get(sessionId);
    if (tokenHash !== undefined) this.remove(tokenHash);
  }

  /** Forgets every session of the user (the user row changed, or their sessions were ended). */
  forgetUser(userId: number): void {
    this.generationNow++;
    const hashes = this.hashesByUser.get(userId);
    if (hashes !== undefined) for (const tokenHash of [...hashes]) this.remove(tokenHash);
  }

  /** Forgets the sessions whose end is before `time` (the rows pruning deletes). */
  forgetEndingBefore(time: number): void {
    this.generationNow++;
    for (const [tokenHash, entry] of this.entries) {
      if (entry.found.session.expires_at < time) this.remove(tokenHash);
    }
  }

  private remove(tokenHash: string): void {
    const entry = this.entries.get(tokenHash);
    if (entry === undefined) return;
    this.entries.delete(tokenHash);
    const { session, user } = entry.found;
    this.hashBySession.delete(session.id);
    const hashes = this.hashesByUser.get(user.id);
    hashes?.delete(tokenHash);
    if (hashes?.size === 0) this.hashesByUser.delete(user.id);
  }
}

/**
 * The process's one cache. Forgetting is by session id and user id whatever the database (a
 * write inside a transaction forgets too; forgetting too much only costs a read), while an
 * entry answers only for the database it was read from.
 */
export const sessionCache = new SessionCache();
