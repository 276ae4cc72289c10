import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AmountFormatError,
  amountField,
  amountFromDecimal,
  amountMax,
  amountMessages,
  amountToDecimal,
  parseAmount,
} from './money.js';

describe('amountFromDecimal', () => {
  it.each([
    ['0', 8, 0n],
    ['0.015', 8, 1_500_000n],
    ['1', 8, 100_000_000n],
    ['1.5', 2, 150n],
    ['12.34', 2, 1234n],
    ['0.00000001', 8, 1n],
    ['1.10000000', 8, 110_000_000n],
    ['007', 0, 7n],
    ['123456789', 0, 123_456_789n],
  ])('reads %j at %i decimals as %s', (text, decimals, expected) => {
    expect(amountFromDecimal(text, decimals)).toBe(expected);
  });

  it.each([
    ['', amountMessages.required],
    ['-0', amountMessages.notDecimal],
    ['-1', amountMessages.notDecimal],
    ['+1', amountMessages.notDecimal],
    ['1e-7', amountMessages.notDecimal],
    ['1E3', amountMessages.notDecimal],
    ['NaN', amountMessages.notDecimal],
    ['Infinity', amountMessages.notDecimal],
    ['-Infinity', amountMessages.notDecimal],
    [' 1', amountMessages.notDecimal],
    ['1 ', amountMessages.notDecimal],
    ['1,5', amountMessages.notDecimal],
    ['.5', amountMessages.notDecimal],
    ['5.', amountMessages.notDecimal],
    ['0x10', amountMessages.notDecimal],
    ['1_000', amountMessages.notDecimal],
    ['١', amountMessages.notDecimal],
    ['0.123456789', amountMessages.tooManyDecimals(8)],
    ['1.000000000', amountMessages.tooManyDecimals(8)],
  ])('refuses %j at 8 decimals: %s', (text, message) => {
    expect(() => amountFromDecimal(text, 8)).toThrow(new AmountFormatError(message));
  });

  it('refuses decimals on a whole-unit asset and a third decimal on a cent asset', () => {
    expect(parseAmount('1.5', 0)).toEqual({ ok: false, message: 'Must be a whole number' });
    expect(parseAmount('1.001', 2)).toEqual({ ok: false, message: 'At most 2 decimal places' });
  });

  it('accepts the largest storable amount and refuses one more, and very long text', () => {
    const largest = amountToDecimal(amountMax, 8);
    expect(amountFromDecimal(largest, 8)).toBe(amountMax);
    expect(parseAmount(`1${'0'.repeat(31)}`, 8)).toEqual({
      ok: false,
      message: amountMessages.tooLarge,
    });
    expect(parseAmount('9'.repeat(100_000), 8)).toEqual({
      ok: false,
      message: amountMessages.tooLarge,
    });
  });

  it('refuses impossible decimals as a programming error', () => {
    expect(() => amountFromDecimal('1', -1)).toThrow(RangeError);
    expect(() => amountFromDecimal('1', 19)).toThrow(RangeError);
    expect(() => amountFromDecimal('1', 1.5)).toThrow(RangeError);
  });
});

describe('amountToDecimal', () => {
  it.each([
    [0n, 8, '0'],
    [1n, 8, '0.00000001'],
    [1_500_000n, 8, '0.015'],
    [100_000_000n, 8, '1'],
    [110_000_000n, 8, '1.1'],
    [1234n, 2, '12.34'],
    [1200n, 2, '12'],
    [7n, 0, '7'],
    [-150n, 2, '-1.5'],
  ])('writes %s at %i decimals as %j', (value, decimals, expected) => {
    expect(amountToDecimal(value, decimals)).toBe(expected);
  });
});

describe('the codec as a whole', () => {
  const decimals = fc.integer({ min: 0, max: 18 });
  const amount = fc.bigInt({ min: 0n, max: amountMax });

  it('reads back every amount it writes, without trailing zeros', () => {
    fc.assert(
      fc.property(amount, decimals, (value, places) => {
        const text = amountToDecimal(value, places);
        expect(text).not.toMatch(/\.\d*0$/);
        expect(amountFromDecimal(text, places)).toBe(value);
      }),
    );
  });

  it('agrees with the place value of each digit', () => {
    const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1 });
    fc.assert(
      fc.property(digits, digits, (whole, fraction) => {
        const places = Math.min(fraction.length, 18);
        const cut = fraction.slice(0, places);
        const text = places === 0 ? whole : `${whole}.${cut}`;
        const parsed = parseAmount(text, places);
        const expected = BigInt(whole) * 10n ** BigInt(places) + (places ? BigInt(cut) : 0n);
        if (expected > amountMax || text.length > 59) {
          expect(parsed.ok).toBe(false);
        } else {
          expect(parsed).toEqual({ ok: true, value: expected });
        }
      }),
    );
  });

  it('never throws anything but its own error on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string(), decimals, (text, places) => {
        const parsed = parseAmount(text, places);
        if (parsed.ok) expect(amountToDecimal(parsed.value, places).length).toBeGreaterThan(0);
        else expect(parsed.message.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('amountField', () => {
  it('turns a valid field into minor units', () => {
    expect(amountField(8).parse('0.5')).toBe(50_000_000n);
  });

  it('reports the field message for missing, non-string and bad values', () => {
    const field = amountField(2, { positive: true });
    const messageOf = (input: unknown) => field.safeParse(input).error?.issues[0]?.message;
    expect(messageOf(undefined)).toBe(amountMessages.required);
    expect(messageOf(1.5)).toBe(amountMessages.notDecimal);
    expect(messageOf('1.005')).toBe('At most 2 decimal places');
    expect(messageOf('0')).toBe(amountMessages.notPositive);
    expect(messageOf('0.00')).toBe(amountMessages.notPositive);
  });
});
