import type { KlineRow, OrderJson, Page } from '@lattice/contracts';
import type { BalanceRow } from './tradeApi';

/** How the socket's pushes change the cached lists (protocol-ws.md §6, SPEC.md §4). */

/** `order.update` event codes: put, update, finish, triggered. */
export const orderEventCodes = { put: 1, update: 2, finish: 3, triggered: 4 } as const;

/**
 * The open orders after an `order.update`: a put or update adds or replaces the order (a
 * triggered stop too), a finish removes it and the count drops by one.
 */
export function withOrderEvent(
  page: Page<OrderJson> | undefined,
  event: number,
  order: OrderJson,
): Page<OrderJson> | undefined {
  if (page === undefined) return page;
  const known = page.records.some((kept) => kept.id === order.id);
  if (event === orderEventCodes.finish) {
    if (!known) return page;
    const records = page.records.filter((kept) => kept.id !== order.id);
    return { ...page, records, total: Math.max(0, page.total - 1) };
  }
  if (known) {
    return { ...page, records: page.records.map((kept) => (kept.id === order.id ? order : kept)) };
  }
  return { ...page, records: [order, ...page.records], total: page.total + 1 };
}

/** `asset.update` params: `[{ ASSET: { available, freeze } }]`, absolute trade balances. */
export type AssetUpdate = Record<string, { available: string; freeze: string }>;

/** The balances after an `asset.update`: each named asset's trade balance is replaced. */
export function withAssetUpdate(
  rows: BalanceRow[] | undefined,
  update: AssetUpdate,
): BalanceRow[] | undefined {
  if (rows === undefined) return rows;
  const next = rows.map((row) => {
    const pushed = update[row.ticker];
    return pushed ? { ...row, tradeAvailable: pushed.available } : row;
  });
  for (const [ticker, pushed] of Object.entries(update)) {
    if (!rows.some((row) => row.ticker === ticker)) {
      next.push({ ticker, tradeAvailable: pushed.available });
    }
  }
  return next;
}

/** Candles after a `kline.update`: a row replaces the one of its time, newer ones are added. */
export function withKlineRows(
  rows: KlineRow[] | undefined,
  pushed: readonly KlineRow[],
): KlineRow[] | undefined {
  if (rows === undefined) return rows;
  const byTime = new Map(rows.map((row) => [row[0], row]));
  for (const row of pushed) byTime.set(row[0], row);
  return [...byTime.values()].sort((a, b) => a[0] - b[0]);
}
