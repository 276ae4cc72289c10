import {
  amountToDecimal,
  favoriteBody,
  pairParams,
  type TradeSettingsJson,
} from '@lattice/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, validationError } from '../../http/errors.js';
import { optionalUser, requireUser, signedInUser } from '../auth/requestAuth.js';
import { coinGeckoTickers, coinMarketCapSummary, type MarketSnapshot } from './aggregatorStats.js';
import { currencyImageSvg } from './currencyImage.js';
import { addFavorite, favoriteMarkets, removeFavorite } from './favorites.repo.js';
import { feeRate, presentMarketList } from './marketList.present.js';
import { cachedReferenceData } from './referenceCache.js';

const settingsQuery = z.object({ pair: z.string().optional() });
const imageParams = z.object({ file: z.string().regex(/^[A-Z0-9]{1,16}\.svg$/) });

/**
 * The market list, favorites, trade settings and the aggregators' statistics (SPEC.md §7
 * "Trading" and "Market stats").
 */
export async function marketsRoutes(app: FastifyInstance): Promise<void> {
  const { db, marketData, committedDepth } = app;
  const read = { preHandler: requireUser, config: { apiKeyScope: 'read' as const } };

  app.get('/api/v2/market-list', { preHandler: optionalUser }, async (request) => {
    const reference = await cachedReferenceData(db);
    const favorites = request.auth ? await favoriteMarkets(db, request.auth.user.id) : [];
    return presentMarketList(reference, (name) => marketData.today(name), new Set(favorites));
  });

  app.get('/api/v2/favorites', read, async (request) => ({
    favorites: await favoriteMarkets(db, signedInUser(request).user.id),
  }));

  app.post('/api/v2/favorites', read, async (request) => {
    const pair = await enabledMarket(request);
    const userId = signedInUser(request).user.id;
    await addFavorite(db, userId, pair, Date.now());
    return { favorites: await favoriteMarkets(db, userId) };
  });

  app.delete('/api/v2/favorites/:pair', read, async (request) => {
    const { pair } = pairParams.parse(request.params);
    const userId = signedInUser(request).user.id;
    await removeFavorite(db, userId, pair);
    return { favorites: await favoriteMarkets(db, userId) };
  });

  app.get('/api/v2/trade/settings', { preHandler: optionalUser }, async (request) => {
    const { pair } = settingsQuery.parse(request.query);
    const reference = await cachedReferenceData(db);
    const name = pair ?? reference.defaultPair;
    const market = reference.markets.find((candidate) => candidate.name === name);
    if (market === undefined) throw new AppError('market_not_found');
    // Paying in the platform token halves the fee (SPEC.md §9, API.md "Fees").
    const discounted = amountToDecimal(BigInt(market.takerFeePpm) / 2n, 6);
    const settings: TradeSettingsJson = {
      fee: feeRate(market.takerFeePpm),
      fee_plc: discounted,
      fee_plc_buy: discounted,
      maker_fee: feeRate(market.makerFeePpm),
      taker_fee: feeRate(market.takerFeePpm),
      isCustomFeeEnabled: request.auth?.user.custom_fee_enabled === 1,
    };
    return settings;
  });

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

  async function enabledMarket(request: FastifyRequest): Promise<string> {
    const query = request.query as Record<string, unknown>;
    const given = favoriteBody.safeParse({
      pair: query.pair ?? (request.body as { pair?: unknown } | undefined)?.pair,
    });
    const reference = await cachedReferenceData(db);
    const pair = given.success ? given.data.pair : undefined;
    if (!reference.markets.some((market) => market.enabled && market.name === pair)) {
      throw validationError({ pair: ['Market not found'] });
    }
    return pair as string;
  }
}
