import type { Page } from 'playwright-core';
import { waitForMail } from './mailbox.js';

const signInPaths = ['/login', '/2fa', '/device-confirmation'];

/** Sign-in through the form; a new device is confirmed with the code from the mailbox. */
export async function signIn(
  page: Page,
  account: { email: string; password: string },
  nextTotp?: () => Promise<string>,
): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/(device-confirmation|2fa)?(\?.*)?$/);
  if (page.url().includes('/device-confirmation')) {
    const [, code] = await waitForMail(account.email, /Your sign-in code: (\d{6})/);
    await page.getByLabel('Code from the e-mail').fill(code ?? '');
    await page.getByRole('button', { name: 'Confirm and sign in' }).click();
    await page.waitForURL(/\/(2fa)?(\?.*)?$/);
  }
  if (page.url().includes('/2fa')) {
    if (!nextTotp) throw new Error('this account asks for a 2FA code');
    await page.getByLabel('2FA code').fill(await nextTotp());
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.waitForURL((url) => !signInPaths.includes(url.pathname));
  const signedIn = await page.evaluate(async () => {
    const response = await fetch('/api/systemParams');
    return ((await response.json()) as { user: unknown }).user !== null;
  });
  if (!signedIn) throw new Error(`not signed in after the sign-in steps, at ${page.url()}`);
}

/** Signs out through the user menu. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('link', { name: 'Sign in' }).first().waitFor();
}

/** Waits until the screen has its heading, i.e. the route resolved and rendered. */
export async function screenHeading(page: Page): Promise<string> {
  const heading = page.getByRole('heading', { level: 1 }).first();
  await heading.waitFor();
  return (await heading.textContent()) ?? '';
}
