import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { changePasswordRequest, loginRequest, registerRequest } from './auth.js';
import { apiKeyCreateRequest } from './settings.js';

function fieldErrors(schema: z.ZodType, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  return z.flattenError(result.error).fieldErrors as Record<string, string[]>;
}

const registration = {
  email: 'Trader@Example.com',
  password: 'Str0ng!pass',
  password_confirmation: 'Str0ng!pass',
  country: 'de',
  privacy_policy: true,
  not_restricted_resident: true,
};

describe('registerRequest', () => {
  it('accepts a valid registration and normalises e-mail and country', () => {
    const parsed = registerRequest.parse(registration);
    expect(parsed.email).toBe('trader@example.com');
    expect(parsed.country).toBe('DE');
  });

  it('answers each rule with the spec message on its field', () => {
    expect(fieldErrors(registerRequest, { ...registration, country: 'US' })).toEqual({
      country: ["We didn't support this country"],
    });
    expect(fieldErrors(registerRequest, { ...registration, email: 'no-at' }).email).toEqual([
      'Email is not valid',
    ]);
    expect(fieldErrors(registerRequest, { ...registration, privacy_policy: false })).toEqual({
      privacy_policy: ['Field is required'],
    });
    expect(fieldErrors(registerRequest, { ...registration, password_confirmation: 'x' })).toEqual({
      password_confirmation: ['Field should match'],
    });
    const weak = fieldErrors(registerRequest, {
      ...registration,
      password: 'short',
      password_confirmation: 'short',
    });
    expect(weak.password).toContain('Min length 8');
    const missing = fieldErrors(registerRequest, {});
    expect(missing.email).toEqual(['Field is required']);
    expect(missing.not_restricted_resident).toEqual(['Field is required']);
  });
});

describe('loginRequest and changePasswordRequest', () => {
  it('checks the device code format', () => {
    const login = { email: 'a@b.co', password: 'x' };
    expect(loginRequest.safeParse(login).success).toBe(true);
    expect(fieldErrors(loginRequest, { ...login, device_code: '12a456' }).device_code).toEqual([
      'Only digits',
    ]);
    expect(fieldErrors(loginRequest, { ...login, device_code: '12345' }).device_code).toEqual([
      'Length should be 6',
    ]);
  });

  it('refuses a new password equal to the old one', () => {
    const same = { old_password: 'Str0ng!pass', password: 'Str0ng!pass' };
    expect(
      fieldErrors(changePasswordRequest, { ...same, password_confirmation: 'Str0ng!pass' }),
    ).toEqual({ password: ['Field should not match'] });
  });
});

describe('apiKeyCreateRequest', () => {
  it('leaves withdraw off by default and validates the IP allow-list', () => {
    expect(apiKeyCreateRequest.parse({ totp: '123456' }).scopes).toEqual(['read', 'trade']);
    const list = { totp: '123456', ipAllowList: ['10.0.0.1', '192.168.0.0/16', '::1'] };
    expect(apiKeyCreateRequest.safeParse(list).success).toBe(true);
    expect(apiKeyCreateRequest.safeParse({ ...list, ipAllowList: ['999.1.1.1'] }).success).toBe(
      false,
    );
  });
});
