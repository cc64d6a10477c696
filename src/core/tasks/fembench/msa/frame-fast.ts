/**
 * The fast path of MSA_3D_elastic_critical_load (reference: elejeune11/FEM-bench
 * tasks/MSA_3D_elastic_critical_load_CC1_H10_T1.py; see src/core/tasks/fembench/README.md) for frames of hundreds of nodes:
 * the free-DOF matrices in banded storage after a reverse Cuthill–McKee node order, a banded Cholesky
 * K = LLᵀ, and the smallest positive λ by Lanczos on L⁻¹(−K_g)L⁻ᵀ. The reference's
 * three condition-number checks (cond₂ < 1e16 of K_ff, K_e,ff and K_g,ff) are decided by the bound
 * κ₂(A) ≤ ‖A‖₁‖A⁻¹‖₁ (A symmetric) with Higham's 1-norm estimate of ‖A⁻¹‖₁ (Higham 1988, LAPACK dlacon).
 *
 * Whenever the outcome is not certain to be the dense path's (frame.ts) — a condition bound within
 * CONDITION_MARGIN of the limit, a matrix that does not factor, a λ near the reference's positive
 * cut-off, an unconverged λ — `criticalLoadFast` returns null and the caller runs the dense path, so verdicts and
 * error messages stay the reference's. Errors the dense path raises while assembling (zero-length member, bad node
 * index, missing I_rho) are raised here in the same order.
 * A repeated or nearly repeated λ (regular grids under symmetric loads, circular sections under axial load) is served
 * here too: Lanczos stops once the top Ritz vector is within MODE_ERROR of the eigenspace of the cluster of Ritz values
 * within REPEATED of the top one (every member's residual against the gap to the rest), so the mode is a unit vector of
 * that eigenspace, whether or not round-off has yet brought a repeated λ's second copy into the Krylov space.
 * Neither this nor the dense path's inverse iteration is LAPACK's pick (scipy/linalg/_decomp.py eig: QZ,
 * then the 2-norm; elejeune11/FEM-bench src/fem_bench/evaluate_output.py compares modes entry by entry), so
 * equivalence.ts accepts any eigenspace vector with the reference's λ; see the fembench README.
 */
import { dot, type Banded } from '../../../math/linalg.ts';
import { sin } from '../../../math/libm.ts';
import { checkBandedWork } from '../sizes.ts';
import { FemTaskError } from '../types.ts';
import {
  assembleLoad,
  elementGeometry,
  elementLocalStiffness,
  localGeometricStiffness,
  mul12,
  partitionDofs,
  toGlobal,
  type Flags,
  type FrameElement,
} from './frame.ts';
import { lanczosEigen } from './lanczos.ts';

type Coords = readonly (readonly number[])[];

/**
 * A symmetric banded matrix and its envelope: `first[i]` is the first column of row i that any element touches. Entries
 * left of it are zero, in K, K_g and in their Cholesky and LDLᵀ factors alike (no fill outside the envelope), so the
 * loops start there: the same sums less exact zeros, about 70% of the band's work on RCM-ordered grids.
 */
type Envelope = Banded & { first: Int32Array };

/** The reference's limit on cond₂ (numpy.linalg.cond) before it refuses a matrix as ill-conditioned. */
const CONDITION_LIMIT = 1e16;
/** A bound within this factor of a limit is decided by the dense path (the 1-norm estimate may be low by a small factor). */
const CONDITION_MARGIN = 1e3;
const EPS = 2.220446049250313e-16;
/** λ's relative gap below which the mode is not unique (frame.ts `multiplicity`): one cluster, one eigenspace. */
const REPEATED = 1e-8;
/**
 * Largest accepted bound on the unit mode's 2-norm error, 100 times inside the harness's atol 1e-8. Lanczos bounds the
 * angle of its Ritz vector y (coordinates y = Lᵀφ) by residual / gap (Davis–Kahan); φ = L⁻ᵀy turns that into a 2-norm
 * error of at most √‖K⁻¹‖₂ / ‖L⁻ᵀy‖ times as much (`modeErrorFactor`), computed for each frame from the 1-norm estimate
 * of ‖K⁻¹‖ the condition check made, rather than the worst case √cond(K).
 */
const MODE_ERROR = 1e-10;
/** Higham's estimate is a lower bound of ‖K⁻¹‖₁ (itself ≥ ‖K⁻¹‖₂), rarely low by more than a small factor. */
const INVERSE_NORM_SAFETY = 10;
/**
 * The smallest Lanczos residual estimate worth waiting for, relative to the top Ritz value: the true residual stops near
 * a few ε there. A nearly repeated λ (relative split s, too small for MODE_ERROR) is served at this residual, so its mode
 * is accurate to about ε/s, as LAPACK's is; equivalence.ts accepts such modes against another solver's.
 */
const RESIDUAL_FLOOR = 4 * EPS;
/** Lanczos breakdown: the orthogonalised residual is below this share of K⁻¹(−K_g)v (K-norms), i.e. round-off. */
const BREAKDOWN = 1e-10;
/** Growth at which the unpivoted LDLᵀ of K_g is abandoned for the pivoting LU. */
const LDL_GROWTH = 1e6;

/** Reverse Cuthill–McKee order of the nodes (elements as edges), each connected part from a node of least degree. */
function reverseCuthillMcKee(nNodes: number, elements: readonly FrameElement[]): Int32Array {
  const degree = new Int32Array(nNodes);
  for (const e of elements) {
    degree[e.node_i]++;
    degree[e.node_j]++;
  }
  const start = new Int32Array(nNodes + 1);
  for (let i = 0; i < nNodes; i++) start[i + 1] = start[i] + degree[i];
  const fill = start.slice(0, nNodes);
  const adj = new Int32Array(start[nNodes]);
  for (const e of elements) {
    adj[fill[e.node_i]++] = e.node_j;
    adj[fill[e.node_j]++] = e.node_i;
  }
  const byDegree = Array.from({ length: nNodes }, (_, i) => i).sort((a, b) => degree[a] - degree[b] || a - b);
  const order = new Int32Array(nNodes);
  const seen = new Uint8Array(nNodes);
  let head = 0,
    tail = 0;
  for (const root of byDegree) {
    if (seen[root]) continue;
    seen[root] = 1;
    order[tail++] = root;
    while (head < tail) {
      const v = order[head++];
      const next: number[] = [];
      for (let k = start[v]; k < start[v + 1]; k++) {
        const w = adj[k];
        if (!seen[w]) {
          seen[w] = 1;
          next.push(w);
        }
      }
      next.sort((a, b) => degree[a] - degree[b] || a - b);
      for (const w of next) order[tail++] = w;
    }
  }
  order.reverse();
  return order;
}

/** The free DOFs renumbered along a node order: index[dof] = its row in the banded matrices, −1 when fixed. */
function freeIndex(order: Int32Array, fixed: readonly number[], nNodes: number): { index: Int32Array; n: number } {
  const isFixed = new Uint8Array(6 * nNodes);
  for (const d of fixed) isFixed[d] = 1;
  const index = new Int32Array(6 * nNodes).fill(-1);
  let n = 0;
  for (const node of order) for (let d = 0; d < 6; d++) if (!isFixed[6 * node + d]) index[6 * node + d] = n++;
  return { index, n };
}

function elementRows(e: FrameElement, index: Int32Array): Int32Array {
  const rows = new Int32Array(12);
  for (let d = 0; d < 6; d++) {
    rows[d] = index[6 * e.node_i + d];
    rows[6 + d] = index[6 * e.node_j + d];
  }
  return rows;
}

/** Adds the free-free part of a 12×12 element matrix, symmetrised (½(M + Mᵀ)) as the reference's eigen-analysis does. */
function scatterSymmetric(m: Banded, ke: Float64Array, rows: Int32Array): void {
  const s = m.w + 1;
  for (let a = 0; a < 12; a++) {
    const i = rows[a];
    if (i < 0) continue;
    for (let b = 0; b < 12; b++) {
      const j = rows[b];
      if (j < 0) continue;
      if (j === i) m.band[i * s + m.w] += ke[a * 12 + b];
      else if (j < i) m.band[i * s + (j - i + m.w)] += 0.5 * ke[a * 12 + b];
      else m.band[j * s + (i - j + m.w)] += 0.5 * ke[a * 12 + b];
    }
  }
}

function symmetricMatVec(m: Envelope, x: ArrayLike<number>, y: Float64Array = new Float64Array(m.n)): Float64Array {
  const { n, w, band, first } = m;
  const s = w + 1;
  y.fill(0);
  for (let i = 0; i < n; i++) {
    const row = i * s - i + w;
    let sum = 0;
    const xi = x[i];
    for (let j = first[i]; j < i; j++) {
      const v = band[row + j];
      sum += v * x[j];
      y[j] += v * xi;
    }
    y[i] += sum + band[row + i] * xi;
  }
  return y;
}

/**
 * max |a_i|, in its own function: as a loop ahead of another in one function, it was optimised on the stack and sent
 * back to the interpreter at the next loop, whose code it had not seen run.
 */
function maxAbs(a: Float64Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]));
  return max;
}

/** ‖A‖₁ of a symmetric banded matrix (largest absolute column sum). */
function norm1(m: Banded): number {
  return maxAbs(absoluteColumnSums(m));
}

function absoluteColumnSums(m: Banded): Float64Array {
  const { n, w, band } = m;
  const s = w + 1;
  const col = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = Math.max(0, i - w); j < i; j++) {
      const v = Math.abs(band[i * s + (j - i + w)]);
      col[i] += v;
      col[j] += v;
    }
    col[i] += Math.abs(band[i * s + w]);
  }
  return col;
}

/** Higham's estimate of ‖A⁻¹‖₁ for symmetric A from a solver (LAPACK dlacon, with Higham's extra test vector). */
function inverseNorm1Estimate(n: number, solve: (b: Float64Array) => Float64Array): number {
  const sum1 = (v: Float64Array) => v.reduce((s, x) => s + Math.abs(x), 0);
  let x = new Float64Array(n).fill(1 / n);
  let y = solve(x);
  let est = sum1(y);
  for (let it = 0; it < 5; it++) {
    const xi = y.map((v) => (v >= 0 ? 1 : -1));
    const z = solve(xi);
    let j = 0;
    for (let i = 1; i < n; i++) if (Math.abs(z[i]) > Math.abs(z[j])) j = i;
    let zx = 0;
    for (let i = 0; i < n; i++) zx += z[i] * x[i];
    if (it > 0 && Math.abs(z[j]) <= zx) break;
    x = new Float64Array(n);
    x[j] = 1;
    y = solve(x);
    const next = sum1(y);
    if (next <= est) break;
    est = next;
  }
  const alt = new Float64Array(n);
  for (let i = 0; i < n; i++) alt[i] = (i % 2 === 0 ? 1 : -1) * (1 + i / Math.max(n - 1, 1));
  return Math.max(est, (2 * sum1(solve(alt))) / (3 * n));
}

/**
 * Banded LDLᵀ without pivoting of a symmetric (indefinite) banded matrix, a quarter of the LU's work; its growth is
 * max diag(|L||D||L|ᵀ) / max|a_ij|. Null when a pivot is 0 or the growth passes LDL_GROWTH (hopeless: stop early).
 */
function bandedLdl(m: Envelope): Factor | null {
  const { n, w } = m;
  const a = Float64Array.from(m.band);
  const maxEntry = maxAbs(a);
  const maxGrowth = ldlFactorInPlace(a, m, LDL_GROWTH * maxEntry);
  if (maxGrowth === null) return null;
  const solve = (b: Float64Array) => {
    const x = Float64Array.from(b);
    ldlForward(a, n, w, x);
    ldlDiagonal(a, n, w, x);
    ldlBackward(a, n, w, x);
    return x;
  };
  return { solve, growth: maxGrowth / maxEntry };
}

/** bandedLdl's factorisation of `a` (m's band, copied) in place: the largest row growth, or null past `limit` or at d = 0. */
function ldlFactorInPlace(a: Float64Array, m: Envelope, limit: number): number | null {
  const { n, w, first } = m;
  const s = w + 1;
  let maxGrowth = 0;
  for (let i = 0; i < n; i++) {
    const j0 = first[i];
    const ri = i * s - i + w;
    // c_ij = a_ij − Σ_k c_ik l_jk (c = L·D, row i), then l_ij = c_ij / d_j and d_i = a_ii − Σ_j l_ij c_ij
    for (let j = j0; j < i; j++) {
      const rj = j * s - j + w;
      let sum = a[ri + j];
      for (let k = Math.max(j0, first[j]); k < j; k++) sum -= a[ri + k] * a[rj + k];
      a[ri + j] = sum;
    }
    let d = a[ri + i],
      growth = 0;
    for (let j = j0; j < i; j++) {
      const c = a[ri + j];
      const l = c / a[j * s + w];
      d -= l * c;
      growth += Math.abs(l * c);
      a[ri + j] = l;
    }
    growth += Math.abs(d);
    if (d === 0 || !(growth <= limit)) return null;
    maxGrowth = Math.max(maxGrowth, growth);
    a[ri + i] = d;
  }
  return maxGrowth;
}

// bandedLdl's solve in three functions, each optimised on its own (one function's later loops, first reached after the
// first was optimised on the stack, sent it back to the interpreter).
function ldlForward(a: Float64Array, n: number, w: number, x: Float64Array): void {
  const s = w + 1;
  for (let i = 0; i < n; i++) {
    const ri = i * s - i + w;
    let sum = x[i];
    for (let k = Math.max(0, i - w); k < i; k++) sum -= a[ri + k] * x[k];
    x[i] = sum;
  }
}

function ldlDiagonal(a: Float64Array, n: number, w: number, x: Float64Array): void {
  const s = w + 1;
  for (let i = 0; i < n; i++) x[i] /= a[i * s + w];
}

function ldlBackward(a: Float64Array, n: number, w: number, x: Float64Array): void {
  const s = w + 1;
  for (let i = n - 1; i >= 0; i--) {
    let sum = x[i];
    for (let k = i + 1; k <= Math.min(n - 1, i + w); k++) sum -= a[k * s - k + w + i] * x[k];
    x[i] = sum;
  }
}

/** Banded LU with partial pivoting (LAPACK dgbtrf's scheme) of a symmetric banded matrix; null when a pivot is exactly 0. */
function bandedLu(m: Banded): Factor | null {
  const { n, w } = m;
  const width = 3 * w + 1; // row i holds columns i−w … i+2w (fill-in from row interchanges)
  const a = new Float64Array(n * width);
  const s = w + 1;
  for (let i = 0; i < n; i++) {
    for (let j = Math.max(0, i - w); j <= i; j++) {
      const v = m.band[i * s + (j - i + w)];
      a[i * width + (j - i + w)] = v;
      a[j * width + (i - j + w)] = v;
    }
  }
  const maxEntry = maxAbs(a);
  const pivot = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const last = Math.min(n - 1, k + w);
    let p = k,
      best = Math.abs(a[k * width + w]);
    for (let i = k + 1; i <= last; i++) {
      const v = Math.abs(a[i * width + (k - i + w)]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    pivot[k] = p;
    if (best === 0) return null;
    const end = Math.min(n - 1, k + 2 * w);
    if (p !== k) {
      for (let j = k; j <= end; j++) {
        const ik = k * width + (j - k + w),
          ip = p * width + (j - p + w);
        const t = a[ik];
        a[ik] = a[ip];
        a[ip] = t;
      }
    }
    const d = a[k * width + w];
    const rk = k * width - k + w;
    for (let i = k + 1; i <= last; i++) {
      const ri = i * width - i + w;
      const f = (a[ri + k] /= d);
      if (f !== 0) for (let j = k + 1; j <= end; j++) a[ri + j] -= f * a[rk + j];
    }
  }
  let maxU = 0;
  for (let k = 0; k < n; k++)
    for (let j = k; j <= Math.min(n - 1, k + 2 * w); j++) maxU = Math.max(maxU, Math.abs(a[k * width - k + w + j]));
  const solve = (b: Float64Array) => {
    const x = Float64Array.from(b);
    for (let k = 0; k < n; k++) {
      const p = pivot[k];
      if (p !== k) {
        const t = x[k];
        x[k] = x[p];
        x[p] = t;
      }
      const xk = x[k];
      if (xk !== 0) for (let i = k + 1; i <= Math.min(n - 1, k + w); i++) x[i] -= a[i * width - i + w + k] * xk;
    }
    for (let k = n - 1; k >= 0; k--) {
      const rk = k * width - k + w;
      let sum = x[k];
      for (let j = k + 1; j <= Math.min(n - 1, k + 2 * w); j++) sum -= a[rk + j] * x[j];
      x[k] = sum / a[rk + k];
    }
    return x;
  };
  return { solve, growth: maxU / maxEntry };
}

/** Solves with a factorisation whose entries grew by `growth` (max |factor entry| / max |a_ij|; 1 for Cholesky). */
interface Factor {
  solve: (b: Float64Array) => Float64Array;
  growth: number;
}

/**
 * ‖A⁻¹‖₁ (estimated) when cond₂(A) ≤ ‖A‖₁‖A⁻¹‖₁ keeps CONDITION_MARGIN below the reference's limit, else null. The solves
 * are exact for some A + E with ‖E‖ ≲ δ‖A‖, δ = 3n·ε·growth; a nearly singular A can look at best 1/δ-conditioned, so
 * the bound must also stay below 1/(2δ) (then cond₂(A) ≤ 2·bound): a factor that grew too much decides nothing.
 */
function clearlyWellConditioned(norm: number, n: number, factor: Factor): number | null {
  const inverseNorm = inverseNorm1Estimate(n, factor.solve);
  const bound = norm * inverseNorm * CONDITION_MARGIN;
  const delta = 3 * n * EPS * factor.growth;
  return Number.isFinite(bound) && bound < CONDITION_LIMIT && bound * delta <= 0.5 ? inverseNorm : null;
}

export interface FastCriticalLoad {
  lambda: number;
  /** Unit 2-norm on the free DOFs, zero on fixed ones, largest-magnitude entry positive (first of near-ties). */
  mode: Float64Array;
  lanczosSteps: number;
  /**
   * Ritz values in λ's cluster (within REPEATED) when Lanczos stopped. A repeated λ shows 1 until round-off brings its
   * second copy into the Krylov space, some steps after the first has converged; the mode is a unit vector of the
   * eigenspace either way.
   */
  multiplicity: number;
}

/**
 * MSA_3D_elastic_critical_load on the fast path, or null when the dense path must decide (see the header).
 * `loads` is decoded after the elements' geometry, as the dense path reads it; `maxSteps` bounds the Lanczos iterations.
 */
export function criticalLoadFast(
  coords: Coords,
  elements: readonly FrameElement[],
  bcs: Flags,
  loads: () => Map<number, readonly number[]>,
  maxSteps = 300,
): FastCriticalLoad | null {
  const nNodes = coords.length;
  // The dense path's assembly order, for its errors: every element's geometry, then the loads.
  for (const e of elements) elementGeometry(coords, e);
  const P = assembleLoad(loads(), nNodes);
  const { fixed } = partitionDofs(bcs, nNodes);
  const { index, n } = freeIndex(reverseCuthillMcKee(nNodes, elements), fixed, nNodes);
  if (n === 0) return null;
  let w = 0;
  for (const e of elements) {
    const rows = elementRows(e, index);
    let lo = Infinity,
      hi = -Infinity;
    for (const r of rows) {
      if (r < 0) continue;
      lo = Math.min(lo, r);
      hi = Math.max(hi, r);
    }
    if (hi >= lo) w = Math.max(w, hi - lo);
  }
  checkBandedWork(n, w);
  const first = new Int32Array(n);
  for (let i = 0; i < n; i++) first[i] = i;
  for (const e of elements) {
    const rows = elementRows(e, index);
    let lo = n;
    for (const r of rows) if (r >= 0) lo = Math.min(lo, r);
    for (const r of rows) if (r >= 0) first[r] = Math.min(first[r], lo);
  }

  const K: Envelope = { n, w, band: new Float64Array(n * (w + 1)), first };
  for (const e of elements) {
    const { L, gamma } = elementGeometry(coords, e);
    scatterSymmetric(K, toGlobal(elementLocalStiffness(e, L), gamma), elementRows(e, index));
  }
  const normK = norm1(K);
  const factor: Envelope = { n, w, band: Float64Array.from(K.band), first };
  // Not positive definite: the dense path's condition check or general eigen-solver decides.
  if (!envelopeCholesky(factor)) return null;
  const solveK = (b: Float64Array) => upperSolve(factor, lowerSolve(factor, b));
  // One bound serves both of the reference's checks on K (unsymmetrised for the solve, symmetrised for the eigen-analysis).
  const inverseNormK = clearlyWellConditioned(normK, n, { solve: solveK, growth: 1 });
  if (inverseNormK === null) return null;

  const rhs = new Float64Array(n);
  for (let d = 0; d < 6 * nNodes; d++) if (index[d] >= 0) rhs[index[d]] = P[d];
  const uf = solveK(rhs);
  const u = new Float64Array(6 * nNodes);
  for (let d = 0; d < 6 * nNodes; d++) if (index[d] >= 0) u[d] = uf[index[d]];

  const Kg: Envelope = { n, w, band: new Float64Array(n * (w + 1)), first };
  const ue = new Float64Array(12);
  for (const e of elements) {
    const { L, gamma } = elementGeometry(coords, e);
    for (let d = 0; d < 6; d++) {
      ue[d] = u[6 * e.node_i + d];
      ue[6 + d] = u[6 * e.node_j + d];
    }
    const f = mul12(elementLocalStiffness(e, L), mul12(gamma, ue));
    if (e.I_rho === undefined) throw new FemTaskError('KeyError', "'I_rho'");
    const kg = localGeometricStiffness(L, e.A, e.I_rho, f[6], f[9], f[4], f[5], f[10], f[11]);
    scatterSymmetric(Kg, toGlobal(kg, gamma), elementRows(e, index));
  }
  // K_g is indefinite: the cheap unpivoted LDLᵀ when it stays accurate enough, else the pivoting LU.
  const normKg = norm1(Kg);
  const ldl = bandedLdl(Kg);
  let inverseNormKg = ldl && clearlyWellConditioned(normKg, n, ldl);
  if (inverseNormKg === null) {
    const lu = bandedLu(Kg);
    inverseNormKg = lu && clearlyWellConditioned(normKg, n, lu);
  }
  if (inverseNormKg === null) return null;

  const top = lanczosTop(factor, Kg, Math.min(maxSteps, n), inverseNormK);
  if (!top) return null;
  const { mu, vector, steps, multiplicity } = top;
  const lambda = 1 / mu;
  // The reference keeps λ above max(1e-12, 1000·ε·max|λ|); |λ| ≤ ‖K‖₂‖K_g⁻¹‖₂ ≤ ‖K‖₁‖K_g⁻¹‖₁ bounds every λ.
  if (!(lambda > Math.max(1e-12, 1000 * EPS * normK * inverseNormKg * CONDITION_MARGIN))) return null;

  const mode = new Float64Array(6 * nNodes);
  let norm = 0,
    peak = 0;
  for (let d = 0; d < 6 * nNodes; d++) {
    if (index[d] < 0) continue;
    const v = vector[index[d]];
    mode[d] = v;
    norm += v * v;
    peak = Math.max(peak, Math.abs(v));
  }
  norm = Math.sqrt(norm);
  // As frame.ts: np.argmax(|φ|) takes the first of exact ties; entries equal up to round-off count as tied.
  let k = 0;
  while (k < mode.length - 1 && Math.abs(mode[k]) < peak * (1 - 1e-9)) k++;
  const scale = (mode[k] < 0 ? -1 : 1) / norm;
  for (let d = 0; d < mode.length; d++) mode[d] *= scale;
  return { lambda, mode, lanczosSteps: steps, multiplicity };
}

/** In-place Cholesky K = LLᵀ in the envelope (bandedCholeskyFactor's sums less the exact zeros); false if not definite. */
function envelopeCholesky(m: Envelope): boolean {
  const { n, w, band, first } = m;
  const s = w + 1;
  for (let i = 0; i < n; i++) {
    const fi = first[i];
    const ri = i * s - i + w;
    for (let j = fi; j <= i; j++) {
      const rj = j * s - j + w;
      let sum = band[ri + j];
      for (let k = Math.max(fi, first[j]); k < j; k++) sum -= band[ri + k] * band[rj + k];
      if (j < i) band[ri + j] = sum / band[rj + j];
      else if (sum > 0) band[ri + i] = Math.sqrt(sum);
      else return false;
    }
  }
  return true;
}

/** y = Lᵀx for the banded Cholesky factor L (lower band storage). */
function transposeMul(l: Envelope, x: Float64Array): Float64Array {
  const { n, w, band, first } = l;
  const s = w + 1;
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const row = i * s - i + w;
    const xi = x[i];
    for (let k = first[i]; k <= i; k++) y[k] += band[row + k] * xi;
  }
  return y;
}

/** L x = b (forward substitution along the rows of L). */
function lowerSolve(l: Envelope, b: Float64Array): Float64Array {
  const { n, w, band, first } = l;
  const s = w + 1;
  const x = Float64Array.from(b);
  for (let i = 0; i < n; i++) {
    const row = i * s - i + w;
    let sum = x[i];
    for (let k = first[i]; k < i; k++) sum -= band[row + k] * x[k];
    x[i] = sum / band[row + i];
  }
  return x;
}

/** Lᵀ x = b, also along the rows of L (x_k −= l_ik·x_i): contiguous in the band storage. */
function upperSolve(l: Envelope, b: Float64Array): Float64Array {
  const { n, w, band, first } = l;
  const s = w + 1;
  const x = Float64Array.from(b);
  for (let i = n - 1; i >= 0; i--) {
    const row = i * s - i + w;
    const xi = (x[i] /= band[row + i]);
    if (xi !== 0) for (let k = first[i]; k < i; k++) x[k] -= band[row + k] * xi;
  }
  return x;
}

/**
 * The largest eigenvalue μ of K⁻¹(−K_g) (μ = 1/λ) and its eigenvector, by Lanczos with full reorthogonalisation on the
 * symmetric L⁻¹(−K_g)L⁻ᵀ (K = LLᵀ): the K-inner-product Lanczos on K⁻¹(−K_g) in the coordinates u = Lᵀv, same Krylov
 * space and Ritz values, with one banded pass fewer a step (no K·w) and round-off breakdown seen in plain 2-norms.
 * Null when μ ≤ 0 or when it does not converge: the bound on the mode's 2-norm error (the largest residual in μ's
 * cluster / the gap to the next Ritz value, times `modeErrorFactor`) must reach MODE_ERROR, or the residual the floor.
 */
function lanczosTop(
  L: Envelope,
  Kg: Envelope,
  maxSteps: number,
  inverseNormK: number,
): { mu: number; vector: Float64Array; steps: number; multiplicity: number } | null {
  const n = L.n;
  const U: Float64Array[] = [];
  const alpha: number[] = [];
  const beta: number[] = [];
  const start = new Float64Array(n);
  for (let i = 0; i < n; i++) start[i] = 1 + 0.3 * sin(0.7 * i);
  let u = transposeMul(L, start);
  let nrm = Math.sqrt(dot(u, u));
  divideInPlace(u, nrm);
  const y = new Float64Array(n);
  // The step's work is in small functions, each optimised on its own: in one large loop body, code first reached
  // after the loop was optimised (the convergence test from step 10 on) sent the whole loop back to the interpreter.
  for (let j = 0; j < maxSteps; j++) {
    U.push(u);
    const wv = operatorTimes(L, Kg, u, y);
    const before = Math.sqrt(dot(wv, wv));
    alpha[j] = reorthogonalize(U, wv);
    nrm = Math.sqrt(dot(wv, wv));
    if (nrm <= BREAKDOWN * before) nrm = 0; // an invariant subspace (e.g. a repeated λ the start vector spans once)
    const found = lanczosConverged(L, U, alpha, beta, j + 1, nrm, maxSteps, inverseNormK);
    if (found !== undefined) return found;
    if (nrm === 0) break;
    beta[j] = nrm;
    u = wv;
    divideInPlace(u, nrm);
  }
  return null;
}

/** u /= divisor, entry by entry (a division: multiplying by 1 / divisor rounds differently). */
function divideInPlace(u: Float64Array, divisor: number): void {
  for (let t = 0; t < u.length; t++) u[t] /= divisor;
}

/** L⁻¹(−K_g)L⁻ᵀu, with `y` as scratch. */
function operatorTimes(L: Envelope, Kg: Envelope, u: Float64Array, y: Float64Array): Float64Array {
  symmetricMatVec(Kg, upperSolve(L, u), y);
  for (let i = 0; i < y.length; i++) y[i] = -y[i];
  return lowerSolve(L, y);
}

/** Two passes of classical Gram–Schmidt of `wv` against every u_i; returns the first pass's coefficient of the last (α_j). */
function reorthogonalize(U: readonly Float64Array[], wv: Float64Array): number {
  let alpha = 0;
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < U.length; i++) {
      const ui = U[i];
      const c = dot(ui, wv);
      if (pass === 0 && i === U.length - 1) alpha = c;
      subtractMultiple(wv, c, ui);
    }
  }
  return alpha;
}

function subtractMultiple(wv: Float64Array, c: number, ui: Float64Array): void {
  for (let t = 0; t < wv.length; t++) wv[t] -= c * ui[t];
}

/**
 * After step m (next β = `nrm`, 0 at breakdown): the top eigenpair once its mode is accurate enough, null when Lanczos
 * must give up (QL failed, μ ≤ 0), undefined to go on.
 */
function lanczosConverged(
  L: Envelope,
  U: readonly Float64Array[],
  alpha: readonly number[],
  beta: readonly number[],
  m: number,
  nrm: number,
  maxSteps: number,
  inverseNormK: number,
): { mu: number; vector: Float64Array; steps: number; multiplicity: number } | null | undefined {
  // Every step from 10 on: T_m's eigenvalues cost O(m²), a step O(n·w). A repeated λ's second copy only emerges from
  // round-off some steps after the first has converged, and disturbs the residuals meanwhile: the first chance counts.
  if (!(m >= 10 || nrm === 0 || m === maxSteps)) return undefined;
  const top = ritzTop(alpha, beta, m, nrm);
  if (!top) return null;
  if (nrm === 0) {
    const vector = top.mu > 0 && ritzMode(L, U, alpha, beta, m);
    return vector ? { mu: top.mu, vector, steps: m, multiplicity: top.multiplicity } : null;
  }
  // The next Ritz value far enough converged to trust the gap, which its residual may still narrow.
  const gap = top.gap - top.nextResidual;
  const trusted = top.mu > 0 && top.nextResidual <= 1e-6 * top.scale && gap > 0;
  const atFloor = top.residual <= RESIDUAL_FLOOR * top.scale;
  // modeErrorFactor ≥ 1 (‖L⁻ᵀy‖ ≤ ‖L⁻ᵀ‖₂): the vector is worth forming only once residual / gap ≤ MODE_ERROR.
  if (trusted && (atFloor || top.residual <= MODE_ERROR * gap)) {
    const vector = ritzMode(L, U, alpha, beta, m);
    if (!vector) return null;
    const modeErrorFactor = Math.sqrt((INVERSE_NORM_SAFETY * inverseNormK) / dot(vector, vector));
    if (atFloor || top.residual * modeErrorFactor <= MODE_ERROR * gap)
      return { mu: top.mu, vector, steps: m, multiplicity: top.multiplicity };
  }
  return undefined;
}

/** φ = L⁻ᵀ(Σ s_i u_i) for the unit eigenvector s of T_m's top Ritz value; null if QL fails. */
function ritzMode(
  L: Envelope,
  U: readonly Float64Array[],
  alpha: readonly number[],
  beta: readonly number[],
  m: number,
): Float64Array | null {
  const s = topVector(alpha, beta, m);
  if (!s) return null;
  const ritz = new Float64Array(L.n);
  for (let i = 0; i < m; i++) addMultiple(ritz, s[i], U[i]);
  return upperSolve(L, ritz);
}

function addMultiple(ritz: Float64Array, c: number, ui: Float64Array): void {
  for (let t = 0; t < ritz.length; t++) ritz[t] += c * ui[t];
}

/**
 * The top cluster of Ritz values of T_m (those within REPEATED of the largest: one eigenvalue, repeated or not resolved
 * from its neighbours by the reference either), the largest residual bound of its members (β_m times the last entry of
 * each member's eigenvector of T_m, an orthonormal set), the gap to the next Ritz value and that one's residual.
 */
function ritzTop(alpha: readonly number[], beta: readonly number[], m: number, betaNext: number) {
  const eig = lanczosEigen(alpha, beta, m);
  if (!eig) return null;
  const { values, last } = eig;
  const mu = values[m - 1];
  let c = 1,
    residual = Math.abs(betaNext * last[m - 1]);
  while (c < m && mu - values[m - 1 - c] <= REPEATED * Math.abs(mu)) {
    residual = Math.max(residual, Math.abs(betaNext * last[m - 1 - c]));
    c++;
  }
  const next = c < m ? values[m - 1 - c] : -Infinity;
  return {
    mu,
    residual,
    multiplicity: c,
    gap: c < m ? values[m - c] - next : 0,
    nextResidual: c < m ? Math.abs(betaNext * last[m - 1 - c]) : 0,
    scale: Math.max(Math.abs(mu), c < m ? Math.abs(next) : 0),
  };
}

/** The unit eigenvector of T_m's largest eigenvalue (one of an orthonormal set inside a cluster); null if QL fails. */
function topVector(alpha: readonly number[], beta: readonly number[], m: number): Float64Array | null {
  const vectors = lanczosEigen(alpha, beta, m, true)?.vectors;
  if (!vectors) return null;
  const s = new Float64Array(m);
  for (let i = 0; i < m; i++) s[i] = vectors[i * m + m - 1];
  return s;
}
