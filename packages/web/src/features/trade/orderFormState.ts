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

/** A market buy may give what it spends (`total`, in money) instead of what it buys. */
export type MarketBy = 'amount' | 'total';

/** The fields a form shows: a market buy by total has the total alone. */
export function fieldsOf(kind: OrderKind, side: Side, marketBy: MarketBy): readonly FieldName[] {
  return kind === 'market' && side === 'buy' && marketBy === 'total'
    ? ['total']
    : fieldsOfKind[kind];
}

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

/**
 * The fields after a percentage-of-balance button; a market buy by total spends that share of
 * the money balance.
 */
export function withShareOfBalance(
  fields: FormFields,
  side: Side,
  percent: number,
  available: bigint,
  byTotal = false,
): FormFields {
  if (byTotal) return { ...fields, total: textOf((available * BigInt(percent)) / 100n) };
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

export type ErrorKey = 'required' | 'positive' | 'overBalance' | 'greaterThanLast' | 'lessThanLast';

/** What the validation of a form needs to know besides its fields. */
export interface FormContext {
  kind: OrderKind;
  side: Side;
  marketBy: MarketBy;
  /** What the side spends, in minor units; null when not known. */
  available: bigint | null;
  feeRate: string | undefined;
  /** The market's last price in minor units; null when not known (the server checks then). */
  lastPrice: bigint | null;
}

type Errors = Partial<Record<FieldName, ErrorKey>>;

/** A price that must lie above (`'above'`) or below the last price. */
function checkAgainstLast(
  errors: Errors,
  name: FieldName,
  value: bigint | null,
  last: bigint,
  must: 'above' | 'below',
): void {
  if (errors[name] || value === null) return;
  if (must === 'above' && value <= last) errors[name] = 'greaterThanLast';
  if (must === 'below' && value >= last) errors[name] = 'lessThanLast';
}

/**
 * The price rules of the conditional orders (SPEC.md §5, API.md): a stop-limit's stop lies on
 * the side the price moves to — above the last price for a buy, below it for a sell; an OCO
 * sell needs stop price < last < price, an OCO buy price < last < stop price.
 */
function checkPriceRules(errors: Errors, fields: FormFields, context: FormContext): void {
  const { kind, side, lastPrice } = context;
  if (lastPrice === null || lastPrice === 0n) return;
  const stop = unitsOf(fields.stopPrice);
  const buy = side === 'buy';
  if (kind === 'stopLimit') {
    checkAgainstLast(errors, 'stopPrice', stop, lastPrice, buy ? 'above' : 'below');
  }
  if (kind === 'oco') {
    checkAgainstLast(errors, 'price', unitsOf(fields.price), lastPrice, buy ? 'below' : 'above');
    checkAgainstLast(errors, 'stopPrice', stop, lastPrice, buy ? 'above' : 'below');
  }
}

/** The first broken rule of each shown field, by message key. */
export function validateFields(fields: FormFields, context: FormContext): Errors {
  const { kind, side, available, feeRate } = context;
  const shown = fieldsOf(kind, side, context.marketBy);
  const byTotal = !shown.includes('amount');
  const errors: Errors = {};
  for (const name of shown) {
    // The total follows the other fields, unless it is what the order gives.
    if (name === 'total' && !byTotal) continue;
    const value = unitsOf(fields[name]);
    if (value === null) errors[name] = 'required';
    else if (value === 0n) errors[name] = 'positive';
  }
  checkPriceRules(errors, fields, context);
  if (available === null) return errors;
  if (byTotal) {
    if (!errors.total && (unitsOf(fields.total) ?? 0n) > available) errors.total = 'overBalance';
    return errors;
  }
  if (errors.amount) return errors;
  const amount = unitsOf(fields.amount) ?? 0n;
  if (side === 'sell' && amount > available) errors.amount = 'overBalance';
  const cost = feeSummary(fields, side, feeRate);
  const spent = cost ? unitsOf(cost.totalWithFee) : unitsOf(fields.total);
  if (side === 'buy' && kind !== 'market' && spent !== null && spent > available) {
    errors.amount = 'overBalance';
  }
  return errors;
}
