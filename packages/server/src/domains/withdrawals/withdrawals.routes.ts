import { withdrawalBody, withdrawalFeeBody, withdrawalHistoryQuery } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/errors.js';
import { requireUser, signedInUser } from '../auth/requestAuth.js';
import { verifyUserTotp } from '../auth/twoFactor.js';
import { withdrawalsCsv } from './withdrawals.present.js';
import { WithdrawalsService } from './withdrawals.service.js';

// `paymentKey` names the payment method; crypto withdrawals accept any (CRYPTOMEMO, ...).
const methodParams = z.object({
  ticker: z.string().min(1).max(16),
  paymentKey: z.string().min(1).max(32),
});

/** Crypto withdrawals over HTTP (SPEC.md §7 "Wallet", "Fees and payments"). */
export async function withdrawalsRoutes(app: FastifyInstance): Promise<void> {
  const service = new WithdrawalsService(app.engineHost, app.db, app.chains, app.accounts.now);
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
    const { user } = signedInUser(request);
    const plan = await service.plan(ticker, body);
    const blockedUntil = user.withdrawals_blocked_until;
    if (blockedUntil !== null && Number(blockedUntil) > app.accounts.now()) {
      throw new AppError('withdrawal_blocked');
    }
    // The 2FA code is the user's confirmation; it is checked last so bad input costs no code.
    await verifyUserTotp(app.accounts, user, body.code, request.ip);
    return service.execute(user, plan);
  });

  app.get('/api/v2/withdraw_history', read, async (request, reply) => {
    const query = withdrawalHistoryQuery.parse(request.query);
    const page = await service.history(signedInUser(request).user.id, query);
    if (query.format === 'json') return page;
    reply.type('text/csv; charset=utf-8');
    return withdrawalsCsv(page.records);
  });
}
