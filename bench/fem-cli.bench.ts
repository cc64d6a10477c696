/**
 * `structlab fem run MSA_3D_elastic_critical_load_CC1_H10_T1` as users run it — one process per run, from the CLI bundle
 * (scripts/build-cli.mjs; never the tsx fallback) — on generated 3D grid frames of 540 (6×6×6 nodes) and 1,015 (7×7×8)
 * elements (scripts/support/fem-frames.ts), against the FEM-Bench numpy/scipy reference run as a process
 * (bench/fem_cli_reference.py, /usr/bin/python3 with numpy and scipy; skipped with a note where missing), the runs
 * interleaved. Prints medians (ms), the ratio, and λ / mode agreement as JSON. Issue 13's goals: ≥ 20× faster than the
 * reference on 540 elements; 1,015 elements ≤ 3 s whole process. The reference on 1,015 elements takes minutes (dense
 * QZ of 2,058 DOFs): it runs once, only with FEM_BENCH_REFERENCE_1015=1. `--busy` keeps one core busy meanwhile.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gridFrameInputs } from '../scripts/support/fem-frames.ts';
import { BUSY, busyCore, median } from './stats.ts';

const ROOT = join(import.meta.dirname, '..');
const TASK = 'MSA_3D_elastic_critical_load_CC1_H10_T1';
const PYTHON = '/usr/bin/python3';
const REFERENCE = join(import.meta.dirname, 'fem_cli_reference.py');

type Result = { output: [number, number[]] } | { error: { type: string; message: string } };

function timed(cmd: string, args: string[], what: string): { ms: number; result: Result } {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${what} failed (${r.status}): ${r.stderr.trim().split('\n').pop()}`);
  return { ms, result: (JSON.parse(r.stdout) as { results: Result[] }).results[0] };
}

const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs')], { stdio: 'inherit' });
if (build.status !== 0) throw new Error('node scripts/build-cli.mjs failed');

const hasReference = spawnSync(PYTHON, ['-c', 'import numpy, scipy'], { stdio: 'ignore' }).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'structlab-fem-cli-'));
const results: Record<string, unknown> = {};
try {
  // A file, not `node -e`, importing the bundle as bin/structlab.mjs does when it is fresh.
  const runner = join(dir, 'run-structlab.mjs');
  writeFileSync(
    runner,
    `import { main } from ${JSON.stringify(join(ROOT, '.cli-build', 'structlab.mjs'))};
let out = '';
process.exitCode = await main(process.argv.slice(2), { stdout: (t) => { out += t; }, stderr: (t) => process.stderr.write(t) });
process.stdout.write(out);`,
  );
  // [row, grid nodes, runs of ours, runs of the reference (interleaved with ours)]
  for (const [label, nx, ny, nz, repeats, referenceRuns] of [
    ['fem run 540 elements', 6, 6, 6, 3, 3],
    ['fem run 1,015 elements', 7, 7, 8, 3, process.env.FEM_BENCH_REFERENCE_1015 === '1' ? 1 : 0],
  ] as const) {
    const inputs = gridFrameInputs(nx, ny, nz);
    const cases = join(dir, `grid-${inputs.elements.length}.json`);
    writeFileSync(cases, JSON.stringify({ cases: [{ inputs }] }));
    const ours: number[] = [],
      reference: number[] = [];
    let mine: Result | undefined, theirs: Result | undefined;
    const busy = BUSY ? busyCore() : null;
    try {
      for (let r = 0; r < repeats; r++) {
        const a = timed(process.execPath, [runner, 'fem', 'run', TASK, '--cases', cases], 'structlab fem run');
        ours.push(a.ms);
        mine = a.result;
        if (hasReference && r < referenceRuns) {
          const b = timed(PYTHON, [REFERENCE, cases], 'fem_cli_reference.py');
          reference.push(b.ms);
          theirs = b.result;
        }
      }
    } finally {
      busy?.stop();
    }
    const row: Record<string, unknown> = {
      other_core_busy: BUSY,
      elements: inputs.elements.length,
      dofs: 6 * inputs.node_coords.length,
      structlab_ms: Math.round(median(ours)),
      structlab_runs_ms: ours.map(Math.round),
    };
    if (mine && 'output' in mine) row.lambda = mine.output[0];
    if (!hasReference) row.reference = `not run: ${PYTHON} with numpy and scipy is not installed`;
    else if (referenceRuns === 0) row.reference = 'not run (minutes; FEM_BENCH_REFERENCE_1015=1 runs it once)';
    else if (theirs && mine) {
      row.reference_ms = Math.round(median(reference));
      row.reference_runs_ms = reference.map(Math.round);
      row.speedup = +(median(reference) / median(ours)).toFixed(1);
      if ('output' in theirs && 'output' in mine) {
        row.reference_lambda = theirs.output[0];
        row.lambda_relative_difference = Math.abs(mine.output[0] - theirs.output[0]) / Math.abs(theirs.output[0]);
        row.lambda_equal_1e6 = (row.lambda_relative_difference as number) <= 1e-6;
        row.mode_max_abs_difference = Math.max(
          ...mine.output[1].map((x, i) => Math.abs(x - (theirs as { output: [number, number[]] }).output[1][i])),
        );
      } else row.outcomes = { structlab: mine, reference: theirs };
    }
    results[label] = row;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify({ fem_cli: results }, null, 2));
