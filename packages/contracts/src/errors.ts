import { z } from 'zod';

/**
 * The error catalogue: every error the API answers with, by stable code. A code never changes
 * meaning once published; clients switch on `code`, people read `message`. Codes are
 * snake_case with a family prefix; messages are those of SPEC.md §5 and §8 where it has one.
 */
export const errorCatalogue = {
  // The request itself cannot be read.
  request_invalid_json: { status: 400, message: 'The request body is not valid JSON' },
  request_body_not_object: { status: 400, message: 'The request body must be a JSON object' },
  request_body_too_large: { status: 413, message: 'The request body is too large' },
  request_unsupported_media_type: {
    status: 415,
    message: 'The request body must be sent as application/json',
  },
  // The request is readable but breaks a rule; `errors` says which field and why.
  validation_failed: { status: 422, message: 'Form is not valid' },
  // Who may do what.
  auth_required: { status: 401, message: 'You need to be logged in' },
  auth_forbidden: { status: 403, message: 'Forbidden' },
  auth_csrf_invalid: { status: 403, message: 'The CSRF token is missing or wrong' },
  // Limits.
  rate_limited: { status: 429, message: 'Too many requests, please try again later' },
  idempotency_key_reused: {
    status: 409,
    message: 'This Idempotency-Key was already used with a different request',
  },
  // Routes and records.
  route_not_found: { status: 404, message: 'Not found' },
  method_not_allowed: { status: 405, message: 'Method not allowed' },
  // The exchange core.
  engine_busy: { status: 503, message: 'The exchange is busy, please retry' },
  engine_halted: { status: 503, message: 'Trading is halted' },
  // Everything else is a bug or an outage, never the client's input.
  server_error: { status: 500, message: 'Error on server' },
  server_unavailable: { status: 503, message: 'Something went wrong.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** True when `code` is in the catalogue. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(errorCatalogue, code);
}

/** Field errors: each field's messages, shown next to that field. */
export type FieldErrors = Record<string, string[]>;

/** The body of every error answer. */
export const errorBody = z.object({
  message: z.string(),
  code: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

/** The body for `code`, with the catalogue's message unless another is given. */
export function errorBodyFor(
  code: ErrorCode,
  options: { message?: string; errors?: FieldErrors } = {},
): ErrorBody {
  const body: ErrorBody = { message: options.message ?? errorCatalogue[code].message, code };
  if (options.errors) body.errors = options.errors;
  return body;
}

/**
 * Field errors from zod issues: the issue path joined with dots names the field (`amount`,
 * `items.0.price`); a form-level issue goes under `_form`.
 */
export function fieldErrorsFromIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '_form';
    const messages = errors[field] ?? [];
    if (!messages.includes(issue.message)) messages.push(issue.message);
    errors[field] = messages;
  }
  return errors;
}
