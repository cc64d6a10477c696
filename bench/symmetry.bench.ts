/**
 * `structlab info FILE --symprec 0.1` (the spglib port, whole process from the CLI bundle) against
 * bench/symmetry_reference.py (pymatgen 2022.11's SpacegroupAnalyzer over Debian's spglib 2.0.2), interleaved, medians:
 * the 320 crystals of the de novo reference set (tests/reference/golden/generations/denovo_visible/reference.jsonl).
 * Both print every structure's space group; the bench fails when they differ. With --busy, one more core is kept busy.
 * Run via `npm run bench` or `npx tsx bench/symmetry.bench.ts [--repeats N] [--busy]`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REFERENCE } from '../scripts/support/paths.ts';
import { BUSY, busyCore, median } from './stats.ts';

const ROOT = join(import.meta.dirname, '..');
const PYTHON = '/usr/bin/python3';
const FILE = join(REFERENCE, 'golden', 'generations', 'denovo_visible', 'reference.jsonl');
const SYMPREC = '0.1';
const at = process.argv.indexOf('--repeats');
const REPEATS = at > 0 ? Number(process.argv[at + 1]) : 5;

function timed(cmd: string, args: string[]): { ms: number; stdout: string } {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr.trim().split('\n').pop()}`);
  return { ms, stdout: r.stdout };
}

const hasPymatgen = spawnSync(PYTHON, ['-c', 'import pymatgen.symmetry.analyzer'], { stdio: 'ignore' }).status === 0;
const busy = BUSY ? busyCore() : null;
const ours: number[] = [],
  reference: number[] = [];
let oursGroups: unknown[] = [],
  referenceGroups: unknown[] = [];
try {
  for (let r = 0; r < REPEATS; r++) {
    const o = timed('node', [join(ROOT, 'bin', 'structlab.mjs'), 'info', FILE, '--symprec', SYMPREC]);
    ours.push(o.ms);
    oursGroups = JSON.parse(o.stdout).structures.map((s: { spacegroup: unknown }) => s.spacegroup);
    if (hasPymatgen) {
      const p = timed(PYTHON, [join(import.meta.dirname, 'symmetry_reference.py'), FILE, SYMPREC]);
      reference.push(p.ms);
      referenceGroups = JSON.parse(p.stdout);
    }
  }
} finally {
  busy?.stop();
}
const differ = hasPymatgen ? oursGroups.filter((g, k) => JSON.stringify(g) !== JSON.stringify(referenceGroups[k])).length : null;
const result = {
  suite: 'symmetry',
  node: process.version,
  busy: BUSY,
  structures: oursGroups.length,
  symprec: Number(SYMPREC),
  structlab_info_ms: +median(ours).toFixed(0),
  pymatgen_spacegroup_analyzer_ms: hasPymatgen ? +median(reference).toFixed(0) : null,
  ratio_structlab_over_pymatgen: hasPymatgen ? +(median(ours) / median(reference)).toFixed(2) : null,
  groups_that_differ: differ,
};
console.log(JSON.stringify(result, null, 2));
if (differ) process.exitCode = 1;
