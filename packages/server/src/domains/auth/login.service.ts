import type { LoginRequest } from '@lattice/contracts';
import type { AccountsDeps } from './accountsDeps.js';
import { isDeviceConfirmed, issueDeviceCode, redeemDeviceCode } from './devices.js';
import { fail } from './fail.js';
import {
  type AttemptKeys,
  guardAttempt,
  recordAttemptFailure,
  recordAttemptSuccess,
  takeOrFail,
} from './guards.js';
import { verifyPassword } from './passwords.js';
import { sendEmailConfirmation } from './registration.service.js';
import type { ClientInfo } from './sessions.js';
import { findUserByEmail, type UserRow } from './users.repo.js';

export type LoginOutcome =
  | { next: 'signed_in'; user: UserRow }
  | { next: '2fa'; user: UserRow }
  | { next: 'device_confirmation'; user: UserRow };

const wrongCredentials = {
  errors: { email: ['Wrong email or password'], password: ['Wrong email or password'] },
};

/**
 * The password step of sign-in, then the device check. Unknown e-mail and wrong password give
 * the same answer after the same work (a dummy Argon2 check); failures slow down, then cap,
 * both the account and the address.
 */
export async function logIn(
  deps: AccountsDeps,
  body: LoginRequest,
  client: ClientInfo,
  deviceId: string,
): Promise<LoginOutcome> {
  const keys: AttemptKeys = { account: `login:${body.email}`, ip: `login:${client.ip}` };
  guardAttempt(deps.limiters, keys);
  const user = await findUserByEmail(deps.db, body.email);
  const passwordOk = await verifyPassword(user?.password_hash ?? null, body.password);
  if (user === undefined || !passwordOk) {
    recordAttemptFailure(deps.limiters, keys);
    fail('auth_invalid_credentials', wrongCredentials);
  }
  if (user.email_verified_at === null) {
    takeOrFail(deps.limiters.mailsPerAccount, `mail:${user.id}`);
    await sendEmailConfirmation(deps, user);
    fail('auth_email_not_confirmed');
  }
  if (!(await isDeviceConfirmed(deps.db, user.id, deviceId))) {
    if (body.device_code === undefined) {
      await sendDeviceCode(deps, user, deviceId, client);
      return { next: 'device_confirmation', user };
    }
    const now = deps.now();
    if (!(await redeemDeviceCode(deps.db, user.id, deviceId, body.device_code, client, now))) {
      recordAttemptFailure(deps.limiters, keys);
      fail('auth_device_code_invalid', {
        errors: { device_code: ['The code is wrong or has expired'] },
      });
    }
  }
  recordAttemptSuccess(deps.limiters, keys);
  return { next: user.totp_secret === null ? 'signed_in' : '2fa', user };
}

/** E-mails a new device code (limited per account, since anyone may ask for one). */
export async function sendDeviceCode(
  deps: AccountsDeps,
  user: UserRow,
  deviceId: string,
  client: ClientInfo,
): Promise<void> {
  takeOrFail(deps.limiters.mailsPerAccount, `mail:${user.id}`);
  const code = await issueDeviceCode(deps.db, user.id, deviceId, client, deps.now());
  await deps.mailer.send(user, 'device_code', {
    action: code,
    code,
    device: client.userAgent.slice(0, 120) || 'unknown browser',
    ip: client.ip,
  });
}
