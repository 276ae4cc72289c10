import { createHash } from 'node:crypto';
import { keyReusedRefusal } from './errors.js';
import { taggedJsonFromValue } from './taggedJson.js';

/** A client's key for one command, scoped to the user who sent it. */
export interface IdempotencyKey {
  readonly userId: number;
  readonly key: string;
  /** Hash of the request the key was first used with; a different one is a 409. */
  readonly fingerprint: string;
}

/** What was stored for a key: the request's fingerprint and the first reply. */
export interface StoredReply<R> {
  readonly fingerprint: string;
  readonly reply: R;
}

export const idempotencyKeyLengthMax = 200;

/** A stable hash of a request, so a key reused with another body can be told apart. */
export function fingerprintOf(request: unknown): string {
  return createHash('sha256').update(taggedJsonFromValue(request)).digest('base64url');
}

/**
 * Makes a key's command run at most once. Two requests with one key that arrive together share
 * the first one's outcome; a later one finds the stored reply (written in the same transaction as
 * the command's journal row, so a reply exists exactly when the command is durable).
 */
export class IdempotencyGate<R> {
  private readonly inFlight = new Map<string, { fingerprint: string; reply: Promise<R> }>();

  run(
    id: IdempotencyKey,
    lookup: () => Promise<StoredReply<R> | undefined>,
    execute: () => Promise<R>,
  ): Promise<R> {
    const mapKey = `${id.userId}:${id.key}`;
    const running = this.inFlight.get(mapKey);
    if (running) {
      if (running.fingerprint !== id.fingerprint) return Promise.reject(keyReusedRefusal());
      return running.reply;
    }
    const reply = (async () => {
      const stored = await lookup();
      if (stored) {
        if (stored.fingerprint !== id.fingerprint) throw keyReusedRefusal();
        return stored.reply;
      }
      return execute();
    })();
    this.inFlight.set(mapKey, { fingerprint: id.fingerprint, reply });
    // The entry goes once settled: by then the stored reply (if any) is committed.
    const forget = () => this.inFlight.delete(mapKey);
    reply.then(forget, forget);
    return reply;
  }
}
