import { describe, expect, it } from 'vitest';
import { createTotpSecret, matchTotpStep, totpCodeAt, totpEnrolment } from './totp.js';

const now = 1_763_000_000_000;

describe('TOTP', () => {
  it('accepts the current code and one step of drift either way, and no further', () => {
    const secret = createTotpSecret();
    const step = Math.floor(now / 30_000);
    expect(matchTotpStep(secret, totpCodeAt(secret, now), now)).toBe(step);
    expect(matchTotpStep(secret, totpCodeAt(secret, now - 30_000), now)).toBe(step - 1);
    expect(matchTotpStep(secret, totpCodeAt(secret, now + 30_000), now)).toBe(step + 1);
    expect(matchTotpStep(secret, totpCodeAt(secret, now - 60_000), now)).toBeNull();
  });

  it('refuses malformed codes and codes of another secret', () => {
    const secret = createTotpSecret();
    expect(matchTotpStep(secret, '12345', now)).toBeNull();
    expect(matchTotpStep(secret, 'abcdef', now)).toBeNull();
    const other = createTotpSecret();
    const otherCode = totpCodeAt(other, now);
    const accepted = [-1, 0, 1].some((d) => totpCodeAt(secret, now + d * 30_000) === otherCode);
    expect(matchTotpStep(secret, otherCode, now) !== null).toBe(accepted);
  });

  it('gives a 32-character base32 secret and an otpauth URI with a QR image', () => {
    const secret = createTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const { uri, qrUrl } = totpEnrolment(secret, 'a@example.com');
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Lattice%20Exchange:a%40example\.com\?/);
    expect(qrUrl.startsWith('data:image/svg+xml;base64,')).toBe(true);
  });
});
