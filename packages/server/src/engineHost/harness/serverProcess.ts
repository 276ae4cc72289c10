import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** One line of the server's JSON log. */
export interface LogLine {
  readonly msg?: string;
  readonly [field: string]: unknown;
}

/** The repository root, from this file's place in `packages/server/src/engineHost/harness`. */
export const repoRoot = fileURLToPath(new URL('../../../../../', import.meta.url));

/**
 * A real server process (`node --import tsx packages/server/src/main.ts`, or a bundle of it) for
 * crash tests and benchmarks: its JSON log is parsed line by line so callers can wait for, or react to, a line.
 */
export class ServerProcess {
  readonly logs: LogLine[] = [];
  private readonly listeners = new Set<(line: LogLine) => void>();
  private readonly exited: Promise<number | null>;
  private stderr = '';

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /**
   * Starts the server on a free port and resolves once `GET /api/health` answers (whatever the
   * log level).
   */
  static async start(
    env: Record<string, string>,
    options: { startTimeoutMs?: number; nodeArgs?: readonly string[]; bundle?: string } = {},
  ): Promise<ServerProcess> {
    const port = await freePort();
    const entry = options.bundle
      ? [options.bundle]
      : ['--import', 'tsx', 'packages/server/src/main.ts'];
    const args = [...(options.nodeArgs ?? []), ...entry];
    const child = spawn(process.execPath, args, {
      cwd: repoRoot,
      env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new ServerProcess(child, `http://127.0.0.1:${port}`);
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
        server.receive(parseLine(buffered.slice(0, newline)));
        buffered = buffered.slice(newline + 1);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      server.stderr += chunk.toString();
    });
    await server.waitUntilHealthy(options.startTimeoutMs ?? 30_000);
    return server;
  }

  private async waitUntilHealthy(timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    let exitCode: number | null | undefined;
    void this.exited.then((code) => {
      exitCode = code;
    });
    while (performance.now() < deadline) {
      if (exitCode !== undefined) {
        throw new Error(`server exited with ${exitCode} before listening:\n${this.stderr}`);
      }
      try {
        const response = await fetch(`${this.url}/api/health`);
        if (response.ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    this.child.kill('SIGKILL');
    throw new Error(`server did not start within ${timeoutMs} ms:\n${this.stderr}`);
  }

  /** Calls `listener` for each later log line; returns the function that stops it. */
  onLog(listener: (line: LogLine) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The first log line (already seen or to come) that `matches`. */
  waitForLog(matches: (line: LogLine) => boolean, timeoutMs = 30_000): Promise<LogLine> {
    const seen = this.logs.find(matches);
    if (seen) return Promise.resolve(seen);
    return this.nextLog(matches, timeoutMs);
  }

  /** The first log line from now on that `matches`. */
  nextLog(matches: (line: LogLine) => boolean, timeoutMs = 30_000): Promise<LogLine> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        reject(new Error('timed out waiting for a log line'));
      }, timeoutMs);
      const stop = this.onLog((line) => {
        if (!matches(line)) return;
        clearTimeout(timer);
        stop();
        resolve(line);
      });
    });
  }

  /** SIGKILL: no shutdown code runs, as in a power cut. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM: a graceful stop; resolves with the exit code. */
  async stop(): Promise<number | null> {
    this.child.kill('SIGTERM');
    return this.exited;
  }

  /** The process id (benchmarks read its CPU time). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get errorOutput(): string {
    return this.stderr;
  }

  private receive(line: LogLine): void {
    this.logs.push(line);
    for (const listener of this.listeners) listener(line);
  }
}

/** A port nobody listens on now (the OS picks it). */
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

function parseLine(text: string): LogLine {
  try {
    return JSON.parse(text) as LogLine;
  } catch {
    return { msg: text };
  }
}
