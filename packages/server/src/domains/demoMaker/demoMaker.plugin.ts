import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { loadReferenceData } from '../../reference/reference.repo.js';
import { DemoMaker } from './demoMaker.js';

/** The markets the trade screens open on are visited every 2 s; the others every 10 s. */
const busyMarketCount = 3;
const busyEveryMs = 2_000;
const quietEveryMs = 10_000;

/**
 * Demo liquidity (`DEMO_MAKER`, on by default, off in production and in tests): starts once
 * the app is ready, stops before the engine host closes.
 */
export const demoMakerPlugin = fp(
  async (app: FastifyInstance) => {
    if (!app.config.demoMaker) return;
    const reference = await loadReferenceData(app.db);
    const busyMarkets = [
      reference.defaultPair,
      reference.lttPair,
      ...reference.markets.map((market) => market.name),
    ]
      .filter((name, index, all) => all.indexOf(name) === index)
      .slice(0, busyMarketCount);
    const maker = await DemoMaker.open({
      db: app.db,
      host: app.engineHost,
      markets: app.marketDirectory,
      logger: app.log.child({ module: 'demoMaker' }),
      busyMarkets,
      busyEveryMs,
      quietEveryMs,
    });
    app.addHook('onReady', async () => maker.start());
    app.addHook('preClose', async () => maker.stop());
  },
  { name: 'demoMaker', dependencies: ['engineHost', 'marketData'] },
);
