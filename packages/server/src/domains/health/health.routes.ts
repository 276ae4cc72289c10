import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

const startedAtMs = Date.now();

/** `GET /api/health`: 200 while the database answers, 503 when it does not. */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/health', async (request, reply) => {
    const uptimeSeconds = Math.floor((Date.now() - startedAtMs) / 1000);
    try {
      await sql`select 1`.execute(app.db);
      return { status: 'ok', database: app.dialect, uptimeSeconds };
    } catch (error) {
      request.log.error({ err: error }, 'health check: the database does not answer');
      return reply
        .status(503)
        .send({ status: 'unavailable', database: app.dialect, uptimeSeconds });
    }
  });
}
