import { z } from 'zod';

/**
 * The money codec. Amounts are exact integers in minor units of their asset (`bigint`); on the
 * wire they are plain decimal strings. Parsing never rounds: text that does not denote an exact
 * amount at the asset's decimals is refused with a message for the field.
 */

export const amountMessages = {
  required: 'Field is required',
  notDecimal: 'Must be a plain decimal number, like 0.015',
  tooManyDecimals: (decimals: number) =>
    decimals === 0 ? 'Must be a whole number' : `At most ${decimals} decimal places`,
  tooLarge: 'The value is too large',
  notPositive: 'Must be greater than zero',
} as const;

/** Decimals an asset may have: 0 (whole units) to 18. */
export const decimalsMax = 18;
/** Digits an amount may have in minor units: the width of the database column. */
export const amountDigitsMax = 39;
/** The largest amount, in minor units, that storage holds. */
export const amountMax = 10n ** BigInt(amountDigitsMax) - 1n;

// Digits, then optionally a dot and at least one digit. No sign, exponent, spaces or commas.
const plainDecimal = /^([0-9]+)(?:\.([0-9]+))?$/;

export type AmountParse = { ok: true; value: bigint } | { ok: false; message: string };

/** Parses a decimal string into minor units, or says why the text is not an exact amount. */
export function parseAmount(text: string, decimals: number): AmountParse {
  assertDecimals(decimals);
  if (text === '') return { ok: false, message: amountMessages.required };
  // The length check comes first so that a megabyte of digits is refused before BigInt sees it.
  if (text.length > amountDigitsMax + decimalsMax + 2) {
    return { ok: false, message: amountMessages.tooLarge };
  }
  const match = plainDecimal.exec(text);
  if (!match) return { ok: false, message: amountMessages.notDecimal };
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) {
    return { ok: false, message: amountMessages.tooManyDecimals(decimals) };
  }
  const value = BigInt(whole + fraction.padEnd(decimals, '0'));
  if (value > amountMax) return { ok: false, message: amountMessages.tooLarge };
  return { ok: true, value };
}

/** Thrown by `amountFromDecimal`; the message is meant for the field the text came from. */
export class AmountFormatError extends Error {
  override name = 'AmountFormatError';
}

/** Minor units from a decimal string (`"0.015"`, 8 → `1500000n`); throws `AmountFormatError`. */
export function amountFromDecimal(text: string, decimals: number): bigint {
  const parsed = parseAmount(text, decimals);
  if (!parsed.ok) throw new AmountFormatError(parsed.message);
  return parsed.value;
}

/** A decimal string from minor units, without trailing zeros (`1500000n`, 8 → `"0.015"`). */
export function amountToDecimal(value: bigint, decimals: number): string {
  assertDecimals(decimals);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * A zod schema for an amount field: a decimal string in, minor units out. `positive` refuses
 * zero. Errors carry the messages of `amountMessages`.
 */
export function amountField(decimals: number, options: { positive?: boolean } = {}) {
  assertDecimals(decimals);
  return z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? amountMessages.required
          : amountMessages.notDecimal,
    })
    .transform((text, ctx) => {
      const parsed = parseAmount(text, decimals);
      if (!parsed.ok) {
        ctx.addIssue({ code: 'custom', message: parsed.message });
        return z.NEVER;
      }
      if (options.positive && parsed.value === 0n) {
        ctx.addIssue({ code: 'custom', message: amountMessages.notPositive });
        return z.NEVER;
      }
      return parsed.value;
    });
}

function assertDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > decimalsMax) {
    throw new RangeError(`decimals must be an integer from 0 to ${decimalsMax}: ${decimals}`);
  }
}
