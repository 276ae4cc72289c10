import {
  antiPhishingAddRequest,
  changePasswordRequest,
  customFeeRequest,
  generalSettingsRequest,
  logoutTimesMinutes,
  totpRequest,
  twoFactorCodeRequest,
} from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { fail, parseWith } from '../auth/fail.js';
import { changePassword } from '../auth/password.service.js';
import { requireUser, signedInUser } from '../auth/requestAuth.js';
import {
  deleteSession,
  deleteUserSessions,
  findSession,
  listActiveSessions,
} from '../auth/sessions.repo.js';
import { presentGeneralSettings, saveGeneralSettings, setCustomFee } from './settings.service.js';
import {
  generateTwoFactor,
  setAntiPhishingCode,
  toggleAntiPhishing,
  toggleTwoFactor,
} from './twoFactorSettings.service.js';

const sessionParams = z.object({ id: z.string().min(1).max(32) });

/** Settings, security, sessions, 2FA and anti-phishing of the signed-in user (cookie only). */
export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const deps = app.accounts;
  const signedIn = { preHandler: requireUser };

  app.get('/api/v2/common/logoutTimes', async () => ({ records: logoutTimesMinutes }));

  app.get('/api/v2/settings/general', signedIn, async (request) =>
    presentGeneralSettings(signedInUser(request).user),
  );

  app.post('/api/v2/settings/general', signedIn, async (request) => {
    const body = parseWith(generalSettingsRequest, request.body);
    const user = await saveGeneralSettings(deps, signedInUser(request).user, body);
    return presentGeneralSettings(user);
  });

  app.post('/api/v2/settings/customfee', signedIn, async (request) => {
    const body = parseWith(customFeeRequest, request.body);
    await setCustomFee(deps, signedInUser(request).user, body.customfee === 1);
    return { isCustomFeeEnabled: body.customfee === 1 };
  });

  app.post('/api/v2/settings/password', signedIn, async (request) => {
    const body = parseWith(changePasswordRequest, request.body);
    const { user, session } = signedInUser(request);
    await changePassword(deps, user, body, session?.id ?? null, request.ip);
    return { status: 'ok' };
  });

  app.get('/api/v2/settings/security', signedIn, async (request) => {
    const { user, session } = signedInUser(request);
    return {
      twoFactorEnabled: user.totp_secret !== null,
      antiPhishingEnabled: user.anti_phishing_enabled === 1,
      antiPhishingCodes: user.anti_phishing_code,
      sessions: await presentSessions(user.id, session?.id ?? null),
    };
  });

  app.get('/api/v2/settings/session', signedIn, async (request) => {
    const { user, session } = signedInUser(request);
    return presentSessions(user.id, session?.id ?? null);
  });

  app.post('/api/v2/settings/session/:id/terminate', signedIn, async (request) => {
    const { id } = parseWith(sessionParams, request.params);
    const { user } = signedInUser(request);
    const target = await findSession(deps.db, id);
    if (target === undefined || target.user_id !== user.id) fail('session_not_found');
    await deleteSession(deps.db, id);
    return { status: 'ok' };
  });

  app.post('/api/v2/settings/session/terminate', signedIn, async (request) => {
    const { user, session } = signedInUser(request);
    const terminated = await deleteUserSessions(deps.db, user.id, session?.id ?? null);
    return { status: 'ok', terminated };
  });

  app.post('/api/v2/settings/2fa/generate', signedIn, async (request) =>
    generateTwoFactor(deps, signedInUser(request).user),
  );

  app.post('/api/v2/settings/2fa/toggle', signedIn, async (request) => {
    const body = parseWith(twoFactorCodeRequest, request.body);
    return toggleTwoFactor(deps, signedInUser(request).user, body.code, request.ip);
  });

  app.get('/api/v2/settings/anti_phishing', signedIn, async (request) => {
    const { user } = signedInUser(request);
    return {
      antiPhishingEnabled: user.anti_phishing_enabled === 1,
      antiPhishingCodes: user.anti_phishing_code,
    };
  });

  app.post('/api/v2/settings/anti_phishing', signedIn, async (request) => {
    const body = parseWith(totpRequest, request.body);
    return toggleAntiPhishing(deps, signedInUser(request).user, body.totp, request.ip);
  });

  app.post('/api/v2/settings/anti_phishing/add', signedIn, async (request) => {
    const body = parseWith(antiPhishingAddRequest, request.body);
    return setAntiPhishingCode(deps, signedInUser(request).user, body.code, body.totp, request.ip);
  });

  async function presentSessions(userId: number, currentId: string | null) {
    const rows = await listActiveSessions(deps.db, userId);
    return rows.map((row) => ({
      id: row.id,
      ipAddress: row.ip_address,
      lastActivity: row.last_seen_at / 1000,
      userAgent: row.user_agent,
      isCurrent: row.id === currentId,
    }));
  }
}
