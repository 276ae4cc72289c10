/**
 * Browser storage that never throws: storage can be disabled or full (private windows), and a
 * preference that cannot be saved must not break the page.
 */
function safe(storage: () => Storage) {
  return {
    get(key: string): string | null {
      try {
        return storage().getItem(key);
      } catch {
        return null;
      }
    },
    set(key: string, value: string): void {
      try {
        storage().setItem(key, value);
      } catch {
        // Not saved: the preference lasts for this page only.
      }
    },
    remove(key: string): void {
      try {
        storage().removeItem(key);
      } catch {
        // Nothing stored, nothing to remove.
      }
    },
  };
}

export const local = safe(() => window.localStorage);
export const session = safe(() => window.sessionStorage);

/** Every key the app stores, in one place so none collide. */
export const storageKeys = {
  theme: 'lattice.theme',
  cookiesAccepted: 'lattice.cookiesAccepted',
  activePair: 'lattice.activePair',
  notFoundPath: 'lattice.notFoundPath',
  reloadedFor: 'lattice.reloadedFor',
} as const;
