import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { notice, noticeDurationsMs, responseNotice, submitNotice } from '../../lib/notices';
import { storageKeys } from '../../lib/storage';
import { buildUser } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';
import { confirm, confirmStore } from '../../ui/confirmStore';
import { clearToasts, toastStore } from '../../ui/toastStore';
import {
  finishedOrderDebounceMs,
  finishedOrdersStore,
  notifyOrderFinished,
  setFinishedOrderWording,
} from './finishedOrders';

function banner() {
  return within(screen.getByRole('banner'));
}

describe('header', () => {
  it('offers sign in and sign up to a visitor, with the spec menus', async () => {
    await renderApp('/faq');
    await screen.findByRole('heading', { level: 1, name: 'FAQ' });
    expect(banner().getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    expect(banner().getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/register');
    expect(banner().getByRole('link', { name: 'Listing' })).toBeTruthy();
    expect(banner().getByRole('link', { name: 'Buy LTT' }).getAttribute('href')).toBe(
      '/trade_classic/LTT_USDT',
    );
    fireEvent.click(banner().getByRole('button', { name: 'Trade' }));
    expect(banner().getByRole('link', { name: 'Fast Exchange' }).getAttribute('href')).toBe(
      '/exchange',
    );
    expect(banner().getByRole('link', { name: 'Classic Spot' })).toBeTruthy();
    expect(banner().getByRole('link', { name: 'Pro Spot' })).toBeTruthy();
    expect(banner().queryByRole('button', { name: 'Account menu' })).toBeNull();
  });

  it('hides sign in on the sign-in page and sign up on the sign-up page', async () => {
    const { router } = await renderApp('/login');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(banner().queryByRole('link', { name: 'Sign in' })).toBeNull();
    expect(banner().getByRole('link', { name: 'Sign up' })).toBeTruthy();
    await act(() => router.navigate('/register'));
    await screen.findByRole('heading', { level: 1, name: 'Create an account' });
    expect(banner().getByRole('link', { name: 'Sign in' })).toBeTruthy();
    expect(banner().queryByRole('link', { name: 'Sign up' })).toBeNull();
  });

  it('shows a signed-in user the wallet, orders and user menus with the KYC badge', async () => {
    await renderApp('/faq', {
      params: { user: buildUser({ nickname: 'satoshi', kyc: 'verified' }) },
    });
    await screen.findByRole('heading', { level: 1, name: 'FAQ' });
    fireEvent.click(banner().getByRole('button', { name: 'Account menu' }));
    expect(banner().getByRole('link', { name: 'Profile' }).getAttribute('href')).toBe(
      '/user/profile',
    );
    expect(banner().getByRole('link', { name: 'Security' })).toBeTruthy();
    expect(banner().getByRole('link', { name: 'API manager' })).toBeTruthy();
    expect(banner().getByRole('button', { name: 'Log out' })).toBeTruthy();
    expect(banner().getAllByText('Verified').length).toBeGreaterThan(0);
    fireEvent.click(banner().getByRole('button', { name: 'Wallet' }));
    expect(banner().getByRole('link', { name: 'Withdrawal history' }).getAttribute('href')).toBe(
      '/history/withdraw',
    );
    fireEvent.click(banner().getByRole('button', { name: 'Orders' }));
    expect(banner().getByRole('link', { name: 'Trade history' })).toBeTruthy();
    expect(banner().queryByRole('link', { name: 'Sign in' })).toBeNull();
  });

  it('labels an unverified account "Pass verification"', async () => {
    await renderApp('/faq', { params: { user: buildUser() } });
    await screen.findByRole('heading', { level: 1, name: 'FAQ' });
    expect(banner().getAllByText('Pass verification').length).toBeGreaterThan(0);
  });

  it('opens the mobile menu with referrals, buy crypto, support and the languages', async () => {
    await renderApp('/ru/faq');
    await screen.findByRole('heading', { level: 1 });
    fireEvent.click(banner().getByRole('button', { name: 'Открыть меню' }));
    const menu = within(screen.getByRole('navigation', { name: 'Меню' }));
    expect(menu.getByRole('link', { name: 'Рефералы' })).toBeTruthy();
    expect(menu.getByRole('link', { name: 'Купить криптовалюту' }).getAttribute('href')).toBe(
      '/ru/user/buy-crypto',
    );
    expect(menu.getByRole('link', { name: 'Поддержка' })).toBeTruthy();
    expect(menu.getByRole('link', { name: 'English' }).getAttribute('href')).toBe('/faq');
    expect(menu.getByRole('link', { name: 'Español' }).getAttribute('href')).toBe('/es/faq');
  });

  it('switches the language by the URL prefix only', async () => {
    const { location } = await renderApp('/faq?tab=2');
    await screen.findByRole('heading', { level: 1, name: 'FAQ' });
    fireEvent.click(banner().getByRole('button', { name: 'Language' }));
    fireEvent.click(banner().getByRole('link', { name: 'Русский' }));
    await screen.findByRole('heading', { level: 1, name: 'Вопросы и ответы' });
    expect(location()).toBe('/ru/faq?tab=2');
  });

  it('toggles the dark theme with a button named for the theme, and keeps it', async () => {
    await renderApp('/');
    const toggle = await screen.findByRole('button', { name: /theme/i });
    fireEvent.click(toggle);
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem(storageKeys.theme)).toBe('dark');
    fireEvent.click(screen.getByRole('button', { name: /theme/i }));
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(localStorage.getItem(storageKeys.theme)).toBeNull();
  });
});

describe('footer and banners', () => {
  it('remembers that the cookie banner was closed', async () => {
    await renderApp('/faq');
    const banner = await screen.findByRole('region', { name: 'Cookies' });
    fireEvent.click(within(banner).getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('region', { name: 'Cookies' })).toBeNull();
    expect(localStorage.getItem(storageKeys.cookiesAccepted)).toBe('1');
  });

  it('does not show the cookie banner again once closed', async () => {
    localStorage.setItem(storageKeys.cookiesAccepted, '1');
    await renderApp('/faq');
    await screen.findByRole('heading', { level: 1, name: 'FAQ' });
    expect(screen.queryByRole('region', { name: 'Cookies' })).toBeNull();
  });

  it('scrolls back to the top', async () => {
    await renderApp('/faq');
    const scrollTo = vi.fn();
    window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
    fireEvent.click(await screen.findByRole('button', { name: /Back to top/ }));
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
  });
});

describe('app-wide overlays', () => {
  it('the confirmation dialog answers null, then true or false', async () => {
    await renderApp('/faq');
    await screen.findByRole('heading', { level: 1, name: 'FAQ' });
    let answer: Promise<boolean> = Promise.resolve(false);
    act(() => {
      answer = confirm({ title: 'Delete it?', text: 'For good.' });
    });
    expect(confirmStore.get().result).toBeNull();
    const dialog = await screen.findByRole('dialog', { name: 'Delete it?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await answer).toBe(true);
    expect(confirmStore.get().result).toBe(true);
    act(() => {
      answer = confirm({ title: 'Again?' });
    });
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(await answer).toBe(false);
  });

  it('keeps each kind of notice for its time (SPEC.md §9)', () => {
    vi.useFakeTimers();
    notice('general');
    responseNotice('answer');
    submitNotice('saved');
    expect(toastStore.get().map((toast) => toast.durationMs)).toEqual([5000, 11_000, 3333]);
    vi.advanceTimersByTime(noticeDurationsMs.submit);
    expect(toastStore.get().map((toast) => toast.text)).toEqual(['general', 'answer']);
    vi.advanceTimersByTime(noticeDurationsMs.notice - noticeDurationsMs.submit);
    expect(toastStore.get().map((toast) => toast.text)).toEqual(['answer']);
    vi.advanceTimersByTime(noticeDurationsMs.response);
    expect(toastStore.get()).toEqual([]);
  });

  it('keeps the last 5 finished orders; after a quiet 200 ms each one of a burst has its own toast', () => {
    vi.useFakeTimers();
    finishedOrdersStore.set([]);
    setFinishedOrderWording({
      one: (kept) => `${kept.market} #${kept.id} ${kept.averagePrice ?? 'cancelled'}`,
      many: (count) => `${count} orders`,
    });
    const order = (id: number, side: number, filled: string, averagePrice: string | null) => ({
      id,
      market: 'BTC_USDT',
      side,
      filled,
      averagePrice,
      ftime: id,
    });
    // A cancelled buy, then a market sell 150 ms later: two orders, two lines.
    notifyOrderFinished(order(1, 2, '0', null));
    vi.advanceTimersByTime(150);
    notifyOrderFinished(order(2, 1, '0.5', '29930.5'));
    vi.advanceTimersByTime(finishedOrderDebounceMs - 1);
    expect(toastStore.get()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(toastStore.get().map((toast) => toast.text)).toEqual([
      'BTC_USDT #1 cancelled',
      'BTC_USDT #2 29930.5',
    ]);
    expect(toastStore.get()[0]?.durationMs).toBe(noticeDurationsMs.finishedOrder);
    clearToasts();

    for (let id = 3; id <= 9; id += 1) notifyOrderFinished(order(id, 2, '0.1', '100'));
    expect(finishedOrdersStore.get().map((kept) => kept.id)).toEqual([9, 8, 7, 6, 5]);
    vi.advanceTimersByTime(finishedOrderDebounceMs);
    // More than the kept five at once (a cancel-all): one toast sums them up.
    expect(toastStore.get().map((toast) => toast.text)).toEqual(['7 orders']);
  });

  it('lists finished orders in the header for a signed-in user', async () => {
    finishedOrdersStore.set([]);
    await renderApp('/faq', { params: { user: buildUser() } });
    await screen.findByRole('heading', { level: 1, name: 'FAQ' });
    act(() => {
      notifyOrderFinished({
        id: 8,
        market: 'ETH_USDT',
        side: 2,
        filled: '0',
        averagePrice: null,
        ftime: 1,
      });
      notifyOrderFinished({
        id: 9,
        market: 'ETH_USDT',
        side: 1,
        filled: '2',
        averagePrice: '3000.25',
        ftime: 2,
      });
    });
    fireEvent.click(banner().getByRole('button', { name: 'Finished orders' }));
    await waitFor(() =>
      expect(banner().getByText('Sell order ETH/USDT finished: 2 at 3000.25')).toBeTruthy(),
    );
    expect(banner().getByText('Buy order ETH/USDT cancelled')).toBeTruthy();
  });
});
