/** Gauss rules in the reference's point order (elejeune11/FEM-bench reference functions). */
import { FemTaskError } from '../types.ts';

export interface Rule1D {
  points: number[];
  weights: number[];
}

/** 1D Gauss–Legendre on [−1, 1] for n = 1, 2, 3; null otherwise. */
export function gaussLegendre1D(n: number): Rule1D | null {
  if (n === 1) return { points: [0], weights: [2] };
  if (n === 2) {
    const a = 1 / Math.sqrt(3);
    return { points: [-a, a], weights: [1, 1] };
  }
  if (n === 3) {
    const a = Math.sqrt(3 / 5);
    return { points: [-a, 0, a], weights: [5 / 9, 8 / 9, 5 / 9] };
  }
  return null;
}

/** Tensor-product rule on [−1,1]²: ξ fastest, η slowest. */
export function quadQuadrature(numPts: number): { points: number[][]; weights: number[] } {
  const perAxis = numPts === 1 ? 1 : numPts === 4 ? 2 : numPts === 9 ? 3 : 0;
  const rule = perAxis ? gaussLegendre1D(perAxis) : null;
  if (!rule) throw new FemTaskError('ValueError', 'num_pts must be one of {1, 4, 9}.');
  const points: number[][] = [];
  const weights: number[] = [];
  for (let j = 0; j < perAxis; j++) {
    for (let i = 0; i < perAxis; i++) {
      points.push([rule.points[i], rule.points[j]]);
      weights.push(rule.weights[i] * rule.weights[j]);
    }
  }
  return { points, weights };
}

/** Rules on the reference triangle {ξ ≥ 0, η ≥ 0, ξ + η ≤ 1}; weights sum to ½. */
export function triQuadrature(numPts: number): { points: number[][]; weights: number[] } {
  if (numPts === 1) return { points: [[1 / 3, 1 / 3]], weights: [0.5] };
  if (numPts === 3)
    return {
      points: [
        [1 / 6, 1 / 6],
        [2 / 3, 1 / 6],
        [1 / 6, 2 / 3],
      ],
      weights: [1 / 6, 1 / 6, 1 / 6],
    };
  if (numPts === 4) {
    return {
      points: [
        [1 / 3, 1 / 3],
        [0.6, 0.2],
        [0.2, 0.6],
        [0.2, 0.2],
      ],
      weights: [-27 / 96, 25 / 96, 25 / 96, 25 / 96],
    };
  }
  throw new FemTaskError('ValueError', 'num_pts must be one of {1, 3, 4}.');
}
