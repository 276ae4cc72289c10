import { z } from 'zod';

/**
 * Requests and responses of sign-up, sign-in, 2FA, password, settings, sessions and API keys.
 * Field names and payloads follow API.md; messages are those of SPEC.md §5.
 */

export const authMessages = {
  required: 'Field is required',
  email: 'Email is not valid',
  emailInUse: 'Email already in use',
  country: "We didn't support this country",
  passwordStrength:
    'Password needs a lowercase letter, an uppercase letter, a number and a special character',
  shouldMatch: 'Field should match',
  shouldNotMatch: 'Field should not match',
  onlyDigits: 'Only digits',
  onlyAlphanumeric: 'Only alphanumeric',
  fieldError: 'Field error',
  codeLength: 'Length should be 6',
  minLength: (length: number) => `Min length ${length}`,
  maxLength: (length: number) => `Max length ${length}`,
} as const;

export const passwordLengthMin = 8;
export const passwordLengthMax = 128;
export const emailLengthMax = 254;
export const nicknameLengthMin = 3;
export const nicknameLengthMax = 32;
export const antiPhishingLengthMin = 4;
export const antiPhishingLengthMax = 20;
export const apiKeyIpAllowListMax = 20;
/** Countries whose residents may not register (ISO 3166-1 alpha-2). */
export const restrictedCountries: readonly string[] = ['US'];

const requiredError = {
  error: (issue: { input: unknown }) =>
    issue.input === undefined || issue.input === null
      ? authMessages.required
      : authMessages.fieldError,
};

function text(lengthMax: number) {
  return z
    .string(requiredError)
    .trim()
    .min(1, authMessages.required)
    .max(lengthMax, authMessages.maxLength(lengthMax));
}

// NOTE: deliberately loose (one @, a dot in the domain, no spaces): deliverability is proved by
// the confirmation mail, not by a pattern.
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailField = text(emailLengthMax)
  .regex(emailPattern, authMessages.email)
  .transform((email) => email.toLowerCase());

/** A new password: 8 to 128 characters with lower, upper, digit and a special character. */
export const newPasswordField = z
  .string(requiredError)
  .min(1, authMessages.required)
  .min(passwordLengthMin, authMessages.minLength(passwordLengthMin))
  .max(passwordLengthMax, authMessages.maxLength(passwordLengthMax))
  .refine(
    (password) =>
      /[a-z]/.test(password) &&
      /[A-Z]/.test(password) &&
      /\d/.test(password) &&
      /[^A-Za-z0-9]/.test(password),
    authMessages.passwordStrength,
  );

/** A password being checked, not chosen: no strength rule, so old passwords still sign in. */
const passwordField = z
  .string(requiredError)
  .min(1, authMessages.required)
  .max(passwordLengthMax, authMessages.maxLength(passwordLengthMax));

/** A six-digit code: TOTP or an e-mailed device code. */
export const sixDigitCode = z
  .string(requiredError)
  .trim()
  .min(1, authMessages.required)
  .regex(/^\d*$/, authMessages.onlyDigits)
  .length(6, authMessages.codeLength);

const acceptance = z.literal(true, { error: authMessages.required });

const countryField = z
  .string(requiredError)
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, authMessages.fieldError)
  .refine((country) => !restrictedCountries.includes(country), authMessages.country);

export const registerRequest = z
  .object({
    email: emailField,
    password: newPasswordField,
    password_confirmation: z.string(requiredError),
    country: countryField,
    privacy_policy: acceptance,
    not_restricted_resident: acceptance,
    referral_code: text(32)
      .regex(/^[A-Za-z0-9]*$/, authMessages.onlyAlphanumeric)
      .optional(),
  })
  .refine((body) => body.password === body.password_confirmation, {
    path: ['password_confirmation'],
    message: authMessages.shouldMatch,
  });
export type RegisterRequest = z.infer<typeof registerRequest>;

/** Completes a sign-up started with Google: the account e-mail comes from Google. */
export const googleRegisterRequest = z.object({
  country: countryField,
  privacy_policy: acceptance,
  not_restricted_resident: acceptance,
  referral_code: text(32)
    .regex(/^[A-Za-z0-9]*$/, authMessages.onlyAlphanumeric)
    .optional(),
});

export const loginRequest = z.object({
  email: emailField,
  password: passwordField,
  device_code: sixDigitCode.optional(),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const twoFactorCodeRequest = z.object({ code: sixDigitCode });

export const passwordEmailRequest = z.object({ email: emailField });

export const passwordTokenQuery = z.object({ token: text(128) });

export const passwordResetRequest = z
  .object({
    token: text(128),
    password: newPasswordField,
    password_confirmation: z.string(requiredError),
    totp: sixDigitCode.optional(),
  })
  .refine((body) => body.password === body.password_confirmation, {
    path: ['password_confirmation'],
    message: authMessages.shouldMatch,
  });

export const changePasswordRequest = z
  .object({
    old_password: passwordField,
    password: newPasswordField,
    password_confirmation: z.string(requiredError),
    totp: sixDigitCode.optional(),
  })
  .refine((body) => body.password === body.password_confirmation, {
    path: ['password_confirmation'],
    message: authMessages.shouldMatch,
  })
  .refine((body) => body.password !== body.old_password, {
    path: ['password'],
    message: authMessages.shouldNotMatch,
  });

export const kycStatus = z.enum(['verified', 'pending', 'unverified']);

/** The signed-in user as every auth response and `systemParams` show it. */
export const sessionUser = z.object({
  id: z.number().int(),
  email: z.string(),
  nickname: z.string().nullable(),
  kyc: kycStatus,
  twoFactorEnabled: z.boolean(),
});
export type SessionUser = z.infer<typeof sessionUser>;

export const loginResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), user: sessionUser }),
  z.object({ status: z.literal('device_confirmation') }),
  z.object({ status: z.literal('2fa') }),
]);
export type LoginResponse = z.infer<typeof loginResponse>;

export const registerResponse = z.object({ status: z.literal('confirmation_sent') });

export const genericStatusResponse = z.object({
  status: z.string(),
  message: z.string().optional(),
});

export const twoFactorGenerateResponse = z.object({
  twoFactorSecret: z.string(),
  twoFactorQrUrl: z.string(),
  twoFactorUri: z.string(),
});
