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
/**
 * A backward-stable eigen-solver leaves a residual of a few ε‖(|K_e| + |λ||K_g|)|φ|‖; 100 ε allows for any sound one.
 * Near a split of λ this is what separates two solvers' modes (ψ's residual is then the two modes' round-off).
 */
const ROUND_OFF = 100 * 2.220446049250313e-16;
/** Below this, the candidate is ± the reference's mode up to round-off: the entry-by-entry comparison decides. */
const ORTHOGONAL_FLOOR = 1e-12;

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
 * True when the candidate (λ, mode) has the reference's λ (harness tolerance) and a unit mode, zero at fixed DOFs,
 * that differs from the reference's mode only inside λ's eigenspace: the mode and its part orthogonal to the
 * reference's mode, ψ, both solve (K_e + λ K_g) x = 0 on the free DOFs to RESIDUAL_TOLERANCE. Then λ is repeated or
 * nearly repeated (split below about RESIDUAL_TOLERANCE relative), and the candidate is another vector of its
 * (numerical) eigenspace. A mode off the reference's eigenvector towards another eigenvector fails on ψ, however small
 * the angle; the reference's own mode (ψ = 0) is left to the entry-by-entry comparison, and a mode whose largest entry
 * is negative breaks the task's sign convention.
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
  if (Math.abs(norm - 1) > 1e-6) return false;
  // The task's sign convention: the largest-magnitude entry (np.argmax: the first of ties, here of ties to 1e-9) is positive.
  const peak = Math.max(...mode.map(Math.abs));
  if (!(mode.find((x) => Math.abs(x) >= peak * (1 - 1e-9))! > 0)) return false;
  const along = overlap / dot(modeRef, modeRef);
  const orthogonal = mode.map((x, i) => x - along * modeRef[i]);
  const orthogonalNorm = Math.hypot(...orthogonal);
  if (!(orthogonalNorm > ORTHOGONAL_FLOOR)) return false;
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
    /**
     * ‖(K_e + λK_g)x‖, ‖K_e x‖ and ‖(|K_e| + |λ||K_g|)|x|‖ (what round-off in the residual scales with) on the free DOFs;
     * the reference symmetrises both matrices there.
     */
    const residualOf = (x: readonly number[]) => {
      let residual = 0,
        scale = 0,
        magnitude = 0;
      for (const i of free) {
        let ke = 0,
          kg = 0,
          size = 0;
        for (const j of free) {
          const a = 0.5 * (K[i][j] + K[j][i]),
            b = 0.5 * (Kg[i][j] + Kg[j][i]);
          ke += a * x[j];
          kg += b * x[j];
          size += (Math.abs(a) + Math.abs(lambda * b)) * Math.abs(x[j]);
        }
        residual += (ke + lambda * kg) ** 2;
        scale += ke ** 2;
        magnitude += size ** 2;
      }
      return { residual: Math.sqrt(residual), scale: Math.sqrt(scale), magnitude: Math.sqrt(magnitude) };
    };
    const ofMode = residualOf(mode);
    if (!(ofMode.scale > 0)) return false;
    const ofOrthogonal = residualOf(orthogonal);
    // ψ solves the pencil to the tolerance, or to what an eigen-solver's round-off leaves in the mode and the reference.
    return (
      ofMode.residual <= RESIDUAL_TOLERANCE * ofMode.scale &&
      ofOrthogonal.residual <= Math.max(RESIDUAL_TOLERANCE * ofOrthogonal.scale, ROUND_OFF * ofMode.magnitude)
    );
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
