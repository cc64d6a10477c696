/** The 1D bar: the FEM-Bench linear-elastic solver and, where one exists, the closed-form solution. */
import { linearElastic1D } from '../fem/one-d.ts';
import type { FemValue } from '../types.ts';
import { pow } from '../../../math/libm.ts';

export interface BarSpec {
  xMin: number;
  xMax: number;
  nElements: number;
  E: number;
  A: number;
  /** f(x) = Σ c_k x^k (force per length). */
  bodyForce: number[];
  /** Prescribed u at x_min (the bar is fixed there). */
  uLeft: number;
  /** Point load at x_max (0: free end). */
  tipLoad: number;
}

export interface BarSolution {
  x: number[];
  u: number[];
  /** Element stresses E (u₂ − u₁)/(x₂ − x₁), at element mid-points. */
  stressX: number[];
  stress: number[];
  reaction: number;
}

export function solveBar(s: BarSpec): BarSolution {
  if (!(Number.isInteger(s.nElements) && s.nElements >= 1 && s.nElements <= 2000))
    throw new Error('The number of elements must be a whole number from 1 to 2000.');
  if (!(s.xMax > s.xMin)) throw new Error('x_max must be greater than x_min.');
  if (!(s.E > 0 && s.A > 0)) throw new Error('E and A must be positive.');
  const inputs: Record<string, FemValue> = {
    x_min: s.xMin,
    x_max: s.xMax,
    num_elements: s.nElements,
    material_regions: [{ coord_min: s.xMin, coord_max: s.xMax, E: s.E, A: s.A }],
    body_force_fn: { __callable__: 'polynomial', coefficients: s.bodyForce },
    dirichlet_bc_list: [{ x_location: s.xMin, u_prescribed: s.uLeft }],
    neumann_bc_list: s.tipLoad !== 0 ? [{ x_location: s.xMax, load_mag: s.tipLoad }] : null,
    n_gauss: 3,
  };
  const out = linearElastic1D(inputs) as { displacements: number[]; reactions: number[]; node_coords: number[] };
  const x = out.node_coords,
    u = out.displacements;
  const stressX: number[] = [],
    stress: number[] = [];
  for (let e = 0; e < x.length - 1; e++) {
    stressX.push(0.5 * (x[e] + x[e + 1]));
    stress.push((s.E * (u[e + 1] - u[e])) / (x[e + 1] - x[e]));
  }
  return { x, u, stressX, stress, reaction: out.reactions[0] };
}

/**
 * Closed form for a uniform bar fixed at x₀ (u = u₀), loaded by f(x) = Σ c_k x^k and a point load P at the free
 * end L: the axial force N(x) = P + ∫ₓᴸ f, u(x) = u₀ + (1/EA) ∫_{x₀}^x N, stress σ = N/A.
 */
export function analyticBar(s: BarSpec): { u: (x: number) => number; stress: (x: number) => number } {
  const F = (x: number) => s.bodyForce.reduce((acc, c, k) => acc + (c * pow(x, k + 1)) / (k + 1), 0);
  const G = (x: number) => s.bodyForce.reduce((acc, c, k) => acc + (c * pow(x, k + 2)) / ((k + 1) * (k + 2)), 0);
  const x0 = s.xMin,
    L = s.xMax;
  const N0 = s.tipLoad + F(L); // N(x) = N0 − F(x)
  const EA = s.E * s.A;
  return {
    u: (x) => s.uLeft + (N0 * (x - x0) - (G(x) - G(x0))) / EA,
    stress: (x) => (N0 - F(x)) / s.A,
  };
}
