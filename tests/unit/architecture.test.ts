/**
 * The rules of the house, enforced: src/core stays pure (no DOM, React, three or Node-only modules)
 * and its layers only import downwards (math → structure → symmetry → io → analysis → match → tasks).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../paths.ts';

const CORE = join(REPO_ROOT, 'src', 'core');
const LAYERS = ['math', 'structure', 'symmetry', 'io', 'analysis', 'match', 'tasks'];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : /\.tsx?$/.test(name) ? [p] : [];
  });
}

const importsOf = (file: string): string[] =>
  [
    ...readFileSync(file, 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1] ?? m[2]);

/** Rank of a core file: its top folder's position in LAYERS; files directly in src/core rank lowest. */
function layerRank(file: string): number {
  const top = relative(CORE, file).split(/[\\/]/)[0];
  const k = LAYERS.indexOf(top);
  return k < 0 ? -1 : k;
}

describe('architecture', () => {
  const files = walk(CORE);

  it('src/core imports no UI, rendering or Node-only module', () => {
    const forbidden = /^(react|react-dom|three|@react-three\/|zustand|comlink|idb-keyval|node:|fs$|path$|os$|child_process$)/;
    for (const f of files) for (const spec of importsOf(f)) expect(spec, relative(REPO_ROOT, f)).not.toMatch(forbidden);
  });

  it('src/core uses no DOM globals', () => {
    for (const f of files) {
      const code = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(code, relative(REPO_ROOT, f)).not.toMatch(/\b(document|window|localStorage|HTMLElement)\s*[.[]/);
    }
  });

  it('core layers import only the same or lower layers, and never leave src/core', () => {
    for (const f of files) {
      for (const spec of importsOf(f)) {
        if (!spec.startsWith('.')) continue;
        const target = resolve(dirname(f), spec);
        const where = relative(REPO_ROOT, f);
        expect(target.startsWith(CORE + '/') || target === CORE, `${where} imports ${spec} outside src/core`).toBe(true);
        expect(layerRank(target), `${where} imports upward: ${spec}`).toBeLessThanOrEqual(layerRank(f) < 0 ? -1 : layerRank(f));
      }
    }
  });

  it('the library entry points (src/lib) import only the core and each other: no DOM, React, three or node:', () => {
    const lib = join(REPO_ROOT, 'src', 'lib');
    const entries = walk(lib);
    expect(entries.map((f) => relative(lib, f)).sort()).toEqual([
      'atomworld.ts',
      'c2np.ts',
      'core.ts',
      'fembench.ts',
      'io.ts',
      'limits.ts',
      'match.ts',
      'onng.ts',
      'structure.ts',
      'symmetry.ts',
    ]);
    for (const f of entries) {
      const where = relative(REPO_ROOT, f);
      for (const spec of importsOf(f)) {
        expect(spec.startsWith('.'), `${where} imports the package ${spec}`).toBe(true);
        const target = resolve(dirname(f), spec);
        expect(
          [CORE + '/', lib + '/'].some((a) => target.startsWith(a)),
          `${where} imports ${spec}`,
        ).toBe(true);
      }
      const code = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(code, where).not.toMatch(/\b(document|window|localStorage|HTMLElement)\s*[.[]/);
    }
  });

  it('workers stay thin: they import only the core, their own interface files and shipped datasets', () => {
    const workers = join(REPO_ROOT, 'workers');
    const allowed = [join(REPO_ROOT, 'src', 'core') + '/', workers + '/', join(REPO_ROOT, 'datasets') + '/'];
    for (const f of walk(workers)) {
      for (const spec of importsOf(f)) {
        if (!spec.startsWith('.')) continue;
        const target = resolve(dirname(f), spec);
        expect(
          allowed.some((a) => target.startsWith(a)),
          `${relative(REPO_ROOT, f)} imports ${spec}`,
        ).toBe(true);
      }
    }
  });

  it('stores, viewer and DOM helpers never import the pages or the app shell above them', () => {
    const above = [join(REPO_ROOT, 'src', 'pages') + '/', join(REPO_ROOT, 'src', 'app') + '/'];
    for (const dir of ['state', 'viewer', 'browser']) {
      for (const f of walk(join(REPO_ROOT, 'src', dir))) {
        for (const spec of importsOf(f)) {
          if (!spec.startsWith('.')) continue;
          const target = resolve(dirname(f), spec);
          expect(
            above.some((a) => target.startsWith(a)),
            `${relative(REPO_ROOT, f)} imports ${spec}`,
          ).toBe(false);
        }
      }
    }
  });
});
