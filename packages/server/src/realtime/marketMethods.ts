import { isKlineInterval, klineRowsMax } from '@lattice/contracts';
import type { MarketData } from '../domains/marketData/marketData.js';
import { presentCandle } from '../domains/marketData/marketData.present.js';
import type { MarketInfo } from '../domains/orders/markets.js';
import type { Connection } from './connection.js';
import type { DealsFeed } from './dealsFeed.js';
import { presentDeal } from './dealsFeed.js';
import { type DepthFeed, isDepthLimit } from './depthFeed.js';
import type { KlineFeed } from './klineFeed.js';
import { FollowedBy, type Method, publicMethod, success } from './methods.js';
import type { Params } from './params.js';
import { invalidArgument } from './rpc.js';
import { statePeriodMax, type TickerFeeds } from './tickerFeeds.js';

export interface MarketFeeds {
  data: MarketData;
  depth: DepthFeed;
  deals: DealsFeed;
  kline: KlineFeed;
  tickers: TickerFeeds;
}

/** A merge step ("0", "0.01", ...) valid for the market: 0 or a whole number of ticks. */
function mergeStep(params: Params, index: number, info: MarketInfo): bigint {
  const step = params.decimal(index, info.moneyDecimals, '0');
  if (step !== 0n && step % info.market.tickSize !== 0n) {
    throw invalidArgument('merge interval is not a multiple of the tick size');
  }
  return step;
}

function klineInterval(params: Params, index: number) {
  const interval = params.integer(index, 1, 2_592_000);
  if (!isKlineInterval(interval)) throw invalidArgument('unsupported kline interval');
  return interval;
}

const depthQueryLevelsMax = 100;
const dealsQueryMax = 10_000;

/** The public market-data methods of protocol-ws.md §5. */
export function marketMethods(feeds: MarketFeeds): Record<string, Method> {
  return {
    ...depthMethods(feeds.depth),
    ...dealsMethods(feeds.data, feeds.deals),
    ...klineMethods(feeds.data, feeds.kline),
    ...tickerMethods(feeds.tickers),
  };
}

function unsubscribe(clear: (connection: Connection) => void): Method {
  return publicMethod(({ connection, params }) => {
    params.arity(0);
    clear(connection);
    return success;
  });
}

function depthMethods(depth: DepthFeed): Record<string, Method> {
  return {
    'depth.query': publicMethod(({ params }) => {
      params.arity(1, 3);
      const info = params.market(0);
      const limit = params.integer(1, 1, depthQueryLevelsMax, 20);
      return depth.query(info, limit, mergeStep(params, 2, info));
    }),
    'depth.subscribe': publicMethod(({ connection, params }) => {
      params.arity(2, 3);
      const info = params.market(0);
      const limit = params.integer(1, 1, depthQueryLevelsMax);
      if (!isDepthLimit(limit)) throw invalidArgument('limit must be 1, 5, 10, 20, 30, 50 or 100');
      const step = mergeStep(params, 2, info);
      return new FollowedBy(success, depth.subscribe(connection, info, limit, step));
    }),
    'depth.unsubscribe': unsubscribe((c) => depth.topics.clear(c)),
  };
}

function dealsMethods(data: MarketData, deals: DealsFeed): Record<string, Method> {
  return {
    'deals.query': publicMethod(async ({ params }) => {
      params.arity(1, 3);
      const info = params.market(0);
      const limit = params.integer(1, 1, dealsQueryMax, 100);
      const lastId = params.integer(2, 0, Number.MAX_SAFE_INTEGER, 0);
      const trades = await data.trades(info.market.name, limit, lastId);
      return trades.map((trade) => presentDeal(trade, info));
    }),
    'deals.subscribe': publicMethod(async ({ connection, params }) => {
      const backlog = await deals.subscribe(connection, params.markets());
      return new FollowedBy(success, backlog);
    }),
    'deals.unsubscribe': unsubscribe((c) => deals.topics.clear(c)),
  };
}

function klineMethods(data: MarketData, kline: KlineFeed): Record<string, Method> {
  return {
    'kline.query': publicMethod(async ({ params }) => {
      params.arity(4);
      const info = params.market(0);
      const start = params.integer(1, 0, Number.MAX_SAFE_INTEGER);
      const end = params.integer(2, 0, Number.MAX_SAFE_INTEGER);
      const interval = klineInterval(params, 3);
      const endMs = Math.min(Date.now(), end * 1000);
      if (start * 1000 > endMs) throw invalidArgument('start is after end');
      const name = info.market.name;
      const rows = await data.klines.range(name, interval, start * 1000, endMs, klineRowsMax);
      return rows.map((row) => presentCandle(row, info));
    }),
    'kline.subscribe': publicMethod(({ connection, params }) => {
      params.arity(2);
      kline.subscribe(connection, params.market(0), klineInterval(params, 1));
      return success;
    }),
    'kline.unsubscribe': unsubscribe((c) => kline.topics.clear(c)),
  };
}

function tickerMethods(tickers: TickerFeeds): Record<string, Method> {
  return {
    'today.query': publicMethod(({ params }) => tickers.todayOf(params.arity(1).market(0))),
    'today.subscribe': publicMethod(({ connection, params }) => {
      return new FollowedBy(success, tickers.subscribeToday(connection, params.markets()));
    }),
    'today.unsubscribe': unsubscribe((c) => tickers.today.clear(c)),

    'state.query': publicMethod(({ params }) => {
      params.arity(2);
      const info = params.market(0);
      return tickers.stateOf(info, params.integer(1, 1, statePeriodMax));
    }),
    'state.subscribe': publicMethod(({ connection, params }) => {
      return new FollowedBy(success, tickers.subscribeState(connection, params.markets()));
    }),
    'state.unsubscribe': unsubscribe((c) => tickers.state.clear(c)),

    'price.query': publicMethod(({ params }) => tickers.priceOf(params.arity(1).market(0))),
    'price.subscribe': publicMethod(({ connection, params }) => {
      return new FollowedBy(success, tickers.subscribePrice(connection, params.markets()));
    }),
    'price.unsubscribe': unsubscribe((c) => tickers.price.clear(c)),
  };
}
