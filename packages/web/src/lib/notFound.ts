import { session, storageKeys } from './storage';

/**
 * The 404 hand-over of SPEC.md §2: whoever meets a missing page stores its address and goes
 * to /not-found; the not-found page puts the address back in the address bar and forgets it.
 */
export function rememberNotFoundPath(path: string): void {
  session.set(storageKeys.notFoundPath, path);
}

/** The stored address, removed as it is read. */
export function takeNotFoundPath(): string | null {
  const path = session.get(storageKeys.notFoundPath);
  session.remove(storageKeys.notFoundPath);
  return path;
}
