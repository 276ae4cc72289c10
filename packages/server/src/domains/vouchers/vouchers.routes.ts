import { voucherCodeBody, voucherCreateBody, voucherListQuery } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser, signedInUser } from '../auth/requestAuth.js';
import type { VoucherListKind } from './vouchers.repo.js';
import { VouchersService } from './vouchers.service.js';

const tickerParams = z.object({ ticker: z.string().min(1).max(16).optional() });

/** Transfer codes over HTTP (SPEC.md §7 "Codes"). */
export async function vouchersRoutes(app: FastifyInstance): Promise<void> {
  const service = new VouchersService(app.engineHost, app.db);
  // A stop between a code's freeze and its row (or its row and the settle) must not strand
  // funds: finish those before the first request.
  app.addHook('onReady', async () => {
    const finished = await service.recover();
    if (finished > 0) app.log.info({ finished }, 'interrupted transfer codes finished');
  });
  const read = { preHandler: requireUser, config: { apiKeyScope: 'read' as const } };
  const write = { preHandler: requireUser, config: { apiKeyScope: 'withdraw' as const } };

  const lists: readonly [string, VoucherListKind][] = [
    ['/api/v2/profile/codes/my', 'my'],
    ['/api/v2/profile/codes/history', 'history'],
  ];
  for (const [path, kind] of lists) {
    for (const withTicker of [path, `${path}/:ticker`]) {
      app.get(withTicker, read, async (request) => {
        const { ticker } = tickerParams.parse(request.params);
        const query = voucherListQuery.parse(request.query);
        const filter = { ...query, ticker: ticker ?? query.ticker };
        return service.list(signedInUser(request).user.id, kind, filter);
      });
    }
  }

  app.post('/api/v2/profile/code/create', write, async (request, reply) => {
    const body = voucherCreateBody.parse(request.body);
    reply.code(201);
    return service.create(signedInUser(request).user, body);
  });

  app.post('/api/v2/profile/code/apply', write, async (request) => {
    const { code } = voucherCodeBody.parse(request.body);
    return service.apply(signedInUser(request).user.id, code.toUpperCase());
  });

  app.post('/api/v2/profile/code/delete', write, async (request) => {
    const { code } = voucherCodeBody.parse(request.body);
    return service.cancel(signedInUser(request).user.id, code.toUpperCase());
  });
}
