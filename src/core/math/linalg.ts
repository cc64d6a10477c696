/**
 * Dense (and banded) linear algebra on row-major Float64Array matrices, written for the FEM-Bench
 * reference tasks: LU with partial pivoting, Cholesky, a banded Cholesky for long frames, 2-norm
 * condition numbers (one-sided Jacobi SVD), symmetric eigenvalues (Householder tridiagonalisation +
 * Sturm bisection), general real eigenvalues (Hessenberg + complex shifted QR) and the buckling
 * eigenproblem K φ = λ (−K_g) φ. A matrix is `{ n, a }` with a[i*n + j].
 */
import { sin } from './libm.ts';

export interface Dense {
  n: number;
  a: Float64Array;
}

export class SingularMatrixError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SingularMatrixError';
  }
}

export function dense(n: number, a?: ArrayLike<number>): Dense {
  return { n, a: a ? Float64Array.from(a) : new Float64Array(n * n) };
}

export function toRows(m: Dense): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < m.n; i++) out.push(Array.from(m.a.subarray(i * m.n, (i + 1) * m.n)));
  return out;
}

/** Σ a_i b_i over a's length, summed left to right from 0. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

export function matVec(m: Dense, x: ArrayLike<number>): Float64Array {
  const { n, a } = m;
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    const row = i * n;
    for (let j = 0; j < n; j++) s += a[row + j] * x[j];
    y[i] = s;
  }
  return y;
}

// ---------------------------------------------------------------------------------------------
// LU with partial pivoting

export interface LU {
  n: number;
  lu: Float64Array;
  perm: Int32Array;
}

/** PA = LU (Doolittle, partial pivoting). Throws SingularMatrixError on an exactly zero pivot. */
export function luFactor(m: Dense): LU {
  const n = m.n;
  const lu = Float64Array.from(m.a);
  const perm = new Int32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  for (let k = 0; k < n; k++) {
    let p = k;
    let best = Math.abs(lu[k * n + k]);
    for (let i = k + 1; i < n; i++) {
      const v = Math.abs(lu[i * n + k]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    if (best === 0) throw new SingularMatrixError(`The matrix is singular (zero pivot in column ${k + 1}).`);
    if (p !== k) {
      for (let j = 0; j < n; j++) {
        const t = lu[k * n + j];
        lu[k * n + j] = lu[p * n + j];
        lu[p * n + j] = t;
      }
      const t = perm[k];
      perm[k] = perm[p];
      perm[p] = t;
    }
    const pivot = lu[k * n + k];
    for (let i = k + 1; i < n; i++) {
      const f = (lu[i * n + k] /= pivot);
      if (f === 0) continue;
      const ri = i * n,
        rk = k * n;
      for (let j = k + 1; j < n; j++) lu[ri + j] -= f * lu[rk + j];
    }
  }
  return { n, lu, perm };
}

export function luSolve(f: LU, b: ArrayLike<number>): Float64Array {
  const { n, lu, perm } = f;
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[perm[i]];
    for (let j = 0; j < i; j++) s -= lu[i * n + j] * x[j];
    x[i] = s;
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = x[i];
    for (let j = i + 1; j < n; j++) s -= lu[i * n + j] * x[j];
    x[i] = s / lu[i * n + i];
  }
  return x;
}

// ---------------------------------------------------------------------------------------------
// Cholesky

/** Lower-triangular L with A = L Lᵀ (only the lower triangle of A is read). Throws if A is not positive definite. */
export function choleskyFactor(m: Dense): Dense {
  const n = m.n;
  const l = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    let d = m.a[j * n + j];
    for (let k = 0; k < j; k++) d -= l[j * n + k] * l[j * n + k];
    if (!(d > 0)) throw new SingularMatrixError(`The matrix is not positive definite (pivot ${j + 1} is ${d}).`);
    const ljj = Math.sqrt(d);
    l[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let s = m.a[i * n + j];
      const ri = i * n,
        rj = j * n;
      for (let k = 0; k < j; k++) s -= l[ri + k] * l[rj + k];
      l[ri + j] = s / ljj;
    }
  }
  return { n, a: l };
}

/** Solves L y = b in place. */
export function forwardSubstitute(l: Dense, y: Float64Array): Float64Array {
  const n = l.n;
  for (let i = 0; i < n; i++) {
    let s = y[i];
    const ri = i * n;
    for (let k = 0; k < i; k++) s -= l.a[ri + k] * y[k];
    y[i] = s / l.a[ri + i];
  }
  return y;
}

/** Solves Lᵀ x = y in place. */
export function backSubstituteTransposed(l: Dense, x: Float64Array): Float64Array {
  const n = l.n;
  for (let i = n - 1; i >= 0; i--) {
    let s = x[i];
    for (let k = i + 1; k < n; k++) s -= l.a[k * n + i] * x[k];
    x[i] = s / l.a[i * n + i];
  }
  return x;
}

export function choleskySolve(l: Dense, b: ArrayLike<number>): Float64Array {
  return backSubstituteTransposed(l, forwardSubstitute(l, Float64Array.from(b)));
}

// ---------------------------------------------------------------------------------------------
// Banded Cholesky (symmetric positive definite, half-bandwidth w: a[i][j] = 0 when |i−j| > w)

export interface Banded {
  n: number;
  /** half-bandwidth */
  w: number;
  /** row i holds columns i−w..i at band[i*(w+1) + (j − i + w)] (lower band incl. diagonal) */
  band: Float64Array;
}

export function bandedZeros(n: number, w: number): Banded {
  return { n, w, band: new Float64Array(n * (w + 1)) };
}

/** Adds v to entry (i, j) of a symmetric banded matrix; only the lower triangle (j ≤ i) is stored. */
export function bandedAdd(m: Banded, i: number, j: number, v: number): void {
  if (j > i) {
    const t = i;
    i = j;
    j = t;
  }
  const off = j - i + m.w;
  if (off < 0) throw new Error(`Entry (${i + 1}, ${j + 1}) lies outside the half-bandwidth ${m.w}.`);
  m.band[i * (m.w + 1) + off] += v;
}

/** In-place banded Cholesky: afterwards band holds L (lower). O(n w²). */
export function bandedCholeskyFactor(m: Banded): Banded {
  const { n, w, band } = m;
  const s = w + 1;
  for (let i = 0; i < n; i++) {
    const j0 = Math.max(0, i - w);
    for (let j = j0; j <= i; j++) {
      let sum = band[i * s + (j - i + w)];
      const k0 = Math.max(j0, j - w);
      for (let k = k0; k < j; k++) sum -= band[i * s + (k - i + w)] * band[j * s + (k - j + w)];
      if (j === i) {
        if (!(sum > 0)) throw new SingularMatrixError(`The banded matrix is not positive definite (pivot ${i + 1} is ${sum}).`);
        band[i * s + w] = Math.sqrt(sum);
      } else {
        band[i * s + (j - i + w)] = sum / band[j * s + w];
      }
    }
  }
  return m;
}

export function bandedCholeskySolve(l: Banded, b: ArrayLike<number>): Float64Array {
  const { n, w, band } = l;
  const s = w + 1;
  const x = Float64Array.from(b);
  for (let i = 0; i < n; i++) {
    let sum = x[i];
    for (let k = Math.max(0, i - w); k < i; k++) sum -= band[i * s + (k - i + w)] * x[k];
    x[i] = sum / band[i * s + w];
  }
  for (let i = n - 1; i >= 0; i--) {
    let sum = x[i];
    for (let k = i + 1; k <= Math.min(n - 1, i + w); k++) sum -= band[k * s + (i - k + w)] * x[k];
    x[i] = sum / band[i * s + w];
  }
  return x;
}

// ---------------------------------------------------------------------------------------------
// Singular values and the 2-norm condition number

/**
 * Singular values (descending) of a rows×cols matrix by one-sided Jacobi (Hestenes). Accurate to
 * high relative precision; exactly dependent columns give exact zeros, as LAPACK often does.
 */
export function singularValues(rows: number, cols: number, a: ArrayLike<number>): Float64Array {
  // Work on columns of U = A (column-major copy for cache-friendly column sweeps).
  const u = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) u[j * rows + i] = a[i * cols + j];
  const eps = 2.220446049250313e-16;
  for (let sweep = 0; sweep < 60; sweep++) {
    let rotated = false;
    for (let p = 0; p < cols - 1; p++) {
      for (let q = p + 1; q < cols; q++) {
        let alpha = 0,
          beta = 0,
          gamma = 0;
        const op = p * rows,
          oq = q * rows;
        for (let i = 0; i < rows; i++) {
          const x = u[op + i],
            y = u[oq + i];
          alpha += x * x;
          beta += y * y;
          gamma += x * y;
        }
        if (gamma === 0 || Math.abs(gamma) <= eps * Math.sqrt(alpha * beta)) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = Math.sign(zeta || 1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const c = 1 / Math.sqrt(1 + t * t),
          s = c * t;
        for (let i = 0; i < rows; i++) {
          const x = u[op + i],
            y = u[oq + i];
          u[op + i] = c * x - s * y;
          u[oq + i] = s * x + c * y;
        }
      }
    }
    if (!rotated) break;
  }
  const sv = new Float64Array(cols);
  for (let j = 0; j < cols; j++) {
    let s = 0;
    for (let i = 0; i < rows; i++) s += u[j * rows + i] * u[j * rows + i];
    sv[j] = Math.sqrt(s);
  }
  sv.sort();
  sv.reverse();
  return sv.subarray(0, Math.min(rows, cols));
}

const JACOBI_SVD_MAX_N = 64;

/** numpy.linalg.cond(A) (2-norm): σmax/σmin; Infinity when σmin is 0 (numpy turns the 0/0 NaN into inf as well). */
export function cond2(m: Dense): number {
  if (m.n === 0) return NaN;
  for (let i = 0; i < m.a.length; i++) if (Number.isNaN(m.a[i])) return NaN;
  let r: number;
  if (m.n > JACOBI_SVD_MAX_N && isSymmetric(m)) {
    // Symmetric: σ = |eigenvalue|, about 10× cheaper than Jacobi at n ≈ 300. Absolute accuracy ε‖A‖ on
    // σmin (as for LAPACK's SVD); the exact-zero detection of the Jacobi path is kept for small matrices.
    const ev = symmetricEigenvalues(m);
    let lo = Infinity,
      hi = 0;
    for (const v of ev) {
      lo = Math.min(lo, Math.abs(v));
      hi = Math.max(hi, Math.abs(v));
    }
    r = hi / lo;
  } else {
    const sv = singularValues(m.n, m.n, m.a);
    r = sv[0] / sv[sv.length - 1];
  }
  return Number.isNaN(r) ? Infinity : r;
}

// ---------------------------------------------------------------------------------------------
// Symmetric eigenvalues

/** Householder reduction of a symmetric matrix to tridiagonal (d diagonal, e[i] couples i and i+1). */
export function tridiagonalize(m: Dense): { d: Float64Array; e: Float64Array } {
  const n = m.n;
  const a = Float64Array.from(m.a);
  const d = new Float64Array(n);
  const e = new Float64Array(Math.max(0, n - 1));
  const v = new Float64Array(n);
  const w = new Float64Array(n);
  for (let k = 0; k < n - 2; k++) {
    let norm = 0;
    for (let i = k + 1; i < n; i++) norm += a[i * n + k] * a[i * n + k];
    norm = Math.sqrt(norm);
    const x0 = a[(k + 1) * n + k];
    if (norm === 0) {
      e[k] = 0;
      continue;
    }
    const alpha = x0 > 0 ? -norm : norm;
    for (let i = k + 1; i < n; i++) v[i] = a[i * n + k];
    v[k + 1] -= alpha;
    let vn = 0;
    for (let i = k + 1; i < n; i++) vn += v[i] * v[i];
    vn = Math.sqrt(vn);
    if (vn === 0) {
      e[k] = x0;
      continue;
    }
    for (let i = k + 1; i < n; i++) v[i] /= vn;
    // A ← H A H with H = I − 2 v vᵀ on the trailing block: A − 2 v wᵀ − 2 w vᵀ + 4 (vᵀw) v vᵀ, w = A v
    let vw = 0;
    for (let i = k + 1; i < n; i++) {
      let s = 0;
      for (let j = k + 1; j < n; j++) s += a[i * n + j] * v[j];
      w[i] = s;
      vw += v[i] * s;
    }
    for (let i = k + 1; i < n; i++) {
      for (let j = k + 1; j < n; j++) {
        a[i * n + j] += -2 * v[i] * w[j] - 2 * w[i] * v[j] + 4 * vw * v[i] * v[j];
      }
    }
    e[k] = alpha;
    for (let i = k + 1; i < n; i++) {
      a[i * n + k] = 0;
      a[k * n + i] = 0;
    }
    a[(k + 1) * n + k] = alpha;
    a[k * n + k + 1] = alpha;
  }
  for (let i = 0; i < n; i++) d[i] = a[i * n + i];
  if (n >= 2) e[n - 2] = a[(n - 1) * n + n - 2];
  return { d, e };
}

/** Number of eigenvalues of the tridiagonal (d, e) below x (Sturm count). */
function sturmCount(d: Float64Array, e: Float64Array, x: number, tiny: number): number {
  let count = 0;
  let q = d[0] - x;
  if (q < 0) count++;
  for (let i = 1; i < d.length; i++) {
    if (q === 0) q = tiny;
    q = d[i] - x - (e[i - 1] * e[i - 1]) / q;
    if (q < 0) count++;
  }
  return count;
}

/** All eigenvalues (ascending) of a symmetric tridiagonal matrix by bisection. */
export function tridiagonalEigenvalues(d: Float64Array, e: Float64Array): Float64Array {
  const n = d.length;
  const out = new Float64Array(n);
  if (n === 0) return out;
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const r = (i > 0 ? Math.abs(e[i - 1]) : 0) + (i < n - 1 ? Math.abs(e[i]) : 0);
    lo = Math.min(lo, d[i] - r);
    hi = Math.max(hi, d[i] + r);
  }
  const scale = Math.max(Math.abs(lo), Math.abs(hi), Number.MIN_VALUE);
  const tiny = 1e-300 + 2.220446049250313e-16 * scale * 1e-10;
  for (let k = 0; k < n; k++) {
    let a = lo,
      b = hi;
    for (let it = 0; it < 200; it++) {
      const mid = 0.5 * (a + b);
      if (mid <= a || mid >= b) break;
      if (sturmCount(d, e, mid, tiny) > k) b = mid;
      else a = mid;
      if (b - a <= 2.220446049250313e-16 * 2 * Math.max(Math.abs(a), Math.abs(b)) + 1e-300) break;
    }
    out[k] = 0.5 * (a + b);
  }
  return out;
}

export function symmetricEigenvalues(m: Dense): Float64Array {
  const { d, e } = tridiagonalize(m);
  return tridiagonalEigenvalues(d, e);
}

// ---------------------------------------------------------------------------------------------
// General real eigenvalues (complex results)

/** Eigenvalues of a general real matrix: Householder Hessenberg reduction, then shifted QR in complex arithmetic. */
export function generalEigenvalues(m: Dense): { re: Float64Array; im: Float64Array } {
  const n = m.n;
  const hr = Float64Array.from(m.a);
  // Hessenberg reduction (real Householder)
  const v = new Float64Array(n);
  for (let k = 0; k < n - 2; k++) {
    let norm = 0;
    for (let i = k + 1; i < n; i++) norm += hr[i * n + k] * hr[i * n + k];
    norm = Math.sqrt(norm);
    if (norm === 0) continue;
    const x0 = hr[(k + 1) * n + k];
    const alpha = x0 > 0 ? -norm : norm;
    for (let i = 0; i < n; i++) v[i] = 0;
    for (let i = k + 1; i < n; i++) v[i] = hr[i * n + k];
    v[k + 1] -= alpha;
    let vn = 0;
    for (let i = k + 1; i < n; i++) vn += v[i] * v[i];
    if (vn === 0) continue;
    const beta = 2 / vn;
    for (let j = 0; j < n; j++) {
      // H ← (I − β v vᵀ) H
      let s = 0;
      for (let i = k + 1; i < n; i++) s += v[i] * hr[i * n + j];
      s *= beta;
      for (let i = k + 1; i < n; i++) hr[i * n + j] -= s * v[i];
    }
    for (let i = 0; i < n; i++) {
      // H ← H (I − β v vᵀ)
      let s = 0;
      for (let j = k + 1; j < n; j++) s += hr[i * n + j] * v[j];
      s *= beta;
      for (let j = k + 1; j < n; j++) hr[i * n + j] -= s * v[j];
    }
    for (let i = k + 2; i < n; i++) hr[i * n + k] = 0;
  }
  const hi_ = new Float64Array(n * n);
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  const eps = 2.220446049250313e-16;
  const cr = new Float64Array(n),
    ci = new Float64Array(n),
    sr = new Float64Array(n),
    si = new Float64Array(n);
  let hi = n - 1;
  let iter = 0;
  while (hi >= 0) {
    // find the start of the unreduced block ending at hi
    let lo = hi;
    while (lo > 0) {
      const sub = Math.hypot(hr[lo * n + lo - 1], hi_[lo * n + lo - 1]);
      const diag = Math.hypot(hr[lo * n + lo], hi_[lo * n + lo]) + Math.hypot(hr[(lo - 1) * n + lo - 1], hi_[(lo - 1) * n + lo - 1]);
      if (sub <= eps * diag || sub < 1e-300) {
        hr[lo * n + lo - 1] = 0;
        hi_[lo * n + lo - 1] = 0;
        break;
      }
      lo--;
    }
    if (lo === hi) {
      re[hi] = hr[hi * n + hi];
      im[hi] = hi_[hi * n + hi];
      hi--;
      iter = 0;
      continue;
    }
    if (++iter > 100 * n) throw new Error('The QR eigenvalue iteration did not converge.');
    // Wilkinson shift from the trailing 2×2 block
    const ar = hr[(hi - 1) * n + hi - 1],
      ai = hi_[(hi - 1) * n + hi - 1];
    const br = hr[(hi - 1) * n + hi],
      bi = hi_[(hi - 1) * n + hi];
    const cr_ = hr[hi * n + hi - 1],
      ci_ = hi_[hi * n + hi - 1];
    const dr = hr[hi * n + hi],
      di = hi_[hi * n + hi];
    let mur: number, mui: number;
    if (iter % 11 === 10) {
      // exceptional shift
      mur = dr + Math.abs(cr_);
      mui = di + Math.abs(ci_);
    } else {
      // eigenvalues of [[a,b],[c,d]]: (a+d)/2 ± sqrt(((a−d)/2)² + bc)
      const hr2 = (ar - dr) / 2,
        hi2 = (ai - di) / 2;
      const discr = hr2 * hr2 - hi2 * hi2 + (br * cr_ - bi * ci_);
      const disci = 2 * hr2 * hi2 + (br * ci_ + bi * cr_);
      const mod = Math.hypot(discr, disci);
      const sqr = Math.sqrt((mod + discr) / 2);
      let sqi = Math.sqrt(Math.max(0, (mod - discr) / 2));
      if (disci < 0) sqi = -sqi;
      const mr = (ar + dr) / 2,
        mi = (ai + di) / 2;
      const e1r = mr + sqr,
        e1i = mi + sqi,
        e2r = mr - sqr,
        e2i = mi - sqi;
      if (Math.hypot(e1r - dr, e1i - di) <= Math.hypot(e2r - dr, e2i - di)) {
        mur = e1r;
        mui = e1i;
      } else {
        mur = e2r;
        mui = e2i;
      }
    }
    for (let i = lo; i <= hi; i++) {
      hr[i * n + i] -= mur;
      hi_[i * n + i] -= mui;
    }
    // QR by Givens rotations on rows (left), recorded, then applied on columns (right)
    for (let k = lo; k < hi; k++) {
      const xr = hr[k * n + k],
        xi = hi_[k * n + k];
      const yr = hr[(k + 1) * n + k],
        yi = hi_[(k + 1) * n + k];
      const r = Math.hypot(Math.hypot(xr, xi), Math.hypot(yr, yi));
      if (r === 0) {
        cr[k] = 1;
        ci[k] = 0;
        sr[k] = 0;
        si[k] = 0;
        continue;
      }
      const c0r = xr / r,
        c0i = xi / r,
        s0r = yr / r,
        s0i = yi / r;
      cr[k] = c0r;
      ci[k] = c0i;
      sr[k] = s0r;
      si[k] = s0i;
      for (let j = k; j < n; j++) {
        const ar2 = hr[k * n + j],
          ai2 = hi_[k * n + j];
        const br2 = hr[(k + 1) * n + j],
          bi2 = hi_[(k + 1) * n + j];
        // new_k = conj(c) a + conj(s) b ; new_{k+1} = −s a + c b
        hr[k * n + j] = c0r * ar2 + c0i * ai2 + s0r * br2 + s0i * bi2;
        hi_[k * n + j] = c0r * ai2 - c0i * ar2 + s0r * bi2 - s0i * br2;
        hr[(k + 1) * n + j] = -(s0r * ar2 - s0i * ai2) + (c0r * br2 - c0i * bi2);
        hi_[(k + 1) * n + j] = -(s0r * ai2 + s0i * ar2) + (c0r * bi2 + c0i * br2);
      }
    }
    for (let k = lo; k < hi; k++) {
      const c0r = cr[k],
        c0i = ci[k],
        s0r = sr[k],
        s0i = si[k];
      const top = Math.min(hi, k + 2);
      for (let i = 0; i <= top; i++) {
        const ar2 = hr[i * n + k],
          ai2 = hi_[i * n + k];
        const br2 = hr[i * n + k + 1],
          bi2 = hi_[i * n + k + 1];
        // new col_k = a c + b s ; new col_{k+1} = −a conj(s) + b conj(c)
        hr[i * n + k] = ar2 * c0r - ai2 * c0i + br2 * s0r - bi2 * s0i;
        hi_[i * n + k] = ar2 * c0i + ai2 * c0r + br2 * s0i + bi2 * s0r;
        hr[i * n + k + 1] = -(ar2 * s0r + ai2 * s0i) + (br2 * c0r + bi2 * c0i);
        hi_[i * n + k + 1] = -(ai2 * s0r - ar2 * s0i) + (bi2 * c0r - br2 * c0i);
      }
    }
    for (let i = lo; i <= hi; i++) {
      hr[i * n + i] += mur;
      hi_[i * n + i] += mui;
    }
  }
  return { re, im };
}

// ---------------------------------------------------------------------------------------------
// Eigenvector by inverse iteration

/**
 * A unit 2-norm vector φ with (A − σB) φ ≈ 0 (B = identity when omitted), by inverse iteration with a
 * slightly perturbed shift so the LU stays solvable.
 */
export function inverseIteration(a: Dense, sigma: number, b?: Dense): Float64Array {
  const n = a.n;
  const m = dense(n);
  let scale = 0;
  for (let i = 0; i < n * n; i++) scale = Math.max(scale, Math.abs(a.a[i]));
  const shift = sigma + (Math.abs(sigma) + 1e-300) * 1e-12;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const bij = b ? b.a[i * n + j] : i === j ? 1 : 0;
      m.a[i * n + j] = a.a[i * n + j] - shift * bij;
    }
  }
  // LU with zero pivots replaced by a tiny value (inverse iteration wants the near-singular solve)
  const lu = m.a;
  const perm = new Int32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  const tiny = Math.max(scale, 1e-300) * 1e-15;
  for (let k = 0; k < n; k++) {
    let p = k,
      best = Math.abs(lu[k * n + k]);
    for (let i = k + 1; i < n; i++) {
      const v = Math.abs(lu[i * n + k]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    if (p !== k) {
      for (let j = 0; j < n; j++) {
        const t = lu[k * n + j];
        lu[k * n + j] = lu[p * n + j];
        lu[p * n + j] = t;
      }
      const t = perm[k];
      perm[k] = perm[p];
      perm[p] = t;
    }
    if (lu[k * n + k] === 0) lu[k * n + k] = tiny;
    const pivot = lu[k * n + k];
    for (let i = k + 1; i < n; i++) {
      const f = (lu[i * n + k] /= pivot);
      if (f !== 0) for (let j = k + 1; j < n; j++) lu[i * n + j] -= f * lu[k * n + j];
    }
  }
  const f: LU = { n, lu, perm };
  // deterministic, generic start vector
  let x: Float64Array = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = 1 + 0.1 * sin(1.7 * i + 0.3);
  for (let it = 0; it < 4; it++) {
    const rhs = b ? matVec(b, x) : x;
    x = luSolve(f, rhs);
    let norm = 0;
    for (let i = 0; i < n; i++) norm += x[i] * x[i];
    norm = Math.sqrt(norm);
    if (!(norm > 0) || !Number.isFinite(norm)) break;
    for (let i = 0; i < n; i++) x[i] /= norm;
  }
  return x;
}

/** Eigenvalues (ascending) of the symmetric-definite pencil: (−Kg) x = μ K x with K SPD, through C = L⁻¹(−Kg)L⁻ᵀ. */
export function bucklingMuSymmetric(k: Dense, kg: Dense): Float64Array {
  const n = k.n;
  const l = choleskyFactor(k);
  // C = L⁻¹ (−Kg) L⁻ᵀ: first Y = L⁻¹(−Kg) column by column, then C = L⁻¹ Yᵀ (Y symmetric-compatible)
  const y = new Float64Array(n * n);
  const col = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) col[i] = -kg.a[i * n + j];
    forwardSubstitute(l, col);
    for (let i = 0; i < n; i++) y[i * n + j] = col[i];
  }
  const c = dense(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) col[j] = y[i * n + j]; // row i of Y = column i of Yᵀ
    forwardSubstitute(l, col);
    for (let j = 0; j < n; j++) c.a[j * n + i] = col[j];
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const s = 0.5 * (c.a[i * n + j] + c.a[j * n + i]);
      c.a[i * n + j] = s;
      c.a[j * n + i] = s;
    }
  }
  return symmetricEigenvalues(c);
}

export function isSymmetric(m: Dense): boolean {
  const n = m.n;
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) if (m.a[i * n + j] !== m.a[j * n + i]) return false;
  return true;
}

/** How many of `values` lie within a relative `tol` of `target`. */
export function multiplicity(values: ArrayLike<number>, target: number, tol = 1e-8): number {
  let count = 0;
  for (let i = 0; i < values.length; i++) if (Math.abs(values[i] - target) <= tol * Math.max(Math.abs(target), 1e-300)) count++;
  return count;
}
