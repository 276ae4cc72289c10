import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, type Page, type Session, screenshot } from './support/browser.js';
import { screenHeading, signIn } from './support/flows.js';
import { waitForMail } from './support/mailbox.js';
import { totpSource } from './support/totp.js';

// A new trader funds the account over the simulated Bitcoin chain, withdraws with 2FA to the
// demo user bob's deposit address, and hands bob a transfer code. A fresh account keeps the
// demo users' sign-in as the other browser tests expect it (bob gets no 2FA here).
const trader = { email: `e2e-wallet-${Date.now()}@example.com`, password: 'E2e!wallet0' };
const bob = { email: 'bob@example.com', password: 'Bob-demo-1' };
const sessions: Session[] = [];
let nextTotp: (() => Promise<string>) | undefined;
let main: Session;
/** Bob's browser, signed in by the withdrawal test. */
let receiver: Session | undefined;

async function session(options?: Parameters<typeof openSession>[0]): Promise<Session> {
  const opened = await openSession(options);
  sessions.push(opened);
  await opened.page.goto('/');
  await opened.page.evaluate(() => localStorage.setItem('lattice.cookiesAccepted', '1'));
  return opened;
}

/** A development helper of API.md, called from the page with its session's CSRF token. */
async function devPost(page: Page, path: string, body: unknown): Promise<unknown> {
  return page.evaluate(
    async ({ path, body }) => {
      const params = (await (await fetch('/api/systemParams')).json()) as { csrfToken: string };
      const response = await fetch(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': params.csrfToken },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return response.json();
    },
    { path, body },
  );
}

async function register(page: Page): Promise<void> {
  await page.goto('/register');
  await page.getByLabel('E-mail').fill(trader.email);
  await page.getByLabel('Password', { exact: true }).fill(trader.password);
  await page.getByLabel('Repeat the password').fill(trader.password);
  await page.getByLabel('Country of residence').selectOption('DE');
  await page.getByLabel(/I accept the/).check();
  await page.getByLabel(/I am not a citizen/).check();
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
  const [link] = await waitForMail(trader.email, /https?:\/\/\S+\/verify\?token=[\w-]+/);
  await page.goto(link);
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('button', { name: 'Account menu' }).waitFor();
}

beforeAll(async () => {
  main = await session();
  await register(main.page);
});

afterAll(async () => {
  for (const opened of sessions) await opened.close();
});

describe('the wallet', () => {
  it('shows a deposit from the simulated chain confirming on the deposit page', async () => {
    const { page } = main;
    await page.goto('/user/wallet/deposit/BTC');
    await page.getByTestId('deposit-qr').locator('svg').waitFor();
    const address = (await page.getByTestId('deposit-address').textContent())?.trim() ?? '';
    expect(address).not.toBe('');

    await devPost(page, '/api/dev/chain/deposit', { ticker: 'BTC', address, amount: '0.05' });
    const row = page.getByTestId('deposit-row').first();
    await row.waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toContain('0.05');
    await devPost(page, '/api/dev/chain/mine', { network: 'bitcoin', blocks: 2 });
    await row.getByText('Successful').waitFor({ timeout: 30_000 });
    expect(await row.getByTestId('deposit-confirmations').textContent()).toBe('2 / 2');
    await expect
      .poll(() => page.getByTestId('deposit-main-balance').textContent(), { timeout: 15_000 })
      .toBe('0.05 BTC');
    expect(main.errors).toEqual([]);
  });

  it('withdraws with a 2FA code and follows the request to its end', async () => {
    const { page } = main;
    await page.goto('/user/security-main');
    await page.getByRole('button', { name: 'Set up 2FA' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    nextTotp = totpSource(secret);
    await page.getByLabel('2FA code').fill(await nextTotp());
    await page.getByRole('button', { name: 'Turn on 2FA' }).click();
    await page.getByRole('button', { name: 'Turn off 2FA' }).waitFor();

    // Bob's deposit address: the simulated chain credits him like a real one would.
    receiver = await session();
    await signIn(receiver.page, bob);
    const bobAddress = await receiver.page.evaluate(async () => {
      const response = await fetch('/api/v2/profile/address/BTC');
      return ((await response.json()) as { address: string }).address;
    });

    await page.goto('/user/wallet/withdraw/BTC');
    const form = page.getByRole('form', { name: 'Withdrawal' });
    await form.waitFor();
    await form.getByLabel('Address').fill(bobAddress);
    await form.getByLabel('Amount').fill('0.3');
    await form.getByText('Amount should not be greater than your balance!').waitFor();
    await form.getByLabel('Amount').fill('0.002');
    await expect.poll(() => page.getByTestId('withdraw-total').textContent()).toBe('0.0022 BTC');
    await form.getByLabel('2FA code').fill(await nextTotp());
    await form.getByRole('button', { name: 'Withdraw' }).click();
    await page.getByTestId('withdraw-result').waitFor();
    await expect
      .poll(() => page.getByTestId('withdraw-status').textContent(), { timeout: 45_000 })
      .toBe('Successful');

    await page.goto('/history/withdraw');
    await page.getByTestId('withdraw-row').first().getByText('Successful').waitFor();
    expect(main.errors).toEqual([]);
  });

  it('creates a code once verified, and another account activates it', async () => {
    const { page } = main;
    await page.goto('/codes');
    await page.getByTestId('codes-kyc').waitFor();
    await devPost(page, '/api/dev/users/verify', { email: trader.email });
    await page.reload();
    const create = page.getByRole('form', { name: 'Create a code' });
    await create.getByLabel('Currency').selectOption('BTC');
    await create.getByLabel('Amount').fill('0.01');
    await create.getByRole('button', { name: 'Create code' }).click();
    const code = (await page.getByTestId('created-code').locator('p').nth(1).textContent()) ?? '';
    expect(code).toMatch(/^[0-9A-F]{32}$/);
    await page.getByTestId('my-code').filter({ hasText: code }).waitFor();

    if (!receiver) throw new Error('bob has no session');
    await receiver.page.goto('/codes');
    const activate = receiver.page.getByRole('form', { name: 'Activate a code' });
    await activate.getByLabel('Code').fill(code);
    await activate.getByRole('button', { name: 'Activate' }).click();
    await receiver.page.getByText('0.01 BTC credited to your main balance').first().waitFor();

    await page.goto('/history/codes');
    await page.getByTestId('codes-row').filter({ hasText: code }).getByText('Activated').waitFor();
    expect(main.errors).toEqual([]);
    expect(receiver.errors).toEqual([]);
  });
});

const walletScreens = [
  '/user/wallet-list',
  '/user/balances/BTC',
  '/user/wallet/deposit/BTC',
  '/user/wallet/withdraw/BTC',
  '/user/address-management',
  '/codes',
  '/history/deposit',
  '/history/withdraw',
  '/history/codes',
  '/ru/user/wallet-list',
  '/es/user/wallet/withdraw/BTC',
];
const layouts = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 375, height: 740 },
] as const;

function fileName(path: string, theme: string, layout: string): string {
  return `${path.slice(1).replaceAll('/', '-')}-${theme}-${layout}`;
}

describe.each(layouts)('wallet screenshots at $name width ($width px)', (layout) => {
  it('of every wallet screen, in both themes', async () => {
    if (!nextTotp) throw new Error('the wallet flow did not turn on 2FA');
    // The desktop shots reuse the trader's browser; the phone gets its own, signed in anew.
    let shooter = main;
    if (layout.width !== 1280) {
      shooter = await session(layout);
      await signIn(shooter.page, trader, nextTotp);
    }
    shooter.errors.length = 0;
    const { page } = shooter;
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((dark) => {
        if (dark) localStorage.setItem('lattice.theme', 'dark');
        else localStorage.removeItem('lattice.theme');
      }, theme === 'dark');
      for (const path of walletScreens) {
        await page.goto(path);
        await screenHeading(page);
        await page.waitForLoadState('networkidle');
        expect(await page.locator('html').getAttribute('data-theme')).toBe(theme);
        // Nothing may stick out sideways at 375 px: wide tables scroll inside their frame.
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, path).toBe(0);
        await screenshot(page, fileName(path, theme, layout.name));
      }
    }
    expect(shooter.errors).toEqual([]);
  });
});
