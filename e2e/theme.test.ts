import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, type Session } from './support/browser.js';

describe('theme toggle', () => {
  let session: Session;

  beforeAll(async () => {
    session = await openSession();
  });

  afterAll(async () => {
    await session.close();
  });

  it('switches to dark, and dark survives a reload', async () => {
    const { page } = session;
    await page.goto('/');
    const html = page.locator('html');
    expect(await html.getAttribute('data-theme')).toBe('light');
    await page.getByRole('button', { name: /theme/i }).click();
    expect(await html.getAttribute('data-theme')).toBe('dark');
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await html.getAttribute('data-theme')).toBe('dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(13, 17, 23)');

    await page.getByRole('button', { name: /theme/i }).click();
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await html.getAttribute('data-theme')).toBe('light');
    expect(session.errors).toEqual([]);
  });
});
