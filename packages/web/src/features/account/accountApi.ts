import type {
  apiKeyCreateResponse,
  apiKeyRow,
  generalSettingsResponse,
  securitySettingsResponse,
  sessionRow,
  twoFactorGenerateResponse,
} from '@lattice/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { cacheMs } from '../../api/queryClient';

export type GeneralSettings = ReturnType<typeof generalSettingsResponse.parse>;
export type SecuritySettings = ReturnType<typeof securitySettingsResponse.parse>;
export type SessionRow = ReturnType<typeof sessionRow.parse>;
export type ApiKey = ReturnType<typeof apiKeyRow.parse>;
export type CreatedApiKey = ReturnType<typeof apiKeyCreateResponse.parse>;
export type TwoFactorSetup = ReturnType<typeof twoFactorGenerateResponse.parse>;

/** A list answer, whether a bare array or the API's `{ records }` page. */
function recordsOf<T>(answer: T[] | { records: T[] } | { sessions: T[] }): T[] {
  if (Array.isArray(answer)) return answer;
  return 'records' in answer ? answer.records : answer.sessions;
}

export const accountKeys = {
  general: ['settings', 'general'] as const,
  security: ['settings', 'security'] as const,
  sessions: ['settings', 'sessions'] as const,
  apiKeys: ['apiKeys'] as const,
};

export const generalSettingsQuery = queryOptions({
  queryKey: accountKeys.general,
  queryFn: () => api.get<GeneralSettings>('/v2/settings/general'),
  staleTime: cacheMs.lists,
});

export const securitySettingsQuery = queryOptions({
  queryKey: accountKeys.security,
  queryFn: () => api.get<SecuritySettings>('/v2/settings/security'),
  staleTime: cacheMs.lists,
});

export const sessionsQuery = queryOptions({
  queryKey: accountKeys.sessions,
  queryFn: async () =>
    recordsOf(await api.get<SessionRow[] | { sessions: SessionRow[] }>('/v2/settings/session')),
  staleTime: cacheMs.lists,
});

export const apiKeysQuery = queryOptions({
  queryKey: accountKeys.apiKeys,
  queryFn: async () => recordsOf(await api.get<ApiKey[] | { records: ApiKey[] }>('/v2/api_key')),
  staleTime: cacheMs.lists,
});

/** The account calls of SPEC.md §7 "Settings" and "API keys". */
export const accountApi = {
  saveGeneral: (body: { nickname?: string; language?: string; logoutTime?: number }) =>
    api.post<GeneralSettings>('/v2/settings/general', body),
  setCustomFee: (enabled: boolean) =>
    api.post<{ status: string }>('/v2/settings/customfee', { customfee: enabled ? 1 : 0 }),
  changePassword: (body: {
    old_password: string;
    password: string;
    password_confirmation: string;
    totp?: string;
  }) => api.post<{ status: string }>('/v2/settings/password', body),
  generateTwoFactor: () => api.post<TwoFactorSetup>('/v2/settings/2fa/generate', {}),
  toggleTwoFactor: (code: string) =>
    api.post<{ status: string; twoFactorEnabled?: boolean }>('/v2/settings/2fa/toggle', { code }),
  toggleAntiPhishing: (totp: string) =>
    api.post<{ status: string }>('/v2/settings/anti_phishing', { totp }),
  setAntiPhishingCode: (code: string, totp: string) =>
    api.post<{ status: string }>('/v2/settings/anti_phishing/add', { code, totp }),
  terminateSession: (id: string) =>
    api.post<{ status: string }>(`/v2/settings/session/${encodeURIComponent(id)}/terminate`, {}),
  terminateAllSessions: () => api.post<{ status: string }>('/v2/settings/session/terminate', {}),
  createApiKey: (body: { totp: string; name?: string; scopes: string[]; ipAllowList: string[] }) =>
    api.post<CreatedApiKey>('/v2/api_key', body),
  /** Flips the key on or off; answers with the key as it now is. */
  toggleApiKey: (id: number) => api.post<ApiKey>(`/v2/api_key/${id}`, {}),
  deleteApiKey: (id: number) => api.delete<{ status: string }>(`/v2/api_key/${id}`),
};
