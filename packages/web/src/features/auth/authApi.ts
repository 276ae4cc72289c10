import type { LoginRequest, LoginResponse, RegisterRequest, SessionUser } from '@lattice/contracts';
import { api } from '../../api/client';

/** Where the browser goes to sign in with Google; the server sends it on to Google. */
export const googleStartUrl = '/api/auth/google';

/** The sign-up, sign-in and password calls (API.md "Sign-up and sign-in"). */
export const authApi = {
  login: (body: LoginRequest) => api.post<LoginResponse>('/v2/login', body),
  resendDeviceCode: () => api.post<{ status: string }>('/v2/resendDeviceCode', {}),
  validateTwoFactor: (code: string) =>
    api.post<{ status: 'ok'; user: SessionUser }>('/v2/2fa/validate', { code }),
  register: (body: RegisterRequest) => api.post<{ status: string }>('/v2/register', body),
  confirmEmail: (token: string) =>
    api.post<{ status: 'ok'; user: SessionUser }>(
      `/v2/register/confirmation/${encodeURIComponent(token)}`,
      {},
      { on404: 'throw' },
    ),
  requestPasswordReset: (email: string) =>
    api.post<{ status: string; message?: string }>('/v2/password/email', { email }),
  resendPasswordReset: (email: string) =>
    api.post<{ status: string; message?: string }>('/v2/password/resetcode', { email }),
  validateResetToken: (token: string) =>
    api.get<{ status: string; twoFactorRequired: boolean }>('/v2/password/validate', {
      query: { token },
      on404: 'throw',
    }),
  resetPassword: (body: {
    token: string;
    password: string;
    password_confirmation: string;
    totp?: string;
  }) => api.post<{ status: string }>('/v2/password/reset', body),
  checkGoogleAuth: () =>
    api.get<{ enabled: boolean; signUp: { email: string } | null }>('/check-google-auth', {
      on404: 'throw',
    }),
  registerWithGoogle: (body: {
    country: string;
    privacy_policy: true;
    not_restricted_resident: true;
    referral_code?: string;
  }) => api.post<{ status: 'ok'; user: SessionUser }>('/v2/register/google', body),
};
