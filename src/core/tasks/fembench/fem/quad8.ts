/** Q8 element computations: edge traction loads, physical gradients, ∫∇u (elejeune11/FEM-bench reference functions). */
import { FemTaskError, type FemValue } from '../types.ts';
import { checkFemSize } from '../sizes.ts';
import { flatten, matrix, vector } from './input.ts';
import { gaussLegendre1D, quadQuadrature } from './quadrature.ts';
import { quad8At } from './shape.ts';

/** (start, mid, end) node indices of each face. */
const FACE_NODES: Record<number, [number, number, number]> = { 0: [0, 4, 1], 1: [1, 5, 2], 2: [2, 6, 3], 3: [3, 7, 0] };

export function quad8ElementDistributedLoad(inputs: Record<string, FemValue>): FemValue {
  const faceValue = inputs.face;
  const coords = matrix(inputs.node_coords, 'node_coords', 8, 2);
  const [tx, ty] = vector(inputs.traction, 'traction', 2);
  const face = typeof faceValue === 'boolean' ? Number(faceValue) : faceValue;
  const nodes = typeof face === 'number' && Object.hasOwn(FACE_NODES, face) ? FACE_NODES[face] : undefined;
  // The reference looks the face up in a dict: an unknown face is a KeyError naming the key.
  if (!nodes) throw new FemTaskError('KeyError', typeof face === 'string' ? `'${face}'` : String(face));
  // Unsupported point counts (any other value) silently fall back to the 2-point rule, as in the reference.
  const n = inputs.num_gauss_pts;
  const rule = (typeof n === 'number' ? gaussLegendre1D(n) : null) ?? gaussLegendre1D(2)!;
  const loads = new Array<number>(16).fill(0);
  for (let p = 0; p < rule.points.length; p++) {
    const s = rule.points[p];
    const N = [0.5 * (s * s - s), 1 - s * s, 0.5 * (s * s + s)];
    const dN = [s - 0.5, -2 * s, s + 0.5];
    let dx = 0,
      dy = 0;
    for (let k = 0; k < 3; k++) {
      dx += dN[k] * coords[nodes[k]][0];
      dy += dN[k] * coords[nodes[k]][1];
    }
    const jac = Math.hypot(dx, dy);
    for (let k = 0; k < 3; k++) {
      const factor = rule.weights[p] * jac * N[k];
      loads[2 * nodes[k]] += factor * tx;
      loads[2 * nodes[k] + 1] += factor * ty;
    }
  }
  return loads;
}

/** Jacobian J[i][j] = ∂x_i/∂ξ_j and the natural gradient of u at (ξ, η). */
function naturalData(coords: number[][], values: number[], xi: number, eta: number) {
  const { dN } = quad8At(xi, eta);
  const J = [
    [0, 0],
    [0, 0],
  ];
  const g = [0, 0];
  for (let a = 0; a < 8; a++) {
    for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) J[i][j] += coords[a][i] * dN[a][j];
    g[0] += dN[a][0] * values[a];
    g[1] += dN[a][1] * values[a];
  }
  const det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
  if (det === 0) throw new FemTaskError('LinAlgError', 'Singular matrix');
  // J⁻ᵀ·g: solve Jᵀ·x = g.
  const grad = [(J[1][1] * g[0] - J[1][0] * g[1]) / det, (-J[0][1] * g[0] + J[0][0] * g[1]) / det];
  return { det, grad };
}

export function quad8PhysicalGradient(inputs: Record<string, FemValue>): FemValue {
  const coords = matrix(inputs.node_coords, 'node_coords', 8, 2);
  const values = vector(inputs.node_values, 'node_values', 8);
  const xi = flatten(inputs.xi, 'xi');
  const eta = flatten(inputs.eta, 'eta');
  checkFemSize('femElements', 'xi', xi.length, 'points');
  if (xi.length !== eta.length)
    throw new FemTaskError('ValueError', `xi and eta must have the same number of points (${xi.length} vs ${eta.length})`);
  const dudx: number[] = [];
  const dudy: number[] = [];
  for (let p = 0; p < xi.length; p++) {
    const { grad } = naturalData(coords, values, xi[p], eta[p]);
    dudx.push(grad[0]);
    dudy.push(grad[1]);
  }
  return [dudx, dudy];
}

export function quad8IntegralOfDerivative(inputs: Record<string, FemValue>): FemValue {
  const coords = matrix(inputs.node_coords, 'node_coords', 8, 2);
  const values = vector(inputs.node_values, 'node_values', 8);
  const raw = inputs.num_gauss_pts;
  const n = typeof raw === 'boolean' ? Number(raw) : raw;
  if (n !== 1 && n !== 4 && n !== 9) throw new FemTaskError('ValueError', 'num_gauss_pts must be one of {1, 4, 9}.');
  const { points, weights } = quadQuadrature(n);
  const total = [0, 0];
  for (let p = 0; p < points.length; p++) {
    // det J is used signed, as in the reference.
    const { det, grad } = naturalData(coords, values, points[p][0], points[p][1]);
    total[0] += weights[p] * det * grad[0];
    total[1] += weights[p] * det * grad[1];
  }
  return total;
}
