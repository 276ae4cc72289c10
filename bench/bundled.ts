// Runs a benchmark as the server runs our code: compiled into one module by esbuild, as
// `npm run build` bundles the server (our packages in, every other package from node_modules),
// not as one module per source file, which is how `tsx` runs it.
//
//   tsx bench/bundled.ts engine [args...]   builds bench/engine.ts into bench/dist/engine.mjs,
//                                           then runs it with node and the arguments
//
// NOTE: the difference is not small for the engine: per file, its ratio to the baseline on the
// bench's workload was about a tenth lower (docs/decisions/columnar-engine-speed.md,
// "How it is measured"). The baseline, nodejs-order-book, is a package: it loads from
// node_modules either way.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { asTheServerIsBundled } from '../packages/server/src/engineHost/harness/serverBundle.js';
import { repoRoot } from '../packages/server/src/engineHost/harness/serverProcess.js';

const [name, ...args] = process.argv.slice(2);
if (name === undefined || !/^\w+$/.test(name)) {
  console.error('usage: tsx bench/bundled.ts <bench name> [args...]');
  process.exit(2);
}
const outfile = join(repoRoot, 'bench/dist', `${name}.mjs`);
await build({
  entryPoints: [join(repoRoot, 'bench', `${name}.ts`)],
  outfile,
  ...asTheServerIsBundled,
});
// --expose-gc: a bench may start each timed pass from a collected heap (bench/engine.ts does).
// --v8-pool-size: V8's helper threads (compilers, collector) no more than the cores beside the
// main thread. Node's default is four; on a two-core machine, when V8 compiled the engine again
// in a timed pass, the main thread waited for a core: single operations of 2 to 17 ms that were
// neither the engine's work nor a collection (docs/decisions/columnar-engine-speed.md,
// "Pauses that are not collections").
const helpers = Math.max(1, availableParallelism() - 1);
const run = spawnSync(
  process.execPath,
  ['--expose-gc', `--v8-pool-size=${helpers}`, outfile, ...args],
  { stdio: 'inherit' },
);
process.exit(run.status ?? 1);
