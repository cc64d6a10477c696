/**
 * Large-frame path (thousands of elements): the same element matrices as the reference tasks, assembled
 * into symmetric banded storage, a banded Cholesky solve, and the first buckling mode by Lanczos in the
 * K-inner product on K⁻¹(−K_g). Supports are applied by elimination-in-place (unit diagonal, zero
 * coupling), which equals the reference's partitioning for zero prescribed displacements. Not used for
 * the golden cases (those run the dense reference path in frame.ts); the tests check the two agree.
 */
import { bandedCholeskyFactor, bandedCholeskySolve, bandedZeros, dot, type Banded } from '../../../math/linalg.ts';
import { FemTaskError } from '../types.ts';
import {
  elementLocalStiffness,
  localGeometricStiffness,
  mul12,
  toGlobal,
  transformationMatrix,
  type Flags,
  type FrameElement,
} from './frame.ts';
import { lanczosRitz } from './lanczos.ts';
import { sin } from '../../../math/libm.ts';

type Coords = readonly (readonly number[])[];

export function frameHalfBandwidth(elements: readonly FrameElement[]): number {
  let maxGap = 0;
  for (const e of elements) maxGap = Math.max(maxGap, Math.abs(e.node_i - e.node_j));
  return 6 * maxGap + 5;
}

function elementFrames(coords: Coords, elements: readonly FrameElement[]): { k: Float64Array; gamma: Float64Array; L: number }[] {
  return elements.map((e) => {
    const pi = coords[e.node_i],
      pj = coords[e.node_j];
    const L = Math.sqrt((pj[0] - pi[0]) ** 2 + (pj[1] - pi[1]) ** 2 + (pj[2] - pi[2]) ** 2);
    const gamma = transformationMatrix(pi[0], pi[1], pi[2], pj[0], pj[1], pj[2], e.local_z ?? null);
    return { k: elementLocalStiffness(e, L), gamma, L };
  });
}

function dofsOf(e: FrameElement): number[] {
  const out: number[] = [];
  for (const node of [e.node_i, e.node_j]) for (let d = 0; d < 6; d++) out.push(6 * node + d);
  return out;
}

function scatterBanded(m: Banded, ke: Float64Array, dofs: number[]): void {
  const s = m.w + 1;
  for (let a = 0; a < 12; a++) {
    for (let b = 0; b < 12; b++) {
      const i = dofs[a],
        j = dofs[b];
      if (j > i) continue;
      m.band[i * s + (j - i + m.w)] += ke[a * 12 + b];
    }
  }
}

function fixedMask(bcs: Flags, nNodes: number): Uint8Array {
  const mask = new Uint8Array(6 * nNodes);
  for (let node = 0; node < nNodes; node++) {
    const f = bcs.get(node);
    if (f)
      f.forEach((flag, d) => {
        if (flag) mask[6 * node + d] = 1;
      });
  }
  return mask;
}

/** Zero the rows/columns of fixed DOFs; diagonal set to `diag`. */
function constrain(m: Banded, mask: Uint8Array, diag: number): void {
  const { n, w, band } = m;
  const s = w + 1;
  for (let i = 0; i < n; i++) {
    for (let j = Math.max(0, i - w); j <= i; j++) {
      if (mask[i] || mask[j]) band[i * s + (j - i + w)] = i === j ? diag : 0;
    }
  }
}

function bandedMatVec(m: Banded, x: ArrayLike<number>): Float64Array {
  const { n, w, band } = m;
  const s = w + 1;
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = Math.max(0, i - w); j < i; j++) {
      const v = band[i * s + (j - i + w)];
      y[i] += v * x[j];
      y[j] += v * x[i];
    }
    y[i] += band[i * s + w] * x[i];
  }
  return y;
}

export interface FrameSolution {
  u: Float64Array;
  r: Float64Array;
}

export function linearFrameBanded(
  coords: Coords,
  elements: readonly FrameElement[],
  bcs: Flags,
  loads: Map<number, readonly number[]>,
): FrameSolution {
  const { u, r } = linearInternal(coords, elements, bcs, loads);
  return { u, r };
}

/** The linear solve, keeping what the buckling analysis reuses: element frames, constrained K and its factor. */
function linearInternal(coords: Coords, elements: readonly FrameElement[], bcs: Flags, loads: Map<number, readonly number[]>) {
  const n = 6 * coords.length;
  const w = Math.min(n - 1, frameHalfBandwidth(elements));
  const K = bandedZeros(n, w);
  const frames = elementFrames(coords, elements);
  elements.forEach((e, k) => scatterBanded(K, toGlobal(frames[k].k, frames[k].gamma), dofsOf(e)));
  const P = new Float64Array(n);
  for (const [node, f] of loads) for (let d = 0; d < 6; d++) P[6 * node + d] += f[d];
  const mask = fixedMask(bcs, coords.length);
  const Kc: Banded = { n, w, band: Float64Array.from(K.band) };
  constrain(Kc, mask, 1);
  const KcCopy: Banded = { n, w, band: Float64Array.from(Kc.band) };
  const rhs = P.map((v, i) => (mask[i] ? 0 : v));
  try {
    bandedCholeskyFactor(Kc);
  } catch {
    throw new FemTaskError(
      'ValueError',
      'Cannot solve system: the free-free stiffness is singular or not positive definite (check supports).',
    );
  }
  const u = bandedCholeskySolve(Kc, rhs);
  const Ku = bandedMatVec(K, u);
  const r = new Float64Array(n);
  for (let i = 0; i < n; i++) if (mask[i]) r[i] = Ku[i] - P[i];
  return { u, r, n, w, frames, mask, constrainedK: KcCopy, factor: Kc };
}

export interface FrameBuckling {
  lambda: number;
  mode: Float64Array;
  lanczosSteps: number;
}

/** Smallest positive λ of K φ = λ(−K_g) φ (largest positive μ = 1/λ of K⁻¹(−K_g)); mode: unit 2-norm, largest entry positive. */
export function bucklingFrameBanded(
  coords: Coords,
  elements: readonly FrameElement[],
  bcs: Flags,
  loads: Map<number, readonly number[]>,
  maxSteps = 150,
): FrameBuckling {
  const { u, n, w, frames, mask, constrainedK, factor: K } = linearInternal(coords, elements, bcs, loads);
  const Kg = bandedZeros(n, w);
  elements.forEach((e, k) => {
    const { k: kl, gamma, L } = frames[k];
    const dofs = dofsOf(e);
    const f = mul12(
      kl,
      mul12(
        gamma,
        dofs.map((d) => u[d]),
      ),
    );
    if (e.I_rho === undefined) throw new FemTaskError('KeyError', "'I_rho'");
    scatterBanded(Kg, toGlobal(localGeometricStiffness(L, e.A, e.I_rho, f[6], f[9], f[4], f[5], f[10], f[11]), gamma), dofs);
  });
  constrain(Kg, mask, 0);
  const negKgTimes = (x: Float64Array) => bandedMatVec(Kg, x).map((v) => -v);

  // Lanczos in the K-inner product with full reorthogonalisation; z_j = K v_j is carried along.
  const V: Float64Array[] = [];
  const Z: Float64Array[] = [];
  const alpha: number[] = [];
  const beta: number[] = [];
  let v: Float64Array = new Float64Array(n);
  for (let i = 0; i < n; i++) v[i] = mask[i] ? 0 : 1 + 0.3 * sin(0.7 * i);
  let z = bandedMatVec(constrainedK, v);
  let nrm = Math.sqrt(dot(v, z));
  v = v.map((x) => x / nrm);
  z = z.map((x) => x / nrm);
  let best: { mu: number; s: ArrayLike<number>; m: number } = { mu: 0, s: [], m: 0 };
  for (let j = 0; j < Math.min(maxSteps, n); j++) {
    V.push(v);
    Z.push(z);
    const y = negKgTimes(v);
    const wv = bandedCholeskySolve(K, y); // K w = y
    const kw = Float64Array.from(y);
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < V.length; i++) {
        const c = dot(Z[i], wv);
        if (pass === 0 && i === V.length - 1) alpha[j] = c;
        const vi = V[i],
          zi = Z[i];
        for (let t = 0; t < n; t++) {
          wv[t] -= c * vi[t];
          kw[t] -= c * zi[t];
        }
      }
    }
    nrm = Math.sqrt(Math.max(0, dot(wv, kw)));
    const m = j + 1;
    if (m % 10 === 0 || nrm === 0 || m === Math.min(maxSteps, n)) {
      const ritz = lanczosRitz(alpha, beta, m);
      const mu = ritz.values[m - 1];
      // residual bound |β_m s_m| for the top Ritz pair
      const s = ritz.vector(mu);
      best = { mu, s, m };
      if (nrm === 0 || Math.abs(nrm * s[m - 1]) <= 1e-10 * Math.abs(mu)) break;
    }
    if (nrm === 0) break;
    beta[j] = nrm;
    v = wv.map((x) => x / nrm);
    z = kw.map((x) => x / nrm);
  }
  if (!(best.mu > 0)) throw new FemTaskError('ValueError', 'No positive buckling factors found.');
  const mode = new Float64Array(n);
  for (let i = 0; i < best.m; i++) for (let t = 0; t < n; t++) mode[t] += best.s[i] * V[i][t];
  let peak = 0,
    norm = 0;
  for (let t = 0; t < n; t++) {
    norm += mode[t] * mode[t];
    peak = Math.max(peak, Math.abs(mode[t]));
  }
  norm = Math.sqrt(norm);
  let k = 0;
  while (k < n - 1 && Math.abs(mode[k]) < peak * (1 - 1e-9)) k++;
  const sign = mode[k] < 0 ? -1 : 1;
  for (let t = 0; t < n; t++) mode[t] = (sign * mode[t]) / norm;
  return { lambda: 1 / best.mu, mode, lanczosSteps: best.m };
}
