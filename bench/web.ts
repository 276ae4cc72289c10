// Web trade page benchmark: builds the app, starts the real server (fresh DATA_DIR, demo
// liquidity on), opens /trade/BTC_USDT in Chromium and prints the gzip size of the JS that
// page loads and the time from navigation to the first order-book row.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const root = join(import.meta.dirname, '..');
const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'];
const healthTimeoutMs = 60_000;
const bookTimeoutMs = 30_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseUrl: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + healthTimeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    const ok = await fetch(`${baseUrl}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the server did not become healthy');
}

/** Gzip KB of the scripts the page loaded, and ms from navigation to the first book row. */
async function measure(baseUrl: string): Promise<{ jsGzipKb: number; bookMs: number }> {
  const browser = await chromium.launch({
    executablePath: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  try {
    const page = await browser.newPage();
    const scripts: Promise<number>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      scripts.push(
        response.body().then(
          (body) => gzipSync(body).length,
          () => 0,
        ),
      );
    });
    await page.goto(`${baseUrl}/trade/BTC_USDT`);
    await page.locator('[data-testid="book-buy"], [data-testid="book-sell"]').first().waitFor({
      timeout: bookTimeoutMs,
    });
    // Measured in the page: navigation start is its time origin.
    const bookMs = await page.evaluate(() => performance.now());
    await page.waitForLoadState('networkidle');
    const sizes = await Promise.all(scripts);
    const jsGzipKb = sizes.reduce((sum, size) => sum + size, 0) / 1024;
    return { jsGzipKb, bookMs };
  } finally {
    await browser.close();
  }
}

spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'lattice-bench-web-'));
const server = spawn(process.execPath, ['packages/server/dist/main.js'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  },
  stdio: 'ignore',
});
try {
  await waitForHealth(baseUrl, server);
  const { jsGzipKb, bookMs } = await measure(baseUrl);
  console.log(`trade js gzip KB: ${Math.ceil(jsGzipKb)}`);
  console.log(`first book render ms: ${Math.round(bookMs)}`);
} finally {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
