/**
 * The facets of a carved particle's convex hull and their Miller indices: hull triangles whose outward normals
 * agree within FACET_ANGLE_DEG are one facet (area-weighted normal, total area, centroid); the facet's (hkl) is
 * the lowest-index plane of the crystal — reciprocal vector G = h a* + k b* + l c* (docs/crystallography.md §6,
 * as `structlab planes`) — whose direction lies within INDEX_ANGLE_DEG of that normal, turned by the particle's
 * rotation. A facet no plane with indices up to MAX_INDEX fits is left unindexed (null): a rough patch, not a face.
 */
import { gcd } from '../math/gcd.ts';
import { type Mat3, type Vec3, cross, dot, inverse, norm, sub, vec3 } from '../math/mat3.ts';
import { Lattice } from '../structure/lattice.ts';
import { angleBetween } from '../math/measure.ts';

export interface Facet {
  /** Miller indices in the crystal's own cell, or null when no low-index plane fits. */
  hkl: Vec3 | null;
  /** Outward unit normal in the particle's frame. */
  normal: Vec3;
  /** Å². */
  area: number;
  /** Area-weighted centroid of the facet's triangles (particle frame), where its label goes. */
  centroid: Vec3;
  triangles: number;
  /** Angle (degrees) between the normal and the plane (hkl); null without hkl. */
  misfit: number | null;
}

/** Triangles whose normals differ by less than this many degrees belong to one facet. */
const FACET_ANGLE_DEG = 3;
/** A facet takes the plane (hkl) whose normal lies within this many degrees of its own. */
const INDEX_ANGLE_DEG = 3;
/** Triangles lower than this fraction of their longest edge are slivers, left out. */
const SLIVER = 1e-6;
/** Largest |h|, |k|, |l| tried. */
const MAX_INDEX = 4;

/** Every primitive (hkl) with indices up to MAX_INDEX, lowest first (sum of |index|, then the order of the loops). */
const CANDIDATES: Vec3[] = (() => {
  const out: Vec3[] = [];
  for (let h = -MAX_INDEX; h <= MAX_INDEX; h++)
    for (let k = -MAX_INDEX; k <= MAX_INDEX; k++)
      for (let l = -MAX_INDEX; l <= MAX_INDEX; l++) if ((h !== 0 || k !== 0 || l !== 0) && gcd(gcd(h, k), l) === 1) out.push(vec3(h, k, l));
  const weight = (v: Vec3) => Math.abs(v[0]) + Math.abs(v[1]) + Math.abs(v[2]);
  return out.sort((a, b) => weight(a) - weight(b));
})();

/**
 * The facets of the hull `triangles` (flat atom-index triples, as convexHullTriangles gives them) over `positions`,
 * largest first. `rotation` is the matrix the particle was turned by (positions = rotation · crystal positions),
 * or null.
 */
export function hullFacets(positions: readonly Vec3[], triangles: ArrayLike<number>, lattice: Lattice, rotation: Mat3 | null): Facet[] {
  const n = positions.length;
  if (n === 0 || triangles.length < 9) return [];
  const centre = vec3(0, 0, 0);
  for (const p of positions) for (let k = 0; k < 3; k++) centre[k] += p[k] / n;
  type Group = { sum: Vec3; area: number; weighted: Vec3; triangles: number; normal: Vec3 };
  const tris: { normal: Vec3; area: number; centroid: Vec3 }[] = [];
  for (let t = 0; t + 2 < triangles.length; t += 3) {
    const a = positions[triangles[t]],
      b = positions[triangles[t + 1]],
      c = positions[triangles[t + 2]];
    const nrm = cross(vec3(b[0] - a[0], b[1] - a[1], b[2] - a[2]), vec3(c[0] - a[0], c[1] - a[1], c[2] - a[2]));
    const twice = norm(nrm);
    // A sliver (its height below 1e-6 of its longest edge) is a crease of the exact hull along a row of atoms that
    // rounding left a hair off their line: its normal says nothing about a facet, and its area is nil.
    const longest = Math.max(norm(sub(a, b)), norm(sub(b, c)), norm(sub(c, a)));
    if (!(twice > SLIVER * longest * longest)) continue;
    const centroid = vec3((a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3);
    // Outward: away from the particle's centre (the hull holds it).
    const out = dot(nrm, vec3(centroid[0] - centre[0], centroid[1] - centre[1], centroid[2] - centre[2])) < 0 ? -1 : 1;
    tris.push({ normal: vec3((out * nrm[0]) / twice, (out * nrm[1]) / twice, (out * nrm[2]) / twice), area: twice / 2, centroid });
  }
  // Largest triangles first, so a facet's direction is set by its bulk, not by a sliver at its edge.
  tris.sort((x, y) => y.area - x.area);
  const groups: Group[] = [];
  for (const t of tris) {
    let g = groups.find((c) => angleBetween(c.normal, t.normal) < FACET_ANGLE_DEG);
    if (!g) {
      g = { sum: vec3(0, 0, 0), area: 0, weighted: vec3(0, 0, 0), triangles: 0, normal: t.normal };
      groups.push(g);
    }
    for (let k = 0; k < 3; k++) {
      g.sum[k] += t.normal[k] * t.area;
      g.weighted[k] += t.centroid[k] * t.area;
    }
    g.area += t.area;
    g.triangles++;
    const len = norm(g.sum);
    g.normal = vec3(g.sum[0] / len, g.sum[1] / len, g.sum[2] / len);
  }
  // Reciprocal vectors (rows a*, b*, c*: columns of the inverse of the row matrix), turned with the particle.
  const inv = inverse(lattice.matrix);
  const turn = (v: Vec3): Vec3 => (rotation ? vec3(dot(rotation[0], v), dot(rotation[1], v), dot(rotation[2], v)) : v);
  const reciprocal = (hkl: Vec3): Vec3 =>
    turn(
      vec3(
        hkl[0] * inv[0][0] + hkl[1] * inv[0][1] + hkl[2] * inv[0][2],
        hkl[0] * inv[1][0] + hkl[1] * inv[1][1] + hkl[2] * inv[1][2],
        hkl[0] * inv[2][0] + hkl[1] * inv[2][1] + hkl[2] * inv[2][2],
      ),
    );
  const directions = CANDIDATES.map((hkl) => ({ hkl, g: reciprocal(hkl) }));
  return groups
    .map((g): Facet => {
      let best: { hkl: Vec3; misfit: number } | null = null;
      for (const { hkl, g: dir } of directions) {
        const misfit = angleBetween(dir, g.normal);
        // Lowest indices first: a later (higher-index) plane must fit strictly better by a clear margin to win.
        if (misfit < INDEX_ANGLE_DEG && (best === null || misfit < best.misfit - 0.5)) best = { hkl, misfit };
      }
      return {
        hkl: best ? best.hkl : null,
        normal: g.normal,
        area: g.area,
        centroid: vec3(g.weighted[0] / g.area, g.weighted[1] / g.area, g.weighted[2] / g.area),
        triangles: g.triangles,
        misfit: best ? best.misfit : null,
      };
    })
    .sort((x, y) => y.area - x.area);
}

/** "(1 1 -1)" — indices with their signs, as structlab planes prints hkl. */
export const millerLabel = (hkl: Vec3): string => `(${hkl.map((x) => String(x)).join(' ')})`;

/** "{1 1 0}" — the family by its index magnitudes, largest first (the cubic habit; other systems read it as a hint). */
export const millerFamily = (hkl: Vec3): string =>
  `{${hkl
    .map((x) => Math.abs(x))
    .sort((x, y) => y - x)
    .join(' ')}}`;

/** A facet as a view labels it. */
export interface FacetLabel {
  /** "(h k l)", or null when no low-index plane fits. */
  label: string | null;
  /** "{h k l}" (millerFamily), or null like the label. */
  family: string | null;
  /** Share of the hull's area, 0–1. */
  share: number;
  /** Where the label goes: the facet's centroid. */
  centroid: [number, number, number];
}

/** The hull's facets for a view, largest first: the particle carved from `cell` (rows a, b, c), turned by `rotation`. */
export function facetLabels(positions: readonly Vec3[], triangles: ArrayLike<number>, cell: Mat3, rotation: Mat3 | null): FacetLabel[] {
  const facets = hullFacets(positions, triangles, new Lattice(cell), rotation);
  const total = facets.reduce((s, f) => s + f.area, 0);
  return facets.map((f) => ({
    label: f.hkl && millerLabel(f.hkl),
    family: f.hkl && millerFamily(f.hkl),
    share: f.area / total,
    centroid: [f.centroid[0], f.centroid[1], f.centroid[2]],
  }));
}
