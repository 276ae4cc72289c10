import { useSyncExternalStore } from 'react';
import { local, storageKeys } from './storage';

export type Theme = 'light' | 'dark';

const listeners = new Set<() => void>();

/** The theme in force: dark only when the user chose it on this browser (SPEC.md §1). */
export function currentTheme(): Theme {
  return local.get(storageKeys.theme) === 'dark' ? 'dark' : 'light';
}

/** Puts the theme on the page, where the CSS variables of each theme hang. */
export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  document.documentElement.style.colorScheme = theme;
}

export function setTheme(theme: Theme): void {
  if (theme === 'dark') local.set(storageKeys.theme, 'dark');
  else local.remove(storageKeys.theme);
  applyTheme(theme);
  for (const listener of listeners) listener();
}

export function useTheme(): [Theme, (theme: Theme) => void] {
  const theme = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    currentTheme,
    () => 'light' as const,
  );
  return [theme, setTheme];
}
