/**
 * `structlab gen eval --coverage mp20` (whole process, the CLI bundle, its default threads) against
 * bench/coverage_reference.py (pymatgen 2022.11 + matminer v0.7.3 as CDVAE's compute_metrics.py uses them), interleaved,
 * medians: N generated crystals against N references. The references are the first N MP-20 rows of
 * tests/reference/golden/generations/sources/mp20_rows.csv; the generated ones are N other rows (from the end), each
 * site moved by up to 0.15 Å (seeded), so that some are covered and some not. Both read the same JSONL files of
 * pymatgen dicts. The bench fails when a coverage fraction differs, a mean distance differs by more than 1e-8 (the
 * contract of tests/unit/gen-eval-coverage.test.ts) or the counts differ.
 * The reference needs MATMINER_SRC (scripts/support/matminer_v073.py); without it only StructLab is timed.
 * Run via `npm run bench` or `npx tsx bench/coverage.bench.ts [--n 1000] [--repeats 1]`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCsv } from '../src/core/io/csv.ts';
import { structureToDict } from '../src/core/io/pymatgen-json.ts';
import { parseStructureFile } from '../src/core/io/registry.ts';
import { mulberry32 } from '../src/core/math/random.ts';
import { makeSiteFromFrac, type Structure } from '../src/core/structure/structure.ts';
import { REFERENCE } from '../scripts/support/paths.ts';
import { median } from './stats.ts';

const ROOT = join(import.meta.dirname, '..');
const PYTHON = '/usr/bin/python3';
const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const N = arg('--n', 1000);
const REPEATS = arg('--repeats', 1);
const JITTER = 0.15;
const METRICS = ['cov_recall', 'cov_precision', 'amsd_recall', 'amsd_precision', 'amcd_recall', 'amcd_precision'] as const;
const hasMatminer =
  !!process.env.MATMINER_SRC &&
  spawnSync(PYTHON, ['-c', 'import sys; sys.path.insert(0, "scripts/support"); import matminer_v073; matminer_v073.load()'], {
    cwd: ROOT,
    stdio: 'ignore',
  }).status === 0;

const rows = (() => {
  const table = parseCsv(readFileSync(join(REFERENCE, 'golden', 'generations', 'sources', 'mp20_rows.csv'), 'utf8'));
  const header = table[0].fields;
  const id = header.indexOf('material_id'),
    cif = header.indexOf('cif');
  return table.slice(1).map((r) => {
    const parsed = parseStructureFile(r.fields[cif], `${r.fields[id]}.cif`);
    if (!parsed.ok) throw new Error(`${r.fields[id]}: ${parsed.error}`);
    return { id: r.fields[id], structure: parsed.structures[0] };
  });
})();
if (rows.length < N + 1) throw new Error(`--n ${N} needs more than ${N} MP-20 rows; the file has ${rows.length}`);

/** Each site moved by up to JITTER Å along each axis (seeded). */
function jittered(s: Structure, seed: number): Structure {
  const random = mulberry32(seed);
  const lattice = s.lattice!;
  const sites = s.sites.map((site) => {
    const xyz = site.xyz.map((x) => x + (2 * random() - 1) * JITTER) as [number, number, number];
    return makeSiteFromFrac(lattice, lattice.cartToFrac(xyz), site.species);
  });
  return { ...s, sites };
}

const dir = mkdtempSync(join(tmpdir(), 'structlab-coverage-bench-'));
const jsonl = (items: { id: string; structure: Structure }[]) =>
  items.map((it) => JSON.stringify({ id: it.id, structure: structureToDict(it.structure) })).join('\n') + '\n';
const truthPath = join(dir, 'truth.jsonl'),
  predPath = join(dir, 'pred.jsonl');
writeFileSync(truthPath, jsonl(rows.slice(0, N)));
writeFileSync(
  predPath,
  jsonl(rows.slice(rows.length - N).map((r, k) => ({ id: `gen-${r.id}`, structure: jittered(r.structure, 1000 + k) }))),
);

function timed(cmd: string, args: string[]): { ms: number; stdout: string } {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr.trim().split('\n').pop()}`);
  return { ms, stdout: r.stdout };
}

const ours: number[] = [],
  reference: number[] = [];
let oursDoc: Record<string, number> = {},
  referenceDoc: Record<string, number> = {};
let withoutFingerprints = 0;
try {
  for (let r = 0; r < REPEATS; r++) {
    const o = timed('node', [
      join(ROOT, 'bin', 'structlab.mjs'),
      'gen',
      'eval',
      '--pred',
      predPath,
      '--truth',
      truthPath,
      '--coverage',
      'mp20',
    ]);
    ours.push(o.ms);
    const doc = JSON.parse(o.stdout);
    oursDoc = doc.coverage;
    withoutFingerprints = doc.per_sample.filter((s: { fingerprint_error: string | null }) => s.fingerprint_error !== null).length;
    if (hasMatminer) {
      const p = timed(PYTHON, [join(import.meta.dirname, 'coverage_reference.py'), predPath, truthPath, '0.4', '10']);
      reference.push(p.ms);
      referenceDoc = JSON.parse(p.stdout);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const worst = hasMatminer ? Math.max(...METRICS.map((m) => Math.abs(oursDoc[m] - referenceDoc[m]))) : null;
const fractionsEqual = hasMatminer
  ? oursDoc.cov_recall === referenceDoc.cov_recall && oursDoc.cov_precision === referenceDoc.cov_precision
  : null;
const sameCounts = hasMatminer ? withoutFingerprints === referenceDoc.without_fingerprints : null;
const result = {
  suite: 'coverage',
  node: process.version,
  generated: N,
  references: N,
  structlab_gen_eval_coverage_ms: +median(ours).toFixed(0),
  pymatgen_matminer_ms: hasMatminer ? +median(reference).toFixed(0) : null,
  speedup_reference_over_structlab: hasMatminer ? +(median(reference) / median(ours)).toFixed(1) : null,
  structlab: Object.fromEntries(METRICS.map((m) => [m, oursDoc[m]])),
  reference: hasMatminer ? Object.fromEntries(METRICS.map((m) => [m, referenceDoc[m]])) : null,
  worst_metric_difference: worst,
  coverage_fractions_equal: fractionsEqual,
  without_fingerprints: { structlab: withoutFingerprints, reference: hasMatminer ? referenceDoc.without_fingerprints : null },
};
console.log(JSON.stringify(result, null, 2));
if ((worst !== null && !(worst <= 1e-8)) || fractionsEqual === false || sameCounts === false) process.exitCode = 1;
