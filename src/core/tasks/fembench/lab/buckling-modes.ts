/**
 * The first few buckling modes of a frame, K φ = λ (−K_g) φ on the free DOFs. Mode 1 (λ_cr and φ) is the
 * FEM-Bench reference (MSA_3D_elastic_critical_load); the higher modes come from the same symmetric pencil:
 * all λ from bucklingMuSymmetric, each φ by inverse iteration kept K-orthogonal to the modes before it, so a
 * repeated λ (e.g. a circular column) still gives two distinct modes.
 */
import { bucklingMuSymmetric, dense, dot, luFactor, luSolve, matVec, type Dense } from '../../../math/linalg.ts';
import { assembleElasticStiffness, assembleGeometricStiffness, assembleLoad, partitionDofs, solveLinear } from '../msa/frame.ts';
import { femTask } from '../registry.ts';
import { FemTaskError } from '../types.ts';
import { taskInputs, type FrameModel } from './frame-model.ts';
import { sin } from '../../../math/libm.ts';

export const CRITICAL_LOAD_TASK = 'MSA_3D_elastic_critical_load_CC1_H10_T1';
export const LINEAR_TASK = 'MSA_3D_linear_elastic_CC0_H6_T1';
/** Above this many free DOFs only mode 1 is computed (the higher modes use dense O(n³) algebra). */
export const MAX_DENSE_MODE_DOFS = 600;

export interface BucklingMode {
  lambda: number;
  mode: number[];
}

function principal(m: Dense, idx: readonly number[]): Dense {
  const n = idx.length;
  const out = dense(n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) out.a[i * n + j] = 0.5 * (m.a[idx[i] * m.n + idx[j]] + m.a[idx[j] * m.n + idx[i]]);
  return out;
}

export function bucklingModes(model: FrameModel, count: number): { modes: BucklingMode[]; note: string | null } {
  const task = femTask(CRITICAL_LOAD_TASK)!;
  const first = task.run(taskInputs(model)) as [number, number[]];
  const modes: BucklingMode[] = [{ lambda: first[0], mode: first[1] }];
  const n = model.node_coords.length;
  const bcs = new Map(Object.entries(model.boundary_conditions).map(([k, v]) => [Number(k), v]));
  const { free } = partitionDofs(bcs, n);
  if (count <= 1) return { modes, note: null };
  if (free.length > MAX_DENSE_MODE_DOFS) return { modes, note: `Only mode 1 is computed above ${MAX_DENSE_MODE_DOFS} free DOFs.` };

  const elements = model.elements.map((e) => ({ ...e, local_z: e.local_z ?? null }));
  const K = assembleElasticStiffness(model.node_coords, elements);
  const loads = new Map(Object.entries(model.nodal_loads).map(([k, v]) => [Number(k), v]));
  const { u } = solveLinear(assembleLoad(loads, n), K, bcs, n);
  const Kf = principal(K, free);
  const Kgf = principal(assembleGeometricStiffness(model.node_coords, elements, u), free);
  const negKg = dense(free.length);
  for (let i = 0; i < negKg.a.length; i++) negKg.a[i] = -Kgf.a[i];
  const mu = bucklingMuSymmetric(Kf, Kgf);
  const lambdas = Array.from(mu)
    .filter((m) => m > 1e-12 * Math.max(...mu.map(Math.abs)))
    .map((m) => 1 / m)
    .sort((a, b) => a - b);
  // Free-DOF copies of the modes found so far, for K-orthogonalisation.
  const found: Float64Array[] = [Float64Array.from(free, (d) => first[1][d])];
  for (let k = 1; k < Math.min(count, lambdas.length); k++) {
    const lambda = lambdas[k];
    const shifted = dense(free.length);
    const sigma = lambda * (1 - 1e-9);
    for (let i = 0; i < shifted.a.length; i++) shifted.a[i] = Kf.a[i] - sigma * negKg.a[i];
    let lu;
    try {
      lu = luFactor(shifted);
    } catch {
      break;
    }
    let x: Float64Array = Float64Array.from(free, (_, i) => 1 + 0.37 * sin(1.3 * i + k));
    for (let it = 0; it < 6; it++) {
      for (const f of found) {
        const kf = matVec(Kf, f);
        const c = dot(x, kf) / dot(f, kf);
        for (let i = 0; i < x.length; i++) x[i] -= c * f[i];
      }
      x = luSolve(lu, matVec(negKg, x));
      const norm = Math.sqrt(dot(x, x));
      if (!(norm > 0) || !Number.isFinite(norm)) throw new FemTaskError('ValueError', `Mode ${k + 1} could not be computed.`);
      for (let i = 0; i < x.length; i++) x[i] /= norm;
    }
    let peak = 0;
    for (let i = 0; i < x.length; i++) if (Math.abs(x[i]) > Math.abs(peak)) peak = x[i];
    if (peak < 0) for (let i = 0; i < x.length; i++) x[i] = -x[i];
    found.push(x);
    const full = new Array<number>(6 * n).fill(0);
    free.forEach((d, i) => {
      full[d] = x[i];
    });
    modes.push({ lambda, mode: full });
  }
  return { modes, note: null };
}
