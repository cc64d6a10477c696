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
