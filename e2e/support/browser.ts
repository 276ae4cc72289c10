import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Where run.mjs started the server. */
export const baseUrl = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3000';
export const screenshotsDir = join(import.meta.dirname, '..', 'screenshots');

/** The flags of a quiet, reproducible headless Chromium. */
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors and console errors of the page, in order. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * Debian's Chromium with a fresh profile: a new device as far as the exchange knows.
 * `launchPersistentContext` is the call that takes a user-data directory of our own.
 */
export async function openSession(
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<Session> {
  const profile = mkdtempSync(join(tmpdir(), 'lattice-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: chromiumArgs,
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    baseURL: baseUrl,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // A failed request is reported below with its address; the console line adds nothing.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      errors.push(`console: ${message.text()}`);
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 400) {
      errors.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    }
  });
  return {
    context,
    page,
    errors,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page screenshot as `screenshots/{name}.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotsDir, { recursive: true });
  await page.screenshot({ path: join(screenshotsDir, `${name}.png`), fullPage: true });
}

export type { Browser, Page };
