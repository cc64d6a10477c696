/**
 * `structlab fem run MSA_3D_elastic_critical_load_CC1_H10_T1` as users run it — one process per run, from the CLI bundle
 * (scripts/build-cli.mjs; never the tsx fallback) — against the FEM-Bench numpy/scipy reference run as a process
 * (bench/fem_cli_reference.py, /usr/bin/python3 with numpy and scipy; skipped with a note where missing), the runs
 * interleaved, on generated frames (default limits, no --limit):
 * - 3D grid frames of 540 (6×6×6 nodes) and 1,015 (7×7×8) elements with unequal bays and lateral loads, λ simple
 *   (scripts/support/fem-frames.ts);
 * - the same grids regular — square bays, doubly symmetric columns, gravity alone — whose critical λ is repeated
 *   (sway in x and in y, issue 27): the mode is then any unit vector of the eigenspace, and the row says whether
 *   `fem check`'s comparator (compare.ts with equivalence.ts) accepts ours against the reference's LAPACK pick;
 * - the 540-element regular grid stretched by 1 + 1e-7 in y: a nearly repeated λ (split about 1e-7), whose mode every
 *   solver resolves only to about ε/split, so `fem check`'s verdict is the row's mode agreement;
 * - irregular frames of 583 and 1,387 elements (jittered nodes, one beam in eight left out, varied sections and loads).
 * Prints medians (ms), the ratio, and λ / mode agreement as JSON. Goals (issues 13, 27): ≥ 20× faster than the
 * reference on 540 elements; 1,015 elements ≤ 3 s whole process. The reference on the large rows takes minutes (dense
 * QZ of 2,000–3,500 DOFs): it runs once, only with FEM_BENCH_REFERENCE_LARGE=1. `--busy` keeps one core busy meanwhile.
 * FEM_BENCH_RUNS=N sets the runs of ours and of the reference per row (default 3).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FrameCaseInputs, gridFrameInputs, nearlySymmetricGrid, symmetricGrid } from '../scripts/support/fem-frames.ts';
import { compareResults } from '../src/core/tasks/fembench/compare.ts';
import { alternativeSolutionCheck } from '../src/core/tasks/fembench/equivalence.ts';
import { decodeFemInputs } from '../src/core/tasks/fembench/codec.ts';
import { femTask } from '../src/core/tasks/fembench/registry.ts';
import type { FemValue } from '../src/core/tasks/fembench/types.ts';
import { BUSY, busyCore, median } from './stats.ts';

const ROOT = join(import.meta.dirname, '..');
const TASK = 'MSA_3D_elastic_critical_load_CC1_H10_T1';
const PYTHON = '/usr/bin/python3';
const REFERENCE = join(import.meta.dirname, 'fem_cli_reference.py');

type Result = { output: [number, number[]] } | { error: { type: string; message: string } };

/**
 * An irregular frame from the nx×ny×nz-node grid: every node above the base moved up to ±0.6 m across and ±0.3 m up, one
 * beam in eight left out, every member's section and every load scaled by its own factor (a fixed pseudo-random stream).
 */
function irregularFrame(nx: number, ny: number, nz: number): FrameCaseInputs {
  const f = gridFrameInputs(nx, ny, nz);
  let seed = 27;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1; // in [−1, 1)
  const node_coords = f.node_coords.map(([x, y, z]) =>
    z === 0 ? [x, y, z] : [x + 0.6 * random(), y + 0.6 * random(), z + 0.3 * random()],
  );
  const elements: FrameCaseInputs['elements'] = [];
  for (const e of f.elements) {
    const vertical = f.node_coords[e.node_i as number][2] !== f.node_coords[e.node_j as number][2];
    if (!vertical && random() < -0.75) continue;
    const s = 1 + 0.25 * random();
    elements.push({
      ...e,
      A: (e.A as number) * s,
      I_y: (e.I_y as number) * s * s,
      I_z: (e.I_z as number) * s * s,
      J: (e.J as number) * s * s,
    });
  }
  const nodal_loads: FrameCaseInputs['nodal_loads'] = {};
  for (const [k, load] of Object.entries(f.nodal_loads)) nodal_loads[k] = load.map((v) => v * (1 + 0.3 * random()));
  return { node_coords, elements, boundary_conditions: f.boundary_conditions, nodal_loads };
}

/** `fem check`'s verdict on ours against the reference's answer (the comparator with its accepted alternatives). */
function checkVerdict(inputs: FrameCaseInputs, reference: Result, candidate: Result): string {
  const same = alternativeSolutionCheck(femTask(TASK)!)!;
  const decoded = decodeFemInputs(inputs as unknown as Record<string, unknown>);
  const report = compareResults(TASK, [reference as { output: FemValue }], [candidate], [undefined], [(r, c) => same(decoded, r, c)]);
  return report.cases[0].detail;
}

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
  const runs = Number(process.env.FEM_BENCH_RUNS ?? 3);
  const referenceLarge = process.env.FEM_BENCH_REFERENCE_LARGE === '1' ? 1 : 0;
  // [row, inputs, runs of the reference (interleaved with ours)]
  const rows: [string, FrameCaseInputs, number][] = [
    ['fem run 540 elements', gridFrameInputs(6, 6, 6), runs],
    ['fem run 1,015 elements', gridFrameInputs(7, 7, 8), referenceLarge],
    ['fem run 540 elements, symmetric (repeated λ)', symmetricGrid(6, 6), runs],
    ['fem run 540 elements, nearly symmetric (λ split ~1e-7)', nearlySymmetricGrid(6, 6, 1e-7), runs],
    ['fem run 1,015 elements, symmetric (repeated λ)', symmetricGrid(7, 8), referenceLarge],
    ['fem run irregular frame', irregularFrame(7, 6, 6), runs],
    ['fem run irregular frame, large', irregularFrame(9, 8, 8), referenceLarge],
  ];
  for (const [label, inputs, referenceRuns] of rows) {
    const repeats = runs;
    const cases = join(dir, `frame-${rows.findIndex((r) => r[0] === label)}.json`);
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
    else if (referenceRuns === 0) row.reference = 'not run (minutes; FEM_BENCH_REFERENCE_LARGE=1 runs it once)';
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
        // Where λ is repeated the modes differ by a rotation in the eigenspace: what fem check makes of ours.
        row.fem_check_of_ours = checkVerdict(inputs, theirs, mine);
      } else row.outcomes = { structlab: mine, reference: theirs };
    }
    results[label] = row;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify({ fem_cli: results }, null, 2));
