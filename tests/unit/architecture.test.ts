/**
 * The rules of the house, enforced: src/core stays pure (no DOM, React, three or Node-only modules)
 * and its layers only import downwards (math → structure → symmetry → io → analysis → match → tasks); the lab's
 * folders are ranked the same way (browser → viewer → state → ui → pages → app, all above the core, the library
 * entries, the workers' interfaces and the datasets); the WebAssembly kernels (kernels/) import only each other and
 * are loaded by one core module; the benchmarks and scripts never import the tests; and no module imports itself
 * through others (no import cycle anywhere in src, workers, bench, scripts or tests).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../scripts/support/paths.ts';

const CORE = join(REPO_ROOT, 'src', 'core');
const LAYERS = ['math', 'structure', 'symmetry', 'io', 'analysis', 'match', 'tasks'];

function walk(dir: string, code = /\.tsx?$/): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p, code) : code.test(name) ? [p] : [];
  });
}

/** The module specifiers a file imports: `import … from`, `export … from`, `import type`, bare `import '…'` and `import('…')`. */
const importsOf = (file: string): string[] =>
  [
    ...readFileSync(file, 'utf8').matchAll(
      /(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    ),
  ].map((m) => m[1] ?? m[2] ?? m[3]);

/** The file a relative specifier names (a query such as `?raw` dropped); null for a package. */
const targetOf = (file: string, spec: string): string | null =>
  spec.startsWith('.') ? resolve(dirname(file), spec.replace(/\?.*$/, '')) : null;

/** The lab's folders under src, lowest rank first: a folder imports only its own rank or lower ones. */
const UI_RANKS = ['browser', 'viewer', 'state', 'ui', 'pages', 'app'];
/** What every lab folder may import besides the lab folders: the core, the library entries, the workers' interfaces, the datasets. */
const BELOW_UI = ['src/core', 'src/lib', 'workers', 'datasets'].map((d) => join(REPO_ROOT, d) + '/');

/** Rank of a file in the lab's folders (src/main.tsx, the entry, ranks with the app shell); -1 outside them. */
function uiRank(file: string): number {
  const rel = relative(join(REPO_ROOT, 'src'), file).split(/[\\/]/);
  if (rel.length === 1) return rel[0] === 'main.tsx' ? UI_RANKS.indexOf('app') : -1;
  return UI_RANKS.indexOf(rel[0]);
}

/**
 * The import cycles among `files`: the strongly connected components (Tarjan) of the graph of their relative imports
 * that hold more than one file, or one file importing itself; each as its files, sorted.
 */
function importCycles(files: string[]): string[][] {
  const known = new Set(files);
  const edges = new Map(
    files.map((f) => [
      f,
      importsOf(f)
        .flatMap((spec) => targetOf(f, spec) ?? [])
        .filter((t) => known.has(t)),
    ]),
  );
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = ''; w !== v;) {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    }
    if (component.length > 1 || edges.get(v)!.includes(v)) cycles.push(component.map((f) => relative(REPO_ROOT, f)).sort());
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return cycles;
}

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

  it('the WebAssembly kernels import only each other, and only src/core/math/kernels.ts loads their module', () => {
    const kernelDir = join(REPO_ROOT, 'kernels');
    for (const f of walk(kernelDir))
      for (const spec of importsOf(f))
        expect(targetOf(f, spec)?.startsWith(kernelDir + '/'), `${relative(REPO_ROOT, f)}: ${spec}`).toBe(true);
    const generated = join(CORE, 'math', 'kernels-binary.generated.ts');
    const loaders = [...files, ...walk(join(REPO_ROOT, 'src')), ...walk(join(REPO_ROOT, 'workers'))].filter((f) =>
      importsOf(f).some((spec) => targetOf(f, spec) === generated),
    );
    expect([...new Set(loaders)].map((f) => relative(REPO_ROOT, f))).toEqual(['src/core/math/kernels.ts']);
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

  it('the lab folders import only the same or lower ranks (browser → viewer → state → ui → pages → app) and the layers below', () => {
    const lab = [join(REPO_ROOT, 'src', 'main.tsx'), ...UI_RANKS.flatMap((d) => walk(join(REPO_ROOT, 'src', d)))];
    expect(lab.length).toBeGreaterThan(50);
    for (const f of lab) {
      for (const spec of importsOf(f)) {
        const target = targetOf(f, spec);
        if (!target) continue;
        const where = `${relative(REPO_ROOT, f)} imports ${spec}`;
        const rank = uiRank(target);
        if (rank < 0)
          expect(
            BELOW_UI.some((d) => target.startsWith(d)),
            where,
          ).toBe(true);
        else expect(rank, `${where}, a higher rank`).toBeLessThanOrEqual(uiRank(f));
      }
    }
  });

  it('the shared widgets (src/ui) read no store: they get their data as props', () => {
    const state = join(REPO_ROOT, 'src', 'state') + '/';
    for (const f of walk(join(REPO_ROOT, 'src', 'ui')))
      for (const spec of importsOf(f))
        expect(targetOf(f, spec)?.startsWith(state), `${relative(REPO_ROOT, f)} imports ${spec}`).not.toBe(true);
  });

  it('the benchmarks and scripts never import the tests (what they share lives in scripts/support)', () => {
    const tests = join(REPO_ROOT, 'tests') + '/';
    for (const f of ['bench', 'scripts'].flatMap((d) => walk(join(REPO_ROOT, d), /\.(tsx?|mjs)$/)))
      for (const spec of importsOf(f))
        expect(targetOf(f, spec)?.startsWith(tests), `${relative(REPO_ROOT, f)} imports ${spec}`).not.toBe(true);
  });

  it('no import cycle in src, workers, bench, scripts or tests (type-only and dynamic imports count)', () => {
    const files = ['src', 'workers', 'bench', 'scripts', 'tests']
      .flatMap((d) => walk(join(REPO_ROOT, d), /\.(tsx?|mjs)$/))
      .filter((f) => !f.startsWith(join(REPO_ROOT, 'tests', 'reference') + '/'));
    expect(files.length).toBeGreaterThan(300);
    expect(importCycles(files)).toEqual([]);
  });

  it('the cycle check finds a cycle, through type-only and dynamic imports too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'structlab-cycles-'));
    try {
      const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
      write('a.ts', "import type { B } from './b.ts';\nexport type A = B;\n");
      write('b.ts', "export type B = number;\nexport const c = () => import('./c.ts');\n");
      write('c.ts', "export { type A } from './a.ts';\n");
      write('d.ts', "import './d.ts';\n");
      write('e.ts', "import { c } from './b.ts';\nvoid c;\n");
      const files = ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts'].map((n) => join(dir, n));
      expect(importCycles(files).map((c) => c.map((f) => f.split('/').pop()))).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});
