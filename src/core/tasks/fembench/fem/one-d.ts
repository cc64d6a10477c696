/** 1D bar tasks: uniform mesh, 2-node element stiffness, the full linear-elastic solve (FEM-bench reference). */
import { decodePolynomialCallable } from '../codec.ts';
import { checkFemSize, negativeDimensions, pyIndex, pyNumber } from '../sizes.ts';
import { FemTaskError, type FemValue } from '../types.ts';
import { scalar, vector } from './input.ts';
import { gaussLegendre1D } from './quadrature.ts';
import { groupedNumber } from '../../../limits.ts';

/** numpy.linspace(start, stop, num) with the endpoint. */
export function linspace(start: number, stop: number, num: number): number[] {
  if (num === 1) return [start];
  const step = (stop - start) / (num - 1);
  const out: number[] = [];
  for (let i = 0; i < num; i++) out.push(i * step + start);
  out[num - 1] = stop;
  return out;
}

/**
 * `num_nodes = num_elements + 1; np.linspace(x_min, x_max, num_nodes)` as the reference starts both 1D
 * tasks: a non-number fails the addition, a non-integer np.linspace (TypeError), a negative count
 * np.linspace or np.zeros (ValueError). `limit` is checked before anything is allocated.
 */
function elementCount(value: FemValue | undefined, limit: 'femDofs' | 'femElements'): number {
  const n = pyNumber(value, '+');
  const numNodes = pyIndex(n + 1);
  if (numNodes < 0) throw new FemTaskError('ValueError', `Number of samples, ${numNodes}, must be non-negative.`);
  negativeDimensions(n);
  if (limit === 'femDofs')
    checkFemSize('femDofs', `a 1D bar of ${groupedNumber(n)} elements`, numNodes, 'nodes (a dense stiffness matrix)');
  else checkFemSize('femElements', 'the 1D mesh', n, 'elements');
  return n;
}

export function uniformMesh(inputs: Record<string, FemValue>): FemValue {
  const n = elementCount(inputs.num_elements, 'femElements');
  const xMin = scalar(inputs.x_min, 'x_min');
  const xMax = scalar(inputs.x_max, 'x_max');
  const connectivity: number[][] = [];
  for (let e = 0; e < n; e++) connectivity.push([e, e + 1]);
  return [linspace(xMin, xMax, n + 1), connectivity];
}

/** `if n_gauss == 1 … elif … else raise ValueError`: any other value (2.5, "2", None) is the ValueError. */
function gaussRuleOrThrow(value: FemValue | undefined) {
  const n = typeof value === 'boolean' ? Number(value) : value;
  const rule = typeof n === 'number' ? gaussLegendre1D(n) : null;
  if (!rule) throw new FemTaskError('ValueError', 'Only 1 to 3 Gauss points are supported.');
  return rule;
}

/** The n_gauss argument: absent → the default 2; an explicit null is Python's None (no rule). */
const nGaussOf = (inputs: Record<string, FemValue>): FemValue => (inputs.n_gauss === undefined ? 2 : inputs.n_gauss);

/** Σ_gp E·A·J·w·BᵀB with B = dN/dξ / J and the signed Jacobian (reversed nodes give a negative matrix). */
function elementStiffness(x1: number, x2: number, E: number, A: number, nGauss: FemValue): number[][] {
  const rule = gaussRuleOrThrow(nGauss);
  const dN = [-0.5, 0.5];
  const J = dN[0] * x1 + dN[1] * x2;
  const B = [dN[0] / J, dN[1] / J];
  const k = [
    [0, 0],
    [0, 0],
  ];
  for (const w of rule.weights) {
    for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) k[i][j] += E * A * B[i] * B[j] * J * w;
  }
  return k;
}

export function localElasticStiffness(inputs: Record<string, FemValue>): FemValue {
  const [x1, x2] = vector(inputs.x_elem, 'x_elem', 2);
  const nGauss = nGaussOf(inputs);
  return elementStiffness(x1, x2, scalar(inputs.E, 'E'), scalar(inputs.A, 'A'), nGauss);
}

function recordList(value: FemValue | undefined, name: string): Record<string, FemValue>[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new FemTaskError('TypeError', `${name} must be a list of dicts`);
  return value.map((item) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      throw new FemTaskError('TypeError', `${name} must be a list of dicts`);
    return item;
  });
}

function field(record: Record<string, FemValue>, key: string): number {
  if (!Object.hasOwn(record, key)) throw new FemTaskError('KeyError', `'${key}'`);
  return scalar(record[key], key);
}

/** The single node within 1e-8 of x; the reference requires exactly one. */
function nodeAt(coords: number[], x: number, what: string): number {
  const hits: number[] = [];
  coords.forEach((c, i) => {
    if (Math.abs(c - x) < 1e-8) hits.push(i);
  });
  void what;
  if (hits.length !== 1) throw new FemTaskError('ValueError', `Invalid match at x = ${x} (found ${hits.length} matches).`);
  return hits[0];
}

/** Gaussian elimination with partial pivoting (LAPACK gesv's pivoting); an exactly zero pivot is numpy's LinAlgError. */
function solveDense(matrix: number[][], rhs: number[]): number[] {
  const n = rhs.length;
  const a = matrix.map((row, i) => [...row, rhs[i]]);
  for (let k = 0; k < n; k++) {
    let p = k;
    for (let i = k + 1; i < n; i++) if (Math.abs(a[i][k]) > Math.abs(a[p][k])) p = i;
    if (a[p][k] === 0) throw new FemTaskError('LinAlgError', 'Singular matrix');
    [a[k], a[p]] = [a[p], a[k]];
    for (let i = k + 1; i < n; i++) {
      const f = a[i][k] / a[k][k];
      for (let j = k; j <= n; j++) a[i][j] -= f * a[k][j];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let s = a[i][n];
    for (let j = i + 1; j < n; j++) s -= a[i][j] * x[j];
    x[i] = s / a[i][i];
  }
  return x;
}

export function linearElastic1D(inputs: Record<string, FemValue>): FemValue {
  // The stiffness matrix is dense (n+1)², as the reference's np.zeros((n_nodes, n_nodes)).
  const nElements = elementCount(inputs.num_elements, 'femDofs');
  const xMin = scalar(inputs.x_min, 'x_min');
  const xMax = scalar(inputs.x_max, 'x_max');
  const regions = recordList(inputs.material_regions, 'material_regions');
  const bodyForce = decodePolynomialCallable(inputs.body_force_fn, 'body_force_fn');
  const dirichlet = recordList(inputs.dirichlet_bc_list, 'dirichlet_bc_list');
  const neumann = recordList(inputs.neumann_bc_list, 'neumann_bc_list');
  const nGauss = nGaussOf(inputs);
  const rule = gaussRuleOrThrow(nGauss);

  const nNodes = nElements + 1;
  const coords = linspace(xMin, xMax, nNodes);
  const K = Array.from({ length: nNodes }, () => new Array<number>(nNodes).fill(0));
  const F = new Array<number>(nNodes).fill(0);

  for (let e = 0; e < nElements; e++) {
    const x1 = coords[e],
      x2 = coords[e + 1];
    const xMid = 0.5 * (x1 + x2);
    const region = regions.find((r) => field(r, 'coord_min') <= xMid && xMid <= field(r, 'coord_max'));
    if (!region) throw new FemTaskError('ValueError', `Element ${e} centered at x = ${xMid} is not assigned to any material region.`);
    const k = elementStiffness(x1, x2, field(region, 'E'), field(region, 'A'), nGauss);
    const J = 0.5 * (x2 - x1);
    const f = [0, 0];
    for (let p = 0; p < rule.points.length; p++) {
      const s = rule.points[p];
      const N = [0.5 * (1 - s), 0.5 * (1 + s)];
      const load = bodyForce(N[0] * x1 + N[1] * x2);
      f[0] += rule.weights[p] * load * J * N[0];
      f[1] += rule.weights[p] * load * J * N[1];
    }
    const dofs = [e, e + 1];
    for (let i = 0; i < 2; i++) {
      F[dofs[i]] += f[i];
      for (let j = 0; j < 2; j++) K[dofs[i]][dofs[j]] += k[i][j];
    }
  }

  for (const bc of neumann) F[nodeAt(coords, field(bc, 'x_location'), 'Neumann condition')] += field(bc, 'load_mag');

  const fixed: number[] = [];
  const prescribed: number[] = [];
  for (const bc of dirichlet) {
    fixed.push(nodeAt(coords, field(bc, 'x_location'), 'Dirichlet condition'));
    prescribed.push(field(bc, 'u_prescribed'));
  }
  const fixedSet = new Set(fixed);
  const free = coords.map((_, i) => i).filter((i) => !fixedSet.has(i));

  const u = new Array<number>(nNodes).fill(0);
  fixed.forEach((node, k) => {
    u[node] = prescribed[k];
  });
  if (free.length > 0) {
    const Kff = free.map((i) => free.map((j) => K[i][j]));
    const rhs = free.map((i) => {
      let s = F[i];
      fixed.forEach((j, k) => {
        s -= K[i][j] * prescribed[k];
      });
      return s;
    });
    const uf = solveDense(Kff, rhs);
    free.forEach((i, a) => {
      u[i] = uf[a];
    });
  }
  // Reactions in the Dirichlet list's order: R = K_s·u − F_s.
  const reactions = fixed.map((i) => {
    let s = 0;
    for (let j = 0; j < nNodes; j++) s += K[i][j] * u[j];
    return s - F[i];
  });
  return { displacements: u, reactions, node_coords: coords, reaction_nodes: fixed };
}
