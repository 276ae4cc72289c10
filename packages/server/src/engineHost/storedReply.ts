import type { ApplyResult } from '@lattice/engine';
import { taggedJsonFromValue, valueFromTaggedJson } from './taggedJson.js';

/**
 * The first reply to a command sent with a client key, as stored. Events are left out: a
 * repeat returns the result without publishing anything again.
 */
export function storedFromReply(reply: ApplyResult): string {
  return taggedJsonFromValue(reply.ok ? { ok: true, result: reply.result } : reply);
}

/** Reverses `storedFromReply`; a repeat carries no events. */
export function replyFromStored(text: string): ApplyResult {
  const stored = valueFromTaggedJson(text) as ApplyResult;
  return stored.ok ? { ...stored, events: [] } : stored;
}
