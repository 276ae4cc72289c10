import { tradingMessages } from '@lattice/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { clientKeyOf } from '../../engineHost/clientKey.js';
import { requireUser, signedInUser } from '../auth/requestAuth.js';
import { MarketDirectory } from './markets.js';
import {
  limitOrderBody,
  marketOrderBody,
  openOrdersQuery,
  orderIdParams,
} from './orders.schemas.js';
import { type Caller, OrdersService } from './orders.service.js';

/** Spot trading over HTTP (API.md "Trading"): place, cancel and list one's orders. */
export async function ordersRoutes(app: FastifyInstance): Promise<void> {
  const service = new OrdersService(
    app.engineHost,
    app.db,
    new MarketDirectory(app.engineHost.engine),
  );
  const trade = { preHandler: requireUser, config: { apiKeyScope: 'trade' as const } };
  const read = { preHandler: requireUser, config: { apiKeyScope: 'read' as const } };

  app.post('/api/v2/order', trade, async (request, reply) => {
    const body = limitOrderBody.parse(request.body);
    const order = await service.placeLimit(callerOf(request, body.client_id), body);
    return reply.status(201).send({ order });
  });

  app.post('/api/v2/order/put_market', trade, async (request, reply) => {
    const body = marketOrderBody.parse(request.body);
    const order = await service.placeMarket(callerOf(request, body.client_id), body);
    return reply.status(201).send({ order });
  });

  app.delete('/api/v2/order/:id', trade, async (request) => {
    const { id } = orderIdParams.parse(request.params);
    const order = await service.cancel(callerOf(request, undefined), id);
    // The notice of SPEC.md §8, for the client to show as is.
    return { order, message: tradingMessages.orderDeleted(order.market) };
  });

  app.get('/api/v2/order', read, async (request) => {
    const query = openOrdersQuery.parse(request.query);
    return service.listOpen(signedInUser(request).user.id, query);
  });
}

function callerOf(request: FastifyRequest, bodyClientId: string | undefined): Caller {
  const auth = signedInUser(request);
  return {
    userId: auth.user.id,
    source: auth.apiKey ? 'api' : 'web',
    clientKey: clientKeyOf(request, auth.user.id, bodyClientId),
  };
}
