/**
 * FEM-Bench frame benchmarks: linear solve and first buckling mode of steel space-frame towers
 * (3×3 bays; 2×2 for the smallest) of about 100, 1,000 and 5,000 elements, on the banded path
 * (banded Cholesky + K-inner-product Lanczos), and the dense reference path (what the golden tasks use)
 * at 100 elements. Prints medians (ms) as JSON. Run via `npm run bench` or `npx tsx bench/fem.bench.ts`.
 */
import {
  assembleElasticStiffness,
  assembleGeometricStiffness,
  assembleLoad,
  solveBuckling,
  solveLinear,
  type FrameElement,
} from '../src/core/tasks/fembench/msa/frame.ts';
import { bucklingFrameBanded, linearFrameBanded } from '../src/core/tasks/fembench/msa/frame-banded.ts';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { partitionDofs } from '../src/core/tasks/fembench/msa/frame.ts';
import { timeMedian } from './stats.ts';

interface Tower {
  coords: number[][];
  elements: FrameElement[];
  bcs: Map<number, boolean[]>;
  loads: Map<number, number[]>;
}

/** A tower of bx×by bays (4 m) and `storeys` storeys (3.5 m); base fixed; top nodes carry −100 kN vertical and 1 kN along x. */
export function tower(bx: number, by: number, storeys: number): Tower {
  const perFloor = (bx + 1) * (by + 1);
  const id = (i: number, j: number, k: number) => k * perFloor + j * (bx + 1) + i;
  const coords: number[][] = [];
  for (let k = 0; k <= storeys; k++) for (let j = 0; j <= by; j++) for (let i = 0; i <= bx; i++) coords.push([4 * i, 4 * j, 3.5 * k]);
  const section = { E: 210e9, nu: 0.3, A: 0.01, I_y: 8e-5, I_z: 4e-5, J: 2e-6, I_rho: 1.2e-4, local_z: null };
  const elements: FrameElement[] = [];
  for (let k = 1; k <= storeys; k++) {
    for (let j = 0; j <= by; j++) for (let i = 0; i <= bx; i++) elements.push({ node_i: id(i, j, k - 1), node_j: id(i, j, k), ...section });
    for (let j = 0; j <= by; j++) for (let i = 0; i < bx; i++) elements.push({ node_i: id(i, j, k), node_j: id(i + 1, j, k), ...section });
    for (let j = 0; j < by; j++) for (let i = 0; i <= bx; i++) elements.push({ node_i: id(i, j, k), node_j: id(i, j + 1, k), ...section });
  }
  const bcs = new Map<number, boolean[]>();
  for (let n = 0; n < perFloor; n++) bcs.set(n, [true, true, true, true, true, true]);
  const loads = new Map<number, number[]>();
  for (let n = storeys * perFloor; n < (storeys + 1) * perFloor; n++) loads.set(n, [1e3, 0, -1e5, 0, 0, 0]);
  return { coords, elements, bcs, loads };
}

const results: Record<string, unknown> = {};
for (const [label, bx, by, storeys, repeats] of [
  ['100', 2, 2, 5, 7],
  ['1000', 3, 3, 25, 5],
  ['5000', 3, 3, 125, 3],
] as const) {
  const t = tower(bx, by, storeys);
  const lin = timeMedian(() => linearFrameBanded(t.coords, t.elements, t.bcs, t.loads), repeats, 1);
  const buck = timeMedian(() => bucklingFrameBanded(t.coords, t.elements, t.bcs, t.loads), repeats, 1);
  results[`frame_${label}_elements`] = {
    elements: t.elements.length,
    dofs: 6 * t.coords.length,
    linear_solve_ms: +lin.ms.toFixed(1),
    linear_plus_first_buckling_mode_ms: +buck.ms.toFixed(1),
    lambda_cr: buck.result.lambda,
    lanczos_steps: buck.result.lanczosSteps,
  };
}

// Dense reference path (the golden tasks' code) on the 100-element tower, for comparison.
{
  const t = tower(2, 2, 5);
  const dense = timeMedian(
    () => {
      const K = assembleElasticStiffness(t.coords, t.elements);
      const P = assembleLoad(t.loads, t.coords.length);
      const { u } = solveLinear(P, K, t.bcs, t.coords.length);
      const Kg = assembleGeometricStiffness(t.coords, t.elements, u);
      return solveBuckling(K, Kg, t.bcs, t.coords.length, 'critical_load');
    },
    3,
    1,
  );
  results.frame_100_dense_reference_path_ms = +dense.ms.toFixed(1);
  results.frame_100_dense_lambda_cr = dense.result.lambda;
}

// numpy/scipy (LAPACK) on the same free-DOF matrices, where python3 with scipy is installed.
const hasScipy = spawnSync('python3', ['-c', 'import scipy'], { stdio: 'ignore' }).status === 0;
if (hasScipy) {
  for (const [label, bx, by, storeys] of [
    ['100', 2, 2, 5],
    ['1000', 3, 3, 25],
  ] as const) {
    const t = tower(bx, by, storeys);
    const K = assembleElasticStiffness(t.coords, t.elements);
    const P = assembleLoad(t.loads, t.coords.length);
    const { u } = solveLinear(P, K, t.bcs, t.coords.length);
    const Kg = assembleGeometricStiffness(t.coords, t.elements, u);
    const { free } = partitionDofs(t.bcs, t.coords.length);
    const m = free.length;
    const reduce = (a: Float64Array) => {
      const out = new Float64Array(m * m);
      for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) out[i * m + j] = a[free[i] * K.n + free[j]];
      return out;
    };
    const dir = mkdtempSync(join(tmpdir(), 'structlab-fem-'));
    try {
      writeFileSync(join(dir, 'K.bin'), reduce(K.a));
      writeFileSync(join(dir, 'Kg.bin'), reduce(Kg.a));
      writeFileSync(
        join(dir, 'P.bin'),
        Float64Array.from(free, (d) => P[d]),
      );
      const r = spawnSync('python3', [join(import.meta.dirname, 'fem_reference.py'), dir, String(m)], { encoding: 'utf8' });
      results[`frame_${label}_numpy_scipy_dense`] = r.status === 0 ? JSON.parse(r.stdout) : { error: r.stderr.trim().split('\n').pop() };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

console.log(JSON.stringify({ fem: results }, null, 2));
