/**
 * Port of spglib v2.0.2 src/mathfunc.c (github.com/spglib/spglib, BSD-3-Clause), function for function.
 * C's `int` and `double` are both `number` here; `int` results of integer matrices are exact as long as
 * they stay below 2^53 (C's 32-bit overflow is not reproduced). Output arguments come first and are
 * written in place, as in C. Where C computes into a temporary and then copies (the matrix products,
 * the matrix-vector products, the inverse, the transposes), the output may alias an input; where C
 * writes the output directly (`mat_cross_product_d3`, the casts, `mat_add_matrix_i3`) it behaves as C does.
 */
import type { Mat3, MatINT, Vec3, VecDBL } from './types.ts';

const ZERO_PREC = 1e-10;

/** A new 3×3 zero matrix (C declares its matrices on the stack; here each is a fresh array). */
export function zeroMat3(): Mat3 {
  return [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
}

export function matGetDeterminantD3(a: Mat3): number {
  return (
    a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) +
    a[0][1] * (a[1][2] * a[2][0] - a[1][0] * a[2][2]) +
    a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
  );
}

export function matGetDeterminantI3(a: Mat3): number {
  return (
    a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) +
    a[0][1] * (a[1][2] * a[2][0] - a[1][0] * a[2][2]) +
    a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
  );
}

export function matGetTraceI3(a: Mat3): number {
  return a[0][0] + a[1][1] + a[2][2];
}

export function matCopyMatrixD3(a: Mat3, b: Mat3): void {
  a[0][0] = b[0][0];
  a[0][1] = b[0][1];
  a[0][2] = b[0][2];
  a[1][0] = b[1][0];
  a[1][1] = b[1][1];
  a[1][2] = b[1][2];
  a[2][0] = b[2][0];
  a[2][1] = b[2][1];
  a[2][2] = b[2][2];
}

export function matCopyMatrixI3(a: Mat3, b: Mat3): void {
  matCopyMatrixD3(a, b);
}

export function matCopyVectorD3(a: Vec3, b: Vec3): void {
  a[0] = b[0];
  a[1] = b[1];
  a[2] = b[2];
}

export function matCopyVectorI3(a: Vec3, b: Vec3): void {
  matCopyVectorD3(a, b);
}

/** 1 when the integer matrices are equal, else 0. */
export function matCheckIdentityMatrixI3(a: Mat3, b: Mat3): number {
  if (
    a[0][0] - b[0][0] ||
    a[0][1] - b[0][1] ||
    a[0][2] - b[0][2] ||
    a[1][0] - b[1][0] ||
    a[1][1] - b[1][1] ||
    a[1][2] - b[1][2] ||
    a[2][0] - b[2][0] ||
    a[2][1] - b[2][1] ||
    a[2][2] - b[2][2]
  ) {
    return 0;
  } else {
    return 1;
  }
}

function checkIdentity(a: Mat3, b: Mat3, symprec: number): number {
  if (
    matDabs(a[0][0] - b[0][0]) > symprec ||
    matDabs(a[0][1] - b[0][1]) > symprec ||
    matDabs(a[0][2] - b[0][2]) > symprec ||
    matDabs(a[1][0] - b[1][0]) > symprec ||
    matDabs(a[1][1] - b[1][1]) > symprec ||
    matDabs(a[1][2] - b[1][2]) > symprec ||
    matDabs(a[2][0] - b[2][0]) > symprec ||
    matDabs(a[2][1] - b[2][1]) > symprec ||
    matDabs(a[2][2] - b[2][2]) > symprec
  ) {
    return 0;
  } else {
    return 1;
  }
}

export function matCheckIdentityMatrixD3(a: Mat3, b: Mat3, symprec: number): number {
  return checkIdentity(a, b, symprec);
}

export function matCheckIdentityMatrixId3(a: Mat3, b: Mat3, symprec: number): number {
  return checkIdentity(a, b, symprec);
}

/** m = a b (m may alias a or b). Written out with locals: the search calls it ~10⁵ times per structure. */
function multiply(m: Mat3, a: Mat3, b: Mat3): void {
  const [a0, a1, a2] = a;
  const [b0, b1, b2] = b;
  const c00 = a0[0] * b0[0] + a0[1] * b1[0] + a0[2] * b2[0];
  const c01 = a0[0] * b0[1] + a0[1] * b1[1] + a0[2] * b2[1];
  const c02 = a0[0] * b0[2] + a0[1] * b1[2] + a0[2] * b2[2];
  const c10 = a1[0] * b0[0] + a1[1] * b1[0] + a1[2] * b2[0];
  const c11 = a1[0] * b0[1] + a1[1] * b1[1] + a1[2] * b2[1];
  const c12 = a1[0] * b0[2] + a1[1] * b1[2] + a1[2] * b2[2];
  const c20 = a2[0] * b0[0] + a2[1] * b1[0] + a2[2] * b2[0];
  const c21 = a2[0] * b0[1] + a2[1] * b1[1] + a2[2] * b2[1];
  const c22 = a2[0] * b0[2] + a2[1] * b1[2] + a2[2] * b2[2];
  const [m0, m1, m2] = m;
  m0[0] = c00;
  m0[1] = c01;
  m0[2] = c02;
  m1[0] = c10;
  m1[1] = c11;
  m1[2] = c12;
  m2[0] = c20;
  m2[1] = c21;
  m2[2] = c22;
}

export function matMultiplyMatrixD3(m: Mat3, a: Mat3, b: Mat3): void {
  multiply(m, a, b);
}

export function matMultiplyMatrixI3(m: Mat3, a: Mat3, b: Mat3): void {
  multiply(m, a, b);
}

export function matMultiplyMatrixDi3(m: Mat3, a: Mat3, b: Mat3): void {
  multiply(m, a, b);
}

export function matMultiplyMatrixId3(m: Mat3, a: Mat3, b: Mat3): void {
  multiply(m, a, b);
}

/** v = a b (v may alias b). */
function multiplyVector(v: Vec3, a: Mat3, b: Vec3): void {
  const c0 = a[0][0] * b[0] + a[0][1] * b[1] + a[0][2] * b[2];
  const c1 = a[1][0] * b[0] + a[1][1] * b[1] + a[1][2] * b[2];
  const c2 = a[2][0] * b[0] + a[2][1] * b[1] + a[2][2] * b[2];
  v[0] = c0;
  v[1] = c1;
  v[2] = c2;
}

export function matMultiplyMatrixVectorI3(v: Vec3, a: Mat3, b: Vec3): void {
  multiplyVector(v, a, b);
}

/** v[3] <- a[3][3] * b[3] */
export function matMultiplyMatrixVectorD3(v: Vec3, a: Mat3, b: Vec3): void {
  multiplyVector(v, a, b);
}

export function matMultiplyMatrixVectorId3(v: Vec3, a: Mat3, b: Vec3): void {
  multiplyVector(v, a, b);
}

export function matMultiplyMatrixVectorDi3(v: Vec3, a: Mat3, b: Vec3): void {
  multiplyVector(v, a, b);
}

export function matAddMatrixI3(m: Mat3, a: Mat3, b: Mat3): void {
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      m[i][j] = a[i][j] + b[i][j];
    }
  }
}

export function matCastMatrix3iTo3d(m: Mat3, a: Mat3): void {
  matCopyMatrixD3(m, a);
}

export function matCastMatrix3dTo3i(m: Mat3, a: Mat3): void {
  m[0][0] = matNint(a[0][0]);
  m[0][1] = matNint(a[0][1]);
  m[0][2] = matNint(a[0][2]);
  m[1][0] = matNint(a[1][0]);
  m[1][1] = matNint(a[1][1]);
  m[1][2] = matNint(a[1][2]);
  m[2][0] = matNint(a[2][0]);
  m[2][1] = matNint(a[2][1]);
  m[2][2] = matNint(a[2][2]);
}

/** m = a^-1 (m may alias a). Returns 0 (m untouched) when |det a| < precision, else 1. */
export function matInverseMatrixD3(m: Mat3, a: Mat3, precision: number): number {
  const det = matGetDeterminantD3(a);
  if (matDabs(det) < precision) {
    return 0;
  }
  const c = zeroMat3();
  c[0][0] = (a[1][1] * a[2][2] - a[1][2] * a[2][1]) / det;
  c[1][0] = (a[1][2] * a[2][0] - a[1][0] * a[2][2]) / det;
  c[2][0] = (a[1][0] * a[2][1] - a[1][1] * a[2][0]) / det;
  c[0][1] = (a[2][1] * a[0][2] - a[2][2] * a[0][1]) / det;
  c[1][1] = (a[2][2] * a[0][0] - a[2][0] * a[0][2]) / det;
  c[2][1] = (a[2][0] * a[0][1] - a[2][1] * a[0][0]) / det;
  c[0][2] = (a[0][1] * a[1][2] - a[0][2] * a[1][1]) / det;
  c[1][2] = (a[0][2] * a[1][0] - a[0][0] * a[1][2]) / det;
  c[2][2] = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) / det;
  matCopyMatrixD3(m, c);
  return 1;
}

/** m = b^-1 a b. Returns 0 (m untouched) when b is singular, else 1. */
export function matGetSimilarMatrixD3(m: Mat3, a: Mat3, b: Mat3, precision: number): number {
  const c = zeroMat3();
  if (!matInverseMatrixD3(c, b, precision)) {
    return 0;
  }
  matMultiplyMatrixD3(m, a, b);
  matMultiplyMatrixD3(m, c, m);
  return 1;
}

/** a = b^T (a may alias b). */
export function matTransposeMatrixD3(a: Mat3, b: Mat3): void {
  const c = zeroMat3();
  c[0][0] = b[0][0];
  c[0][1] = b[1][0];
  c[0][2] = b[2][0];
  c[1][0] = b[0][1];
  c[1][1] = b[1][1];
  c[1][2] = b[2][1];
  c[2][0] = b[0][2];
  c[2][1] = b[1][2];
  c[2][2] = b[2][2];
  matCopyMatrixD3(a, c);
}

export function matTransposeMatrixI3(a: Mat3, b: Mat3): void {
  matTransposeMatrixD3(a, b);
}

/** metric = lattice^T lattice (basis vectors as columns), summed in mat_multiply_matrix_d3's order. */
export function matGetMetric(metric: Mat3, lattice: Mat3): void {
  const [l0, l1, l2] = lattice;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      metric[i][j] = l0[i] * l0[j] + l1[i] * l1[j] + l2[i] * l2[j];
    }
  }
}

export function matNormSquaredD3(a: Vec3): number {
  return a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
}

export function matNormSquaredI3(a: Vec3): number {
  return a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
}

/** v = a × b, written component by component as in C (v must not alias a or b). */
export function matCrossProductD3(v: Vec3, a: Vec3, b: Vec3): void {
  v[0] = a[1] * b[2] - a[2] * b[1];
  v[1] = a[2] * b[0] - a[0] * b[2];
  v[2] = a[0] * b[1] - a[1] * b[0];
}

export function matDabs(a: number): number {
  if (a < 0.0) return -a;
  else return a;
}

/** Round to a nearest integer: C's `(int)(a ∓ 0.5)`, halves away from zero. */
export function matNint(a: number): number {
  // `+ 0` turns Math.trunc's -0 into C's int 0.
  if (a < 0.0) return Math.trunc(a - 0.5) + 0;
  else return Math.trunc(a + 0.5);
}

export function matDmod1(a: number): number {
  const b = a - matNint(a);
  if (b < 0.0 - ZERO_PREC) return b + 1.0;
  else return b;
}

/** `mat_alloc_MatINT`: `size` zero matrices (C leaves them uninitialised). */
export function matAllocMatINT(size: number): MatINT {
  const mat: Mat3[] = [];
  for (let i = 0; i < size; i++) mat.push(zeroMat3());
  return { size, mat };
}

/** `mat_alloc_VecDBL`: `size` zero vectors (C leaves them uninitialised). */
export function matAllocVecDBL(size: number): VecDBL {
  const vec: Vec3[] = [];
  for (let i = 0; i < size; i++) vec.push([0, 0, 0]);
  return { size, vec };
}

export function matIsIntMatrix(mat: Mat3, symprec: number): number {
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      if (matDabs(matNint(mat[i][j]) - mat[i][j]) > symprec) {
        return 0;
      }
    }
  }
  return 1;
}
