/**
 * "Benchmark vs physics": the FEM-Bench reference quirks (src/core/tasks/fembench/README.md, "Quirks reproduced on purpose") that
 * the lab reproduces on purpose, as one-sentence notes, chosen by what the user is looking at. Pure: no DOM, no React.
 */
import type { FrameModel } from '../../core/tasks/fembench/lab/frame-model.ts';

export type QuirkId =
  | '1d-reversed-stiffness'
  | '1d-reversed-bounds'
  | '1d-reaction-order'
  | '2d-q8-load-fallback'
  | '2d-signed-detj'
  | '2d-batched-shapes'
  | '3d-local-z'
  | '3d-vertical-test'
  | '3d-partition-out-of-range'
  | '3d-i-rho'
  | '3d-eigen-sign'
  | '3d-repeated-eigenvalue'
  | '3d-realness';

export interface QuirkNote {
  id: QuirkId;
  text: string;
}

/** Each note: what the benchmark's reference does, then what physics would give. */
export const QUIRK_TEXT: Record<QuirkId, string> = {
  '1d-reversed-stiffness':
    'An element whose nodes run backwards (x₂ < x₁) gets a negative stiffness matrix in the reference, which uses the signed ' +
    'Jacobian, whereas a physical bar element is always stiff (EA/|L| > 0).',
  '1d-reversed-bounds':
    "The reference's uniform mesh accepts x_min > x_max and numbers the nodes downwards, whereas a physical bar has length " +
    '|x_max − x_min| whichever end is named first (the 1D view asks for x_min < x_max).',
  '1d-reaction-order':
    'The reference lists the reactions in the order of its Dirichlet list, not by position along the bar, so the same supports ' +
    'given in another order give the reactions in another order.',
  '2d-q8-load-fallback':
    'For a Q8 edge load, the reference silently integrates with the 2-point rule when num_gauss_pts is not one it supports, ' +
    'where a careful code would reject the request.',
  '2d-signed-detj':
    "The reference's Q8 ∫∇u uses the signed det J, so an inverted element flips the sign of its contribution instead of being " +
    'rejected as a physically invalid mapping.',
  '2d-batched-shapes':
    "The reference's T6/Q8 shape functions always return batched arrays, N of shape (n, k, 1) and ∇N of shape (n, k, 2), even " +
    'for a single point; the values themselves are the standard ones.',
  '3d-local-z':
    "An element's local_z is only a reference vector in the reference: the local y axis is local_z × x and the local z axis is " +
    're-orthogonalised as x × y, so the drawn local z differs from local_z whenever local_z is not perpendicular to the element.',
  '3d-vertical-test':
    'Without local_z, the reference switches its reference vector from global Z to global Y only when both the x and y direction ' +
    'cosines are within 1e-8 (absolute), so a member tilted a little more than that keeps global Z and its local axes swing ' +
    'abruptly, where the physics is continuous in the tilt.',
  '3d-partition-out-of-range':
    "The reference's partition silently ignores supports on node indices outside the model, so a mistyped node leaves the frame " +
    'unsupported there instead of raising an error.',
  '3d-i-rho':
    "The reference's geometric stiffness needs I_rho (the polar moment, for the Wagner torsion term) on every element, although " +
    'the T2/T3 docstrings never list it; without it the reference raises KeyError.',
  '3d-eigen-sign':
    'solve_eigenvalue returns the mode with whatever sign LAPACK picks (no normalisation), so a mode and its negative are the ' +
    'same physics and are compared up to sign here.',
  '3d-repeated-eigenvalue':
    'The critical eigenvalue is repeated, so the buckling mode is not unique: any vector of the eigenspace (here, bending about ' +
    "either axis) is an equally valid mode, and the reference returned LAPACK's pick.",
  '3d-realness':
    'The reference rejects the eigen-solution as "significantly complex" when the relative imaginary part exceeds about 2.2e-13, ' +
    "a round-off level that depends on the platform's LAPACK (the reference fails one of its own tests on Debian), although a " +
    'symmetric pencil has real eigenvalues.',
};

export type QuirkContext =
  | { view: '1d'; xMin: number; xMax: number; reactionsShown: boolean }
  | { view: '2d'; kind: 'Q8' | 'T6'; invertedElements: number }
  | {
      view: 'frame';
      model: FrameModel;
      /** Local axes drawn in the 3D view. */
      showAxes: boolean;
      /** Buckling load factors of the current model, mode 1 first; null before a buckling analysis. */
      bucklingLambdas: number[] | null;
      /** The page's current error sentence, if any. */
      error: string | null;
    }
  | { view: 'outputs'; taskId: string | null };

/** How many of the computed load factors coincide with λ_cr (relative 1e-6; the modes come from two solvers). */
export function criticalMultiplicity(lambdas: readonly number[]): number {
  if (!lambdas.length) return 0;
  const first = lambdas[0];
  return lambdas.filter((l) => Math.abs(l - first) <= 1e-6 * Math.abs(first)).length;
}

/** The reference's vertical test is |c| ≤ 1e-8 on both cosines; beyond it, members this close to vertical still get the note. */
const NEARLY_VERTICAL = 1e-3;

function frameIds(ctx: Extract<QuirkContext, { view: 'frame' }>): QuirkId[] {
  const { model } = ctx;
  const ids: QuirkId[] = [];
  let skewLocalZ = false,
    nearlyVertical = false;
  for (const e of model.elements) {
    const pi = model.node_coords[e.node_i],
      pj = model.node_coords[e.node_j];
    if (!pi || !pj) continue;
    const d = [pj[0] - pi[0], pj[1] - pi[1], pj[2] - pi[2]];
    const L = Math.hypot(d[0], d[1], d[2]);
    if (!(L > 0)) continue;
    const z = e.local_z;
    if (z && z.length === 3) {
      const zn = Math.hypot(z[0], z[1], z[2]);
      if (zn > 0 && Math.abs(d[0] * z[0] + d[1] * z[1] + d[2] * z[2]) / (L * zn) > 1e-8) skewLocalZ = true;
    } else if (Math.hypot(d[0], d[1]) / L <= NEARLY_VERTICAL) {
      nearlyVertical = true;
    }
  }
  const hasLocalZ = model.elements.some((e) => Array.isArray(e.local_z));
  if (skewLocalZ || (ctx.showAxes && hasLocalZ)) ids.push('3d-local-z');
  if (nearlyVertical) ids.push('3d-vertical-test');
  const n = model.node_coords.length;
  if (Object.keys(model.boundary_conditions).some((k) => !(Number.isInteger(Number(k)) && Number(k) >= 0 && Number(k) < n)))
    ids.push('3d-partition-out-of-range');
  const err = ctx.error ?? '';
  if (ctx.bucklingLambdas || /I_rho/.test(err)) ids.push('3d-i-rho');
  if (ctx.bucklingLambdas && criticalMultiplicity(ctx.bucklingLambdas) > 1) ids.push('3d-repeated-eigenvalue');
  if (ctx.bucklingLambdas || /significantly complex/.test(err)) ids.push('3d-realness');
  return ids;
}

/** The notes for a FEM-Bench task's outputs, by task family (the id without its _CC…_H…_T… suffix). */
const TASK_QUIRKS: [prefix: string, ids: QuirkId[]][] = [
  ['FEM_1D_local_elastic_stiffness', ['1d-reversed-stiffness']],
  ['FEM_1D_uniform_mesh', ['1d-reversed-bounds']],
  ['FEM_1D_linear_elastic', ['1d-reaction-order']],
  ['FEM_2D_quad8_element_distributed_load', ['2d-q8-load-fallback']],
  ['FEM_2D_quad8_integral_of_derivative', ['2d-signed-detj']],
  ['FEM_2D_tri6_shape_fcns_and_derivatives', ['2d-batched-shapes']],
  ['FEM_2D_quad8_shape_fcns_and_derivatives', ['2d-batched-shapes']],
  ['MSA_3D_transformation_matrix', ['3d-local-z', '3d-vertical-test']],
  ['MSA_3D_local_element_loads', ['3d-local-z', '3d-vertical-test']],
  ['MSA_3D_assemble_global_linear_elastic_stiffness', ['3d-local-z', '3d-vertical-test']],
  ['MSA_3D_assemble_global_geometric_stiffness', ['3d-local-z', '3d-vertical-test', '3d-i-rho']],
  ['MSA_3D_partition_DOFs', ['3d-partition-out-of-range']],
  ['MSA_3D_solve_linear', ['3d-partition-out-of-range']],
  ['MSA_3D_linear_elastic', ['3d-local-z', '3d-vertical-test', '3d-partition-out-of-range']],
  ['MSA_3D_solve_eigenvalue', ['3d-partition-out-of-range', '3d-eigen-sign', '3d-realness']],
  [
    'MSA_3D_elastic_critical_load',
    ['3d-local-z', '3d-vertical-test', '3d-partition-out-of-range', '3d-i-rho', '3d-repeated-eigenvalue', '3d-realness'],
  ],
];

export function benchmarkQuirkNotes(ctx: QuirkContext): QuirkNote[] {
  let ids: QuirkId[] = [];
  switch (ctx.view) {
    case '1d':
      if (ctx.xMin > ctx.xMax) ids = ['1d-reversed-bounds', '1d-reversed-stiffness'];
      if (ctx.reactionsShown) ids.push('1d-reaction-order');
      break;
    case '2d':
      if (ctx.kind === 'Q8') ids.push('2d-q8-load-fallback');
      if (ctx.kind === 'Q8' && ctx.invertedElements > 0) ids.push('2d-signed-detj');
      ids.push('2d-batched-shapes');
      break;
    case 'frame':
      ids = frameIds(ctx);
      break;
    case 'outputs':
      if (ctx.taskId) ids = TASK_QUIRKS.find(([prefix]) => ctx.taskId!.startsWith(`${prefix}_CC`))?.[1] ?? [];
      break;
  }
  return ids.map((id) => ({ id, text: QUIRK_TEXT[id] }));
}
