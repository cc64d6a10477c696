/**
 * The Rayleigh–Ritz step shared by the banded and fast Lanczos buckling solvers (frame-banded.ts, frame-fast.ts): the
 * eigenvalues of the Lanczos tridiagonal matrix T_m and, for any of them, its eigenvector by inverse iteration.
 */
import { dense, inverseIteration, tridiagonalEigenvalues } from '../../../math/linalg.ts';

/**
 * Ritz values of T_m (diagonal α_0…α_{m−1}, off-diagonal β_0…β_{m−2}) in ascending order, and `vector(μ)`: the unit
 * eigenvector of T_m for a Ritz value μ, whose last entry times β_m bounds the residual of that Ritz pair.
 */
export function lanczosRitz(
  alpha: readonly number[],
  beta: readonly number[],
  m: number,
): { values: Float64Array; vector: (mu: number) => Float64Array } {
  const d = Float64Array.from(alpha.slice(0, m));
  const e = Float64Array.from(beta.slice(0, m - 1));
  const values = tridiagonalEigenvalues(d, e);
  const T = dense(m);
  for (let i = 0; i < m; i++) {
    T.a[i * m + i] = d[i];
    if (i < m - 1) {
      T.a[i * m + i + 1] = e[i];
      T.a[(i + 1) * m + i] = e[i];
    }
  }
  return { values, vector: (mu) => inverseIteration(T, mu) };
}

/** √(a² + b²) without overflow or harmful underflow (the QL rotations below). */
function hypot2(a: number, b: number): number {
  const x = Math.abs(a),
    y = Math.abs(b);
  const big = Math.max(x, y),
    small = Math.min(x, y);
  if (big === 0) return 0;
  const r = small / big;
  return big * Math.sqrt(1 + r * r);
}

/**
 * The eigenvalues of T_m (ascending) by the implicit QL method (EISPACK tql2, as in JAMA's EigenvalueDecomposition) and
 * the last entry of each unit eigenvector (`last[j]`), or with `full` every entry (`vectors[k·m + j]`, entry k of vector
 * j). The vectors are an orthonormal set even inside a cluster of equal values, so the last entries bound every Ritz
 * pair's residual of a repeated eigenvalue. Each rotation acts on every row of the vectors alike, so tracking the last
 * row only costs O(m²) in all. Null if QL does not converge.
 */
export function lanczosEigen(
  alpha: readonly number[],
  beta: readonly number[],
  m: number,
  full = false,
): { values: Float64Array; last: Float64Array; vectors: Float64Array | null } | null {
  const d = Float64Array.from(alpha.slice(0, m));
  const e = new Float64Array(m);
  for (let i = 0; i < m - 1; i++) e[i] = beta[i];
  const rows = full ? m : 1;
  const V = new Float64Array(rows * m);
  if (full) for (let i = 0; i < m; i++) V[i * m + i] = 1;
  else V[m - 1] = 1;
  const eps = 2.220446049250313e-16;
  let f = 0,
    tst1 = 0;
  for (let l = 0; l < m; l++) {
    tst1 = Math.max(tst1, Math.abs(d[l]) + Math.abs(e[l]));
    let n = l;
    while (n < m - 1 && Math.abs(e[n]) > eps * tst1) n++;
    let iterations = 0;
    if (n > l) {
      do {
        if (++iterations > 60) return null;
        let g = d[l];
        let p = (d[l + 1] - g) / (2 * e[l]);
        let r = hypot2(p, 1);
        if (p < 0) r = -r;
        d[l] = e[l] / (p + r);
        d[l + 1] = e[l] * (p + r);
        const dl1 = d[l + 1];
        let h = g - d[l];
        for (let i = l + 2; i < m; i++) d[i] -= h;
        f += h;
        p = d[n];
        let c = 1,
          c2 = 1,
          c3 = 1,
          s = 0,
          s2 = 0;
        const el1 = e[l + 1];
        for (let i = n - 1; i >= l; i--) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i];
          h = c * p;
          r = hypot2(p, e[i]);
          e[i + 1] = s * r;
          s = e[i] / r;
          c = p / r;
          p = c * d[i] - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]);
          for (let k = 0; k < rows; k++) {
            const row = k * m;
            h = V[row + i + 1];
            V[row + i + 1] = s * V[row + i] + c * h;
            V[row + i] = c * V[row + i] - s * h;
          }
        }
        p = (-s * s2 * c3 * el1 * e[l]) / dl1;
        e[l] = s * p;
        d[l] = c * p;
      } while (Math.abs(e[l]) > eps * tst1);
    }
    d[l] += f;
    e[l] = 0;
  }
  const order = Array.from({ length: m }, (_, i) => i).sort((a, b) => d[a] - d[b]);
  const values = new Float64Array(m);
  const sorted = new Float64Array(rows * m);
  order.forEach((j, to) => {
    values[to] = d[j];
    for (let k = 0; k < rows; k++) sorted[k * m + to] = V[k * m + j];
  });
  return { values, last: full ? sorted.subarray((m - 1) * m) : sorted, vectors: full ? sorted : null };
}
