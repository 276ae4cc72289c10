import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storageKeys } from '../lib/storage';
import { buildUser } from '../test/fakeApi';
import { renderApp } from '../test/renderApp';

const signedIn = { params: { user: buildUser() } };

async function heading(name: string | RegExp) {
  return screen.findByRole('heading', { level: 1, name });
}

describe('language prefix', () => {
  it('serves English without a prefix and Russian under /ru', async () => {
    await renderApp('/login');
    await heading('Sign in');
    expect(document.documentElement.lang).toBe('en');
  });

  it('sets the language from the URL alone', async () => {
    await renderApp('/ru/login');
    await heading('Вход');
    expect(document.documentElement.lang).toBe('ru');
  });

  it('drops /en, which is the unprefixed language', async () => {
    const { location } = await renderApp('/en/faq?x=1');
    await waitFor(() => expect(location()).toBe('/faq?x=1'));
  });

  it('sends an unknown language prefix to the same page in the current language', async () => {
    const first = await renderApp('/de/login');
    await waitFor(() => expect(first.location()).toBe('/login'));
    await heading('Sign in');
  });

  it('keeps the current language when it is not English', async () => {
    const { router, location } = await renderApp('/es/faq');
    await heading('Preguntas frecuentes');
    await router.navigate('/pt/register');
    await waitFor(() => expect(location()).toBe('/es/register'));
  });
});

describe('unknown paths and not found', () => {
  it('stores an unknown path, shows not-found and puts the address back', async () => {
    const replaced: string[] = [];
    const original = window.history.replaceState.bind(window.history);
    window.history.replaceState = (state, title, url) => {
      replaced.push(String(url));
      original(state, title, url);
    };
    const { location } = await renderApp('/missing/such/page?q=1');
    await heading('Page not found');
    expect(location()).toBe('/not-found');
    expect(screen.getByText('/missing/such/page?q=1')).toBeTruthy();
    // The page puts the address back in an effect, which may run after the heading shows.
    await waitFor(() => expect(replaced).toContain('/missing/such/page?q=1'));
    expect(sessionStorage.getItem(storageKeys.notFoundPath)).toBeNull();
    window.history.replaceState = original;
  });

  it('treats a first segment that is no language as an unknown path', async () => {
    const { location } = await renderApp('/nonsense');
    await heading('Page not found');
    expect(location()).toBe('/not-found');
  });

  it('keeps the language on the not-found page', async () => {
    const { location } = await renderApp('/ru/nothing-here');
    await heading('Страница не найдена');
    expect(location()).toBe('/ru/not-found');
  });

  it('goes to not-found when a read answers 404', async () => {
    const { location } = await renderApp('/user/profile', {
      ...signedIn,
      routes: {
        'GET /api/v2/settings/general': {
          status: 404,
          body: { message: 'Not found', code: 'route_not_found' },
        },
      },
    });
    await waitFor(() => expect(location()).toBe('/not-found'));
    expect(await screen.findByText('/user/profile')).toBeTruthy();
  });
});

describe('who may open what', () => {
  it('sends a signed-out visitor from a protected page to sign in, with the way back', async () => {
    const { location } = await renderApp('/user/api?tab=1');
    await heading('Sign in');
    expect(location()).toBe(`/login?redirect=${encodeURIComponent('/user/api?tab=1')}`);
  });

  it('keeps the language on the way to sign in', async () => {
    const { location } = await renderApp('/ru/history/orders');
    await heading('Вход');
    expect(location()).toBe(`/ru/login?redirect=${encodeURIComponent('/ru/history/orders')}`);
  });

  it.each(['/login', '/register', '/forgot-password', '/2fa', '/verify?token=abc'])(
    'sends a signed-in user from %s to the front page',
    async (path) => {
      const { location } = await renderApp(path, signedIn);
      await heading('Buy and sell crypto on Lattice Exchange');
      expect(location()).toBe('/');
    },
  );

  it('sends /auth to /login', async () => {
    const { location } = await renderApp('/auth');
    await heading('Sign in');
    expect(location()).toBe('/login');
  });

  it('sends a signed-in user from /exchange to /user/exchange', async () => {
    const { location } = await renderApp('/ru/exchange', signedIn);
    await heading('Быстрый обмен');
    expect(location()).toBe('/ru/user/exchange');
  });

  it('sends a signed-out visitor from /user/exchange to /exchange', async () => {
    const { location } = await renderApp('/user/exchange');
    await heading('Fast exchange');
    expect(location()).toBe('/exchange');
  });

  it('goes to sign in when a call answers 401, and comes back after', async () => {
    const { location } = await renderApp('/user/settings', {
      ...signedIn,
      routes: {
        'GET /api/v2/settings/general': {
          status: 401,
          body: { message: 'You need to be logged in', code: 'auth_required' },
        },
      },
    });
    await waitFor(() =>
      expect(location()).toBe(`/login?redirect=${encodeURIComponent('/user/settings')}`),
    );
    expect(screen.queryByRole('button', { name: 'Account menu' })).toBeNull();
  });
});

describe('trade pairs', () => {
  it('accepts a listed pair and remembers it as the active pair', async () => {
    const { location } = await renderApp('/trade/ETH_USDT');
    await heading('Pro spot');
    expect(location()).toBe('/trade/ETH_USDT');
    expect(localStorage.getItem(storageKeys.activePair)).toBe('ETH_USDT');
  });

  it('shows the remembered pair on the base trade route', async () => {
    localStorage.setItem(storageKeys.activePair, 'LTT_USDT');
    await renderApp('/trade_classic');
    await heading('Classic spot');
    expect(screen.getByRole('heading', { name: 'LTT / USDT' })).toBeTruthy();
  });

  it.each([
    ['/trade/DOGE_USDT', '/trade'],
    ['/trade_classic/btc_usdt', '/trade_classic'],
    ['/ru/trade/NOPE', '/ru/trade'],
  ])('sends the unlisted %s to %s', async (path, base) => {
    const { location } = await renderApp(path);
    await waitFor(() => expect(location()).toBe(base));
    expect(localStorage.getItem(storageKeys.activePair)).toBeNull();
  });
});

describe('the frame', () => {
  it.each(['/trade', '/not-found', '/referrals', '/user/referrals'])(
    'hides the footer on %s',
    async (path) => {
      await renderApp(path, signedIn);
      await screen.findByRole('heading', { level: 1 });
      expect(screen.queryByRole('contentinfo')).toBeNull();
      expect(screen.getByRole('banner')).toBeTruthy();
    },
  );

  it('shows the footer elsewhere, with the copyright up to this year', async () => {
    await renderApp('/faq');
    await heading('FAQ');
    const footer = screen.getByRole('contentinfo');
    expect(footer.textContent).toContain(`2018–${new Date().getFullYear()}`);
  });

  it('names the screen in the document title', async () => {
    await renderApp('/ru/fee-schedule');
    await heading('Комиссии');
    await waitFor(() => expect(document.title).toBe('Комиссии — Lattice Exchange'));
  });
});
