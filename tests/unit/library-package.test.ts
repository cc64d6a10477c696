/**
 * The core as a published library: build it (scripts/build-lib.mjs), `npm pack` it, install the tarball
 * into an empty folder without the network, and run the README's script (examples/use-the-core.mjs)
 * with plain Node through the package's `exports`. The install is offline: the consumer gets a lockfile
 * copied from this repository's, so npm takes every tarball from the cache that `npm ci` filled.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, REFERENCE } from '../../scripts/support/paths.ts';

const record = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'atomworld', 'real_samples_icml_fullprec.jsonl'), 'utf8').split('\n')[0]);
const metricCases = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'c2np', 'metric_cases.json'), 'utf8'));
const CELL = join(REFERENCE, 'golden', 'c2np', 'sample', 'cifs', 'illustrative_KMgH3_a4.0213_Borigin.cif');

interface LockEntry {
  dependencies?: Record<string, string>;
  [key: string]: unknown;
}

/**
 * package.json and package-lock.json of a consumer that depends on the tarball only: the tarball's
 * runtime dependencies and theirs, as this repository's lockfile pins them (Node's lookup from each
 * package's folder upwards).
 */
function writeConsumer(dir: string, tarball: string): void {
  const lock: Record<string, LockEntry> = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')).packages;
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
  const spec = `file:${tarball}`;
  const packages: Record<string, LockEntry> = {
    '': { name: 'consumer', dependencies: { structlab: spec } },
    'node_modules/structlab': { version: pkg.version, resolved: spec, dependencies: pkg.dependencies, bin: pkg.bin },
  };
  const locate = (from: string, name: string): string => {
    for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
      const p = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (lock[p]) return p;
      if (!dir) throw new Error(`${name} (needed by ${from || 'structlab'}) is not in package-lock.json`);
    }
  };
  const todo = Object.keys(pkg.dependencies).map((n) => locate('', n));
  while (todo.length) {
    const p = todo.pop()!;
    if (packages[p]) continue;
    const { dev: _dev, devOptional: _devOptional, ...entry } = lock[p];
    packages[p] = entry;
    for (const n of Object.keys(entry.dependencies ?? {})) todo.push(locate(p, n));
  }
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { structlab: spec } }),
  );
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages }));
}

function run(command: string, args: string[], cwd: string): string {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

describe('the packed library', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'structlab-pack-'));
  const consumer = join(tmp, 'consumer');
  let packed: { filename: string; size: number; files: { path: string }[] };

  beforeAll(() => {
    // The CLI bundle ships as built by `npm ci` (prepare); rebuilding it here would race the CLI tests.
    expect(
      existsSync(join(REPO_ROOT, '.cli-build', 'structlab.mjs')),
      'the CLI bundle is missing: run node scripts/build-cli.mjs (npm ci does)',
    ).toBe(true);
    execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build-lib.mjs')], { cwd: REPO_ROOT, stdio: 'pipe' });
    // --ignore-scripts: prepack would build the library again, prepare the CLI bundle.
    [packed] = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], REPO_ROOT));
    execFileSync('mkdir', [consumer]);
    writeConsumer(consumer, join(tmp, packed.filename));
    run('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], consumer);
    writeFileSync(join(consumer, 'a.cif'), record.after_cif);
    writeFileSync(join(consumer, 'b.cif'), record.model_generated_cif);
  }, 180_000);

  it('ships the built library, its types, the CLI bundle and its data, and no sources', () => {
    const paths = packed.files.map((f) => f.path);
    for (const p of [
      'lib/core.js',
      'lib/match.js',
      'lib/types/lib/core.d.ts',
      'bin/structlab.mjs',
      '.cli-build/structlab.mjs',
      'datasets/c2np/rotation_sets.json',
    ]) {
      expect(paths, p).toContain(p);
    }
    expect(paths.filter((p) => p.startsWith('src/') || p.startsWith('tests/'))).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
    for (const [subpath, target] of Object.entries(pkg.exports as Record<string, string | { types: string; import: string }>)) {
      for (const file of typeof target === 'string' ? [target] : [target.types, target.import])
        expect(paths, `${subpath} → ${file}`).toContain(file.replace(/^\.\//, ''));
    }
  });

  it('runs the README script with plain Node: match, carve and C2NP metrics agree with the golden values', () => {
    copyFileSync(join(REPO_ROOT, 'examples', 'use-the-core.mjs'), join(consumer, 'use-the-core.mjs'));
    const out = JSON.parse(run(process.execPath, ['use-the-core.mjs', 'a.cif', 'b.cif', CELL, '7'], consumer));
    // AtomWorld's official evaluator on this record (pymatgen, primitive_cell=False, stol=0.5).
    expect(out.match).toBe(record.evaluator.correct);
    expect(Math.abs(out.rms - record.evaluator.rmsd)).toBeLessThan(1e-6);
    expect(Math.abs(out.max_dist - record.evaluator.max_dist)).toBeLessThan(1e-6);
    // C2NP's metric code on the R = 7 particle of this cell moved by (0.5, 0, 0).
    const golden = metricCases.cases.find((c: { name: string }) => c.name === 'translate_0.5A_x').metrics;
    expect(out.atoms).toBe(golden.n_gt);
    expect(out.metrics.n_pred).toBe(golden.n_pred);
    expect(Math.abs(out.metrics.rmsd - golden.rmsd_c2np)).toBeLessThan(1e-12);
    expect(Math.abs(out.metrics.hausdorff - golden.hausdorff)).toBeLessThan(1e-12);
    expect(Math.abs(out.metrics.hull_volume_truth - golden.hull_volume_gt_exact)).toBeLessThan(1e-6);
    expect(Math.abs(out.metrics.delta_hull_volume)).toBeLessThan(1e-6);
    expect(out.metrics.rdf_error).toBe(golden.rdf_energy);
    expect(Math.abs(out.metrics.volume_ratio - golden.vratio_pred)).toBeLessThan(1e-9);
  });

  it('finds the space group without initSymmetry(): the spglib port is plain TypeScript', () => {
    writeFileSync(
      join(consumer, 'early.mjs'),
      `import { analyzeSymmetry, parseStructureFile } from 'structlab/core';
import { readFileSync } from 'node:fs';
const parsed = parseStructureFile(readFileSync('a.cif', 'utf8'), 'a.cif');
try { console.log(JSON.stringify(analyzeSymmetry(parsed.structures[0]))); } catch (e) { console.log(e.message); }
`,
    );
    const out = JSON.parse(run(process.execPath, ['early.mjs'], consumer));
    expect(out.number).toBeGreaterThanOrEqual(1);
    expect(out.angleTolerance).toBe(5);
  });

  it('installs the structlab command, which runs from the bundle without sources or tsx', () => {
    expect(existsSync(join(consumer, 'node_modules', 'tsx'))).toBe(false);
    const out = JSON.parse(
      run(
        join(consumer, 'node_modules', '.bin', 'structlab'),
        ['match', 'a.cif', 'b.cif', '--primitive-cell', 'false', '--stol', '0.5'],
        consumer,
      ),
    );
    expect(Math.abs(out.rms - record.evaluator.rmsd)).toBeLessThan(1e-6);
  });

  it('gives TypeScript consumers the declarations of every subpath (nodenext resolution)', () => {
    writeFileSync(
      join(consumer, 'check.ts'),
      `import { initSymmetry, MATCHER_DEFAULTS, type Structure } from 'structlab/core';
import { carveParticle, forwardMetrics } from 'structlab/c2np';
import { matcherFitAndRmsDist } from 'structlab/match';
import { parseStructureFile } from 'structlab/io';
import { evaluateAtomworldAnswer } from 'structlab/atomworld';
import { FEM_BENCH_TASKS } from 'structlab/fembench';
import { obfuscateIdentifiers } from 'structlab/onng';
import { LIMITS } from 'structlab/limits';
import { Lattice } from 'structlab/structure';
import { analyzeSymmetry } from 'structlab/symmetry';
await initSymmetry();
const parsed = parseStructureFile('', 'x.cif');
const s: Structure | undefined = parsed.ok ? parsed.structures[0] : undefined;
const fit: boolean = s ? matcherFitAndRmsDist(s, s, { stol: MATCHER_DEFAULTS.stol }).fit : false;
const n: number = s
  ? carveParticle(s, { radius: 6 }).symbols.length +
    forwardMetrics({ symbols: [], coords: new Float64Array() }, { symbols: [], coords: new Float64Array() }).n_pred
  : 0;
console.log(fit, n, evaluateAtomworldAnswer('', '').correct, FEM_BENCH_TASKS.length, obfuscateIdentifiers(['a'], 1));
console.log(LIMITS.atoms, Lattice, analyzeSymmetry);
// @ts-expect-error: a misspelt option is a type error
matcherFitAndRmsDist(s!, s!, { sTol: 0.3 });
`,
    );
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ['check.ts'],
      }),
    );
    run(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', consumer], consumer);
  });

  it('is the script the README shows', () => {
    const script = readFileSync(join(REPO_ROOT, 'examples', 'use-the-core.mjs'), 'utf8');
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toContain(script);
  });
});
