import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { errorBodyFor } from '@lattice/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const hashedAssetsCacheControl = 'public, max-age=31536000, immutable';

/**
 * Serves the built web app at `/` and answers every other unknown path: the app's page for a
 * client route (`/trade/BTC_USDT`), JSON 404 under `/api`, plain 404 for a missing file.
 * Call it on the root instance, after every other route.
 */
export async function registerWebApp(app: FastifyInstance, webDistDir: string): Promise<void> {
  const built = existsSync(join(webDistDir, 'index.html'));
  if (built) {
    const assetsDir = join(webDistDir, 'assets');
    await app.register(fastifyStatic, {
      root: webDistDir,
      cacheControl: false,
      // Vite names files under assets/ by content hash, so they never change; the page does.
      setHeaders: (res, path) => {
        res.setHeader(
          'cache-control',
          path.startsWith(assetsDir) ? hashedAssetsCacheControl : 'no-cache',
        );
      },
    });
  } else {
    app.log.warn(
      { webDistDir },
      'the web app is not built: run `npm run build` (npm start builds it) to serve it at /',
    );
  }
  app.setNotFoundHandler((request, reply) => answerUnknownPath(request, reply, built));
}

function answerUnknownPath(request: FastifyRequest, reply: FastifyReply, built: boolean) {
  const path = request.url.split('?')[0] ?? '/';
  const isApi = path === '/api' || path.startsWith('/api/');
  const isPageRequest =
    (request.method === 'GET' || request.method === 'HEAD') &&
    !isApi &&
    !path.split('/').pop()?.includes('.');
  if (!isPageRequest) {
    return reply.status(404).send(errorBodyFor('route_not_found'));
  }
  if (!built) {
    return reply.status(503).type('text/html; charset=utf-8').send(notBuiltPage);
  }
  return reply.header('cache-control', 'no-cache').sendFile('index.html');
}

const notBuiltPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Lattice Exchange</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto">
<h1>Lattice Exchange</h1>
<p>The server is running, but the web app has not been built, so there is no page to show.</p>
<p>Run <code>npm run build</code> and reload, or start with <code>npm start</code>, which builds it
first. The API answers under <a href="/api/health"><code>/api</code></a>.</p>
</body></html>
`;
