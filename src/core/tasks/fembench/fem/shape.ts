/** Quadratic shape functions: 6-node triangle and 8-node serendipity quadrilateral (FEM-bench reference). */
import { isPythonSequence } from '../codec.ts';
import { FemTaskError, type FemValue } from '../types.ts';
import { checkFemSize } from '../sizes.ts';
import { shapeOf, vector } from './input.ts';

export interface ShapeAtPoint {
  N: number[];
  dN: number[][];
}

/** Tri6: corners (1,0), (0,1), (0,0), then mid-nodes of edges 1–2, 2–3, 3–1. */
export function tri6At(xi: number, eta: number): ShapeAtPoint {
  const l = 1 - xi - eta;
  return {
    N: [xi * (2 * xi - 1), eta * (2 * eta - 1), l * (2 * l - 1), 4 * xi * eta, 4 * eta * l, 4 * xi * l],
    dN: [
      [4 * xi - 1, 0],
      [0, 4 * eta - 1],
      [-(4 * l - 1), -(4 * l - 1)],
      [4 * eta, 4 * xi],
      [-4 * eta, 4 * (l - eta)],
      [4 * (l - xi), -4 * xi],
    ],
  };
}

/** Q8: corners (−1,−1), (1,−1), (1,1), (−1,1), then mid-sides bottom, right, top, left. */
export function quad8At(xi: number, eta: number): ShapeAtPoint {
  const xm = 1 - xi,
    xp = 1 + xi,
    em = 1 - eta,
    ep = 1 + eta;
  return {
    N: [
      -0.25 * xm * em * (1 + xi + eta),
      0.25 * xp * em * (xi - eta - 1),
      0.25 * xp * ep * (xi + eta - 1),
      0.25 * xm * ep * (eta - xi - 1),
      0.5 * (1 - xi * xi) * em,
      0.5 * xp * (1 - eta * eta),
      0.5 * (1 - xi * xi) * ep,
      0.5 * xm * (1 - eta * eta),
    ],
    dN: [
      [0.25 * em * (2 * xi + eta), 0.25 * xm * (xi + 2 * eta)],
      [0.25 * em * (2 * xi - eta), 0.25 * xp * (2 * eta - xi)],
      [0.25 * ep * (2 * xi + eta), 0.25 * xp * (2 * eta + xi)],
      [0.25 * ep * (2 * xi - eta), 0.25 * xm * (2 * eta - xi)],
      [-xi * em, -0.5 * (1 - xi * xi)],
      [0.5 * (1 - eta * eta), -xp * eta],
      [-xi * ep, 0.5 * (1 - xi * xi)],
      [-0.5 * (1 - eta * eta), -xm * eta],
    ],
  };
}

/** The reference's input checks: a NumPy array of shape (2,) or (n, 2) with finite values. */
export function naturalPoints(xi: FemValue): number[][] {
  if (!Array.isArray(xi) || isPythonSequence(xi)) throw new FemTaskError('ValueError', 'xi must be a NumPy array.');
  const shape = shapeOf(xi);
  // The output is 24 (Q8) or 18 (Tri6) numbers per point, half of them in one-element lists: the point
  // count is bounded before computing, and a point weighs twice a mesh element in the run's work budget.
  checkFemSize('femElements', 'xi', shape.length === 2 ? shape[0] : 1, 'points', 2);
  let points: number[][];
  if (shape.length === 1) {
    if (shape[0] !== 2) throw new FemTaskError('ValueError', '1D xi must have shape (2,).');
    points = [vector(xi, 'xi')];
  } else if (shape.length === 2) {
    if (shape[1] !== 2) throw new FemTaskError('ValueError', '2D xi must have shape (n, 2).');
    points = xi.map((row) => vector(row, 'xi'));
  } else {
    throw new FemTaskError('ValueError', 'xi must have shape (2,) or (n, 2).');
  }
  if (points.some((p) => p.some((v) => !Number.isFinite(v)))) throw new FemTaskError('ValueError', 'xi must contain finite values.');
  return points;
}

/** Batched output (N (n,k,1), dN (n,k,2)) as the reference returns it. */
export function batchedShapes(xi: FemValue, at: (x: number, y: number) => ShapeAtPoint): FemValue {
  const N: number[][][] = [];
  const dN: number[][][] = [];
  for (const [x, y] of naturalPoints(xi)) {
    const s = at(x, y);
    N.push(s.N.map((v) => [v]));
    dN.push(s.dN);
  }
  return [N, dN];
}
