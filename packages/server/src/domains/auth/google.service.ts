import { randomBytes } from 'node:crypto';
import type { AccountsDeps } from './accountsDeps.js';
import type { GoogleIdentity } from './google.js';
import { hashPassword } from './passwords.js';
import {
  findUserByEmail,
  findUserByGoogleSubject,
  insertUser,
  type UserRow,
  updateUser,
} from './users.repo.js';

/**
 * The account of a Google identity: the one linked to its subject, else the one with its
 * (Google-verified) address, which gets linked. Null when there is none yet (sign-up).
 */
export async function accountForGoogle(
  deps: AccountsDeps,
  identity: GoogleIdentity,
): Promise<UserRow | null> {
  const linked = await findUserByGoogleSubject(deps.db, identity.subject);
  if (linked !== undefined) return linked;
  const byEmail = await findUserByEmail(deps.db, identity.email);
  if (byEmail === undefined || byEmail.google_subject !== null) return null;
  const now = deps.now();
  const changes = {
    google_subject: identity.subject,
    email_verified_at: byEmail.email_verified_at ?? now,
  };
  await updateUser(deps.db, byEmail.id, changes, now);
  return { ...byEmail, ...changes };
}

/**
 * Creates the account of a Google sign-up once the person accepted the terms. It gets a random
 * password nobody knows; "forgot password" sets a real one.
 */
export async function createGoogleAccount(
  deps: AccountsDeps,
  identity: GoogleIdentity,
  country: string,
  language: string,
): Promise<UserRow | null> {
  const now = deps.now();
  const id = await insertUser(deps.db, {
    email: identity.email,
    passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
    country,
    language,
    emailVerifiedAt: now,
    googleSubject: identity.subject,
    now,
  });
  if (id === null) return null;
  return (await findUserByGoogleSubject(deps.db, identity.subject)) ?? null;
}
