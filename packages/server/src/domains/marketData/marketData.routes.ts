import {
  depthQuery,
  klineQuery,
  klineRowsMax,
  type Page,
  type PublicTradeJson,
  pairParams,
  publicTradesQuery,
} from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/errors.js';
import type { MarketInfo } from '../orders/markets.js';
import { presentCandle, presentDepth, presentTicker, presentTrade } from './marketData.present.js';
import { marketTradeCount, marketTrades } from './trades.repo.js';

const tickerQuery = z.object({ pair: z.string().optional() });

/** Public market data over HTTP (API.md "Trading"): depth, klines, 24 h ticker, trades. */
export async function marketDataRoutes(app: FastifyInstance): Promise<void> {
  const { marketData, committedDepth, marketDirectory } = app;
  const marketOf = (params: unknown): MarketInfo => {
    const parsed = pairParams.safeParse(params);
    const info = parsed.success ? marketDirectory.find(parsed.data.pair) : undefined;
    if (info === undefined) throw new AppError('market_not_found');
    return info;
  };

  app.get('/api/v2/depth/:pair', async (request) => {
    const info = marketOf(request.params);
    const { limit, offset } = depthQuery.parse(request.query);
    const book = committedDepth.book(info.market.name);
    const page = {
      asks: book.asks.slice(offset, offset + limit),
      bids: book.bids.slice(offset, offset + limit),
    };
    return presentDepth(page, info);
  });

  app.get('/api/v2/kline/:pair', async (request) => {
    const info = marketOf(request.params);
    const query = klineQuery.parse(request.query);
    const nowMs = Date.now();
    const endMs = Math.min(nowMs, (query.end ?? nowMs / 1000) * 1000);
    const startMs = (query.start ?? 0) * 1000;
    if (startMs > endMs) return [];
    const candles = await marketData.klines.range(
      info.market.name,
      query.interval,
      startMs,
      endMs,
      klineRowsMax,
    );
    return candles.map((candle) => presentCandle(candle, info));
  });

  app.get('/api/v2/ticker', async (request) => {
    const { pair } = tickerQuery.parse(request.query);
    const names = pair === undefined ? marketNames(app) : [marketOf({ pair }).market.name];
    return names.flatMap((name) => {
      const info = marketDirectory.find(name);
      return info ? [presentTicker(marketData.today(name), info)] : [];
    });
  });

  app.get('/api/v2/history/:pair', async (request): Promise<Page<PublicTradeJson>> => {
    const info = marketOf(request.params);
    const { offset, limit } = publicTradesQuery.parse(request.query);
    const name = info.market.name;
    const [trades, total] = await Promise.all([
      offset === 0 ? marketData.trades(name, limit) : marketTrades(app.db, name, { offset, limit }),
      marketTradeCount(app.db, name),
    ]);
    return { records: trades.map((trade) => presentTrade(trade, info)), total, offset, limit };
  });
}

/** Every market the engine knows, in the engine's order. */
export function marketNames(app: FastifyInstance): string[] {
  return app.engineHost.engine.markets().map((market) => market.name);
}
