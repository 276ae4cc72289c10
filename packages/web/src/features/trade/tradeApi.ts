import type {
  DepthJson,
  MarketListJson,
  OrderJson,
  OwnTradeJson,
  Page,
  PublicTradeJson,
  TickerJson,
  TradeSettingsJson,
} from '@lattice/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { cacheMs } from '../../api/queryClient';

/**
 * The trade screen's reads and writes over HTTP (API.md "Trading"). Nothing here polls: the
 * socket's pushes patch these answers or ask for them again (useLiveMarket).
 */

/** Levels per side and public trades a trade screen shows (SPEC.md §9). */
export const bookLevelsShown = 50;
export const tradesShown = 50;

export const marketListQuery = queryOptions({
  queryKey: ['trade', 'marketList'],
  queryFn: () => api.get<MarketListJson>('/v2/market-list', { on404: 'throw' }),
});

export const tradeSettingsQuery = queryOptions({
  queryKey: ['trade', 'settings'],
  queryFn: () => api.get<TradeSettingsJson>('/v2/trade/settings'),
  staleTime: cacheMs.tradeSettings,
});

export function depthQuery(pair: string) {
  return queryOptions({
    queryKey: ['trade', 'depth', pair],
    queryFn: () =>
      api.get<DepthJson>(`/v2/depth/${pair}`, {
        query: { limit: bookLevelsShown },
        on404: 'throw',
      }),
    staleTime: 0,
  });
}

export function publicTradesQuery(pair: string) {
  return queryOptions({
    queryKey: ['trade', 'deals', pair],
    queryFn: () =>
      api.get<Page<PublicTradeJson>>(`/v2/history/${pair}`, {
        query: { limit: tradesShown },
        on404: 'throw',
      }),
    staleTime: 0,
  });
}

export const openOrdersKey = ['trade', 'openOrders'] as const;

export function openOrdersQuery(pair: string) {
  return queryOptions({
    queryKey: [...openOrdersKey, pair],
    queryFn: () => api.get<Page<OrderJson>>('/v2/order', { query: { pairName: pair, limit: 100 } }),
    staleTime: 0,
  });
}

/** The user's finished orders and trades on the trade screen's tabs. */
export const accountHistoryKey = ['trade', 'accountHistory'] as const;
/** Rows the trade screen's history tabs show; the history pages have the rest. */
export const accountHistoryShown = 50;

export function finishedOrdersQuery(pair: string) {
  return queryOptions({
    queryKey: [...accountHistoryKey, 'orders', pair],
    queryFn: () =>
      api.get<Page<OrderJson>>('/v2/order/finished', {
        query: { pair, limit: accountHistoryShown },
      }),
    staleTime: 0,
  });
}

export function ownTradesQuery(pair: string) {
  return queryOptions({
    queryKey: [...accountHistoryKey, 'trades', pair],
    queryFn: () =>
      api.get<Page<OwnTradeJson>>('/v2/history', { query: { pair, limit: accountHistoryShown } }),
    staleTime: 0,
  });
}

/** A row of `GET /api/v3/profile/balance`, the fields the forms read. */
export interface BalanceRow {
  ticker: string;
  tradeAvailable: string;
}

export const balancesKey = ['trade', 'balances'] as const;

export const balancesQuery = queryOptions({
  queryKey: balancesKey,
  queryFn: () => api.get<BalanceRow[]>('/v3/profile/balance'),
  staleTime: 0,
});

export type OrderKind = 'limit' | 'market' | 'stopLimit' | 'oco';

/** The body and path of one order, as the form's fields give them. */
export interface OrderRequest {
  kind: OrderKind;
  pair: string;
  direction: 'buy' | 'sell';
  amount: string;
  price: string;
  stopPrice: string;
  limitPrice: string;
  /** A market buy by total sends this (money) instead of the amount. */
  total?: string;
}

/** Places an order of any of the four kinds. */
export function placeOrder(order: OrderRequest): Promise<unknown> {
  const base = { pair: order.pair, direction: order.direction, amount: order.amount };
  switch (order.kind) {
    case 'limit':
      return api.post('/v2/order', { ...base, price: order.price });
    case 'market':
      return api.post(
        '/v2/order/put_market',
        order.total === undefined
          ? base
          : { pair: order.pair, direction: order.direction, total: order.total },
      );
    case 'stopLimit':
      return api.post('/v2/stop-limit-order', {
        ...base,
        price: order.price,
        stop_price: order.stopPrice,
      });
    case 'oco':
      return api.post('/v2/oco-order', {
        ...base,
        price: order.price,
        stop_price: order.stopPrice,
        limit_price: order.limitPrice,
      });
  }
}

export function cancelOrder(id: number): Promise<{ message: string }> {
  return api.delete(`/v2/order/${id}`);
}

/** Cancels the user's orders on `pair`, or on every pair when it is blank. */
export function cancelAllOrders(pair: string): Promise<unknown> {
  return api.delete(pair ? `/v2/order/deleteall/${pair}` : '/v2/order/deleteall');
}

export function tickerQuery(pair: string) {
  return queryOptions({
    queryKey: ['trade', 'ticker', pair],
    queryFn: () => api.get<TickerJson[]>('/v2/ticker', { query: { pair }, on404: 'throw' }),
    staleTime: 0,
  });
}
