import { createHmac } from 'node:crypto';

const periodSeconds = 30;

function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const value = alphabet.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes: number[] = [];
  for (let index = 0; index + 8 <= bits.length; index += 8) {
    bytes.push(Number.parseInt(bits.slice(index, index + 8), 2));
  }
  return Buffer.from(bytes);
}

/** The RFC 6238 code (SHA-1, 6 digits, 30 s) of `step`, as an authenticator app shows it. */
export function totpAt(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = (digest[digest.length - 1] ?? 0) & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

export function currentStep(nowMs = Date.now()): number {
  return Math.floor(nowMs / 1000 / periodSeconds);
}

/**
 * Codes for one account, each accepted once: the server refuses a step it has seen, so each
 * new code is for a later step, waiting for the clock when one step of drift is not enough.
 */
export function totpSource(secret: string) {
  let lastStep = 0;
  return async (): Promise<string> => {
    let step = Math.max(currentStep(), lastStep + 1);
    while (step > currentStep() + 1) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      step = Math.max(currentStep(), lastStep + 1);
    }
    lastStep = step;
    return totpAt(secret, step);
  };
}
