import type { DepthJson, OrderJson } from '@lattice/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSystemParams } from '../../api/session';
import { type FinishedOrderNotice, notifyOrderFinished } from '../shell/finishedOrders';
import { averagePriceOf } from './orderMath';
import { balancesKey, depthQuery, openOrdersKey, publicTradesQuery } from './tradeApi';
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
  shared ??= new TradeSocket(socketUrl());
  return shared;
}

/**
 * Keeps the pair's book, trades and the user's orders live over the socket; a finished order
 * of the user's is announced (SPEC.md §4).
 */
export function useLiveMarket(pair: string): void {
  const queryClient = useQueryClient();
  const params = useSystemParams();
  const token = params?.user ? params.wsToken : null;

  useEffect(() => {
    const socket = tradeSocket();
    socket.setToken(token);
    const depthKey = depthQuery(pair).queryKey;
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
      socket.on('order.update', ([event, order]) => {
        void queryClient.invalidateQueries({ queryKey: openOrdersKey });
        void queryClient.invalidateQueries({ queryKey: balancesKey });
        if (event === 3) notifyOrderFinished(finishedOrderNotice(order as OrderJson));
      }),
    ];
    socket.subscribe('depth', [pair, 50, '0']);
    socket.subscribe('deals', [pair]);
    socket.subscribe('order', token ? [pair] : null);
    return () => {
      for (const stop of stops) stop();
    };
  }, [pair, token, queryClient]);
}
