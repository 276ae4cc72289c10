import { session, storageKeys } from './storage';

let lastHref: string | null = null;

/** Remembers the last link clicked, so a failed route change can load it afresh. */
export function trackLinkClicks(target: Document = document): () => void {
  const handleClick = (event: MouseEvent) => {
    const link = (event.target as Element | null)?.closest?.('a[href]');
    if (link instanceof HTMLAnchorElement && link.origin === window.location.origin) {
      lastHref = link.href;
    }
  };
  target.addEventListener('click', handleClick, true);
  return () => target.removeEventListener('click', handleClick, true);
}

export function lastClickedHref(): string | null {
  return lastHref;
}

/** A module of the app failed to load: usually a new release replaced the old files. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|Failed to fetch dynamically|error loading dynamically/i.test(
    message,
  );
}

/**
 * Loads `href` as a full page once; a second failure for the same address within a minute
 * is shown instead of reloading again, so a broken release cannot loop.
 */
export function reloadOnce(href: string, now = Date.now()): boolean {
  const previous = session.get(storageKeys.reloadedFor);
  const [previousHref, at] = previous?.split('|') ?? [];
  if (previousHref === href && now - Number(at) < 60_000) return false;
  session.set(storageKeys.reloadedFor, `${href}|${now}`);
  window.location.assign(href);
  return true;
}
