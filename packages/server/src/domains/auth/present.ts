import type { SessionUser } from '@lattice/contracts';
import type { UserRow } from './users.repo.js';

const kycStatuses = new Set(['verified', 'pending', 'unverified']);

/** The user as auth responses and `systemParams` show it (API.md "Bootstrap"). */
export function presentSessionUser(user: UserRow): SessionUser {
  return {
    id: user.id,
    email: user.email,
    nickname: user.nickname,
    kyc: kycStatuses.has(user.kyc_status) ? (user.kyc_status as SessionUser['kyc']) : 'unverified',
    twoFactorEnabled: user.totp_secret !== null,
  };
}
