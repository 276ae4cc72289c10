import { currencyFeeRuleBody, currencySwitchBody, parseAmount } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { validationError } from '../../http/errors.js';
import { cachedReferenceData, forgetCachedReferenceData } from '../markets/referenceCache.js';
import { percentToPpm, saveFlexFeeRule } from './feeRules.js';

const idParams = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

/**
 * What an operator does to withdrawals and currencies until the admin console exists: approve
 * or reject a withdrawal waiting for review (status 6), switch a currency's deposits or
 * withdrawals, set a flex fee. Development helpers: without DEV_TOOLS the paths do not exist.
 */
export async function withdrawalsDevRoutes(app: FastifyInstance): Promise<void> {
  if (!app.config.devTools) return;

  app.post('/api/dev/withdrawals/:id/approve', async (request) => {
    const { id } = idParams.parse(request.params);
    return app.withdrawals.review(id, true);
  });

  app.post('/api/dev/withdrawals/:id/reject', async (request) => {
    const { id } = idParams.parse(request.params);
    return app.withdrawals.review(id, false);
  });

  app.post('/api/dev/currencies/switch', async (request) => {
    const body = currencySwitchBody.parse(request.body);
    const reference = await cachedReferenceData(app.db);
    if (!reference.assets.some((asset) => asset.ticker === body.ticker)) {
      throw validationError({ ticker: ['Unknown currency'] });
    }
    const change = {
      ...(body.deposit === undefined ? {} : { deposit_enabled: body.deposit ? 1 : 0 }),
      ...(body.withdraw === undefined ? {} : { withdraw_enabled: body.withdraw ? 1 : 0 }),
    };
    if (Object.keys(change).length > 0) {
      await app.db.updateTable('assets').set(change).where('ticker', '=', body.ticker).execute();
      forgetCachedReferenceData(app.db);
    }
    const asset = (await cachedReferenceData(app.db)).assets.find((a) => a.ticker === body.ticker);
    return {
      ticker: body.ticker,
      isDepositOn: asset?.depositEnabled ?? false,
      isWithdrawOn: asset?.withdrawEnabled ?? false,
    };
  });

  app.post('/api/dev/currencies/fee', async (request) => {
    const body = currencyFeeRuleBody.parse(request.body);
    const reference = await cachedReferenceData(app.db);
    const asset = reference.assets.find((candidate) => candidate.ticker === body.ticker);
    if (asset === undefined) throw validationError({ ticker: ['Unknown currency'] });
    const onNetwork = reference.assetNetworks.some(
      (row) => row.assetTicker === body.ticker && row.networkCode === body.network,
    );
    if (!onNetwork) throw validationError({ network: ['Not a network of this currency'] });
    const amount = (field: 'flexMin' | 'flexMax') => {
      const parsed = parseAmount(body[field], asset.decimals);
      if (!parsed.ok) throw validationError({ [field]: [parsed.message] });
      return parsed.value;
    };
    const rule = {
      percentPpm: percentToPpm(body.flexPercent),
      min: amount('flexMin'),
      max: amount('flexMax'),
    };
    if (rule.max > 0n && rule.min > rule.max) {
      throw validationError({ flexMax: ['Must not be below the minimum'] });
    }
    await saveFlexFeeRule(app.db, body.ticker, body.network, rule);
    return body;
  });
}
