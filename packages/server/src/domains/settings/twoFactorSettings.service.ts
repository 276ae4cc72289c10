import { disableUserApiKeys } from '../apiKeys/apiKeys.repo.js';
import type { AccountsDeps } from '../auth/accountsDeps.js';
import { fail } from '../auth/fail.js';
import { createTotpSecret, totpEnrolment } from '../auth/totp.js';
import { verifySecretTotp, verifyUserTotp } from '../auth/twoFactor.js';
import { type UserRow, updateUser } from '../auth/users.repo.js';

/** Starts 2FA enrolment: a new pending secret, shown once as text and as a QR code. */
export async function generateTwoFactor(deps: AccountsDeps, user: UserRow) {
  if (user.totp_secret !== null)
    fail('validation_failed', {
      errors: { code: ['Two-factor authentication is already on'] },
    });
  const secret = createTotpSecret();
  await updateUser(
    deps.db,
    user.id,
    { totp_pending_secret: deps.totpBox.seal(secret) },
    deps.now(),
  );
  const { uri, qrUrl } = totpEnrolment(secret, user.email);
  return { twoFactorSecret: secret, twoFactorQrUrl: qrUrl, twoFactorUri: uri };
}

/**
 * Turns 2FA on (with a code of the pending secret) or off (with a code of the current one).
 * Turning it off disables every API key of the user (SPEC.md §6).
 */
export async function toggleTwoFactor(
  deps: AccountsDeps,
  user: UserRow,
  code: string,
  ip: string,
): Promise<{ twoFactorEnabled: boolean }> {
  const now = deps.now();
  if (user.totp_secret !== null) {
    await verifyUserTotp(deps, user, code, ip);
    await updateUser(deps.db, user.id, { totp_secret: null, totp_pending_secret: null }, now);
    await disableUserApiKeys(deps.db, user.id);
    await deps.mailer.send(user, 'two_factor_disabled', {});
    return { twoFactorEnabled: false };
  }
  if (user.totp_pending_secret === null) {
    fail('validation_failed', { errors: { code: ['Generate a secret first'] } });
  }
  const secret = deps.totpBox.open(user.totp_pending_secret);
  await verifySecretTotp(deps, user.id, secret, code, ip);
  await updateUser(
    deps.db,
    user.id,
    { totp_secret: user.totp_pending_secret, totp_pending_secret: null },
    now,
  );
  await deps.mailer.send(user, 'two_factor_enabled', {});
  return { twoFactorEnabled: true };
}

/** Anti-phishing: turning it on, off or setting the code needs 2FA and a code. */
export async function toggleAntiPhishing(
  deps: AccountsDeps,
  user: UserRow,
  totp: string,
  ip: string,
) {
  await verifyUserTotp(deps, user, totp, ip, 'totp');
  const enabled = user.anti_phishing_enabled !== 1 && user.anti_phishing_code !== null;
  if (user.anti_phishing_enabled !== 1 && user.anti_phishing_code === null) {
    fail('validation_failed', { errors: { code: ['Set an anti-phishing code first'] } });
  }
  await updateUser(deps.db, user.id, { anti_phishing_enabled: enabled ? 1 : 0 }, deps.now());
  return { antiPhishingEnabled: enabled };
}

export async function setAntiPhishingCode(
  deps: AccountsDeps,
  user: UserRow,
  code: string,
  totp: string,
  ip: string,
) {
  await verifyUserTotp(deps, user, totp, ip, 'totp');
  await updateUser(
    deps.db,
    user.id,
    { anti_phishing_code: code, anti_phishing_enabled: 1 },
    deps.now(),
  );
  return { antiPhishingEnabled: true, antiPhishingCodes: code };
}
