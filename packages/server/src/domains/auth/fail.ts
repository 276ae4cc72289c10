import type { ErrorCode, FieldErrors } from '@lattice/contracts';
import type { z } from 'zod';
import { AppError } from '../../http/errors.js';

/** Throws the catalogue error `code` (rendered by the app's error handler). */
export function fail(
  code: ErrorCode,
  options: { message?: string; errors?: FieldErrors; retryAfterSeconds?: number } = {},
): never {
  throw new AppError(code, options);
}

/** A 422 on one field with one of the spec's messages. */
export function failField(field: string, message: string): never {
  throw new AppError('validation_failed', { errors: { [field]: [message] } });
}

/** Parses a body or query with a contracts schema; a refusal is a 422 per field. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown): T {
  return schema.parse(value ?? {});
}
