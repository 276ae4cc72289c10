import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi } from '../test/fakeApi';
import { ApiError } from './apiError';
import { api, onApiEvent, setCsrfRefresher, setCsrfToken } from './client';

afterEach(() => {
  setCsrfToken(null);
  setCsrfRefresher(null);
  vi.unstubAllGlobals();
});

describe('the API client', () => {
  it('sends the CSRF token on writes only, and takes the next one from the answer', async () => {
    const server = installFakeApi({
      'GET /api/v2/thing': { body: { ok: 1 } },
      'POST /api/v2/thing': { body: { ok: 2 }, headers: { 'X-CSRF-Token': 'next' } },
    });
    setCsrfToken('first');
    await api.get('/v2/thing');
    await api.post('/v2/thing', { a: 1 });
    await api.post('/v2/thing', { a: 2 });
    const [read, firstWrite, secondWrite] = server.calls;
    expect(read?.headers.get('X-CSRF-Token')).toBeNull();
    expect(firstWrite?.headers.get('X-CSRF-Token')).toBe('first');
    expect(firstWrite?.headers.get('Content-Type')).toBe('application/json');
    expect(secondWrite?.headers.get('X-CSRF-Token')).toBe('next');
  });

  it('turns an error answer into ApiError with its code and field messages', async () => {
    installFakeApi({
      'POST /api/v2/login': {
        status: 422,
        body: {
          message: 'Form is not valid',
          code: 'validation_failed',
          errors: { email: ['Email is not valid'] },
        },
      },
    });
    const error = await api.post('/v2/login', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      code: 'validation_failed',
      firstMessage: 'Email is not valid',
    });
  });

  it('makes a network failure a 422 with no response, and announces it', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const heard = vi.fn();
    const stop = onApiEvent('network', heard);
    const error = await api.get('/systemParams').catch((caught: unknown) => caught);
    stop();
    expect(error).toMatchObject({ status: 422, code: 'network_error', response: null });
    expect(heard).toHaveBeenCalledOnce();
  });

  it('announces 401 always and 404 on reads only', async () => {
    installFakeApi({
      'GET /api/v2/private': { status: 401, body: { message: 'x', code: 'auth_required' } },
    });
    const unauthorized = vi.fn();
    const notFound = vi.fn();
    const stops = [onApiEvent('unauthorized', unauthorized), onApiEvent('notFound', notFound)];
    await api.get('/v2/private').catch(() => undefined);
    await api.get('/v2/missing').catch(() => undefined);
    await api.delete('/v2/missing').catch(() => undefined);
    await api.get('/v2/missing', { on404: 'throw' }).catch(() => undefined);
    for (const stop of stops) stop();
    expect(unauthorized).toHaveBeenCalledOnce();
    expect(notFound).toHaveBeenCalledOnce();
  });

  it('fetches a fresh token and retries once when the server refuses the token', async () => {
    let attempts = 0;
    installFakeApi({
      'POST /api/v2/thing': (request) => {
        attempts += 1;
        return request.headers.get('X-CSRF-Token') === 'fresh'
          ? { body: { ok: true } }
          : { status: 403, body: { message: 'bad token', code: 'auth_csrf_invalid' } };
      },
    });
    setCsrfToken('stale');
    setCsrfRefresher(async () => setCsrfToken('fresh'));
    await expect(api.post('/v2/thing', {})).resolves.toEqual({ ok: true });
    expect(attempts).toBe(2);
  });
});
