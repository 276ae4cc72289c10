import type { FormSchema } from '../../lib/form';
import { addAmounts, compareAmounts, isDecimal, isZero } from './amounts';

/** The amount rules of SPEC.md §5 a wallet form checks before it asks the server. */
export interface AmountLimits {
  /** What the amount (plus fee) may use; undefined while the balance loads. */
  available?: string;
  /** Taken on top of the amount (withdrawals). */
  fee?: string;
  /** Smallest amount; '0' or undefined for none. */
  min?: string;
}

export const walletRuleMessages = {
  overBalance: 'Amount should not be greater than your balance!',
  greaterThanZero: 'Must be greater than zero',
  fieldError: 'Field error',
} as const;

/** The messages of `amount` under `limits`; none for an empty amount (required is the schema's). */
export function amountMessages(amount: string, limits: AmountLimits): string[] {
  if (amount === '') return [];
  if (!isDecimal(amount)) return [walletRuleMessages.fieldError];
  if (isZero(amount)) return [walletRuleMessages.greaterThanZero];
  const messages: string[] = [];
  if (limits.min && !isZero(limits.min) && compareAmounts(amount, limits.min) < 0) {
    messages.push(`Min value ${limits.min}`);
  }
  const needed = limits.fee ? addAmounts(amount, limits.fee) : amount;
  if (limits.available !== undefined && compareAmounts(needed, limits.available) > 0) {
    messages.push(walletRuleMessages.overBalance);
  }
  return messages;
}

export type Issue = { path: readonly PropertyKey[]; message: string };

/** A shared schema with more rules: its own issues and `extra`'s, as one answer. */
export function withRules<Output>(
  schema: FormSchema<Output>,
  extra: (input: Record<string, unknown>) => Issue[],
): FormSchema<Output> {
  return {
    safeParse(input: unknown) {
      const parsed = schema.safeParse(input);
      const more = extra(input as Record<string, unknown>);
      if (parsed.success && more.length === 0) return parsed;
      const issues = [...(parsed.success ? [] : parsed.error.issues), ...more];
      return { success: false, error: { issues } };
    },
  };
}

/** A shared schema with the amount rules of `limits` added. */
export function withAmountRules<Output>(
  schema: FormSchema<Output>,
  limits: AmountLimits,
): FormSchema<Output> {
  return withRules(schema, (input) =>
    amountMessages(String(input.amount ?? ''), limits).map((message) => ({
      path: ['amount'],
      message,
    })),
  );
}

/** A form whose only field is the amount: required, then the rules above. */
export const amountRequired: FormSchema<{ amount: string }> = {
  safeParse(input: unknown) {
    const amount = String((input as { amount?: unknown }).amount ?? '');
    if (amount === '') {
      return {
        success: false,
        error: { issues: [{ path: ['amount'], message: 'Field is required' }] },
      };
    }
    return { success: true, data: { amount } };
  },
};
