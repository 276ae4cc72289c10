import argon2 from 'argon2';

/**
 * Argon2id with the OWASP minimum: 19 MiB of memory, 2 passes, 1 lane (tens of ms per check).
 * Hashes carry their parameters, so raising them later still verifies old hashes.
 */
export const ARGON2_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** The PHC string of a new password. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash; with no hash (unknown e-mail) it checks against a
 * dummy one and answers false, so both cases take the same time and cannot be told apart.
 */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (hash === null) {
    dummyHash ??= hashPassword('not-a-password-of-anyone');
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}
