import { apiKeyCreateRequest } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseWith } from '../auth/fail.js';
import { requireUser, signedInUser } from '../auth/requestAuth.js';
import { wsTokenFor } from '../auth/wsToken.js';
import { presentApiKey } from './apiKeys.present.js';
import { listApiKeys } from './apiKeys.repo.js';
import { createApiKey, removeApiKey, toggleApiKey } from './apiKeys.service.js';

const idParams = z.object({ id: z.coerce.number().int().positive() });

/** The API manager: list, create (2FA), toggle and delete keys. Keys cannot manage keys. */
export async function apiKeyRoutes(app: FastifyInstance): Promise<void> {
  const deps = app.accounts;

  app.get('/api/v2/api_key', { preHandler: requireUser }, async (request) => {
    const { user, session } = signedInUser(request);
    const rows = await listApiKeys(deps.db, user.id);
    return {
      records: rows.map(presentApiKey),
      wsToken: session === null ? null : wsTokenFor(deps.secretKey, session.id),
    };
  });

  app.post('/api/v2/api_key', { preHandler: requireUser }, async (request, reply) => {
    const body = parseWith(apiKeyCreateRequest, request.body);
    const { row, secret } = await createApiKey(deps, signedInUser(request).user, body, request.ip);
    return reply.status(201).send({ ...presentApiKey(row), secret });
  });

  app.post('/api/v2/api_key/:id', { preHandler: requireUser }, async (request) => {
    const { id } = parseWith(idParams, request.params);
    return presentApiKey(await toggleApiKey(deps, signedInUser(request).user, id));
  });

  app.delete('/api/v2/api_key/:id', { preHandler: requireUser }, async (request) => {
    const { id } = parseWith(idParams, request.params);
    await removeApiKey(deps, signedInUser(request).user, id);
    return { status: 'ok' };
  });
}
