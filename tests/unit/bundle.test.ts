/**
 * What the first view loads (src/app/App.tsx, vite.config.ts): the shell imports no page and no 3D code
 * eagerly, and the build fails on a chunk above Vite's default size warning limit instead of hiding it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config, { oversizedChunks } from '../../vite.config.ts';
import { REPO_ROOT } from '../../scripts/support/paths.ts';

/** The module specifiers of the static imports of a file (`import … from '…'`, not `import('…')`). */
const staticImports = (file: string): string[] =>
  [...readFileSync(join(REPO_ROOT, file), 'utf8').matchAll(/^\s*import\s[^'"]*?from\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]);

describe('bundle', () => {
  it('the app shell and the entry import no page, viewer or three statically', () => {
    for (const file of ['src/main.tsx', 'src/app/App.tsx']) {
      const imports = staticImports(file);
      expect(imports.length, file).toBeGreaterThan(0);
      for (const spec of imports) expect(spec, file).not.toMatch(/\/pages\/|\/viewer\/|^three|^@react-three\//);
    }
    const app = readFileSync(join(REPO_ROOT, 'src/app/App.tsx'), 'utf8');
    for (const page of [
      'structure/StructurePage',
      'nanoparticle/NanoparticlePage',
      'compare/ComparePage',
      'onng/OnngPage',
      'atomworld/AtomworldPage',
      'fem/FemPage',
    ]) {
      expect(app, page).toContain(`import('../pages/${page}.tsx')`);
    }
  });

  it('keeps Vite’s default chunk size warning limit', () => {
    expect(config.build).toBeDefined();
    expect(config.build!.chunkSizeWarningLimit).toBeUndefined();
  });

  it('names the chunks above the limit, as Vite counts kB (1000 bytes of code), and ignores assets', () => {
    const bundle = {
      'assets/big.js': { type: 'chunk', code: 'x'.repeat(600_000) },
      'assets/edge.js': { type: 'chunk', code: 'x'.repeat(500_000) },
      'assets/small.js': { type: 'chunk', code: 'x'.repeat(10) },
      'assets/moyo.wasm': { type: 'asset' },
    };
    expect(oversizedChunks(bundle, 500)).toEqual(['assets/big.js (600.00 kB)']);
    expect(oversizedChunks(bundle, 400)).toEqual(['assets/big.js (600.00 kB)', 'assets/edge.js (500.00 kB)']);
  });
});
