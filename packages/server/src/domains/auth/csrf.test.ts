import { describe, expect, it } from 'vitest';
import { anonymousCsrfToken, csrfTokenMatches, originAllowed } from './csrf.js';

describe('CSRF helpers', () => {
  it('derives one stable token per anonymous cookie and key', () => {
    const token = anonymousCsrfToken('key', 'cookie-1');
    expect(anonymousCsrfToken('key', 'cookie-1')).toBe(token);
    expect(anonymousCsrfToken('key', 'cookie-2')).not.toBe(token);
    expect(anonymousCsrfToken('other', 'cookie-1')).not.toBe(token);
  });

  it('matches only the exact token', () => {
    expect(csrfTokenMatches('abc', 'abc')).toBe(true);
    expect(csrfTokenMatches('abc', 'abd')).toBe(false);
    expect(csrfTokenMatches('abc', '')).toBe(false);
    expect(csrfTokenMatches('abc', undefined)).toBe(false);
  });

  it('allows a missing Origin, this host and listed origins; refuses others and "null"', () => {
    expect(originAllowed(undefined, 'ex.test', [])).toBe(true);
    expect(originAllowed('https://ex.test', 'ex.test', [])).toBe(true);
    expect(originAllowed('https://evil.test', 'ex.test', [])).toBe(false);
    expect(originAllowed('https://ex.test.evil.test', 'ex.test', [])).toBe(false);
    expect(originAllowed('null', 'ex.test', [])).toBe(false);
    expect(originAllowed('http://localhost:5173', 'ex.test', ['http://localhost:5173'])).toBe(true);
    expect(originAllowed('not a url', 'ex.test', [])).toBe(false);
  });
});
