import type { Db } from '../../db/database.js';
import { loadReferenceData } from '../../reference/reference.repo.js';
import type { ReferenceData } from '../../reference/reference.types.js';

/** Reference data changes only by an operator's hand; a minute of staleness is fine. */
const referenceCacheMs = 60_000;
const caches = new WeakMap<Db, { at: number; data: Promise<ReferenceData> }>();

/** The reference data, read at most once a minute per database. */
export function cachedReferenceData(db: Db, now = Date.now()): Promise<ReferenceData> {
  const cached = caches.get(db);
  if (cached !== undefined && now - cached.at <= referenceCacheMs) return cached.data;
  const data = loadReferenceData(db);
  caches.set(db, { at: now, data });
  data.catch(() => caches.delete(db));
  return data;
}

/** Drops the cached copy, so an operator's edit is seen by the next read. */
export function forgetCachedReferenceData(db: Db): void {
  caches.delete(db);
}
