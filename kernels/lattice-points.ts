// The enumeration behind pymatgen's lattice-point search (src/core/structure/niggli.ts, latticePointsInSphere): every
// integer combination in a box of the LLL basis, its vector in the caller's basis, and whether it lies in the sphere
// as pymatgen's `find_points_in_spheres` decides (pymatgen/optimization/neighbors.pyx). Each f64 operation is the one the
// TypeScript it replaced made, in the same order. The caller sorts the points into pymatgen's order.

import { getF64, setF64 } from './memory';

/**
 * The points p·m0 + q·m1 + r·m2 (m: `mapping`, nine f64 integers, rows) for |p| ≤ b0, |q| ≤ b1, |r| ≤ b2, as integer
 * coordinates (i, j, k) in the basis `matrix` (nine f64, rows), inside the sphere of radius `searched` (pymatgen's
 * C-float radius, at least 1; `kept` the radius asked for, whose distances alone are kept when it is below 1; `r2` the
 * C-float square of `searched`). Writes up to `capacity` points at `out`, eight f64 each: i, j, k, the vector, its
 * length, and its cube index (cubes of edge `searched` from `validMin`). Returns how many there are (also beyond
 * `capacity`: the caller then calls again with room for all).
 */
export function latticePoints(
  matrix: usize,
  mapping: usize,
  b0: i32,
  b1: i32,
  b2: i32,
  searched: f64,
  kept: f64,
  r2: f64,
  validMin: f64,
  out: usize,
  capacity: i32,
): i32 {
  const tol: f64 = 1e-8;
  const m00 = getF64(mapping, 0),
    m01 = getF64(mapping, 1),
    m02 = getF64(mapping, 2),
    m10 = getF64(mapping, 3),
    m11 = getF64(mapping, 4),
    m12 = getF64(mapping, 5),
    m20 = getF64(mapping, 6),
    m21 = getF64(mapping, 7),
    m22 = getF64(mapping, 8);
  let count = 0;
  for (let p = -b0; p <= b0; p++) {
    for (let q = -b1; q <= b1; q++) {
      for (let r = -b2; r <= b2; r++) {
        const fp = <f64>p,
          fq = <f64>q,
          fr = <f64>r;
        const i = fp * m00 + fq * m10 + fr * m20,
          j = fp * m01 + fq * m11 + fr * m21,
          k = fp * m02 + fq * m12 + fr * m22;
        const v0 = i * getF64(matrix, 0) + j * getF64(matrix, 3) + k * getF64(matrix, 6);
        const v1 = i * getF64(matrix, 1) + j * getF64(matrix, 4) + k * getF64(matrix, 7);
        const v2 = i * getF64(matrix, 2) + j * getF64(matrix, 5) + k * getF64(matrix, 8);
        const d2 = v0 * v0 + v1 * v1 + v2 * v2;
        if (!(
          d2 < r2 + tol &&
          abs<f64>(v0) < searched + tol &&
          abs<f64>(v1) < searched + tol &&
          abs<f64>(v2) < searched + tol &&
          (searched == kept || sqrt<f64>(d2) <= kept)
        ))
          continue;
        if (count < capacity) {
          const at = out + ((<usize>count) << 6);
          setF64(at, 0, i);
          setF64(at, 1, j);
          setF64(at, 2, k);
          setF64(at, 3, v0);
          setF64(at, 4, v1);
          setF64(at, 5, v2);
          setF64(at, 6, sqrt<f64>(d2));
          setF64(at, 7, cubeOf(v0, validMin, searched) * 9 + cubeOf(v1, validMin, searched) * 3 + cubeOf(v2, validMin, searched));
        }
        count++;
      }
    }
  }
  return count;
}

function cubeOf(x: f64, validMin: f64, edge: f64): f64 {
  return floor<f64>((x - validMin + 1e-8) / edge);
}
