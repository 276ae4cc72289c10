import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The kernel's id of the calling thread, from `/proc/thread-self` (Linux); null elsewhere. */
export function currentThreadId(): number | null {
  if (process.platform !== 'linux') return null;
  const threadId = Number.parseInt(readlinkSync('/proc/thread-self').split('/').pop() ?? '', 10);
  return Number.isSafeInteger(threadId) && threadId > 0 ? threadId : null;
}

/**
 * Lowers the scheduling priority of the calling thread (not of the process) to `nice`, on
 * Linux, where each thread has a nice value of its own. For background threads: when the cores
 * are busy they give way to the event loop and the commit worker instead of taking a core from
 * them. Returns whether it did; elsewhere, or when the system refuses, nothing changes.
 */
export function lowerThreadPriority(nice: number): boolean {
  try {
    const threadId = currentThreadId();
    if (threadId === null) return false;
    setPriority(threadId, nice);
    return true;
  } catch {
    return false;
  }
}
