/**
 * The few numpy operations whose last bits decide the matcher's ties, in the order of operations numpy performs
 * them on an x86-64 machine without FMA (OpenBLAS's generic kernels): `np.linalg.inv` (LAPACK dgesv on the
 * identity: OpenBLAS getf2 left-looking LU with partial pivoting, then the triangular solves, which multiply by the
 * reciprocal of each pivot) and pymatgen's `Lattice.volume` (materialsproject/pymatgen pymatgen/core/lattice.py).
 * Checked bit for bit against numpy 1.24 with OPENBLAS_CORETYPE=Nehalem on 2,800 matrices.
 */
import { type Mat3, vec3 } from '../math/mat3.ts';

const LU = new Float64Array(9);
const X = new Float64Array(9);
const PIV = new Int32Array(3);

/** `np.linalg.inv(m)` for a 3 × 3 matrix (rows), with LAPACK's arithmetic. */
export function numpyInverse(m: Mat3): Mat3 {
  // LU in place (a[3r + c]): unit lower L below the diagonal, U on and above it; ipiv as getf2 records it.
  const a = LU;
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) a[3 * r + c] = m[r][c];
  for (let j = 0; j < 3; j++) {
    for (let i = 0; i < j; i++) {
      const p = PIV[i];
      if (p !== i) {
        const t = a[3 * i + j];
        a[3 * i + j] = a[3 * p + j];
        a[3 * p + j] = t;
      }
    }
    // trsv with the unit lower part (a dot product per row), then gemv on the rows below.
    for (let i = 1; i < j; i++) {
      let s = 0;
      for (let k = 0; k < i; k++) s += a[3 * i + k] * a[3 * k + j];
      a[3 * i + j] -= s;
    }
    for (let r = j; r < 3; r++) {
      let s = 0;
      for (let k = 0; k < j; k++) s += a[3 * r + k] * a[3 * k + j];
      a[3 * r + j] -= s;
    }
    let p = j;
    for (let r = j + 1; r < 3; r++) if (Math.abs(a[3 * r + j]) > Math.abs(a[3 * p + j])) p = r;
    PIV[j] = p;
    const pivot = a[3 * p + j];
    if (pivot === 0) throw new Error('singular matrix');
    const t = 1 / pivot;
    if (p !== j) {
      for (let c = 0; c <= j; c++) {
        const x = a[3 * j + c];
        a[3 * j + c] = a[3 * p + c];
        a[3 * p + c] = x;
      }
    }
    for (let r = j + 1; r < 3; r++) a[3 * r + j] *= t;
  }
  // getrs on the identity: row swaps, forward substitution with L, back substitution with U.
  const x = X;
  x.fill(0);
  x[0] = x[4] = x[8] = 1;
  for (let i = 0; i < 3; i++) {
    const p = PIV[i];
    if (p !== i) {
      for (let c = 0; c < 3; c++) {
        const t = x[3 * i + c];
        x[3 * i + c] = x[3 * p + c];
        x[3 * p + c] = t;
      }
    }
  }
  for (let c = 0; c < 3; c++) {
    for (let i = 1; i < 3; i++) {
      let s = 0;
      for (let k = 0; k < i; k++) s += a[3 * i + k] * x[3 * k + c];
      x[3 * i + c] -= s;
    }
    for (let i = 2; i >= 0; i--) {
      x[3 * i + c] *= 1 / a[4 * i];
      for (let k = 0; k < i; k++) x[3 * k + c] -= x[3 * i + c] * a[3 * k + i];
    }
  }
  return [vec3(x[0], x[1], x[2]), vec3(x[3], x[4], x[5]), vec3(x[6], x[7], x[8])];
}

/** pymatgen's `Lattice.volume`: `abs(dot(cross(m[0], m[1]), m[2]))`. */
export function pymatgenVolume(m: Mat3): number {
  const c0 = m[0][1] * m[1][2] - m[0][2] * m[1][1],
    c1 = m[0][2] * m[1][0] - m[0][0] * m[1][2],
    c2 = m[0][0] * m[1][1] - m[0][1] * m[1][0];
  return Math.abs(c0 * m[2][0] + c1 * m[2][1] + c2 * m[2][2]);
}
