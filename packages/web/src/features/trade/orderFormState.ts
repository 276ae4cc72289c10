import {
  amountOfShare,
  amountOfTotal,
  feeOf,
  numericInput,
  type Side,
  textOf,
  totalOf,
  totalWithFee,
  unitsOf,
} from './orderMath';
import type { OrderKind } from './tradeApi';

/** The fields of one order form and the rules between them (SPEC.md §5, §9). */

export type FieldName = 'price' | 'stopPrice' | 'limitPrice' | 'amount' | 'total';
export type FormFields = Record<FieldName, string>;
export type FormErrors = Partial<Record<FieldName, string>>;

export const emptyFields: FormFields = {
  price: '',
  stopPrice: '',
  limitPrice: '',
  amount: '',
  total: '',
};

/** The fields each kind of order shows, in their order on screen. */
export const fieldsOfKind: Record<OrderKind, readonly FieldName[]> = {
  limit: ['price', 'amount', 'total'],
  market: ['amount'],
  stopLimit: ['stopPrice', 'price', 'amount', 'total'],
  oco: ['price', 'stopPrice', 'limitPrice', 'amount', 'total'],
};

/**
 * The fields after one was typed into: the text is cleaned by the numeric rules, and the
 * total follows price × amount, or the amount follows total ÷ price when the total was typed.
 */
export function withFieldTyped(fields: FormFields, name: FieldName, typed: string): FormFields {
  const next = { ...fields, [name]: numericInput(typed) };
  const price = unitsOf(next.price);
  if (name === 'total') {
    const total = unitsOf(next.total);
    next.amount = price && total !== null ? textOf(amountOfTotal(total, price)) : next.amount;
    return next;
  }
  if (name === 'price' || name === 'amount') {
    const amount = unitsOf(next.amount);
    next.total = price !== null && amount !== null ? textOf(totalOf(price, amount)) : '';
  }
  return next;
}

/** The fields after a percentage-of-balance button. */
export function withShareOfBalance(
  fields: FormFields,
  side: Side,
  percent: number,
  available: bigint,
): FormFields {
  const price = unitsOf(fields.price) ?? 0n;
  if (side === 'buy' && price === 0n) return fields;
  const amount = amountOfShare(side, BigInt(percent), available, price);
  return withFieldTyped(fields, 'amount', textOf(amount));
}

/** What the form shows under its fields: the fee and the total with it, when both are known. */
export function feeSummary(fields: FormFields, side: Side, feeRate: string | undefined) {
  const total = unitsOf(fields.total);
  const rate = feeRate === undefined ? null : unitsOf(feeRate);
  if (total === null || rate === null) return null;
  const fee = feeOf(total, rate);
  return { fee: textOf(fee), totalWithFee: textOf(totalWithFee(side, total, fee)) };
}

export type ErrorKey = 'required' | 'positive' | 'overBalance';

/** The first broken rule of each shown field, by message key. */
export function validateFields(
  kind: OrderKind,
  side: Side,
  fields: FormFields,
  available: bigint | null,
  feeRate: string | undefined,
): Partial<Record<FieldName, ErrorKey>> {
  const errors: Partial<Record<FieldName, ErrorKey>> = {};
  for (const name of fieldsOfKind[kind]) {
    if (name === 'total') continue;
    const value = unitsOf(fields[name]);
    if (value === null) errors[name] = 'required';
    else if (value === 0n) errors[name] = 'positive';
  }
  if (available === null || errors.amount) return errors;
  const amount = unitsOf(fields.amount) ?? 0n;
  if (side === 'sell' && amount > available) errors.amount = 'overBalance';
  const cost = feeSummary(fields, side, feeRate);
  const spent = cost ? unitsOf(cost.totalWithFee) : unitsOf(fields.total);
  if (side === 'buy' && kind !== 'market' && spent !== null && spent > available) {
    errors.amount = 'overBalance';
  }
  return errors;
}
