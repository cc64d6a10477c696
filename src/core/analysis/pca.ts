/**
 * A 2D map of high-dimensional fingerprints: their first two principal axes (the top eigenvectors of the
 * covariance), for drawing, not for metrics. Power iteration with deflation from a fixed start vector, each axis
 * signed so its largest component is positive: the same points always give the same picture.
 */
import { sin } from '../math/libm.ts';

export interface PrincipalPlane {
  mean: Float64Array;
  axes: [Float64Array, Float64Array];
  /** Share of the total variance along each axis (0 when all points coincide). */
  explained: [number, number];
}

const ITERATIONS = 300;

/** The covariance (unnormalised: the scatter matrix) of `rows`, all of length `dim`, about their mean. */
function scatter(rows: readonly ArrayLike<number>[], dim: number): { mean: Float64Array; c: Float64Array } {
  const mean = new Float64Array(dim);
  for (const r of rows) for (let d = 0; d < dim; d++) mean[d] += r[d];
  for (let d = 0; d < dim; d++) mean[d] /= Math.max(1, rows.length);
  const c = new Float64Array(dim * dim);
  const centred = new Float64Array(dim);
  for (const r of rows) {
    for (let d = 0; d < dim; d++) centred[d] = r[d] - mean[d];
    for (let i = 0; i < dim; i++) {
      const x = centred[i];
      if (x === 0) continue;
      for (let j = i; j < dim; j++) c[i * dim + j] += x * centred[j];
    }
  }
  for (let i = 0; i < dim; i++) for (let j = 0; j < i; j++) c[i * dim + j] = c[j * dim + i];
  return { mean, c };
}

/** The dominant eigenvector of the symmetric matrix `c` orthogonal to `against`, and its eigenvalue. */
function dominant(c: Float64Array, dim: number, against: Float64Array | null): { v: Float64Array; value: number } {
  let v = new Float64Array(dim);
  for (let d = 0; d < dim; d++) v[d] = 1 + 0.5 * sin(1.3 * d + 0.7);
  let next = new Float64Array(dim);
  let value = 0;
  for (let it = 0; it < ITERATIONS; it++) {
    if (against) {
      let p = 0;
      for (let d = 0; d < dim; d++) p += v[d] * against[d];
      for (let d = 0; d < dim; d++) v[d] -= p * against[d];
    }
    let norm = 0;
    for (let d = 0; d < dim; d++) norm += v[d] * v[d];
    norm = Math.sqrt(norm);
    if (!(norm > 0)) return { v: new Float64Array(dim), value: 0 };
    for (let d = 0; d < dim; d++) v[d] /= norm;
    next.fill(0);
    for (let i = 0; i < dim; i++) {
      let s = 0;
      for (let j = 0; j < dim; j++) s += c[i * dim + j] * v[j];
      next[i] = s;
    }
    value = 0;
    for (let d = 0; d < dim; d++) value += next[d] * v[d];
    [v, next] = [next, v];
  }
  if (against) {
    let p = 0;
    for (let d = 0; d < dim; d++) p += v[d] * against[d];
    for (let d = 0; d < dim; d++) v[d] -= p * against[d];
  }
  let norm = 0,
    largest = 0;
  for (let d = 0; d < dim; d++) {
    norm += v[d] * v[d];
    if (Math.abs(v[d]) > Math.abs(largest)) largest = v[d];
  }
  norm = Math.sqrt(norm) * (largest < 0 ? -1 : 1);
  if (!(Math.abs(norm) > 0)) return { v: new Float64Array(dim), value: 0 };
  for (let d = 0; d < dim; d++) v[d] /= norm;
  return { v, value: Math.max(0, value) };
}

/** The first two principal axes of `rows` (each of the same length); NaN entries must be replaced before. */
export function principalPlane(rows: readonly ArrayLike<number>[]): PrincipalPlane {
  const dim = rows.length > 0 ? rows[0].length : 0;
  const { mean, c } = scatter(rows, dim);
  let total = 0;
  for (let d = 0; d < dim; d++) total += c[d * dim + d];
  const first = dominant(c, dim, null);
  const second = dominant(c, dim, first.v);
  const share = (x: number) => (total > 0 ? x / total : 0);
  return { mean, axes: [first.v, second.v], explained: [share(first.value), share(second.value)] };
}

/** A row's coordinates in the plane. */
export function projectOnPlane(plane: PrincipalPlane, row: ArrayLike<number>): [number, number] {
  let x = 0,
    y = 0;
  for (let d = 0; d < plane.mean.length; d++) {
    const centred = row[d] - plane.mean[d];
    x += centred * plane.axes[0][d];
    y += centred * plane.axes[1][d];
  }
  return [x, y];
}
