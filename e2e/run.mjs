// Runs the browser tests on a fresh machine: installs Chromium when missing, builds the app,
// starts the real server on a free port with an empty data directory, runs the tests, stops it.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const chromiumPath = '/usr/bin/chromium';
const healthTimeoutMs = 60_000;

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed with status ${result.status}`);
  }
}

function installChromium() {
  if (existsSync(chromiumPath)) return;
  console.log('e2e: installing Chromium from Debian');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-qq', 'chromium'], { env });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseUrl, server) {
  const deadline = Date.now() + healthTimeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer ${baseUrl}/api/health within ${healthTimeoutMs} ms`);
}

function stop(server) {
  return new Promise((resolve) => {
    if (server.exitCode !== null) return resolve();
    const force = setTimeout(() => server.kill('SIGKILL'), 10_000);
    server.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    server.kill('SIGTERM');
  });
}

installChromium();
run('npm', ['run', 'build']);

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'lattice-e2e-'));
const resultsDir = join(root, 'e2e', 'results');
mkdirSync(resultsDir, { recursive: true });
const serverLog = createWriteStream(join(resultsDir, 'server.log'));
const server = spawn(process.execPath, ['packages/server/dist/main.js'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    NODE_ENV: 'development',
    DEV_TOOLS: '1',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
server.stdout.pipe(serverLog);
server.stderr.pipe(serverLog);

let status = 1;
try {
  await waitForHealth(baseUrl, server);
  console.log(`e2e: server at ${baseUrl}, data in ${dataDir}`);
  const tests = spawnSync('npx', ['vitest', 'run', '--config', 'e2e/vitest.config.ts'], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, E2E_BASE_URL: baseUrl, E2E_CHROMIUM: chromiumPath },
  });
  status = tests.status ?? 1;
} catch (error) {
  console.error(`e2e: ${error.message} (server log: e2e/results/server.log)`);
} finally {
  await stop(server);
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(status);
