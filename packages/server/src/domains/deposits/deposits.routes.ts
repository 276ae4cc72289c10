import { addressQuery, depositHistoryQuery, newAddressBody } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser, signedInUser } from '../auth/requestAuth.js';
import { depositsCsv } from './deposits.present.js';
import { DepositsService } from './deposits.service.js';

const tickerParams = z.object({ ticker: z.string().min(1).max(16) });

/** Deposit addresses, deposit history and block heights (SPEC.md §7 "Wallet"). */
export async function depositsRoutes(app: FastifyInstance): Promise<void> {
  const service = new DepositsService(app.db, app.chains);
  const read = { preHandler: requireUser, config: { apiKeyScope: 'read' as const } };

  app.get('/api/v2/profile/address/:ticker', read, async (request) => {
    const { ticker } = tickerParams.parse(request.params);
    const { network } = addressQuery.parse(request.query);
    return service.address(signedInUser(request).user.id, ticker, network);
  });

  app.post('/api/v2/profile/address', read, async (request) => {
    const { ticker, network } = newAddressBody.parse(request.body);
    return service.newAddress(signedInUser(request).user.id, ticker, network);
  });

  app.get('/api/v2/deposit_history', read, async (request, reply) => {
    const query = depositHistoryQuery.parse(request.query);
    const page = await service.history(signedInUser(request).user.id, query);
    if (query.format === 'json') return page;
    reply.type('text/csv; charset=utf-8');
    return depositsCsv(page.records);
  });

  app.get('/api/v2/blockHeight/:ticker', async (request) => {
    const { ticker } = tickerParams.parse(request.params);
    const { network } = addressQuery.parse(request.query);
    return service.blockHeight(ticker, network);
  });
}
