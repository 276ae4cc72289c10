import websocket from '@fastify/websocket';
import { socketCloseCodes } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../http/errors.js';
import { Hub } from './hub.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The real-time socket's connections and feeds. */
    realtime: Hub;
  }
}

/**
 * The real-time socket at `/ws` (protocol-ws.md). Frames over the size limit close the
 * connection (1009); an address with too many open connections is refused before the upgrade.
 */
export const realtimePlugin = fp(
  async (app: FastifyInstance) => {
    const limits = app.config.realtime;
    await app.register(websocket, {
      options: { maxPayload: limits.messageBytesMax, perMessageDeflate: false },
    });
    const hub = new Hub({
      db: app.db,
      host: app.engineHost,
      data: app.marketData,
      depth: app.committedDepth,
      markets: app.marketDirectory,
      tokenKey: app.accounts.secretKey,
      limits,
      logger: app.log.child({ module: 'realtime' }),
    });
    app.decorate('realtime', hub);
    app.addHook('preClose', async () => hub.close());

    app.route({
      method: 'GET',
      url: '/ws',
      preValidation: async (request, reply) => {
        if (!hub.admits(request.ip)) {
          await reply
            .code(429)
            .header('retry-after', '10')
            .send({ message: 'Too many connections', code: 'rate_limited' });
        }
      },
      // A plain HTTP request (no upgrade) gets the API's 404, not an empty body.
      handler: async () => {
        throw new AppError('route_not_found');
      },
      wsHandler: (socket, request) => {
        if (!hub.admits(request.ip)) {
          socket.close(socketCloseCodes.tryAgainLater, 'too many connections');
          return;
        }
        hub.accept(socket, request.ip);
      },
    });
  },
  { name: 'realtime', dependencies: ['engineHost', 'marketData', 'accounts'] },
);
