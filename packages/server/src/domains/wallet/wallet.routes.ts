import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { clientKeyOf } from '../../engineHost/clientKey.js';
import { requireUser, signedInUser } from '../auth/requestAuth.js';
import { transferBody } from './wallet.schemas.js';
import { WalletService } from './wallet.service.js';

const tickerParams = z.object({ ticker: z.string().min(1).max(16) });

/** Wallet over HTTP (API.md "Wallet"): balances and transfers between main and trade. */
export async function walletRoutes(app: FastifyInstance): Promise<void> {
  const service = new WalletService(app.engineHost, app.db, app.accounts.now);
  const read = { preHandler: requireUser, config: { apiKeyScope: 'read' as const } };

  app.get('/api/v3/profile/balance', read, async (request) =>
    service.balances(signedInUser(request).user),
  );

  app.get('/api/v3/profile/balance/:ticker', read, async (request) => {
    const { ticker } = tickerParams.parse(request.params);
    return service.balance(signedInUser(request).user, ticker);
  });

  app.post(
    '/api/v2/profile/transfer',
    { preHandler: requireUser, config: { apiKeyScope: 'trade' } },
    async (request) => {
      const body = transferBody.parse(request.body);
      const userId = signedInUser(request).user.id;
      return service.transfer(userId, body, clientKeyOf(request, userId, body.client_id));
    },
  );
}
