import type { FastifyRequest } from 'fastify';
import { validationError } from '../http/errors.js';
import type { ClientKey } from './engineHost.js';
import { idempotencyKeyLengthMax } from './idempotency.js';

const keyPattern = /^[\x21-\x7e]+$/;

/**
 * The caller's idempotency key for a command: the `Idempotency-Key` header, else the body's
 * `client_id`; undefined when neither is given. Keys are per user.
 */
export function clientKeyOf(
  request: FastifyRequest,
  userId: number,
  bodyClientId: string | undefined,
): ClientKey | undefined {
  const header = request.headers['idempotency-key'];
  const key = typeof header === 'string' ? header : bodyClientId;
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > idempotencyKeyLengthMax || !keyPattern.test(key)) {
    throw validationError({
      'Idempotency-Key': [`1 to ${idempotencyKeyLengthMax} printable characters without spaces`],
    });
  }
  return { userId, key };
}
