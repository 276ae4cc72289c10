// The engine against itself at another commit: how much faster (or slower) a change makes it
// on the engine bench's workload, with the machine's noise beside it.
//
//   npm run bench:engine-ab -- [--base REF] [--runs 4] [--rounds 3] [--ops 1000000] [--seed 42]
//     [--baseline] [--bigint]
//
// REF (default HEAD) is any git revision: its packages/engine is taken with `git archive`. The
// engine of the working tree and that one are each bundled into a module of their own, as the
// server bundles the engine, with a second copy of the working tree's. Then, `runs` times, two
// processes of bench/engineAbRun.ts (bundled too), each `rounds` rounds: the new engine against
// its copy (the control: what two identical engines give here), and the base against the new
// engine. Printed: the median and range of the rounds' ratios of CPU time, the control's and the
// change's. A change shows when its range clears the control's. With --baseline, each engine
// shares the heap with a nodejs-order-book driven through the same chunks, untimed, as in the
// engine bench (bench/engineAbRun.ts): the measure for a change in what the engine allocates.
// With --bigint, the engines run on their bigint core from the start: the measure for a change
// to that core.
// NOTE: why so: a shared machine's speed can move by a quarter from one minute to the next, more
// than most changes to the engine, so both engines run in one process, in alternating chunks;
// and one process can favour one of its two engines by a few per cent for all its rounds (the
// same code in both), so the ratios come from several processes, the control's interleaved.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { asTheServerIsBundled } from '../packages/server/src/engineHost/harness/serverBundle.js';
import { repoRoot } from '../packages/server/src/engineHost/harness/serverProcess.js';

const argv = process.argv.slice(2);
/** The value after `--name`, taken out of the arguments passed on, or `fallback`. */
function option(name: string, fallback: string): string {
  const at = argv.indexOf(name);
  if (at < 0) return fallback;
  const value = argv[at + 1];
  if (value === undefined || value.startsWith('-')) {
    console.error(`${name} needs a value`);
    process.exit(2);
  }
  argv.splice(at, 2);
  return value;
}
const ref = option('--base', 'HEAD');
const runs = Number(option('--runs', '4'));
if (!Number.isSafeInteger(runs) || runs < 1) {
  console.error('--runs must be a whole number from 1');
  process.exit(2);
}

const out = join(repoRoot, 'bench/dist/ab');
const baseTree = join(out, 'base');
rmSync(out, { recursive: true, force: true });
mkdirSync(baseTree, { recursive: true });
// With the tsconfig files esbuild takes its compiler settings from (class fields among them).
const archive = execFileSync(
  'git',
  ['archive', ref, 'packages/engine/src', 'packages/engine/tsconfig.json', 'tsconfig.base.json'],
  { cwd: repoRoot },
);
execFileSync('tar', ['-x', '-C', baseTree], { input: archive });
const commit = execFileSync('git', ['rev-parse', '--short', ref], { cwd: repoRoot }).toString();
console.log(`base: ${ref} (${commit.trim()}); new: the working tree`);

/**
 * A tree's engine and its bigint core's State (for --bigint) in one module. State is in every
 * engine's bundle already: the engine imports it.
 */
const bundle = (tree: string, outfile: string) =>
  build({
    stdin: {
      contents: [
        "export { Engine } from './packages/engine/src/engine.ts';",
        "export { State } from './packages/engine/src/state.ts';",
      ].join('\n'),
      resolveDir: tree,
      loader: 'ts',
    },
    outfile,
    ...asTheServerIsBundled,
  });
const engines = {
  base: join(out, 'engine-base.mjs'),
  next: join(out, 'engine-new.mjs'),
  copy: join(out, 'engine-copy.mjs'),
  run: join(out, 'run.mjs'),
};
await bundle(baseTree, engines.base);
await bundle(repoRoot, engines.next);
// A module is loaded once per path: the copy must be a file of its own.
copyFileSync(engines.next, engines.copy);
await build({
  entryPoints: [join(repoRoot, 'bench/engineAbRun.ts')],
  outfile: engines.run,
  ...asTheServerIsBundled,
});

/** One process of engineAbRun over A and B: its rounds' ratios, A's CPU time over B's. */
function timed(a: string, b: string): number[] {
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', engines.run, '--a', a, '--b', b, ...argv],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  if (run.status !== 0) process.exit(run.status ?? 1);
  const lines = run.stdout.toString().trim().split('\n');
  return JSON.parse(lines.at(-1)!) as number[];
}

function summary(ratios: number[]): string {
  const sorted = [...ratios].sort((x, y) => x - y);
  const mid = sorted.length / 2;
  const median =
    sorted.length % 2 === 1 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return `median ${median.toFixed(3)} (${sorted[0]!.toFixed(3)} to ${sorted.at(-1)!.toFixed(3)}), ${sorted.length} rounds`;
}

const control: number[] = [];
const change: number[] = [];
for (let run = 1; run <= runs; run++) {
  const controlRun = timed(engines.next, engines.copy);
  const changeRun = timed(engines.base, engines.next);
  control.push(...controlRun);
  change.push(...changeRun);
  console.log(
    `run ${run} of ${runs}: control ${summary(controlRun)}; base/new ${summary(changeRun)}`,
  );
}
console.log(`CPU time of the new engine over its copy (control): ${summary(control)}`);
console.log(`CPU time of the base over the new engine: ${summary(change)}`);
