import {
  type ErrorCode,
  errorBodyFor,
  errorCatalogue,
  type FieldErrors,
  fieldErrorsFromIssues,
  isErrorCode,
} from '@lattice/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';

/** An expected failure with a catalogue code; the error handler renders it. */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldErrors | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    options: { message?: string; errors?: FieldErrors; retryAfterSeconds?: number } = {},
  ) {
    super(options.message ?? errorCatalogue[code].message);
    this.code = code;
    this.status = errorCatalogue[code].status;
    this.errors = options.errors;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** A 422 naming the fields at fault: `{ amount: ['Not enough on balance'] }`. */
export function validationError(errors: FieldErrors): AppError {
  return new AppError('validation_failed', { errors });
}

// Fastify's own errors for unreadable requests, mapped to catalogue codes.
const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'request_invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'request_invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'request_body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'request_unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'request_invalid',
};

/** PostgreSQL's `character_not_in_repertoire`: text with a character it cannot store. */
const textNotStorable = '22021';

interface Rendered {
  code: ErrorCode;
  status: number;
  message?: string;
  errors?: FieldErrors;
  retryAfterSeconds?: number;
}

/**
 * Classifies any thrown value: expected failures keep their code and message, the rest is a
 * 500 whose message (which may hold internals) never reaches the client.
 */
function render(error: unknown): Rendered {
  if (error instanceof AppError) {
    return {
      code: error.code,
      status: error.status,
      message: error.message,
      errors: error.errors,
      retryAfterSeconds: error.retryAfterSeconds,
    };
  }
  if (error instanceof ZodError) {
    return { code: 'validation_failed', status: 422, errors: fieldErrorsFromIssues(error.issues) };
  }
  const candidate = error as Partial<FastifyError> & {
    status?: number;
    retryAfterSeconds?: number;
  };
  if (candidate.validation) {
    return { code: 'validation_failed', status: 422, errors: fastifyValidationErrors(candidate) };
  }
  const fastifyCode = candidate.code ? fastifyCodes[candidate.code] : undefined;
  if (fastifyCode) return { code: fastifyCode, status: errorCatalogue[fastifyCode].status };
  // PostgreSQL cannot hold a NUL character in text and refuses the statement (SQLSTATE 22021).
  // Such text only comes from the request, and the refused statement wrote nothing.
  if (candidate.code === textNotStorable) return { code: 'request_invalid', status: 400 };
  // JSON.parse failures carry statusCode 400 and no code.
  if (error instanceof SyntaxError && candidate.statusCode === 400) {
    return { code: 'request_invalid_json', status: 400 };
  }
  if (isErrorCode(candidate.code)) {
    return {
      code: candidate.code,
      status: candidate.status ?? errorCatalogue[candidate.code].status,
      message: candidate.message,
      retryAfterSeconds: candidate.retryAfterSeconds,
    };
  }
  const status = candidate.statusCode ?? 500;
  if (status === 404) return { code: 'route_not_found', status };
  if (status === 429) return { code: 'rate_limited', status };
  if (status >= 400 && status < 500) return { code: 'request_invalid', status };
  return { code: 'server_error', status: 500 };
}

function fastifyValidationErrors(error: Partial<FastifyError>): FieldErrors {
  const issues = (error.validation ?? []).map((item) => {
    const missing = (item.params as { missingProperty?: string } | undefined)?.missingProperty;
    const path = item.instancePath.split('/').filter(Boolean);
    if (missing) path.push(missing);
    return { path, message: missing ? 'Field is required' : (item.message ?? 'Field error') };
  });
  return fieldErrorsFromIssues(issues);
}

/** The app's error handler: every error becomes `{ message, code, errors? }` with its status. */
export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const rendered = render(error);
  if (rendered.status >= 500) {
    request.log.error({ err: error }, 'request failed');
  } else {
    request.log.info({ code: rendered.code, status: rendered.status }, 'request refused');
  }
  if (rendered.retryAfterSeconds) {
    reply.header('retry-after', String(rendered.retryAfterSeconds));
  }
  reply.status(rendered.status).send(
    errorBodyFor(rendered.code, {
      ...(rendered.message ? { message: rendered.message } : {}),
      ...(rendered.errors ? { errors: rendered.errors } : {}),
    }),
  );
}
