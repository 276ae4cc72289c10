import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { currentThreadId } from './threadPriority.js';

/** The nice value of each thread of this process, by thread id (Linux's /proc). */
function threadNices(): Map<number, number> {
  const tasks = `/proc/${process.pid}/task`;
  const nices = new Map<number, number>();
  for (const id of readdirSync(tasks)) {
    const stat = readFileSync(`${tasks}/${id}/stat`, 'utf8');
    // Field 19 of stat(5); the fields after the command name, which may hold spaces, from 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    nices.set(Number.parseInt(id, 10), Number.parseInt(fields[16] ?? '', 10));
  }
  return nices;
}

describe.runIf(process.platform === 'linux')('lowerThreadPriority', () => {
  it('lowers the priority of the thread that calls it, and of no other', async () => {
    const before = threadNices();
    const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
    const source = fileURLToPath(new URL('./threadPriority.ts', import.meta.url));
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const module = require(${JSON.stringify(tsx)}).require(${JSON.stringify(source)}, __filename);
       const lowered = module.lowerThreadPriority(7);
       parentPort.postMessage({ lowered, threadId: module.currentThreadId() });
       setTimeout(() => {}, 5000);`,
      { eval: true },
    );
    try {
      const reply = await new Promise<{ lowered: boolean; threadId: number }>((resolve) =>
        worker.once('message', resolve),
      );
      expect(reply.lowered).toBe(true);
      const after = threadNices();
      expect(after.get(reply.threadId)).toBe(7);
      const self = currentThreadId();
      expect(self).not.toBeNull();
      expect(after.get(self ?? 0)).toBe(before.get(self ?? 0));
      for (const [threadId, nice] of before) {
        if (after.has(threadId)) expect(after.get(threadId)).toBe(nice);
      }
    } finally {
      await worker.terminate();
    }
  });
});
