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
  request_invalid: { status: 400, message: 'The request is not valid' },
  // The request is readable but breaks a rule; `errors` says which field and why.
  validation_failed: { status: 422, message: 'Form is not valid' },
  // Who may do what.
  auth_required: { status: 401, message: 'You need to be logged in' },
  auth_forbidden: { status: 403, message: 'Forbidden' },
  auth_csrf_invalid: { status: 403, message: 'The CSRF token is missing or wrong' },
  // Sign-in, 2FA and account security.
  auth_invalid_credentials: { status: 422, message: 'Wrong email or password' },
  auth_email_not_confirmed: {
    status: 403,
    message: 'Please confirm your e-mail first: we have sent the link again',
  },
  auth_device_code_invalid: { status: 422, message: 'The code is wrong or has expired' },
  auth_two_factor_invalid: { status: 422, message: 'Wrong 2FA code' },
  auth_two_factor_required: {
    status: 403,
    message: 'Turn on two-factor authentication first',
  },
  auth_link_invalid: { status: 422, message: 'The link is invalid or has expired' },
  auth_google_unavailable: { status: 404, message: 'Google sign-in is not available' },
  auth_google_failed: { status: 400, message: 'Google sign-in failed, please try again' },
  session_not_found: { status: 404, message: 'Session not found' },
  settings_nickname_locked: { status: 422, message: 'Nickname can be changed only once' },
  // Requests signed with an API key.
  api_key_not_found: { status: 404, message: 'API key not found' },
  api_key_invalid: { status: 401, message: 'The API key or the signature is invalid' },
  api_key_signature_expired: {
    status: 401,
    message: 'The request timestamp is more than 5 seconds away from the server time',
  },
  api_key_signature_replayed: { status: 401, message: 'This signature was already used' },
  api_key_scope_missing: { status: 403, message: 'This API key does not allow this' },
  api_key_ip_not_allowed: {
    status: 403,
    message: 'This API key may not be used from this address',
  },
  api_key_not_accepted: { status: 403, message: 'This call does not accept API keys' },
  // Limits.
  rate_limited: { status: 429, message: 'Too many requests, please try again later' },
  idempotency_key_reused: {
    status: 409,
    message: 'This Idempotency-Key was already used with a different request',
  },
  // Routes and records.
  route_not_found: { status: 404, message: 'Not found' },
  method_not_allowed: { status: 405, message: 'Method not allowed' },
  // Trading.
  order_not_found: { status: 404, message: 'Order not found' },
  margin_not_available: { status: 422, message: 'Margin trading is not available yet' },
  market_not_found: { status: 404, message: 'Market not found' },
  // Wallet: currencies, networks and deposits.
  currency_not_found: { status: 404, message: 'Currency not found' },
  network_not_found: { status: 422, message: 'This currency does not move on that network' },
  deposit_disabled: { status: 422, message: 'Deposit for this currency is disabled' },
  withdrawal_disabled: { status: 422, message: 'Withdrawal for this currency is disabled' },
  withdrawal_blocked: {
    status: 403,
    message: 'Withdrawals are paused for 3 days after a password change',
  },
  withdrawal_not_found: { status: 404, message: 'Withdrawal not found' },
  whitelist_address_not_found: { status: 404, message: 'Address not found' },
  // Transfer codes (vouchers).
  voucher_kyc_required: { status: 403, message: 'You must pass personal verification.' },
  voucher_not_found: { status: 404, message: 'Code not found' },
  voucher_activation_failed: { status: 422, message: 'Code activation error' },
  voucher_not_active: { status: 422, message: 'The code is already used or cancelled' },
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
