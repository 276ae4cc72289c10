import type { OrderJson, OwnTradeJson, Page } from '@lattice/contracts';
import { api } from '../../api/client';

/** The three history lists (API.md "Trading") and their filters. */

export type HistoryKind = 'orders' | 'active' | 'trades';

export interface HistoryFilters {
  pair: string;
  side: '' | 'buy' | 'sell';
  type: '' | 'limit' | 'market' | 'stop_limit' | 'oco';
  /** yyyy-mm-dd from the date inputs; '' when open. */
  from: string;
  to: string;
}

export const emptyFilters: HistoryFilters = { pair: '', side: '', type: '', from: '', to: '' };
export const historyPageSize = 50;

const daySeconds = 86_400;

function secondsOf(day: string, endOfDay: boolean): number | undefined {
  if (!day) return undefined;
  const start = Date.parse(`${day}T00:00:00Z`) / 1000;
  return endOfDay ? start + daySeconds - 1 : start;
}

/** The query of a list at `offset`, as the server reads it. */
export function historyQuery(kind: HistoryKind, filters: HistoryFilters, offset: number) {
  if (kind === 'active') {
    return { pairName: filters.pair || 'all', offset, limit: historyPageSize };
  }
  return {
    pair: filters.pair || undefined,
    side: filters.side || undefined,
    type: kind === 'orders' ? filters.type || undefined : undefined,
    from: secondsOf(filters.from, false),
    to: secondsOf(filters.to, true),
    offset,
    limit: historyPageSize,
  };
}

export const historyPaths: Record<HistoryKind, string> = {
  orders: '/v2/order/finished',
  active: '/v2/order',
  trades: '/v2/history',
};

export type HistoryRow = OrderJson | OwnTradeJson;

export function fetchHistoryPage(kind: HistoryKind, filters: HistoryFilters, offset: number) {
  return api.get<Page<HistoryRow>>(historyPaths[kind], {
    query: historyQuery(kind, filters, offset),
    on404: 'throw',
  });
}

/** The address of the CSV export of a list with these filters. */
export function exportUrl(kind: HistoryKind, filters: HistoryFilters): string {
  const params = new URLSearchParams({ format: 'csv' });
  for (const [name, value] of Object.entries(historyQuery(kind, filters, 0))) {
    if (value !== undefined && name !== 'offset' && name !== 'limit')
      params.set(name, String(value));
  }
  return `/api${historyPaths[kind]}?${params}`;
}
