import type { FastifyInstance } from 'fastify';
import { depositsApiDocs } from '../deposits/deposits.docs.js';
import { vouchersApiDocs } from '../vouchers/vouchers.docs.js';
import { walletApiDocs } from '../wallet/wallet.docs.js';
import { whitelistApiDocs } from '../whitelist/whitelist.docs.js';
import { withdrawalsApiDocs, withdrawalsDevApiDocs } from '../withdrawals/withdrawals.docs.js';
import { buildOpenApiDocument, type RouteDoc } from './openApi.js';

/** The documented routes; a domain adds its list here. */
const documented: readonly RouteDoc[] = [
  ...walletApiDocs,
  ...depositsApiDocs,
  ...withdrawalsApiDocs,
  ...whitelistApiDocs,
  ...vouchersApiDocs,
];

/**
 * `GET /api/docs/json`: the OpenAPI document; `GET /api/docs`: a page listing it. The
 * operator stand-ins are listed only where they exist (DEV_TOOLS).
 */
export async function apiDocsRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.config.devTools ? [...documented, ...withdrawalsDevApiDocs] : documented;
  const document = buildOpenApiDocument(routes);

  app.get('/api/docs/json', async () => document);

  app.get('/api/docs', async (_request, reply) => {
    const rows = routes
      .map(
        (route) =>
          `<li><code>${route.method.toUpperCase()} ${route.path}</code> ${route.summary}</li>`,
      )
      .join('');
    reply.type('text/html; charset=utf-8');
    return `<!doctype html><meta charset="utf-8"><title>Lattice Exchange API</title><h1>Lattice Exchange API</h1><p><a href="/api/docs/json">OpenAPI 3.1 JSON</a></p><ul>${rows}</ul>`;
  });
}
