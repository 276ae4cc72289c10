import type { FastifyInstance } from 'fastify';
import { vouchersApiDocs } from '../vouchers/vouchers.docs.js';
import { whitelistApiDocs } from '../whitelist/whitelist.docs.js';
import { withdrawalsApiDocs } from '../withdrawals/withdrawals.docs.js';
import { buildOpenApiDocument } from './openApi.js';

/** The documented routes; a domain adds its list here. */
const documented = [...withdrawalsApiDocs, ...whitelistApiDocs, ...vouchersApiDocs];

/** `GET /api/docs/json`: the OpenAPI document; `GET /api/docs`: a page listing it. */
export async function apiDocsRoutes(app: FastifyInstance): Promise<void> {
  const document = buildOpenApiDocument(documented);

  app.get('/api/docs/json', async () => document);

  app.get('/api/docs', async (_request, reply) => {
    const rows = documented
      .map(
        (route) =>
          `<li><code>${route.method.toUpperCase()} ${route.path}</code> ${route.summary}</li>`,
      )
      .join('');
    reply.type('text/html; charset=utf-8');
    return `<!doctype html><meta charset="utf-8"><title>Lattice Exchange API</title><h1>Lattice Exchange API</h1><p><a href="/api/docs/json">OpenAPI 3.1 JSON</a></p><ul>${rows}</ul>`;
  });
}
