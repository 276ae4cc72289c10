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
import { addFavorite, favoriteMarkets, removeFavorite } from './favorites.repo.js';
import { feeRate, presentMarketList } from './marketList.present.js';
import { cachedReferenceData } from './referenceCache.js';

const settingsQuery = z.object({ pair: z.string().optional() });

/** The market list, favorites and trade settings (SPEC.md §7 "Trading"). */
export async function marketsRoutes(app: FastifyInstance): Promise<void> {
  const { db, marketData } = app;
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
