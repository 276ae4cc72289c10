// Failures: rejections are values for expected bad input; InvariantViolation is a bug.
import type { RejectCode, Rejection } from './types.js';

/** Thrown only when the engine's own bookkeeping is broken; the host must halt. */
export class InvariantViolation extends Error {
  override name = 'InvariantViolation';
}

/**
 * Throw an InvariantViolation unless the condition holds. NOTE: the message is built before
 * the call, so hot paths test and throw themselves instead of formatting on every call.
 */
export function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new InvariantViolation(message);
}

export function reject(code: RejectCode, message: string, field?: string): Rejection {
  return field === undefined ? { ok: false, code, message } : { ok: false, code, message, field };
}
