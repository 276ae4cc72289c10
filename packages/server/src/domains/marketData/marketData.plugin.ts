import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MarketDirectory } from '../orders/markets.js';
import { CommittedDepth } from './committedDepth.js';
import { MarketData } from './marketData.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Candles, 24 h statistics and recent trades, built from committed trades. */
    marketData: MarketData;
    /** The order books as of the last committed batch. */
    committedDepth: CommittedDepth;
    /** Markets by name, with their assets' decimals. */
    marketDirectory: MarketDirectory;
  }
}

/**
 * How often changed candles are written. Each save is a commit on the main connection, which
 * waits on the event loop while the engine host's writer holds the SQLite lock, so it is kept
 * rare; candles not yet saved when the process stops are rebuilt at start from the trades after
 * the saved cursor (`KlineBook.open`), so the interval costs nothing but a longer catch-up.
 */
const candleSaveEveryMs = 10_000;

/** Opens the market data on the engine host (after it) and closes it with the app. */
export const marketDataPlugin = fp(
  async (app: FastifyInstance) => {
    const host = app.engineHost;
    const data = await MarketData.open({
      db: app.db,
      host,
      logger: app.log.child({ module: 'marketData' }),
      saveEveryMs: candleSaveEveryMs,
    });
    const depth = new CommittedDepth(host);
    app.decorate('marketData', data);
    app.decorate('committedDepth', depth);
    app.decorate('marketDirectory', new MarketDirectory(host.engine));
    app.addHook('onClose', async () => {
      depth.close();
      await data.close();
    });
  },
  { name: 'marketData', dependencies: ['engineHost'] },
);
