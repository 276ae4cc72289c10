import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, configure, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { setCsrfRefresher, setCsrfToken } from '../api/client';
import { createQueryClient } from '../api/queryClient';
import type { SystemParams } from '../api/session';
import { createRoutes } from '../app/routes';
import { closeTradeSocket } from '../features/trade/useLiveMarket';
import { initI18n, setLanguage } from '../i18n/i18n';
import { answerConfirm } from '../ui/confirmStore';
import { clearToasts } from '../ui/toastStore';
import { buildSystemParams, type FakeRoute, installFakeApi } from './fakeApi';

// The machine is shared: lazy screens may take a while to load under load.
configure({ asyncUtilTimeout: 5000 });

beforeAll(async () => {
  await initI18n();
});

beforeEach(async () => {
  // jsdom has no layout: scrolling is a no-op here.
  window.scrollTo = () => undefined;
  Element.prototype.scrollIntoView = () => undefined;
  await setLanguage('en');
});

afterEach(() => {
  cleanup();
  closeTradeSocket();
  answerConfirm(false);
  clearToasts();
  localStorage.clear();
  sessionStorage.clear();
  setCsrfToken(null);
  setCsrfRefresher(null);
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

export interface RenderAppOptions {
  params?: Partial<SystemParams>;
  routes?: Record<string, FakeRoute>;
}

/** The whole app at `path` over a fake API; returns the router to read where it went. */
export async function renderApp(path: string, options: RenderAppOptions = {}) {
  const api = installFakeApi({
    'GET /api/systemParams': { body: buildSystemParams(options.params) },
    ...options.routes,
  });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false, staleTime: 60_000 } });
  const router = createMemoryRouter(createRoutes({ queryClient }), { initialEntries: [path] });
  await act(async () => {
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
  });
  const location = () => router.state.location.pathname + router.state.location.search;
  return { api, router, queryClient, location };
}
