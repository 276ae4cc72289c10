/** Field errors as the API sends them: each field's messages. */
export type FieldErrors = Record<string, string[]>;

/**
 * A failed call. Network and parse failures are errors too (SPEC.md §7): status 422, code
 * `network_error`, no response.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fieldErrors: FieldErrors;
  readonly response: Response | null;

  constructor(options: {
    status: number;
    code: string;
    message: string;
    fieldErrors?: FieldErrors;
    response: Response | null;
  }) {
    super(options.message);
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
    this.fieldErrors = options.fieldErrors ?? {};
    this.response = options.response;
  }

  /** The first message a person should read: a field's, else the error's own. */
  get firstMessage(): string {
    for (const messages of Object.values(this.fieldErrors)) {
      if (messages[0]) return messages[0];
    }
    return this.message;
  }
}

export const networkErrorCode = 'network_error';
export const networkErrorMessage = 'Something happen with your network connection.';

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
