import { amountToDecimal } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/errors.js';
import { coinGeckoTickers, coinMarketCapSummary, type MarketSnapshot } from './aggregatorStats.js';
import { currencyImageSvg } from './currencyImage.js';
import { cachedReferenceData } from './referenceCache.js';

const imageParams = z.object({ file: z.string().regex(/^[A-Z0-9]{1,16}\.svg$/) });

/** Statistics for aggregators (SPEC.md §7 "Market stats") and the currencies' images. */
export async function marketStatsRoutes(app: FastifyInstance): Promise<void> {
  const { db, marketData, committedDepth } = app;

  const snapshots = async (): Promise<MarketSnapshot[]> => {
    const reference = await cachedReferenceData(db);
    return reference.markets
      .filter((market) => market.enabled)
      .map((market) => ({
        market,
        stats: marketData.today(market.name),
        book: committedDepth.book(market.name),
      }));
  };

  app.get('/api/v2/coingecko/stats', async () =>
    coinGeckoTickers(await cachedReferenceData(db), await snapshots()),
  );

  app.get('/api/v2/coinmarketcap/stats', async () =>
    coinMarketCapSummary(await cachedReferenceData(db), await snapshots()),
  );

  app.get('/api/v2/total_supply_tokens', async () => {
    const reference = await cachedReferenceData(db);
    const totals = new Map(app.engineHost.engine.assetTotals().map((t) => [t.asset, t.total]));
    return reference.assets.map((asset) => ({
      ticker: asset.ticker,
      total_supply: amountToDecimal(totals.get(asset.ticker) ?? 0n, asset.decimals),
    }));
  });

  app.get('/api/currencies/:file', async (request, reply) => {
    const parsed = imageParams.safeParse(request.params);
    if (!parsed.success) throw new AppError('currency_not_found');
    return reply
      .type('image/svg+xml')
      .header('cache-control', 'public, max-age=86400')
      .send(currencyImageSvg(parsed.data.file.slice(0, -4)));
  });
}
