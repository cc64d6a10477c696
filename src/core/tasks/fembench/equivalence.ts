/**
 * Answers that differ from our reference yet are equally valid, for tasks whose reference output is not
 * unique: the buckling mode of a repeated critical eigenvalue (circular sections
 * under axial load) may be any unit vector of the eigenspace; the benchmark's reference returned
 * LAPACK's pick, which an independent solver cannot reproduce.
 *
 * Built only on registered tasks (public FemTask API), so it follows whatever the MSA solvers do.
 */
import { dot } from '../../math/linalg.ts';
import { isCloseScalar } from './compare.ts';
import { femTask } from './registry.ts';
import type { FemTask, FemValue } from './types.ts';

const RESIDUAL_TOLERANCE = 1e-6;

function numbers(v: unknown): number[] | null {
  if (!Array.isArray(v)) return null;
  const out: number[] = [];
  for (const x of v) {
    if (typeof x !== 'number') return null;
    out.push(x);
  }
  return out;
}

function run(id: string, inputs: Record<string, FemValue>): FemValue {
  const task = femTask(id);
  if (!task) throw new Error(`task ${id} is not registered`);
  return task.run(inputs);
}

/**
 * True when the candidate (λ, mode) has the reference's λ (harness tolerance) and a unit mode, zero at
 * fixed DOFs, that solves (K_e + λ K_g) φ = 0 on the free DOFs but is not ± the reference's mode: then λ
 * is repeated and the candidate is another vector of its eigenspace.
 */
export function sameCriticalLoadMode(inputs: Record<string, FemValue>, reference: FemValue, candidate: unknown): boolean {
  if (!Array.isArray(reference) || !Array.isArray(candidate) || candidate.length !== 2) return false;
  const lambdaRef = reference[0];
  const lambda = candidate[0];
  const modeRef = numbers(reference[1]);
  const mode = numbers(candidate[1]);
  if (typeof lambdaRef !== 'number' || typeof lambda !== 'number' || !modeRef || !mode || mode.length !== modeRef.length) return false;
  if (!isCloseScalar(lambdaRef, lambda)) return false;
  const overlap = dot(mode, modeRef);
  const norm = Math.hypot(...mode);
  if (Math.abs(norm - 1) > 1e-6 || Math.abs(Math.abs(overlap) - 1) < 1e-6) return false;
  try {
    const nNodes = mode.length / 6;
    const base = { node_coords: inputs.node_coords, elements: inputs.elements };
    const K = run('MSA_3D_assemble_global_linear_elastic_stiffness_CC0_H2_T3', base) as number[][];
    const [u] = run('MSA_3D_linear_elastic_CC0_H6_T3', {
      ...base,
      boundary_conditions: inputs.boundary_conditions,
      nodal_loads: inputs.nodal_loads,
    }) as number[][];
    const Kg = run('MSA_3D_assemble_global_geometric_stiffness_CC1_H4_T3', { ...base, u_global: u }) as number[][];
    const [fixed, free] = run('MSA_3D_partition_DOFs_CC0_H0_T0', {
      boundary_conditions: inputs.boundary_conditions,
      n_nodes: nNodes,
    }) as number[][];
    if (fixed.some((i) => Math.abs(mode[i]) > 1e-8)) return false;
    let residual = 0,
      scale = 0;
    for (const i of free) {
      let ke = 0,
        kg = 0;
      for (const j of free) {
        // The reference symmetrises both matrices on the free DOFs.
        ke += 0.5 * (K[i][j] + K[j][i]) * mode[j];
        kg += 0.5 * (Kg[i][j] + Kg[j][i]) * mode[j];
      }
      residual += (ke + lambda * kg) ** 2;
      scale += ke ** 2;
    }
    return scale > 0 && Math.sqrt(residual) <= RESIDUAL_TOLERANCE * Math.sqrt(scale);
  } catch {
    return false;
  }
}

/** The equivalence check for a task: its own `sameSolution`, else a built-in one, else none. */
export function alternativeSolutionCheck(task: FemTask): FemTask['sameSolution'] {
  if (task.sameSolution) return task.sameSolution.bind(task);
  if (/^MSA_3D_elastic_critical_load_/.test(task.id)) return sameCriticalLoadMode;
  return undefined;
}
