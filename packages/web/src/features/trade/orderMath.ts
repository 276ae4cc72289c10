import { parseAmount } from '@lattice/contracts';

/**
 * The arithmetic of the order forms (SPEC.md §5, §9), in exact integers: every amount is a
 * decimal string at the edge and a `bigint` of minor units inside, never a float.
 */

/** Decimals a form field keeps at most (SPEC.md §9). */
export const formDecimalsMax = 8;

/**
 * What a numeric field keeps of what was typed: digits with at most one decimal separator, a
 * comma becoming a dot, and at most 8 decimals (extra ones are cut, not rounded).
 */
export function numericInput(text: string): string {
  const dotted = text.replace(/,/g, '.').replace(/[^0-9.]/g, '');
  const separator = dotted.indexOf('.');
  if (separator === -1) return dotted;
  const whole = dotted.slice(0, separator);
  const fraction = dotted.slice(separator + 1).replace(/\./g, '');
  return `${whole === '' ? '0' : whole}.${fraction.slice(0, formDecimalsMax)}`;
}

/** Minor units at `formDecimalsMax` of a field's text, or null when it is not a number yet. */
export function unitsOf(text: string): bigint | null {
  const trimmed = text.endsWith('.') ? text.slice(0, -1) : text;
  const parsed = parseAmount(trimmed, formDecimalsMax);
  return parsed.ok ? parsed.value : null;
}

const scale = 10n ** BigInt(formDecimalsMax);

/** Minor units as the decimal text a field shows, without trailing zeros. */
export function textOf(units: bigint): string {
  const whole = units / scale;
  const fraction = (units % scale).toString().padStart(formDecimalsMax, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

/** amount × price, cut to 8 decimals. */
export function totalOf(price: bigint, amount: bigint): bigint {
  return (price * amount) / scale;
}

/** total ÷ price, cut to 8 decimals (what a total buys); 0 when there is no price. */
export function amountOfTotal(total: bigint, price: bigint): bigint {
  return price === 0n ? 0n : (total * scale) / price;
}

/** The fee on `total` at `rate` (a fraction in minor units), rounded up as the server does. */
export function feeOf(total: bigint, rate: bigint): bigint {
  const product = total * rate;
  return product / scale + (product % scale === 0n ? 0n : 1n);
}

export type Side = 'buy' | 'sell';

/** A buy pays total + fee; a sell receives total − fee (SPEC.md §9). */
export function totalWithFee(side: Side, total: bigint, fee: bigint): bigint {
  return side === 'buy' ? total + fee : total - fee;
}

/**
 * The amount a percentage button sets: of the money balance (at the price) for a buy, of the
 * stock balance for a sell.
 */
export function amountOfShare(side: Side, percent: bigint, balance: bigint, price: bigint): bigint {
  const share = (balance * percent) / 100n;
  return side === 'sell' ? share : amountOfTotal(share, price);
}

/** A decimal string as an integer and its count of decimals ("1.50" → 150n, 2). */
function scaled(text: string): { units: bigint; decimals: number } {
  const [whole = '0', fraction = ''] = text.split('.');
  return { units: BigInt(`${whole}${fraction}` || '0'), decimals: fraction.length };
}

/**
 * The average price of an order's trades, deal_money ÷ deal_stock, cut to 8 decimals; null
 * when it has not traded. Both are put on one scale first, so any number of decimals works.
 */
export function averagePriceOf(dealMoney: string, dealStock: string): string | null {
  const money = scaled(dealMoney);
  const stock = scaled(dealStock);
  if (stock.units === 0n) return null;
  const common = Math.max(money.decimals, stock.decimals);
  const moneyUnits = money.units * 10n ** BigInt(common - money.decimals);
  const stockUnits = stock.units * 10n ** BigInt(common - stock.decimals);
  return textOf((moneyUnits * scale) / stockUnits);
}
