import {
  finishedOrdersQuery,
  ocoOrderBody,
  ownTradesQuery,
  stopLimitOrderBody,
} from '@lattice/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { clientKeyOf } from '../../engineHost/clientKey.js';
import { requireUser, signedInUser } from '../auth/requestAuth.js';
import { BulkCancelService } from './bulkCancel.service.js';
import { ConditionalOrdersService, marginNotAvailable } from './conditionalOrders.service.js';
import type { HistoryReply } from './orderHistory.service.js';
import { OrderHistoryService } from './orderHistory.service.js';
import type { Caller } from './orders.service.js';

const pairParam = z.object({ pair: z.string().max(40).default('') });
const coinParam = z.object({ coin: z.string().min(1).max(16) });

/**
 * Trading beyond plain limit and market orders (API.md "Trading"): stop-limit and OCO, the
 * margin paths, deleting many orders, finished orders and own trades with CSV export.
 */
export async function tradingRoutes(app: FastifyInstance): Promise<void> {
  const host = app.engineHost;
  const conditional = new ConditionalOrdersService(host, app.marketDirectory);
  const bulk = new BulkCancelService(host, app.marketDirectory);
  const history = new OrderHistoryService(app.db, app.marketDirectory);
  const trade = { preHandler: requireUser, config: { apiKeyScope: 'trade' as const } };
  const read = { preHandler: requireUser, config: { apiKeyScope: 'read' as const } };

  app.post('/api/v2/stop-limit-order', trade, async (request, reply) => {
    const body = stopLimitOrderBody.parse(request.body);
    const order = await conditional.placeStopLimit(callerOf(request, body.client_id), body);
    return reply.status(201).send({ order });
  });

  app.post('/api/v2/oco-order', trade, async (request, reply) => {
    const body = ocoOrderBody.parse(request.body);
    const orders = await conditional.placeOco(callerOf(request, body.client_id), body);
    return reply.status(201).send({ orders });
  });

  for (const path of ['put_limit', 'put_market', 'stop-limit-order', 'oco-order']) {
    app.post(`/api/v2/margin-order/${path}`, trade, async () => {
      throw marginNotAvailable();
    });
  }

  const deleteAll = async (request: FastifyRequest) => {
    const { pair } = pairParam.parse(request.params);
    return bulk.cancelAll(callerOf(request, undefined), pair);
  };
  app.delete('/api/v2/order/deleteall', trade, deleteAll);
  app.delete('/api/v2/order/deleteall/:pair', trade, deleteAll);

  app.delete('/api/v2/order/deleteallbycoin/:coin', trade, async (request) => {
    const { coin } = coinParam.parse(request.params);
    return bulk.cancelAllByCoin(callerOf(request, undefined), coin);
  });

  app.get('/api/v2/order/finished', read, async (request, reply) => {
    const query = finishedOrdersQuery.parse(request.query);
    const result = await history.finishedOrders(signedInUser(request).user.id, query);
    return send(reply, result, 'orders.csv');
  });

  app.get('/api/v2/history', read, async (request, reply) => {
    const query = ownTradesQuery.parse(request.query);
    const result = await history.ownTrades(signedInUser(request).user.id, query);
    return send(reply, result, 'trades.csv');
  });
}

function send<T>(reply: FastifyReply, result: HistoryReply<T>, fileName: string) {
  if (result.kind === 'json') return result.page;
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .send(result.csv);
}

function callerOf(request: FastifyRequest, bodyClientId: string | undefined): Caller {
  const auth = signedInUser(request);
  return {
    userId: auth.user.id,
    source: auth.apiKey ? 'api' : 'web',
    clientKey: clientKeyOf(request, auth.user.id, bodyClientId),
  };
}
