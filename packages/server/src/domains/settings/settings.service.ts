import type { generalSettingsRequest } from '@lattice/contracts';
import type { z } from 'zod';
import type { AccountsDeps } from '../auth/accountsDeps.js';
import { fail } from '../auth/fail.js';
import { type UserRow, type UserUpdate, updateUser } from '../auth/users.repo.js';

export function presentGeneralSettings(user: UserRow) {
  return {
    email: user.email,
    nickname: user.nickname,
    canChangeNickname: user.nickname_changed_at === null,
    language: user.language,
    logoutTime: user.logout_minutes,
    isCustomFeeEnabled: user.custom_fee_enabled === 1,
    isTwoFactorEnabled: user.totp_secret !== null,
  };
}

/** Saves general settings; the nickname can be set once and then never again (SPEC.md §5). */
export async function saveGeneralSettings(
  deps: AccountsDeps,
  user: UserRow,
  body: z.infer<typeof generalSettingsRequest>,
): Promise<UserRow> {
  const now = deps.now();
  const changes: UserUpdate = {};
  if (body.nickname !== undefined && body.nickname !== user.nickname) {
    if (user.nickname_changed_at !== null)
      fail('settings_nickname_locked', {
        errors: { nickname: ['Nickname can be changed only once'] },
      });
    const taken = await deps.db
      .selectFrom('users')
      .select('id')
      .where('nickname', '=', body.nickname)
      .executeTakeFirst();
    if (taken !== undefined) {
      fail('validation_failed', { errors: { nickname: ['Nickname already in use'] } });
    }
    changes.nickname = body.nickname;
    changes.nickname_changed_at = now;
  }
  if (body.language !== undefined) changes.language = body.language;
  if (body.logoutTime !== undefined) changes.logout_minutes = body.logoutTime;
  if (Object.keys(changes).length > 0) await updateUser(deps.db, user.id, changes, now);
  return { ...user, ...changes };
}

export async function setCustomFee(deps: AccountsDeps, user: UserRow, enabled: boolean) {
  await updateUser(deps.db, user.id, { custom_fee_enabled: enabled ? 1 : 0 }, deps.now());
}
