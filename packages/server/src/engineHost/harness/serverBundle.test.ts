// The engine's layout constants (the offsets of its rows and records) are put in place of their
// names when the engine is bundled as the server is (docs/decisions/inlined-layout-constants.md).
// A name left in the bundle is a variable the compiled code must read and check at every use: on
// the bench's workload the engine took a fifth longer so. It comes back when one of the layout
// modules imports something, or when the bundle is built without minifySyntax.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { asTheServerIsBundled } from './serverBundle.js';
import { repoRoot } from './serverProcess.js';

const engineSrc = join(repoRoot, 'packages/engine/src');
const LAYOUT_MODULES = [
  'columnar/orderRow.ts',
  'columnar/recordLayout.ts',
  'columnar/levelRow.ts',
  'columnar/balanceCell.ts',
  'columnar/orderCodes.ts',
];

/** The names the layout modules export. */
function layoutNames(): string[] {
  return LAYOUT_MODULES.flatMap((file) =>
    [...readFileSync(join(engineSrc, file), 'utf8').matchAll(/^export const (\w+) =/gm)].map(
      (m) => m[1]!,
    ),
  );
}

async function bundledEngine(minifySyntax: boolean): Promise<string> {
  const out = await build({
    ...asTheServerIsBundled,
    entryPoints: [join(engineSrc, 'index.ts')],
    write: false,
    minifySyntax,
  });
  return out.outputFiles[0]!.text;
}

/** The names the bundle still declares: `NAME = value` outside a property or a comparison. */
function declared(code: string, names: string[]): string[] {
  return names.filter((name) => new RegExp(`(?<![\\w$.])${name} = `).test(code));
}

describe('the engine bundled as the server is', { timeout: 60_000 }, () => {
  it('has every layout constant in place of its name', async () => {
    const names = layoutNames();
    expect(names.length).toBeGreaterThan(90);
    expect(asTheServerIsBundled.minifySyntax).toBe(true);
    expect(declared(await bundledEngine(true), names)).toEqual([]);
  });

  it('would declare them without minifySyntax, so the check above can see a name left in', async () => {
    const names = layoutNames();
    expect(declared(await bundledEngine(false), names)).toEqual(names);
  });

  it('bundles as npm run build does: build.mjs sets minifySyntax too', () => {
    const buildScript = readFileSync(join(repoRoot, 'packages/server/build.mjs'), 'utf8');
    expect(buildScript).toMatch(/^\s*minifySyntax: true,$/m);
  });
});
