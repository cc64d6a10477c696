/**
 * Lattice planes (hkl) for drawing (docs/crystallography.md §6): d = 1/|G| with G = h a* + k b* + l c*
 * (pymatgen `Lattice.d_hkl`), the unit normal G/|G|, and the plane in the textbook convention — for a negative
 * index the origin moves to the far end of that axis — with its axis intercepts and its polygon inside the cell.
 */
import { type Vec3, cross, dot, inverse, norm, sub } from '../math/mat3.ts';
import type { Lattice } from '../structure/lattice.ts';
import { atan2 } from '../math/libm.ts';

export interface LatticePlane {
  hkl: Vec3;
  d: number;
  normal: Vec3;
  origin: Vec3;
  intercepts: (Vec3 | null)[];
  polygon: Vec3[];
}

/** The 12 edges of the unit cube in fractional coordinates, as (start corner, axis). */
const CUBE_EDGES: [Vec3, number][] = [];
for (let axis = 0; axis < 3; axis++)
  for (let u = 0; u < 2; u++)
    for (let v = 0; v < 2; v++) {
      const start: Vec3 = [0, 0, 0];
      start[(axis + 1) % 3] = u;
      start[(axis + 2) % 3] = v;
      CUBE_EDGES.push([start, axis]);
    }

export function latticePlane(lattice: Lattice, hkl: Vec3): LatticePlane {
  if (hkl.every((x) => x === 0)) throw new Error('(0 0 0) is not a plane');
  const inv = inverse(lattice.matrix);
  // G = inv(L)ᵀ applied to hkl: Cartesian component x is Σ_i hkl_i · inv[x][i].
  const g: Vec3 = [0, 1, 2].map((x) => hkl[0] * inv[x][0] + hkl[1] * inv[x][1] + hkl[2] * inv[x][2]) as Vec3;
  const gLen = norm(g);
  const o: Vec3 = hkl.map((x) => (x < 0 ? 1 : 0)) as Vec3;
  const cart = (f: Vec3) => lattice.fracToCart(f);
  const intercepts = [0, 1, 2].map((i) => {
    if (hkl[i] === 0) return null;
    const f: Vec3 = [...o];
    f[i] += 1 / hkl[i];
    return cart(f);
  });
  // Plane in fractions: hkl · f = 1 + hkl · o. Cut every cube edge; merge coincident corners.
  const level = 1 + dot(hkl, o);
  const frac: Vec3[] = [];
  for (const [start, axis] of CUBE_EDGES) {
    const rest = dot(hkl, start);
    let points: Vec3[] = [];
    if (hkl[axis] === 0) {
      if (Math.abs(rest - level) < 1e-12) {
        const end: Vec3 = [...start];
        end[axis] = 1;
        points = [start, end];
      }
    } else {
      const t = (level - rest) / hkl[axis];
      if (t >= -1e-12 && t <= 1 + 1e-12) {
        const p: Vec3 = [...start];
        p[axis] = Math.min(1, Math.max(0, t));
        points = [p];
      }
    }
    for (const p of points)
      if (!frac.some((q) => Math.abs(q[0] - p[0]) + Math.abs(q[1] - p[1]) + Math.abs(q[2] - p[2]) < 1e-9)) frac.push(p);
  }
  const normal: Vec3 = [g[0] / gLen, g[1] / gLen, g[2] / gLen];
  let polygon = frac.map(cart);
  if (polygon.length >= 3) {
    // Counter-clockwise seen from +normal: sort by angle around the centroid in the plane's own frame.
    const c: Vec3 = [0, 1, 2].map((x) => polygon.reduce((s, p) => s + p[x], 0) / polygon.length) as Vec3;
    const u = sub(polygon[0], c);
    const uu = norm(u);
    const e1: Vec3 = [u[0] / uu, u[1] / uu, u[2] / uu];
    const e2 = cross(normal, e1);
    const angleOf = (p: Vec3) => {
      const v = sub(p, c);
      return atan2(dot(v, e2), dot(v, e1));
    };
    polygon = polygon
      .map((p) => ({ p, a: angleOf(p) }))
      .sort((x, y) => x.a - y.a)
      .map((x) => x.p);
  }
  return { hkl, d: 1 / gLen, normal, origin: cart(o), intercepts, polygon };
}
