import { Secret, TOTP } from 'otpauth';
import qrcode from 'qrcode-generator';

/** Standard authenticator-app TOTP (RFC 6238): SHA-1, 6 digits, 30 s steps. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** One step either side absorbs clock drift between the phone and the server. */
const DRIFT_STEPS = 1;
const ISSUER = 'Lattice Exchange';

/** A fresh 160-bit TOTP secret in base32, the form authenticator apps accept. */
export function createTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The otpauth:// URI an authenticator app enrols from, and the same as an SVG QR data URL. */
export function totpEnrolment(secretBase32: string, label: string): { uri: string; qrUrl: string } {
  const uri = totpFor(secretBase32, label).toString();
  const qr = qrcode(0, 'M');
  qr.addData(uri);
  qr.make();
  const svg = qr.createSvgTag({ cellSize: 4, margin: 2, scalable: true });
  return { uri, qrUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * The time step a code belongs to, or null when the code matches none within the drift window.
 * Steps only grow, so the caller accepts a code once by storing the step and refusing any step
 * not greater than the stored one (see `totpRepo.claimTotpStep`).
 */
export function matchTotpStep(secretBase32: string, code: string, nowMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secretBase32, '').validate({
    token: code,
    timestamp: nowMs,
    window: DRIFT_STEPS,
  });
  if (delta === null) return null;
  return Math.floor(nowMs / 1000 / PERIOD_SECONDS) + delta;
}

/** The code for a step: used by tests and by scripts that drive an account with 2FA. */
export function totpCodeAt(secretBase32: string, nowMs: number): string {
  return totpFor(secretBase32, '').generate({ timestamp: nowMs });
}
