import type { AccountsDeps } from './accountsDeps.js';
import { fail } from './fail.js';
import {
  type AttemptKeys,
  guardAttempt,
  recordAttemptFailure,
  recordAttemptSuccess,
} from './guards.js';
import { matchTotpStep } from './totp.js';
import { claimTotpStep, type UserRow } from './users.repo.js';

/**
 * Checks a TOTP code of a user with 2FA on. A code is accepted once: its time step must be later
 * than the last accepted one, which the database swaps atomically, so a replay (even two
 * requests at once) and any older code are refused. Failures count toward the rate limits.
 */
export async function verifyUserTotp(
  deps: AccountsDeps,
  user: UserRow,
  code: string,
  ip: string,
  field = 'code',
): Promise<void> {
  if (user.totp_secret === null) fail('auth_two_factor_required');
  await verifySecretTotp(deps, user.id, deps.totpBox.open(user.totp_secret), code, ip, field);
}

/** The same check against a given secret (enrolment confirms the pending secret). */
export async function verifySecretTotp(
  deps: AccountsDeps,
  userId: number,
  secret: string,
  code: string,
  ip: string,
  field = 'code',
): Promise<void> {
  const keys: AttemptKeys = { account: `2fa:${userId}`, ip: `2fa:${ip}` };
  guardAttempt(deps.limiters, keys);
  const step = matchTotpStep(secret, code, deps.now());
  if (step === null || !(await claimTotpStep(deps.db, userId, step))) {
    recordAttemptFailure(deps.limiters, keys);
    fail('auth_two_factor_invalid', { errors: { [field]: ['Wrong 2FA code'] } });
  }
  recordAttemptSuccess(deps.limiters, keys);
}
