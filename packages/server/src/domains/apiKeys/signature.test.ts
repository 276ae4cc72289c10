import { describe, expect, it } from 'vitest';
import { checkSignature, signRequest } from './signature.js';

const now = 1_763_000_000_000;
const parts = {
  timestamp: String(now),
  method: 'POST',
  pathAndQuery: '/api/v2/order',
  body: '{"pair":"BTC_USDT","direction":"buy","price":"100","amount":"1"}',
};

describe('API request signatures', () => {
  it('accepts the signature of the exact request', () => {
    const signature = signRequest('secret', parts);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(checkSignature('secret', parts, signature, now)).toBe('ok');
    expect(checkSignature('secret', parts, signature, now + 5000)).toBe('ok');
  });

  it('refuses a tampered body, path, method or timestamp, and another secret', () => {
    const signature = signRequest('secret', parts);
    const tampered = [
      { ...parts, body: parts.body.replace('"1"', '"10"') },
      { ...parts, pathAndQuery: '/api/v2/order?x=1' },
      { ...parts, method: 'DELETE' },
      { ...parts, timestamp: String(now + 1) },
    ];
    for (const changed of tampered) {
      expect(checkSignature('secret', changed, signature, now)).toBe('mismatch');
    }
    expect(checkSignature('other', parts, signature, now)).toBe('mismatch');
  });

  it('refuses a timestamp more than 5 s away, either side, and malformed headers', () => {
    const signature = signRequest('secret', parts);
    expect(checkSignature('secret', parts, signature, now + 5001)).toBe('expired');
    expect(checkSignature('secret', parts, signature, now - 5001)).toBe('expired');
    expect(checkSignature('secret', { ...parts, timestamp: '1e12' }, signature, now)).toBe(
      'malformed',
    );
    expect(checkSignature('secret', parts, signature.toUpperCase(), now)).toBe('malformed');
  });
});
