import { authMessages, type RegisterRequest } from '@lattice/contracts';
import type { AccountsDeps } from './accountsDeps.js';
import { consumeEmailToken, issueEmailToken } from './emailTokens.repo.js';
import { failField } from './fail.js';
import { takeOrFail } from './guards.js';
import { hashPassword } from './passwords.js';
import { findUserById, insertUser, type UserRow, updateUser } from './users.repo.js';

const CONFIRMATION_TTL_MS = 48 * 3_600_000;

/** Creates an account waiting for its e-mail confirmation and mails the link. */
export async function register(
  deps: AccountsDeps,
  body: RegisterRequest,
  ip: string,
  language: string,
): Promise<void> {
  takeOrFail(deps.limiters.registrationsPerIp, `register:${ip}`);
  const now = deps.now();
  const userId = await insertUser(deps.db, {
    email: body.email,
    passwordHash: await hashPassword(body.password),
    country: body.country,
    language,
    emailVerifiedAt: null,
    googleSubject: null,
    now,
  });
  if (userId === null) failField('email', authMessages.emailInUse);
  const user = await findUserById(deps.db, userId);
  if (user !== undefined) await sendEmailConfirmation(deps, user);
}

/** Mails a link to `/verify?token=…` that confirms the address. */
export async function sendEmailConfirmation(deps: AccountsDeps, user: UserRow): Promise<void> {
  const token = await issueEmailToken(
    deps.db,
    user.id,
    'verify_email',
    CONFIRMATION_TTL_MS,
    deps.now(),
  );
  const link = `${deps.publicUrl}/verify?token=${encodeURIComponent(token)}`;
  await deps.mailer.send(user, 'verify_email', { action: link });
}

/** Confirms the address of the link's account; null for a dead link. */
export async function confirmEmail(deps: AccountsDeps, token: string): Promise<UserRow | null> {
  const now = deps.now();
  const userId = await consumeEmailToken(deps.db, token, 'verify_email', now);
  if (userId === null) return null;
  const user = await findUserById(deps.db, userId);
  if (user === undefined) return null;
  if (user.email_verified_at === null) {
    await updateUser(deps.db, user.id, { email_verified_at: now }, now);
    user.email_verified_at = now;
  }
  return user;
}
