import { afterAll, describe, expect, it } from 'vitest';
import { openSession, type Session } from './support/browser.js';
import { signIn, signOut } from './support/flows.js';
import { waitForMail } from './support/mailbox.js';
import { totpSource } from './support/totp.js';

// One new account walks the whole account side in order; each step builds on the last.
const account = { email: `e2e-${Date.now()}@example.com`, password: 'E2e!passw0rd' };
let nextTotp: (() => Promise<string>) | undefined;
const sessions: Session[] = [];

async function session(): Promise<Session> {
  const opened = await openSession();
  sessions.push(opened);
  return opened;
}

afterAll(async () => {
  for (const opened of sessions) await opened.close();
});

describe('a new trader’s account', () => {
  let device: Session;

  it('registers through the form and confirms the e-mail from the mailbox', async () => {
    const first = await session();
    const { page } = first;
    await page.goto('/register');
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Repeat the password').fill(account.password);
    await page.getByLabel('Country of residence').selectOption('DE');
    await page.getByLabel(/I accept the/).check();
    await page.getByLabel(/I am not a citizen/).check();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();

    const [link] = await waitForMail(account.email, /https?:\/\/\S+\/verify\?token=[\w-]+/);
    await page.goto(link);
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    expect(first.errors).toEqual([]);
  });

  it('signs in on a new device with the code from the e-mail', async () => {
    device = await session();
    await signIn(device.page, account);
    await device.page.goto('/user/profile');
    expect(await device.page.getByTestId('profile-email').textContent()).toBe(account.email);
    expect(device.errors).toEqual([]);
  });

  it('turns on 2FA with the QR code’s key and signs in again with a code', async () => {
    const { page } = device;
    await page.goto('/user/security-main');
    await page.getByRole('button', { name: 'Set up 2FA' }).click();
    await page.getByRole('img', { name: 'QR code of the 2FA key' }).waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    nextTotp = totpSource(secret);
    await page.getByLabel('2FA code').fill(await nextTotp());
    await page.getByRole('button', { name: 'Turn on 2FA' }).click();
    await page.getByRole('button', { name: 'Turn off 2FA' }).waitFor();

    await signOut(page);
    await signIn(page, account, nextTotp);
    expect(device.errors).toEqual([]);
  });

  it('creates an API key, sees its secret once, and deletes it', async () => {
    const { page } = device;
    await page.goto('/user/api');
    await page.getByLabel('Name').fill('e2e bot');
    if (!nextTotp) throw new Error('2FA was not turned on');
    await page.getByLabel('2FA code').fill(await nextTotp());
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-api-secret').textContent()) ?? '';
    expect(secret.length).toBeGreaterThanOrEqual(32);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await expect.poll(() => page.getByTestId('api-key-row').count()).toBe(1);
    expect(await page.getByText(secret).count()).toBe(0);

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.getByTestId('api-key-row').count()).toBe(0);
    await page.reload();
    await page.getByText('You have no API keys yet').waitFor();
    expect(device.errors).toEqual([]);
  });
});
