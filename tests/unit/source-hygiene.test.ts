/**
 * Source hygiene that review alone lets slip (issue 11): comments cite only documents that exist in this
 * repository (or upstream sources by repository and path), one class name means one class in src/core,
 * the input byte limit is set in one place (LIMITS.inputBytes in src/core/limits.ts), and no line of code
 * is longer than Prettier's printWidth (140), which Prettier cannot enforce on strings and comments.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../scripts/support/paths.ts';

const SKIP = new Set(['node_modules', 'dist', '.git', 'lib', '.cli-build', 'test-results', 'coverage']);
function walk(dir: string, keep: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p, keep) : keep.test(name) ? [p] : [];
  });
}

const SOURCE = /\.(tsx?|mjs|js|py|md)$/;
const sources = [
  ...['src', 'workers', 'kernels', 'tests', 'bench', 'scripts', 'bin', 'datasets'].flatMap((d) => walk(join(REPO_ROOT, d), SOURCE)),
  join(REPO_ROOT, 'README.md'),
];
const rel = (f: string) => relative(REPO_ROOT, f).replace(/\\/g, '/');
const repoDocs = new Set(walk(REPO_ROOT, /\.md$/).map((f) => basename(f)));

/**
 * Every `name.md` a file mentions that the repository lacks, and (in code: the README documents where the
 * reference data lives) every mention of the reference-data folder by a relative or absolute path.
 */
function citations(text: string, code = true): string[] {
  const docs = [...text.matchAll(/\b[A-Za-z0-9_-]+\.md\b/g)].map((m) => m[0]).filter((name) => !repoDocs.has(name));
  const paths = code ? [...text.matchAll(/(?:\.\.\/shared|\/work\/shared)\b(?!\.ts)/g)].map((m) => m[0]) : [];
  return [...docs, ...paths];
}
const SELF = 'tests/unit/source-hygiene.test.ts';

const MAX_LINE = 140;
/** 1-based numbers of the lines longer than `max` characters (code points, as an editor counts them). */
function longLines(text: string, max = MAX_LINE): number[] {
  return text.split('\n').flatMap((line, i) => ([...line].length > max ? [i + 1] : []));
}
/** Generated data, laid out by its generator (scripts/gen-elements.py). */
const GENERATED = new Set(['src/core/structure/elements.ts']);

describe('source hygiene', () => {
  it('walks a meaningful set of sources and finds the in-repo documents', () => {
    expect(sources.length).toBeGreaterThan(200);
    expect(repoDocs.has('README.md')).toBe(true);
  });

  it('no source cites a document that is not in the repository', () => {
    const found: string[] = [];
    for (const f of sources) {
      if (rel(f) === SELF) continue;
      for (const c of citations(readFileSync(f, 'utf8'), !f.endsWith('.md'))) found.push(`${rel(f)}: ${c}`);
    }
    expect(found).toEqual([]);
  });

  it('the check sees a citation of a missing document', () => {
    expect(citations('// see algorithms.md §3 and ../' + 'shared/golden')).toEqual(['algorithms.md', '../' + 'shared']);
    expect(citations("import { REFERENCE } from '../../scripts/support/paths.ts'; // README.md")).toEqual([]);
  });

  it('nothing in the tree reads reference data from outside the repository', () => {
    // Spelled in pieces so that this test does not find itself.
    const outside = new RegExp(['\\.\\./' + 'shared\\b(?!\\.ts)', 'STRUCTLAB_' + 'SHARED'].join('|'), 'g');
    const found: string[] = [];
    for (const f of walk(REPO_ROOT, /./)) {
      const text = readFileSync(f, 'latin1');
      for (const m of text.matchAll(outside)) found.push(`${rel(f)}: ${m[0]}`);
    }
    expect(found, 'tests, benches and scripts read tests/reference (scripts/support/paths.ts)').toEqual([]);
    expect('cd ../' + 'shared/golden && STRUCTLAB_' + 'SHARED=x').toMatch(outside);
  });

  it('no source line is longer than 140 characters', () => {
    const found: string[] = [];
    for (const f of sources) {
      const name = rel(f);
      if (!/\.(tsx?|mjs|js)$/.test(name) || GENERATED.has(name)) continue;
      for (const n of longLines(readFileSync(f, 'utf8'))) found.push(`${name}:${n}`);
    }
    expect(found, 'split long strings by concatenation and wrap long comments').toEqual([]);
  });

  it('the line check sees a line over 140 characters and counts characters, not bytes', () => {
    expect(longLines(`short\n${'x'.repeat(141)}\n${'y'.repeat(140)}\n`)).toEqual([2]);
    expect(longLines('Å'.repeat(140))).toEqual([]);
  });

  it('one class name means one class in src/core', () => {
    const where = new Map<string, string[]>();
    for (const f of walk(join(REPO_ROOT, 'src', 'core'), /\.ts$/)) {
      for (const m of readFileSync(f, 'utf8').matchAll(/^\s*(?:export\s+)?(?:abstract\s+)?class\s+([A-Za-z0-9_]+)/gm)) {
        where.set(m[1], [...(where.get(m[1]) ?? []), rel(f)]);
      }
    }
    expect(where.size).toBeGreaterThan(10);
    expect([...where].filter(([, files]) => files.length > 1)).toEqual([]);
  });

  it('no byte limit besides LIMITS.inputBytes: no other size constant in MiB or MB', () => {
    // Sizes that are not input limits: the Lean compiler's output buffer; the hostile sweep's memory cap and output buffer;
    // the trajectory index's read chunk and progress step; the file size from which the lab streams a trajectory (the
    // refusal above it is LIMITS.trajectoryBytes).
    const allowed = new Set([
      'src/core/io/frame-index.ts: 4 * 1024 * 1024',
      'src/core/io/frame-index.ts: 16 * 1024 * 1024',
      'src/state/trajectory.ts: 50 * 1024 * 1024',
      'src/cli/commands/onng.ts: 64 * 2 ** 20',
      'scripts/hostile-sweep.mjs: 2 * 1024 * 1024',
      'scripts/hostile-sweep.mjs: 512 * 2 ** 20',
    ]);
    const found: string[] = [];
    for (const f of sources) {
      if (!/\.(tsx?|mjs)$/.test(f) || rel(f) === 'src/core/limits.ts' || rel(f).startsWith('tests/') || rel(f).startsWith('bench/'))
        continue;
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/\b\d[\d_]*\s*\*\s*(?:1024\s*\*\s*1024|2\s*\*\*\s*20|1e6|1_000_000|1000\s*\*\s*1000)\b/g)) {
        const key = `${rel(f)}: ${m[0]}`;
        if (!allowed.has(key)) found.push(key);
      }
    }
    expect(found).toEqual([]);
  });
});
