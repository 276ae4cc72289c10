// Bundles the server into dist/main.js, and the engine replica's worker thread beside it into
// dist/replicaWorker.js: our workspace packages (@lattice/*, TypeScript source) are compiled in;
// every other package stays an import from node_modules, so native modules (better-sqlite3,
// argon2) and their files load as installed.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const keepOtherPackagesExternal = {
  name: 'external-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@lattice/') ? undefined : { path: args.path, external: true },
    );
  },
};

await build({
  // The engine replica's worker thread is a second entry, loaded from beside main.js.
  entryPoints: {
    main: fileURLToPath(new URL('./src/main.ts', import.meta.url)),
    replicaWorker: fileURLToPath(new URL('./src/engineHost/replicaWorker.ts', import.meta.url)),
  },
  outdir: fileURLToPath(new URL('./dist', import.meta.url)),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // Puts the engine's numeric layout constants in place of their names, as the benchmarks bundle
  // it (docs/decisions/inlined-layout-constants.md).
  minifySyntax: true,
  sourcemap: true,
  logLevel: 'warning',
  plugins: [keepOtherPackagesExternal],
});
