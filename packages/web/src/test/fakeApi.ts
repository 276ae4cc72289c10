import type { SessionUser } from '@lattice/contracts';
import { vi } from 'vitest';
import type { SystemParams } from '../api/session';

/** One request as the fake server saw it. */
export interface FakeRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  headers: Headers;
}

export interface FakeResponse {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type FakeRoute =
  | FakeResponse
  | ((request: FakeRequest) => FakeResponse | Promise<FakeResponse>);

/** A user as the API presents one; tests change only what they test. */
export function buildUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    id: 7,
    email: 'trader@example.com',
    nickname: null,
    kyc: 'unverified',
    twoFactorEnabled: false,
    ...overrides,
  };
}

export function buildSystemParams(overrides: Partial<SystemParams> = {}): SystemParams {
  return {
    csrfToken: 'csrf-1',
    appName: 'Lattice Exchange',
    defaultPair: 'BTC_USDT',
    lttPair: 'LTT_USDT',
    marketList: ['BTC_USDT', 'ETH_USDT', 'LTT_USDT'],
    marginPairs: [],
    fiatTickers: ['USD', 'EUR'],
    stableTickers: ['USDT'],
    socialLinks: {},
    wsToken: null,
    user: null,
    ...overrides,
  };
}

export function buildGeneralSettings(overrides: Record<string, unknown> = {}) {
  return {
    email: 'trader@example.com',
    nickname: null,
    canChangeNickname: true,
    language: 'en',
    logoutTime: 60,
    isCustomFeeEnabled: false,
    isTwoFactorEnabled: false,
    ...overrides,
  };
}

export function buildSecuritySettings(overrides: Record<string, unknown> = {}) {
  return {
    twoFactorEnabled: false,
    antiPhishingEnabled: false,
    antiPhishingCodes: null,
    sessions: [],
    ...overrides,
  };
}

function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < want.length; index += 1) {
    const part = want[index] ?? '';
    const value = got[index] ?? '';
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return null;
  }
  return params;
}

/**
 * Replaces `fetch` with a server answering from `routes` ("POST /api/v2/login" → answer);
 * any other call is a 404 as the real server gives it. Every call is recorded.
 */
export function installFakeApi(routes: Record<string, FakeRoute>) {
  const calls: FakeRequest[] = [];
  const fetchMock = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const headers = new Headers(init?.headers);
    for (const [key, route] of Object.entries(routes)) {
      const [routeMethod, pattern] = key.split(' ');
      const params = routeMethod === method && pattern ? matchPath(pattern, url.pathname) : null;
      if (!params) continue;
      const request = {
        method,
        path: url.pathname,
        params,
        query: url.searchParams,
        body,
        headers,
      };
      calls.push(request);
      const answer = typeof route === 'function' ? await route(request) : route;
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: { 'content-type': 'application/json', ...answer.headers },
      });
    }
    calls.push({ method, path: url.pathname, params: {}, query: url.searchParams, body, headers });
    return new Response(JSON.stringify({ message: 'Not found', code: 'route_not_found' }), {
      status: 404,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    /** The calls to one route, e.g. `callsTo('POST', '/api/v2/login')`. */
    callsTo: (method: string, path: string) =>
      calls.filter((call) => call.method === method && call.path === path),
  };
}

/** A validation answer of the API: 422 with the spec's messages per field. */
export function fieldErrors(errors: Record<string, string[]>, status = 422): FakeResponse {
  return { status, body: { message: 'Form is not valid', code: 'validation_failed', errors } };
}
