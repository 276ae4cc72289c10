import type { Rejection } from '@lattice/engine';
import { AppError } from '../http/errors.js';

/** The spec's message for a balance that does not cover the request (SPEC.md §5). */
const notEnoughOnBalance = 'Not enough on balance';

/**
 * The HTTP answer to an engine rejection: 404 for an order that is not the caller's (or does
 * not exist), otherwise 422 with the message on the request field it concerns. `fields` maps
 * the engine's field names to the route's (`stopPrice` → `stop_price`).
 */
export function errorFromRejection(
  rejection: Rejection,
  fields: Readonly<Record<string, string>> = {},
): AppError {
  if (rejection.code === 'order_not_found') return new AppError('order_not_found');
  const message =
    rejection.code === 'insufficient_balance' ? notEnoughOnBalance : rejection.message;
  const field =
    rejection.field === undefined ? '_form' : (fields[rejection.field] ?? rejection.field);
  return new AppError('validation_failed', { message, errors: { [field]: [message] } });
}
