/**
 * The convex hull (kernels/quickhull.ts through src/core/analysis/hull.ts) is exact for the coordinates it is given:
 * every triangle has every point on its inner side or on its plane, decided here independently of the kernel (the
 * rounded determinant where it is beyond its error bound, else integer arithmetic with BigInt), and the triangles
 * close up. The inputs are near-degenerate ones that broke earlier hulls: the teaching shapes, whose rows of atoms
 * make faces of three nearly collinear atoms (on ASE's 15-layer octahedron the rounded normal of one is 0, and the
 * kernel once took that face as seen by no point); a rotated sphere rounded to 8 decimals, as C2NP writes particles
 * (rows 1e-9 Å off their line); a grid with 1e-13 Å of noise, where quickhull3d returned 511.33 Å³ for 512 (scipy:
 * 512.0000000000575).
 */
import { describe, expect, it } from 'vitest';
import { convexHullTriangles, convexHullVolume } from '../../src/core/analysis/hull.ts';
import { octahedron } from '../../src/core/structure/clusters/cubic.ts';
import { icosahedron } from '../../src/core/structure/clusters/icosahedron.ts';
import { decahedron } from '../../src/core/structure/clusters/decahedron.ts';

/** A double as an integer times a power of two: [m, e] with x = m · 2^e exactly. */
function exactParts(x: number): [bigint, number] {
  if (x === 0) return [0n, 0];
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0),
    lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biased !== 0) m |= 1n << 52n;
  return [hi >>> 31 ? -m : m, (biased === 0 ? 1 : biased) - 1075];
}

/** Shewchuk's error bound on the rounded orient3d, relative to its permanent: (7 + 56ε)ε, ε = 2⁻⁵³. */
const ORIENT_BOUND = (7 + 56 * 2 ** -53) * 2 ** -53;

/**
 * The sign of orient3d(a, b, c, d): positive when d lies below the plane of a, b, c (counter-clockwise from above).
 * The rounded determinant where it is beyond its error bound, else exact integer arithmetic.
 */
function exactOrientation(a: number[], b: number[], c: number[], d: number[]): number {
  const [adx, ady, adz] = [a[0] - d[0], a[1] - d[1], a[2] - d[2]];
  const [bdx, bdy, bdz] = [b[0] - d[0], b[1] - d[1], b[2] - d[2]];
  const [cdx, cdy, cdz] = [c[0] - d[0], c[1] - d[1], c[2] - d[2]];
  const rounded = adz * (bdx * cdy - cdx * bdy) + bdz * (cdx * ady - adx * cdy) + cdz * (adx * bdy - bdx * ady);
  const permanent =
    (Math.abs(bdx * cdy) + Math.abs(cdx * bdy)) * Math.abs(adz) +
    (Math.abs(cdx * ady) + Math.abs(adx * cdy)) * Math.abs(bdz) +
    (Math.abs(adx * bdy) + Math.abs(bdx * ady)) * Math.abs(cdz);
  if (Math.abs(rounded) > ORIENT_BOUND * permanent) return Math.sign(rounded);
  return integerOrientation(a, b, c, d);
}

function integerOrientation(a: number[], b: number[], c: number[], d: number[]): number {
  const parts = [...a, ...b, ...c, ...d].map(exactParts);
  const low = Math.min(...parts.map(([, e]) => e));
  const [ax, ay, az, bx, by, bz, cx, cy, cz, dx, dy, dz] = parts.map(([m, e]) => m << BigInt(e - low));
  const [adx, ady, adz, bdx, bdy, bdz, cdx, cdy, cdz] = [ax - dx, ay - dy, az - dz, bx - dx, by - dy, bz - dz, cx - dx, cy - dy, cz - dz];
  const det = adz * (bdx * cdy - cdx * bdy) + bdz * (cdx * ady - adx * cdy) + cdz * (adx * bdy - bdx * ady);
  return det > 0n ? 1 : det < 0n ? -1 : 0;
}

/** The points less their centroid, summed in order and divided as hull.ts does: the coordinates the hull is of. */
function centred(points: number[][]): number[][] {
  const c = [0, 0, 0];
  for (const p of points) for (let d = 0; d < 3; d++) c[d] += p[d];
  for (let d = 0; d < 3; d++) c[d] /= points.length;
  return points.map((p) => [p[0] - c[0], p[1] - c[1], p[2] - c[2]]);
}

function expectExactHull(points: number[][]): number {
  const tri = convexHullTriangles(points);
  expect(tri.length).toBeGreaterThan(0);
  // Closed: every directed edge once, and its reverse once.
  const edges = new Map<string, number>();
  for (let t = 0; t < tri.length; t += 3)
    for (let k = 0; k < 3; k++) {
      const key = `${tri[t + k]},${tri[t + ((k + 1) % 3)]}`;
      edges.set(key, (edges.get(key) ?? 0) + 1);
    }
  for (const [key, count] of edges) {
    const [a, b] = key.split(',');
    expect(count, key).toBe(1);
    expect(edges.get(`${b},${a}`), key).toBe(1);
  }
  // Counter-clockwise seen from outside: no point strictly above any triangle.
  const q = centred(points);
  let outside = 0;
  for (let t = 0; t < tri.length; t += 3) {
    const [a, b, c] = [q[tri[t]], q[tri[t + 1]], q[tri[t + 2]]];
    for (const p of q) if (exactOrientation(a, b, c, p) < 0) outside++;
  }
  expect(outside).toBe(0);
  return convexHullVolume(points);
}

const rows = (flat: Float64Array): number[][] =>
  Array.from({ length: flat.length / 3 }, (_, i) => [flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]]);

describe('convex hull, exact on near-degenerate input', () => {
  it('the teaching shapes (rows of atoms along every edge)', () => {
    expectExactHull(rows(octahedron('Au', 15).positions));
    expectExactHull(rows(icosahedron('Au', 6).positions));
    expectExactHull(rows(decahedron('Au', 4, 4, 1).positions));
  });

  it('a rotated fcc sphere written to 8 decimals, as C2NP particles are', () => {
    const [c, s] = [Math.cos(0.83), Math.sin(0.83)];
    const [c2, s2] = [Math.cos(0.41), Math.sin(0.41)];
    const points: number[][] = [];
    const basis = [
      [0, 0, 0],
      [0.5, 0.5, 0],
      [0.5, 0, 0.5],
      [0, 0.5, 0.5],
    ];
    for (let i = -4; i <= 4; i++)
      for (let j = -4; j <= 4; j++)
        for (let k = -4; k <= 4; k++)
          for (const b of basis) {
            const [x, y, z] = [(i + b[0]) * 4.0213, (j + b[1]) * 4.0213, (k + b[2]) * 4.0213];
            if (Math.hypot(x, y, z) >= 11) continue;
            const [x1, z1] = [c * x - s * z, s * x + c * z];
            const [y1, z2] = [c2 * y - s2 * z1, s2 * y + c2 * z1];
            points.push([x1 + 30, y1 + 30, z2 + 30].map((v) => Number(v.toFixed(8))));
          }
    expect(points.length).toBeGreaterThan(300);
    expectExactHull(points);
  });

  it('a 9 × 9 × 9 grid with 1e-13 Å of noise: 512 Å³ (scipy 512.0000000000575)', () => {
    let seed = 11;
    const noise = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 2e-13;
    const points: number[][] = [];
    for (let i = 0; i < 9; i++)
      for (let j = 0; j < 9; j++) for (let k = 0; k < 9; k++) points.push([i + noise(), j + noise(), k + noise()]);
    expect(Math.abs(expectExactHull(points) - 512)).toBeLessThan(1e-9);
  });
});
