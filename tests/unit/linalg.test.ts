/**
 * Dense/banded linear algebra against independent checks: residuals A·x − b, matrices built with known
 * spectra (Q·diag·Qᵀ with a Householder Q), companion matrices of polynomials with known roots, and the
 * buckling residual (K + λ K_g) φ ≈ 0. Tolerances are stated at each assertion.
 */
import { describe, expect, it } from 'vitest';
import {
  bandedAdd,
  bandedCholeskyFactor,
  bandedCholeskySolve,
  bandedZeros,
  bucklingMuSymmetric,
  choleskyFactor,
  choleskySolve,
  cond2,
  dense,
  generalEigenvalues,
  inverseIteration,
  luFactor,
  luSolve,
  matVec,
  multiplicity,
  SingularMatrixError,
  singularValues,
  symmetricEigenvalues,
  type Dense,
} from '../../src/core/math/linalg.ts';
import {
  assembleElasticStiffness,
  assembleGeometricStiffness,
  assembleLoad,
  solveBuckling,
  solveLinear,
  type FrameElement,
} from '../../src/core/tasks/fembench/msa/frame.ts';
import { bucklingFrameBanded, linearFrameBanded } from '../../src/core/tasks/fembench/msa/frame-banded.ts';
import { mulberry32 } from '../../scripts/support/random.ts';

const rand = mulberry32(20260530);
const uniform = () => 2 * rand() - 1;

function randomMatrix(n: number): Dense {
  const m = dense(n);
  for (let i = 0; i < n * n; i++) m.a[i] = uniform();
  return m;
}

function randomSpd(n: number): Dense {
  const b = randomMatrix(n);
  const m = dense(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += b.a[k * n + i] * b.a[k * n + j];
      m.a[i * n + j] = s + (i === j ? n : 0);
    }
  }
  return m;
}

/** Q diag(values) Qᵀ with the Householder reflector Q = I − 2 v vᵀ / vᵀv (exactly orthogonal in exact arithmetic). */
function withSpectrum(values: number[]): Dense {
  const n = values.length;
  const v = Array.from({ length: n }, () => uniform());
  const vv = v.reduce((s, x) => s + x * x, 0);
  const q = (i: number, j: number) => (i === j ? 1 : 0) - (2 * v[i] * v[j]) / vv;
  const m = dense(n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += q(i, k) * values[k] * q(j, k);
      m.a[i * n + j] = s;
    }
  return m;
}

const norm = (x: ArrayLike<number>) => Math.sqrt(Array.from(x).reduce((s, v) => s + v * v, 0));
const residual = (a: Dense, x: ArrayLike<number>, b: ArrayLike<number>) => {
  const ax = matVec(a, x);
  return norm(ax.map((v, i) => v - b[i])) / norm(b);
};

describe('LU with partial pivoting', () => {
  it('solves random 60×60 systems to a relative residual below 1e-13', () => {
    const a = randomMatrix(60);
    const b = Array.from({ length: 60 }, uniform);
    expect(residual(a, luSolve(luFactor(a), b), b)).toBeLessThan(1e-13);
  });
  it('needs pivoting: [[0,1],[1,0]] x = [2,3] gives x = [3,2] exactly', () => {
    expect(Array.from(luSolve(luFactor(dense(2, [0, 1, 1, 0])), [2, 3]))).toEqual([3, 2]);
  });
  it('throws SingularMatrixError on an exactly singular matrix', () => {
    expect(() => luFactor(dense(3, [1, 2, 3, 2, 4, 6, 1, 1, 1]))).toThrow(SingularMatrixError);
  });
});

describe('Cholesky', () => {
  it('solves a random SPD 80×80 system (relative residual < 1e-13) and L Lᵀ = A', () => {
    const a = randomSpd(80);
    const l = choleskyFactor(a);
    const b = Array.from({ length: 80 }, uniform);
    expect(residual(a, choleskySolve(l, b), b)).toBeLessThan(1e-13);
    let maxErr = 0;
    for (let i = 0; i < 80; i++)
      for (let j = 0; j < 80; j++) {
        let s = 0;
        for (let k = 0; k < 80; k++) s += l.a[i * 80 + k] * l.a[j * 80 + k];
        maxErr = Math.max(maxErr, Math.abs(s - a.a[i * 80 + j]));
      }
    expect(maxErr).toBeLessThan(1e-11);
  });
  it('rejects an indefinite matrix', () => {
    expect(() => choleskyFactor(dense(2, [1, 2, 2, 1]))).toThrow(SingularMatrixError);
  });
  it('banded Cholesky agrees with the dense solve on a banded SPD matrix (half-bandwidth 5, n = 200)', () => {
    const n = 200,
      w = 5;
    const a = dense(n);
    const band = bandedZeros(n, w);
    for (let i = 0; i < n; i++) {
      for (let j = Math.max(0, i - w); j < i; j++) {
        const v = uniform();
        a.a[i * n + j] = v;
        a.a[j * n + i] = v;
        bandedAdd(band, i, j, v);
      }
      a.a[i * n + i] = 2 * w + 1;
      bandedAdd(band, i, i, 2 * w + 1);
    }
    const b = Array.from({ length: n }, uniform);
    const x = bandedCholeskySolve(bandedCholeskyFactor(band), b);
    expect(residual(a, x, b)).toBeLessThan(1e-14 * n);
    const xd = choleskySolve(choleskyFactor(a), b);
    expect(Math.max(...Array.from(x, (v, i) => Math.abs(v - xd[i])))).toBeLessThan(1e-13);
  });
});

describe('singular values and cond₂', () => {
  it('recovers the spectrum of Q diag(s) Qᵀ (relative 1e-12)', () => {
    const s = [9, 5, 3, 1, 0.5, 1e-3];
    const sv = singularValues(6, 6, withSpectrum(s).a);
    s.forEach((v, i) => expect(Math.abs(sv[i] - v) / v).toBeLessThan(1e-12));
  });
  it('cond₂ is Infinity for exactly dependent columns (numpy returns inf), σmax/σmin otherwise', () => {
    expect(cond2(dense(2, [1, 1, 2, 2]))).toBe(Infinity);
    expect(Math.abs(cond2(withSpectrum([4, 2, 1e-6])) - 4e6) / 4e6).toBeLessThan(1e-8);
  });
});

describe('eigenvalues', () => {
  it('symmetric: Q diag Qᵀ gives the diagonal back (absolute 1e-12 on values of order 10)', () => {
    const values = [-7.5, -1, 0, 0.25, 3, 3, 10];
    const got = Array.from(symmetricEigenvalues(withSpectrum(values)));
    values.forEach((v, i) => expect(Math.abs(got[i] - v)).toBeLessThan(1e-12));
    expect(multiplicity(got, 3)).toBe(2);
  });
  it('general: companion matrix of (x² + 1)(x − 2)(x + 3) has roots ±i, 2, −3 (1e-10)', () => {
    // x⁴ + x³ − 5x² + x − 6
    const c = [-6, 1, -5, 1]; // a0..a3
    const n = 4;
    const m = dense(n);
    for (let i = 1; i < n; i++) m.a[i * n + i - 1] = 1;
    for (let i = 0; i < n; i++) m.a[i * n + n - 1] = -c[i];
    const { re, im } = generalEigenvalues(m);
    const roots = Array.from(re, (r, i) => [r, im[i]]).sort((a, b) => Math.round(a[0] * 1e6) - Math.round(b[0] * 1e6) || a[1] - b[1]);
    const expected = [
      [-3, 0],
      [0, -1],
      [0, 1],
      [2, 0],
    ];
    roots.forEach(([r, i], k) => {
      expect(Math.abs(r - expected[k][0])).toBeLessThan(1e-10);
      expect(Math.abs(i - expected[k][1])).toBeLessThan(1e-10);
    });
  });
  it('general: each real eigenvalue of a random nonsymmetric matrix has a null vector of A − λI; Σλ = trace', () => {
    const a = randomMatrix(12);
    const { re, im } = generalEigenvalues(a);
    for (let k = 0; k < 12; k++) {
      if (im[k] !== 0) continue; // real ones only: the LU here is real
      const shifted = dense(12, a.a);
      for (let i = 0; i < 12; i++) shifted.a[i * 13] -= re[k];
      const phi = inverseIteration(a, re[k]);
      expect(norm(matVec(shifted, phi))).toBeLessThan(1e-10); // unit φ, entries of A of order 1
    }
    // trace = sum of eigenvalues
    let trace = 0;
    for (let i = 0; i < 12; i++) trace += a.a[i * 13];
    expect(Math.abs(re.reduce((s, v) => s + v, 0) - trace)).toBeLessThan(1e-10);
    expect(Math.abs(im.reduce((s, v) => s + v, 0))).toBeLessThan(1e-10);
  });
});

describe('buckling pencil K φ = λ (−K_g) φ', () => {
  it('diagonal pencil: λ = k_i / g_i exactly (relative 1e-14)', () => {
    const k = [2, 3, 5, 7],
      g = [1, 4, 0.5, 2];
    const mu = Array.from(
      bucklingMuSymmetric(
        dense(4, [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 7]),
        dense(4, [-1, 0, 0, 0, 0, -4, 0, 0, 0, 0, -0.5, 0, 0, 0, 0, -2]),
      ),
    );
    const expected = k.map((v, i) => g[i] / v).sort((a, b) => a - b);
    mu.forEach((m, i) => expect(Math.abs(m - expected[i]) / expected[i]).toBeLessThan(1e-14));
  });
  it('random SPD K and symmetric indefinite K_g (n = 40): ‖(K + λ K_g) φ‖ ≤ 1e-9 ‖K‖ for the smallest positive λ', () => {
    const n = 40;
    const K = randomSpd(n);
    const Kg = randomMatrix(n);
    for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) Kg.a[j * n + i] = Kg.a[i * n + j];
    const mu = bucklingMuSymmetric(K, Kg);
    const lambda = 1 / mu[n - 1];
    expect(lambda).toBeGreaterThan(0);
    const negKg = dense(
      n,
      Kg.a.map((v) => -v),
    );
    const phi = inverseIteration(K, lambda, negKg);
    const r = matVec(K, phi).map((v, i) => v + lambda * matVec(Kg, phi)[i]);
    const kNorm = Math.max(...Array.from(K.a, Math.abs));
    expect(norm(r)).toBeLessThan(1e-9 * kNorm);
    expect(Math.abs(norm(phi) - 1)).toBeLessThan(1e-12);
  });
});

describe('banded frame path agrees with the dense reference path', () => {
  // A 2×1-bay, 3-storey tower (21 elements, 72 DOF), base fixed, compressive top loads with a lateral component.
  const coords: number[][] = [];
  for (let k = 0; k <= 3; k++) for (let j = 0; j <= 1; j++) for (let i = 0; i <= 2; i++) coords.push([4 * i, 5 * j, 3.5 * k]);
  const id = (i: number, j: number, k: number) => 6 * k + 3 * j + i;
  const sec = { E: 210e9, nu: 0.3, A: 0.01, I_y: 8e-5, I_z: 4e-5, J: 2e-6, I_rho: 1.2e-4, local_z: null };
  const elements: FrameElement[] = [];
  for (let k = 1; k <= 3; k++) {
    for (let j = 0; j <= 1; j++) for (let i = 0; i <= 2; i++) elements.push({ node_i: id(i, j, k - 1), node_j: id(i, j, k), ...sec });
    for (let j = 0; j <= 1; j++) for (let i = 0; i < 2; i++) elements.push({ node_i: id(i, j, k), node_j: id(i + 1, j, k), ...sec });
    for (let i = 0; i <= 2; i++) elements.push({ node_i: id(i, 0, k), node_j: id(i, 1, k), ...sec });
  }
  const bcs = new Map<number, boolean[]>([0, 1, 2, 3, 4, 5].map((n) => [n, Array(6).fill(true)]));
  const loads = new Map<number, number[]>([18, 19, 20, 21, 22, 23].map((n) => [n, [2e3, 500, -1e5, 0, 0, 0]]));

  it('displacements and reactions (absolute 1e-12 × max entry)', () => {
    const K = assembleElasticStiffness(coords, elements);
    const dense = solveLinear(assembleLoad(loads, coords.length), K, bcs, coords.length);
    const banded = linearFrameBanded(coords, elements, bcs, loads);
    for (const key of ['u', 'r'] as const) {
      const scale = Math.max(...Array.from(dense[key], Math.abs));
      dense[key].forEach((v, i) => expect(Math.abs(v - banded[key][i])).toBeLessThan(1e-12 * scale));
    }
  });
  it('first buckling factor (relative 1e-9) and mode (1e-6, same sign convention)', () => {
    const K = assembleElasticStiffness(coords, elements);
    const { u } = solveLinear(assembleLoad(loads, coords.length), K, bcs, coords.length);
    const ref = solveBuckling(K, assembleGeometricStiffness(coords, elements, u), bcs, coords.length, 'critical_load');
    expect(ref.multiplicity).toBe(1);
    const got = bucklingFrameBanded(coords, elements, bcs, loads);
    expect(Math.abs(got.lambda - ref.lambda) / ref.lambda).toBeLessThan(1e-9);
    ref.mode.forEach((v, i) => expect(Math.abs(v - got.mode[i])).toBeLessThan(1e-6));
  });
});
