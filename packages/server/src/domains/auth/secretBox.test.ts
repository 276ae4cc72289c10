import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secretBox.js';

describe('secretBox', () => {
  it('opens what it sealed, with a new ciphertext each time', () => {
    const box = createSecretBox('server-key', 'api-key');
    const a = box.seal('s3cret');
    expect(a).not.toContain('s3cret');
    expect(box.seal('s3cret')).not.toBe(a);
    expect(box.open(a)).toBe('s3cret');
  });

  it('refuses a value sealed for another purpose, with another key, or altered', () => {
    const sealed = createSecretBox('server-key', 'api-key').seal('s3cret');
    expect(() => createSecretBox('server-key', 'totp').open(sealed)).toThrow();
    expect(() => createSecretBox('other-key', 'api-key').open(sealed)).toThrow();
    // Flip one character in the middle of the ciphertext: GCM's tag must catch it.
    const at = Math.floor(sealed.length / 2);
    const flipped = sealed[at] === 'A' ? 'B' : 'A';
    const altered = sealed.slice(0, at) + flipped + sealed.slice(at + 1);
    expect(() => createSecretBox('server-key', 'api-key').open(altered)).toThrow();
  });
});
