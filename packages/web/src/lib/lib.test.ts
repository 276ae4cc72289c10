import { describe, expect, it, vi } from 'vitest';
import { isChunkLoadError, reloadOnce } from './lastClickedLink';
import { mainHostUrl } from './referralHost';
import { safeRedirectPath } from './safeRedirect';

describe('safeRedirectPath', () => {
  it.each([
    ['/user/api?tab=1', '/user/api?tab=1'],
    ['/ru/history/orders', '/ru/history/orders'],
    ['//evil.example/x', null],
    ['/\\evil.example', null],
    ['https://evil.example', null],
    ['', null],
    [null, null],
  ])('%s → %s', (value, expected) => {
    expect(safeRedirectPath(value)).toBe(expected);
  });
});

describe('mainHostUrl', () => {
  it('moves a page of the referral subdomain to the main host', () => {
    expect(mainHostUrl(new URL('https://ref.lattice.test/ru/faq?x=1#top'))).toBe(
      'https://lattice.test/ru/faq?x=1#top',
    );
  });

  it('leaves the referral route on the subdomain, in any language', () => {
    expect(mainHostUrl(new URL('https://ref.lattice.test/referrals?code=AB'))).toBeNull();
    expect(mainHostUrl(new URL('https://ref.lattice.test/es/referrals'))).toBeNull();
  });

  it('leaves the main host alone', () => {
    expect(mainHostUrl(new URL('https://lattice.test/login'))).toBeNull();
  });
});

describe('reloading after a failed module load', () => {
  it('recognises the browsers’ failed-import errors and nothing else', () => {
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: x.js')),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
  });

  it('reloads a link once, then gives up on the same link within a minute', () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    expect(reloadOnce('http://localhost/faq', 1_000)).toBe(true);
    expect(reloadOnce('http://localhost/faq', 30_000)).toBe(false);
    expect(reloadOnce('http://localhost/faq', 70_000)).toBe(true);
    expect(assign).toHaveBeenCalledTimes(2);
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });
});
