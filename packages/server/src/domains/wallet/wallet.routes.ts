import type { FastifyInstance } from 'fastify';
import { clientKeyOf } from '../../engineHost/clientKey.js';
import { requireUser, signedInUser } from '../auth/requestAuth.js';
import { transferBody } from './wallet.schemas.js';
import { WalletService } from './wallet.service.js';

/** Wallet over HTTP (API.md "Wallet"): balances and transfers between main and trade. */
export async function walletRoutes(app: FastifyInstance): Promise<void> {
  const service = new WalletService(app.engineHost, app.db);

  app.get(
    '/api/v3/profile/balance',
    { preHandler: requireUser, config: { apiKeyScope: 'read' } },
    async (request) => service.balances(signedInUser(request).user.id),
  );

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
