import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { repoRoot } from './serverProcess.js';

/** Compiles our packages (`@lattice/*`) and our files in, and leaves every other package to node_modules. */
export const ourCodeBundled: Plugin = {
  name: 'external-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@lattice/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Bundles the server as `npm run build` does (our packages compiled in, every other package
 * left to node_modules, the engine replica's worker beside it) into
 * `packages/server/dist/<name>/main.js`, and returns its path. A bundled server starts in a
 * fraction of the time `tsx` needs, which matters to a test that restarts it a dozen times.
 */
export async function buildServerBundle(name: string): Promise<string> {
  const outdir = join(repoRoot, 'packages/server/dist', name);
  await build({
    entryPoints: {
      main: join(repoRoot, 'packages/server/src/main.ts'),
      replicaWorker: join(repoRoot, 'packages/server/src/engineHost/replicaWorker.ts'),
    },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    logLevel: 'warning',
    plugins: [ourCodeBundled],
  });
  return join(outdir, 'main.js');
}
