import { textOf, totalOf, unitsOf } from './orderMath';

/** One level as the book shows it: decimal strings. */
export interface BookLevel {
  price: string;
  amount: string;
  total: string;
}

/**
 * Merges levels into steps of `decimals` price decimals: bids round down and asks round up,
 * so a grouped level never looks better than the orders in it. Levels of zero are dropped
 * (SPEC.md §4).
 */
export function groupLevels(
  levels: readonly (readonly [string, string])[],
  side: 'asks' | 'bids',
  decimals: number,
): BookLevel[] {
  const step = 10n ** BigInt(Math.max(0, 8 - decimals));
  const merged = new Map<bigint, bigint>();
  for (const [priceText, amountText] of levels) {
    const price = unitsOf(priceText);
    const amount = unitsOf(amountText);
    if (price === null || amount === null || amount === 0n) continue;
    const down = price - (price % step);
    const key = side === 'asks' && down !== price ? down + step : down;
    merged.set(key, (merged.get(key) ?? 0n) + amount);
  }
  const prices = [...merged.keys()].sort((a, b) =>
    side === 'asks' ? (a < b ? -1 : a > b ? 1 : 0) : a < b ? 1 : a > b ? -1 : 0,
  );
  return prices.map((price) => {
    const amount = merged.get(price) ?? 0n;
    return { price: textOf(price), amount: textOf(amount), total: textOf(totalOf(price, amount)) };
  });
}

/** The grouping choices for a market: its own precision and up to three coarser steps. */
export function groupingChoices(pricePrecision: number): number[] {
  const choices: number[] = [];
  for (
    let decimals = Math.min(pricePrecision, 8);
    decimals >= 0 && choices.length < 4;
    decimals--
  ) {
    choices.push(decimals);
  }
  return choices;
}
