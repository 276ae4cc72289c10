import type { DepthJson, OrderJson, Page } from '@lattice/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSystemParams } from '../../api/session';
import { i18next } from '../../i18n/i18n';
import { notice } from '../../lib/notices';
import { type FinishedOrderNotice, notifyOrderFinished } from '../shell/finishedOrders';
import { type AssetUpdate, orderEventCodes, withAssetUpdate, withOrderEvent } from './liveCache';
import { averagePriceOf } from './orderMath';
import {
  accountHistoryKey,
  type BalanceRow,
  balancesKey,
  bookLevelsShown,
  depthQuery,
  openOrdersKey,
  openOrdersQuery,
  publicTradesQuery,
  tickerQuery,
} from './tradeApi';
import { TradeSocket } from './tradeSocket';

type Levels = [string, string][];

/** A depth push applied to the book: a clean one replaces it, others change levels (0 removes). */
export function mergeDepth(
  current: DepthJson | undefined,
  clean: boolean,
  update: Partial<DepthJson>,
): DepthJson {
  const side = (before: Levels | undefined, changes: Levels | undefined): Levels => {
    const levels = new Map(clean ? [] : (before ?? []));
    for (const [price, amount] of changes ?? []) levels.set(price, amount);
    return [...levels].filter(([, amount]) => !/^0(\.0*)?$/.test(amount));
  };
  return { asks: side(current?.asks, update.asks), bids: side(current?.bids, update.bids) };
}

/** What the finished-order notice says of an order: what traded, at what average price. */
export function finishedOrderNotice(order: OrderJson): FinishedOrderNotice {
  return {
    id: order.id,
    market: order.market,
    side: order.side,
    filled: order.deal_stock,
    averagePrice: averagePriceOf(order.deal_money, order.deal_stock),
    ftime: order.ftime,
  };
}

let shared: TradeSocket | null = null;

function socketUrl(): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}/ws`;
}

/** The one socket of the app, opened on first use. */
export function tradeSocket(): TradeSocket {
  shared ??= new TradeSocket(socketUrl(), {
    onAuthGaveUp: () => notice(i18next.t('trade.websocketTimeout'), 'warning'),
  });
  return shared;
}

/**
 * Closes the app's socket for good; the next use opens a new one. Rendering tests call it
 * after each test, so no reconnect timer outlives the page it belonged to.
 */
export function closeTradeSocket(): void {
  shared?.close();
  shared = null;
}

/**
 * Keeps the trade screen live over the socket, with no polling: the pair's book, trades and
 * 24 h figures, and for a signed-in user their open orders and the pair's two balances. After
 * every (re)subscription the lists are read again over HTTP, because the channels send no
 * snapshot and pushes made while the socket was closed are lost (protocol-ws.md §7). A
 * finished order of the user's is announced (SPEC.md §4).
 */
export function useLiveMarket(pair: string, assets: readonly string[] | undefined): void {
  const queryClient = useQueryClient();
  const params = useSystemParams();
  const token = params?.user ? params.wsToken : null;
  const assetList = assets?.join(',') ?? '';

  useEffect(() => {
    const socket = tradeSocket();
    socket.setToken(token);
    const depthKey = depthQuery(pair).queryKey;
    const ordersKey = openOrdersQuery(pair).queryKey;
    /** A push that lands while the list is being read again would be overwritten: read again. */
    const patch = <T>(
      key: readonly unknown[],
      change: (current: T | undefined) => T | undefined,
    ) => {
      queryClient.setQueryData<T>(key, change);
      if (queryClient.isFetching({ queryKey: key }) > 0)
        void queryClient.invalidateQueries({ queryKey: key });
    };
    const stops = [
      socket.on('depth.update', ([clean, update, market]) => {
        if (market !== pair) return;
        queryClient.setQueryData(depthKey, (current: DepthJson | undefined) =>
          mergeDepth(current, clean === true, update as Partial<DepthJson>),
        );
      }),
      socket.on('deals.update', ([market]) => {
        if (market === pair) void queryClient.invalidateQueries(publicTradesQuery(pair));
      }),
      socket.on('today.update', ([market]) => {
        if (market === pair) void queryClient.invalidateQueries(tickerQuery(pair));
      }),
      socket.on('order.update', ([event, pushed]) => {
        const order = pushed as OrderJson;
        if (order.market === pair) {
          patch<Page<OrderJson>>(ordersKey, (page) => withOrderEvent(page, Number(event), order));
        }
        // A fill adds to the trade history; a finish to the order history too.
        if (event === orderEventCodes.update || event === orderEventCodes.finish) {
          void queryClient.invalidateQueries({ queryKey: accountHistoryKey });
        }
        if (event === orderEventCodes.finish) notifyOrderFinished(finishedOrderNotice(order));
      }),
      socket.on('asset.update', ([update]) => {
        patch<BalanceRow[]>(balancesKey, (rows) => withAssetUpdate(rows, update as AssetUpdate));
      }),
      socket.onReady(() => {
        void queryClient.invalidateQueries({ queryKey: openOrdersKey });
        void queryClient.invalidateQueries({ queryKey: balancesKey });
      }),
    ];
    socket.subscribe('depth', [pair, bookLevelsShown, '0']);
    socket.subscribe('deals', [pair]);
    socket.subscribe('today', [pair]);
    socket.subscribe('order', token ? [pair] : null);
    socket.subscribe('asset', token && assetList ? assetList.split(',') : null);
    return () => {
      for (const stop of stops) stop();
    };
  }, [pair, token, assetList, queryClient]);
}
