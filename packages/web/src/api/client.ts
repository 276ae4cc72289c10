import { ApiError, type FieldErrors, networkErrorCode, networkErrorMessage } from './apiError';

/**
 * The one HTTP client of the app. Every call sends the session cookie and JSON; every call
 * other than GET sends the CSRF token, and a response that carries a new token replaces it.
 * Failures become `ApiError`; 401, 404 on a read, and network failures are also announced as
 * events so the app can follow the routing rules of SPEC.md §2 and §8.
 */

export type ApiEvent = 'unauthorized' | 'notFound' | 'network';
type Listener = () => void;

const csrfHeader = 'X-CSRF-Token';
const listeners: Record<ApiEvent, Set<Listener>> = {
  unauthorized: new Set(),
  notFound: new Set(),
  network: new Set(),
};
let csrfToken: string | null = null;
let refreshCsrfToken: (() => Promise<void>) | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** How to fetch a fresh token when the server refuses ours (e.g. after the session changed). */
export function setCsrfRefresher(refresher: (() => Promise<void>) | null): void {
  refreshCsrfToken = refresher;
}

/** Listens to one kind of event; returns the function that stops listening. */
export function onApiEvent(event: ApiEvent, listener: Listener): () => void {
  listeners[event].add(listener);
  return () => listeners[event].delete(listener);
}

function emit(event: ApiEvent): void {
  for (const listener of listeners[event]) listener();
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** 'redirect' (default for GET): a 404 sends the user to the not-found page. */
  on404?: 'redirect' | 'throw';
  /** 'redirect' (default): a 401 sends the user to sign in. */
  on401?: 'redirect' | 'throw';
  /** `/logout` answers with text. */
  responseType?: 'json' | 'text';
}

type Method = 'GET' | 'POST' | 'DELETE' | 'PUT';

function urlOf(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(name, String(value));
  }
  const search = params.toString();
  return `/api${path}${search ? `?${search}` : ''}`;
}

async function send(method: Method, path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers[csrfHeader] = csrfToken;
  const response = await fetch(urlOf(path, options.query), {
    method,
    credentials: 'same-origin',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const nextToken = response.headers.get(csrfHeader);
  if (nextToken) csrfToken = nextToken;
  return response;
}

function networkError(cause: unknown): ApiError {
  const error = new ApiError({
    status: 422,
    code: networkErrorCode,
    message: networkErrorMessage,
    response: null,
  });
  error.cause = cause;
  return error;
}

async function errorFrom(response: Response): Promise<ApiError> {
  let body: { message?: unknown; code?: unknown; errors?: unknown } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // A proxy's HTML error page: the status alone tells what happened.
  }
  return new ApiError({
    status: response.status,
    code: typeof body.code === 'string' ? body.code : `http_${response.status}`,
    message: typeof body.message === 'string' ? body.message : response.statusText,
    fieldErrors:
      typeof body.errors === 'object' && body.errors !== null
        ? (body.errors as FieldErrors)
        : undefined,
    response,
  });
}

/** Calls the API under `/api`; resolves with the parsed body or rejects with `ApiError`. */
export async function apiRequest<T>(
  method: Method,
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  let response: Response;
  try {
    response = await send(method, path, options);
    if (response.status === 403 && method !== 'GET' && refreshCsrfToken) {
      const error = await errorFrom(response.clone());
      if (error.code === 'auth_csrf_invalid') {
        await refreshCsrfToken();
        response = await send(method, path, options);
      }
    }
  } catch (cause) {
    if (cause instanceof ApiError) throw cause;
    emit('network');
    throw networkError(cause);
  }
  if (!response.ok) {
    const error = await errorFrom(response);
    if (response.status === 401 && options.on401 !== 'throw') emit('unauthorized');
    if (response.status === 404 && method === 'GET' && options.on404 !== 'throw') emit('notFound');
    throw error;
  }
  try {
    if (options.responseType === 'text') return (await response.text()) as T;
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  } catch (cause) {
    throw networkError(cause);
  }
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('POST', path, { ...options, body: body ?? {} }),
  delete: <T>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, options),
};
