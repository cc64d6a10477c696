/**
 * tests/reference/golden/fembench_repeated/nearly-symmetric-grids.json: the FEM-Bench numpy/scipy reference of
 * MSA_3D_elastic_critical_load (bench/fem_cli_reference.py: scipy.linalg.eig, LAPACK QZ) on the 144-element symmetric
 * grid stretched in y by 1 + split, for splits from 1e-6 to 1e-10: nearly repeated critical λ, where every solver's
 * mode is accurate to about ε / split. Run: npx tsx scripts/make-fem-repeated-goldens.ts (needs Debian's python3-scipy).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nearlySymmetricGrid } from './support/fem-frames.ts';
import { REFERENCE, REPO_ROOT } from './support/paths.ts';

const SPLITS = [1e-6, 1e-7, 3e-8, 2e-8, 1e-8, 1e-9, 1e-10];
const cases = SPLITS.map((split) => ({ split, inputs: nearlySymmetricGrid(4, 4, split) }));
const dir = mkdtempSync(join(tmpdir(), 'fem-repeated-'));
try {
  const file = join(dir, 'cases.json');
  writeFileSync(file, JSON.stringify({ cases: cases.map((c) => ({ inputs: c.inputs })) }));
  const r = spawnSync('/usr/bin/python3', [join(REPO_ROOT, 'bench', 'fem_cli_reference.py'), file], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`fem_cli_reference.py failed: ${r.stderr}`);
  const versions = spawnSync('/usr/bin/python3', ['-c', 'import numpy, scipy; print(numpy.__version__, scipy.__version__)'], {
    encoding: 'utf8',
  }).stdout.trim();
  const { results } = JSON.parse(r.stdout) as { results: { output: [number, number[]] }[] };
  const golden = {
    source:
      `bench/fem_cli_reference.py (the FEM-Bench numpy/scipy pipeline of MSA_3D_elastic_critical_load: scipy.linalg.eig, ` +
      `LAPACK QZ) run with numpy/scipy ${versions.replace(' ', ' / ')} on the 4x4x4-node symmetric grid frame with its y ` +
      `coordinates stretched by 1 + split: nearly repeated critical lambda (scripts/make-fem-repeated-goldens.ts)`,
    cases: cases.map((c, k) => ({ split: c.split, inputs: c.inputs, output: results[k].output })),
  };
  writeFileSync(join(REFERENCE, 'golden', 'fembench_repeated', 'nearly-symmetric-grids.json'), JSON.stringify(golden) + '\n');
  console.log(`wrote ${cases.length} cases`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
