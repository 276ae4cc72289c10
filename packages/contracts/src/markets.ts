/**
 * Pair-list tabs (SPEC.md §3): a pair belongs to the tab of its money ticker. ALTS holds the
 * pairs whose money ticker is neither BTC nor ETH nor a stable coin nor a fiat currency;
 * FAVORITE depends on the user, so it is not computed here.
 */
export const pairTabs = ['BTC', 'ETH', 'USD', 'EUR', 'FIAT', 'STABLE', 'ALTS', 'FAVORITE'] as const;
export type PairTab = (typeof pairTabs)[number];

/** Sort order of the tabs (SPEC.md §9). */
export const pairTabOrder: Record<PairTab, number> = {
  BTC: 10,
  ETH: 20,
  USD: 30,
  EUR: 40,
  FIAT: 150,
  STABLE: 180,
  ALTS: 200,
  FAVORITE: 222,
};

/** The tabs that list a pair quoted in `money` (USD pairs are under USD and FIAT). */
export function pairTabsOf(
  money: string,
  tickers: { fiatTickers: readonly string[]; stableTickers: readonly string[] },
): PairTab[] {
  const tabs: PairTab[] = [];
  if (money === 'BTC' || money === 'ETH' || money === 'USD' || money === 'EUR') tabs.push(money);
  if (tickers.fiatTickers.includes(money)) tabs.push('FIAT');
  if (tickers.stableTickers.includes(money)) tabs.push('STABLE');
  if (tabs.length === 0) tabs.push('ALTS');
  return tabs;
}

/** `BTC_USDT` → `{ stock: 'BTC', money: 'USDT' }`; null when the name is not STOCK_MONEY. */
export function pairFromName(name: string): { stock: string; money: string } | null {
  const match = /^([A-Z0-9]{1,16})_([A-Z0-9]{1,16})$/.exec(name);
  return match?.[1] && match[2] ? { stock: match[1], money: match[2] } : null;
}
