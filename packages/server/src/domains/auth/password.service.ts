import { authMessages } from '@lattice/contracts';
import type { AccountsDeps } from './accountsDeps.js';
import {
  consumeEmailToken,
  issueEmailToken,
  peekEmailToken,
  voidEmailTokens,
} from './emailTokens.repo.js';
import { fail, failField } from './fail.js';
import { type AttemptKeys, guardAttempt, recordAttemptFailure, takeOrFail } from './guards.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { deleteUserSessions } from './sessions.repo.js';
import { verifyUserTotp } from './twoFactor.js';
import { findUserByEmail, findUserById, type UserRow, updateUser } from './users.repo.js';

/** SPEC.md §8: the reply never tells whether the address has an account. */
export const passwordResetReply = {
  status: 'ok',
  message: 'If such an email exists in the system, then we sent an email to reset the password',
} as const;

const RESET_TTL_MS = 3_600_000;
/** A new password pauses withdrawals this long (SPEC.md §5). */
export const WITHDRAWAL_BLOCK_MS = 3 * 24 * 3_600_000;

export async function requestPasswordReset(deps: AccountsDeps, email: string, ip: string) {
  takeOrFail(deps.limiters.passwordResetsPerIp, `reset:${ip}`);
  const user = await findUserByEmail(deps.db, email);
  if (user !== undefined && user.email_verified_at !== null) {
    // NOTE: a per-account cap too, or anyone could fill a victim's mailbox from many addresses;
    // past it the generic answer still comes back, and no mail is sent.
    if (deps.limiters.mailsPerAccount.take(`mail:${user.id}`) === 0) {
      const token = await issueEmailToken(
        deps.db,
        user.id,
        'password_reset',
        RESET_TTL_MS,
        deps.now(),
      );
      const link = `${deps.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
      await deps.mailer.send(user, 'password_reset', { action: link });
    }
  }
  return passwordResetReply;
}

export async function validateResetToken(deps: AccountsDeps, token: string) {
  const userId = await peekEmailToken(deps.db, token, 'password_reset', deps.now());
  const user = userId === null ? undefined : await findUserById(deps.db, userId);
  if (user === undefined) fail('auth_link_invalid', { errors: { token: ['Token is required'] } });
  return { status: 'ok', twoFactorRequired: user.totp_secret !== null };
}

/**
 * Sets a new password from a reset link. With 2FA on, the code is asked too: a stolen mailbox
 * alone must not take the account. Every session ends and withdrawals pause for 3 days.
 */
export async function resetPassword(
  deps: AccountsDeps,
  body: { token: string; password: string; totp?: string | undefined },
  ip: string,
): Promise<void> {
  const now = deps.now();
  const userId = await peekEmailToken(deps.db, body.token, 'password_reset', now);
  const user = userId === null ? undefined : await findUserById(deps.db, userId);
  if (user === undefined) fail('auth_link_invalid', { errors: { token: ['Token is required'] } });
  if (user.totp_secret !== null) {
    if (body.totp === undefined) failField('totp', authMessages.required);
    await verifyUserTotp(deps, user, body.totp, ip, 'totp');
  }
  if ((await consumeEmailToken(deps.db, body.token, 'password_reset', now)) === null) {
    fail('auth_link_invalid', { errors: { token: ['Token is required'] } });
  }
  await setNewPassword(deps, user, body.password, null);
}

/** Changes the password of a signed-in user, who proves the old one (and 2FA when on). */
export async function changePassword(
  deps: AccountsDeps,
  user: UserRow,
  body: { old_password: string; password: string; totp?: string | undefined },
  sessionId: string | null,
  ip: string,
): Promise<void> {
  // The old password is a secret a stolen session must not be able to guess at speed.
  const keys: AttemptKeys = { account: `login:${user.email}`, ip: `login:${ip}` };
  guardAttempt(deps.limiters, keys);
  if (!(await verifyPassword(user.password_hash, body.old_password))) {
    recordAttemptFailure(deps.limiters, keys);
    failField('old_password', 'Wrong password');
  }
  if (user.totp_secret !== null) {
    if (body.totp === undefined) failField('totp', authMessages.required);
    await verifyUserTotp(deps, user, body.totp, ip, 'totp');
  }
  await setNewPassword(deps, user, body.password, sessionId);
}

async function setNewPassword(
  deps: AccountsDeps,
  user: UserRow,
  password: string,
  keepSessionId: string | null,
): Promise<void> {
  const now = deps.now();
  await updateUser(
    deps.db,
    user.id,
    {
      password_hash: await hashPassword(password),
      withdrawals_blocked_until: now + WITHDRAWAL_BLOCK_MS,
    },
    now,
  );
  await deleteUserSessions(deps.db, user.id, keepSessionId);
  await voidEmailTokens(deps.db, user.id, 'password_reset', now);
  await deps.mailer.send(user, 'password_changed', {});
}
