import { join } from 'node:path';
import { type BuildOptions, build } from 'esbuild';
import { repoRoot } from './serverProcess.js';

/**
 * The options `npm run build` bundles the server with: one ES module for Node, our packages
 * (`@lattice/*`) and files compiled in, every other package left to node_modules.
 */
export const asTheServerIsBundled = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // Puts numeric constants in place of their names (docs/decisions/inlined-layout-constants.md).
  minifySyntax: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-packages',
      setup(builder) {
        builder.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@lattice/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
} satisfies BuildOptions;

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
    ...asTheServerIsBundled,
  });
  return join(outdir, 'main.js');
}
