import { z } from 'zod';
import {
  antiPhishingLengthMax,
  antiPhishingLengthMin,
  apiKeyIpAllowListMax,
  authMessages,
  nicknameLengthMax,
  nicknameLengthMin,
  sixDigitCode,
} from './auth.js';

/** Settings, sessions, anti-phishing and API-key payloads (SPEC.md §3 field names). */

/** Languages the interface and mail are complete in. */
export const supportedLanguages = ['en', 'ru', 'es'] as const;
/** Idle minutes after which a session ends, as offered by `GET /v2/common/logoutTimes`. */
export const logoutTimesMinutes = [15, 30, 60, 120, 240, 480, 1440] as const;

export const generalSettingsRequest = z
  .object({
    nickname: z
      .string()
      .trim()
      .min(nicknameLengthMin, authMessages.minLength(nicknameLengthMin))
      .max(nicknameLengthMax, authMessages.maxLength(nicknameLengthMax))
      .regex(/^[A-Za-z0-9_]*$/, authMessages.onlyAlphanumeric)
      .optional(),
    language: z.enum(supportedLanguages, { error: authMessages.fieldError }).optional(),
    logoutTime: z
      .number({ error: authMessages.fieldError })
      .refine(
        (minutes) => (logoutTimesMinutes as readonly number[]).includes(minutes),
        authMessages.fieldError,
      )
      .optional(),
  })
  .strict();

export const generalSettingsResponse = z.object({
  email: z.string(),
  nickname: z.string().nullable(),
  canChangeNickname: z.boolean(),
  language: z.string(),
  logoutTime: z.number(),
  isCustomFeeEnabled: z.boolean(),
  isTwoFactorEnabled: z.boolean(),
});

export const customFeeRequest = z.object({
  customfee: z.union([z.literal(0), z.literal(1)], { error: authMessages.fieldError }),
});

export const sessionRow = z.object({
  id: z.string(),
  ipAddress: z.string(),
  lastActivity: z.number(),
  userAgent: z.string(),
  isCurrent: z.boolean(),
});

export const securitySettingsResponse = z.object({
  twoFactorEnabled: z.boolean(),
  antiPhishingEnabled: z.boolean(),
  antiPhishingCodes: z.string().nullable(),
  sessions: z.array(sessionRow),
});

export const totpRequest = z.object({ totp: sixDigitCode });

export const antiPhishingAddRequest = z.object({
  code: z
    .string({ error: authMessages.required })
    .trim()
    .min(antiPhishingLengthMin, authMessages.minLength(antiPhishingLengthMin))
    .max(antiPhishingLengthMax, authMessages.maxLength(antiPhishingLengthMax))
    .regex(/^[A-Za-z0-9_-]*$/, authMessages.onlyAlphanumeric),
  totp: sixDigitCode,
});

export const apiKeyScopes = ['read', 'trade', 'withdraw'] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

const ipOrCidr = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], {
  error: authMessages.fieldError,
});

export const apiKeyCreateRequest = z.object({
  totp: sixDigitCode,
  name: z.string().trim().max(64, authMessages.maxLength(64)).optional(),
  /** Withdraw stays off unless asked for. */
  scopes: z
    .array(z.enum(apiKeyScopes, { error: authMessages.fieldError }))
    .min(1, authMessages.required)
    .default(['read', 'trade']),
  ipAllowList: z.array(ipOrCidr).max(apiKeyIpAllowListMax, authMessages.fieldError).default([]),
});

export const apiKeyRow = z.object({
  id: z.number().int(),
  name: z.string(),
  key: z.string(),
  isEnabled: z.boolean(),
  scopes: z.array(z.enum(apiKeyScopes)),
  ipAllowList: z.array(z.string()),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
});

/** The secret appears only in this response to creation; it is never shown again. */
export const apiKeyCreateResponse = apiKeyRow.extend({ secret: z.string() });
