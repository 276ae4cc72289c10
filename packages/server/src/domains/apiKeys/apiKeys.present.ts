import type { apiKeyRow } from '@lattice/contracts';
import type { z } from 'zod';
import { type ApiKeyRow, ipAllowListOf, scopesOf } from './apiKeys.repo.js';

/** An API key as its owner sees it in the list: never the secret. */
export function presentApiKey(row: ApiKeyRow): z.infer<typeof apiKeyRow> {
  return {
    id: row.id,
    name: row.name,
    key: row.api_key,
    isEnabled: row.is_enabled === 1,
    scopes: scopesOf(row),
    ipAllowList: ipAllowListOf(row),
    createdAt: row.created_at / 1000,
    lastUsedAt: row.last_used_at === null ? null : row.last_used_at / 1000,
  };
}
