/**
 * LLL reduction of a 3D lattice basis, as pymatgen's `Lattice._calculate_lll(delta=0.75)` (same
 * Gram-Schmidt bookkeeping, same half-to-even rounding), so the reduced basis — which decides the
 * 27 periodic images searched for shortest vectors — is the one pymatgen uses.
 */
import { type Mat3, mat3, vec3 } from '../math/mat3.ts';

/** numpy/Python `round`: halves go to the even neighbour. */
export function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x - Math.trunc(x)) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

const dot3 = (a: number[], b: number[]): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

export interface LllResult {
  /** Reduced basis, rows in Å. */
  matrix: Mat3;
  /** Integer matrix with `matrix = mapping · original`. */
  mapping: Mat3;
}

export function lllReduce(original: Mat3, delta = 0.75): LllResult {
  // Basis vectors a[i] (the columns of pymatgen's transposed matrix), Gram-Schmidt vectors b[i].
  const a: Mat3 = [
    vec3(original[0][0], original[0][1], original[0][2]),
    vec3(original[1][0], original[1][1], original[1][2]),
    vec3(original[2][0], original[2][1], original[2][2]),
  ];
  const mapping = mat3([
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ]);
  const b = [vec3(0, 0, 0), vec3(0, 0, 0), vec3(0, 0, 0)];
  const u = [vec3(0, 0, 0), vec3(0, 0, 0), vec3(0, 0, 0)];
  const m = vec3(0, 0, 0);
  const gramSchmidt = (i: number) => {
    for (let j = 0; j < i; j++) u[i][j] = dot3(a[i], b[j]) / m[j];
    for (let l = 0; l < 3; l++) {
      let s = a[i][l];
      for (let j = 0; j < i; j++) s -= b[j][l] * u[i][j];
      b[i][l] = s;
    }
    m[i] = dot3(b[i], b[i]);
  };
  for (let i = 0; i < 3; i++) gramSchmidt(i);

  let k = 2;
  let guard = 0;
  while (k <= 3) {
    if (++guard > 10000) throw new Error('LLL reduction did not converge');
    for (let i = k - 1; i >= 1; i--) {
      const q = roundHalfEven(u[k - 1][i - 1]);
      if (q !== 0) {
        for (let l = 0; l < 3; l++) {
          a[k - 1][l] -= q * a[i - 1][l];
          mapping[k - 1][l] -= q * mapping[i - 1][l];
        }
        for (let j = 0; j < i - 1; j++) u[k - 1][j] -= q * u[i - 1][j];
        u[k - 1][i - 1] -= q;
      }
    }
    const lovasz = dot3(b[k - 1], b[k - 1]) >= (delta - Math.abs(u[k - 1][k - 2]) ** 2) * dot3(b[k - 2], b[k - 2]);
    if (lovasz) {
      k++;
    } else {
      [a[k - 1], a[k - 2]] = [a[k - 2], a[k - 1]];
      [mapping[k - 1], mapping[k - 2]] = [mapping[k - 2], mapping[k - 1]];
      for (let s = k - 1; s <= k; s++) gramSchmidt(s - 1);
      if (k > 2) {
        k--;
      } else {
        // pymatgen refreshes the coefficients of the vectors above the swapped pair.
        for (let r = k; r < 3; r++) for (let j = k - 2; j < k; j++) u[r][j] = dot3(a[r], b[j]) / m[j];
      }
    }
  }
  return { matrix: a, mapping };
}
