import {
  withdrawalBody,
  withdrawalConfirmBody,
  withdrawalFeeBody,
  withdrawalHistoryQuery,
} from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { AppError } from '../../http/errors.js';
import { requireUser, signedInUser } from '../auth/requestAuth.js';
import { verifyUserTotp } from '../auth/twoFactor.js';
import { WithdrawalProcessor } from './withdrawalProcessor.js';
import { withdrawalsDevRoutes } from './withdrawals.devRoutes.js';
import { withdrawalsCsv } from './withdrawals.present.js';
import { confirmPagePath, WithdrawalsService } from './withdrawals.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Crypto withdrawals: requests, confirmation, review, cancel, history. */
    withdrawals: WithdrawalsService;
    /** Sends confirmed withdrawals and finishes what a stop interrupted. */
    withdrawalProcessor: WithdrawalProcessor;
  }
}

// `paymentKey` names the payment method; crypto withdrawals accept any (CRYPTOMEMO, ...).
const methodParams = z.object({
  ticker: z.string().min(1).max(16),
  paymentKey: z.string().min(1).max(32),
});
const idParams = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
const tokenParams = z.object({ token: z.string().min(16).max(128) });
const expirySweepMs = 10 * 60_000;

/**
 * Crypto withdrawals over HTTP (SPEC.md §7 "Wallet", "Fees and payments"). On start-up,
 * before requests are served, the processor finishes the withdrawals a stop interrupted.
 */
export const withdrawalsRoutes = fp(
  async (app: FastifyInstance) => {
    const now = app.accounts.now;
    const logger = app.log.child({ module: 'withdrawals' });
    const processor = new WithdrawalProcessor(app.engineHost, app.db, app.chains, logger, now);
    const service = new WithdrawalsService(app.engineHost, app.db, app.chains, processor, {
      now,
      publicUrl: app.config.publicUrl,
      reviewThresholdUsd: BigInt(app.config.withdrawalReviewUsd),
      sendConfirmation: async (user, link, record) => {
        await app.accounts.mailer.send(user, 'withdrawal_confirm', {
          action: link,
          amount: record.amount,
          ticker: record.ticker,
          address: record.address,
        });
      },
    });
    app.decorate('withdrawals', service);
    // New blocks may give sent withdrawals the confirmations that make them successful.
    app.chains.onBlocks(async () => {
      try {
        await processor.confirmSent();
      } catch (error) {
        logger.error({ err: error }, 'withdrawal confirmation check failed');
      }
    });
    app.decorate('withdrawalProcessor', processor);
    // Unopened e-mail links would hold funds for ever: a sweep releases them once expired.
    let sweep: NodeJS.Timeout | null = null;
    app.addHook('onReady', async () => {
      const finished = await processor.recover();
      if (finished > 0) logger.info({ finished }, 'interrupted withdrawals finished');
      sweep = setInterval(() => {
        processor.expireDue().catch((error: unknown) => {
          logger.error({ err: error }, 'withdrawal expiry sweep failed');
        });
      }, expirySweepMs);
      sweep.unref();
    });
    app.addHook('onClose', async () => {
      if (sweep !== null) clearInterval(sweep);
    });

    const read = { preHandler: requireUser, config: { apiKeyScope: 'read' as const } };
    const withdraw = { preHandler: requireUser, config: { apiKeyScope: 'withdraw' as const } };

    app.post('/api/v3/balance/calcfee-:ticker/:paymentKey', read, async (request) => {
      const { ticker } = methodParams.parse(request.params);
      const body = withdrawalFeeBody.parse(request.body);
      return service.quote(ticker, body.amount, body.network);
    });

    app.post('/api/v3/balance/withdrawal-:ticker/:paymentKey', withdraw, async (request) => {
      const { ticker } = methodParams.parse(request.params);
      const body = withdrawalBody.parse(request.body);
      const auth = signedInUser(request);
      const plan = await service.plan(ticker, body);
      const blockedUntil = auth.user.withdrawals_blocked_until;
      if (blockedUntil !== null && Number(blockedUntil) > now()) {
        throw new AppError('withdrawal_blocked');
      }
      // The 2FA code is the user's confirmation; it is checked last so bad input costs no code.
      await verifyUserTotp(app.accounts, auth.user, body.code, request.ip);
      return service.execute(auth.user, plan, { viaApiKey: auth.apiKey !== null });
    });

    app.post('/api/v2/withdrawals/:id/cancel', withdraw, async (request) => {
      const { id } = idParams.parse(request.params);
      return service.cancel(signedInUser(request).user.id, id);
    });

    // NOTE: a GET never confirms. Mail scanners and link previewers fetch every link of an
    // incoming mail, and one that confirmed would approve what a thief of the API key asked
    // for. The link opens a page that shows the withdrawal; only its button POSTs the token.
    app.get('/api/v2/withdrawals/confirm', async (request, reply) => {
      const { token } = withdrawalConfirmBody.parse(request.query);
      reply.header('cache-control', 'no-store');
      return service.confirmationByToken(token);
    });

    // The link of mails sent before the page existed: it only leads to the page.
    app.get('/api/v2/withdrawals/confirm/:token', async (request, reply) => {
      const { token } = tokenParams.parse(request.params);
      reply.header('cache-control', 'no-store');
      return reply.redirect(`${confirmPagePath}?token=${encodeURIComponent(token)}`);
    });

    app.post('/api/v2/withdrawals/confirm', async (request) => {
      const { token } = withdrawalConfirmBody.parse(request.body);
      return service.confirmByToken(token);
    });

    app.get('/api/v2/withdraw_history', read, async (request, reply) => {
      const query = withdrawalHistoryQuery.parse(request.query);
      const page = await service.history(signedInUser(request).user.id, query);
      if (query.format === 'json') return page;
      reply.type('text/csv; charset=utf-8');
      return withdrawalsCsv(page.records);
    });

    app.get('/api/v3/profile/withdraw_kyc_limit', read, async (request) =>
      service.limitSummary(signedInUser(request).user),
    );

    await app.register(withdrawalsDevRoutes);
  },
  { name: 'withdrawals', dependencies: ['engineHost', 'chains', 'accounts'] },
);
