import { local, storageKeys } from './storage';

/** The pair the user last opened on a trade screen, remembered across visits. */
export function activePair(): string | null {
  return local.get(storageKeys.activePair);
}

export function rememberActivePair(pair: string): void {
  local.set(storageKeys.activePair, pair);
}
