import { randomBytes } from 'node:crypto';
import type { apiKeyCreateRequest } from '@lattice/contracts';
import type { z } from 'zod';
import type { AccountsDeps } from '../auth/accountsDeps.js';
import { fail } from '../auth/fail.js';
import { verifyUserTotp } from '../auth/twoFactor.js';
import type { UserRow } from '../auth/users.repo.js';
import {
  type ApiKeyRow,
  deleteApiKey,
  insertApiKey,
  listApiKeys,
  setApiKeyEnabled,
} from './apiKeys.repo.js';

/** Keys one user may hold at once. */
export const API_KEYS_PER_USER_MAX = 20;

/**
 * Creates a key for a user with 2FA on, confirmed by a TOTP code. The secret is returned once
 * and stored only sealed with SECRET_KEY.
 */
export async function createApiKey(
  deps: AccountsDeps,
  user: UserRow,
  body: z.infer<typeof apiKeyCreateRequest>,
  ip: string,
): Promise<{ row: ApiKeyRow; secret: string }> {
  if (user.totp_secret === null) fail('auth_two_factor_required');
  await verifyUserTotp(deps, user, body.totp, ip, 'totp');
  const existing = await listApiKeys(deps.db, user.id);
  if (existing.length >= API_KEYS_PER_USER_MAX) {
    fail('validation_failed', { errors: { name: [`At most ${API_KEYS_PER_USER_MAX} API keys`] } });
  }
  const secret = randomBytes(32).toString('hex');
  const row = await insertApiKey(deps.db, {
    userId: user.id,
    name: body.name ?? `Key ${existing.length + 1}`,
    apiKey: randomBytes(16).toString('hex'),
    secretSealed: deps.apiKeyBox.seal(secret),
    scopes: [...new Set(body.scopes)],
    ipAllowList: body.ipAllowList,
    now: deps.now(),
  });
  await deps.mailer.send(user, 'api_key_created', { ip });
  return { row, secret };
}

/** Turns a key on or off; turning one on needs 2FA to be on (SPEC.md §6). */
export async function toggleApiKey(deps: AccountsDeps, user: UserRow, id: number) {
  const row = (await listApiKeys(deps.db, user.id)).find((key) => key.id === id);
  if (row === undefined) fail('api_key_not_found');
  const enable = row.is_enabled !== 1;
  if (enable && user.totp_secret === null) fail('auth_two_factor_required');
  await setApiKeyEnabled(deps.db, user.id, id, enable);
  return { ...row, is_enabled: enable ? 1 : 0 };
}

export async function removeApiKey(deps: AccountsDeps, user: UserRow, id: number) {
  if (!(await deleteApiKey(deps.db, user.id, id))) fail('api_key_not_found');
}
