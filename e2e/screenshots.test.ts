import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, type Session, screenshot } from './support/browser.js';
import { screenHeading, signIn } from './support/flows.js';

const demo = { email: 'bob@example.com', password: 'Bob-demo-1' };
const guestScreens = [
  '/',
  '/login',
  '/register',
  '/forgot-password',
  '/trade/BTC_USDT',
  '/ru/login',
];
const traderScreens = [
  '/user/profile',
  '/user/security-main',
  '/user/settings',
  '/user/api',
  '/es/user/settings',
];
const layouts = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 375, height: 740 },
] as const;
const themes = ['light', 'dark'] as const;

function fileName(path: string, theme: string, layout: string): string {
  const screen = path === '/' ? 'home' : path.slice(1).replaceAll('/', '-');
  return `${screen}-${theme}-${layout}`;
}

async function shoot(session: Session, paths: readonly string[], layout: string) {
  const { page } = session;
  for (const theme of themes) {
    await page.evaluate((dark) => {
      if (dark) localStorage.setItem('lattice.theme', 'dark');
      else localStorage.removeItem('lattice.theme');
      localStorage.setItem('lattice.cookiesAccepted', '1');
    }, theme === 'dark');
    for (const path of paths) {
      await page.goto(path);
      await screenHeading(page);
      await page.waitForLoadState('networkidle');
      expect(await page.locator('html').getAttribute('data-theme')).toBe(theme);
      await screenshot(page, fileName(path, theme, layout));
    }
  }
}

describe.each(layouts)('screenshots at $name width ($width px)', (layout) => {
  let visitor: Session;
  let trader: Session;

  beforeAll(async () => {
    visitor = await openSession(layout);
    trader = await openSession(layout);
    await visitor.page.goto('/');
    await signIn(trader.page, demo);
  });

  afterAll(async () => {
    await visitor.close();
    await trader.close();
  });

  it('of the public and sign-in screens, in both themes', async () => {
    await shoot(visitor, guestScreens, layout.name);
    expect(visitor.errors).toEqual([]);
  });

  it('of the account screens, in both themes', async () => {
    await shoot(trader, traderScreens, layout.name);
    expect(trader.errors).toEqual([]);
  });

  it('keeps the header 90 px high, 75 px on phones', async () => {
    const box = await visitor.page.getByRole('banner').boundingBox();
    expect(box?.height).toBe(layout.width < 768 ? 75 : 90);
  });
});
