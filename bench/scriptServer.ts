import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../packages/server/src/engineHost/harness/serverProcess.js';

export interface ScriptServer {
  url: string;
  pid: number | undefined;
  /** Asks it to stop (SIGTERM); a second call does nothing. */
  stop: () => void;
}

/**
 * Starts a bench server script (`bench/<name>.ts`, under tsx) in a process of its own and
 * resolves with the URL it prints once it listens.
 */
export async function startScriptServer(name: string, args: string[] = []): Promise<ScriptServer> {
  const file = join(repoRoot, 'bench', `${name}.ts`);
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
  });
  return {
    url,
    pid: child.pid,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}
