/**
 * Convex-hull volume of a point cloud (quickhull3d; exact hull, robust on coplanar lattice faces, as
 * measured against scipy.spatial.ConvexHull). Upstream C2NP uses Qhull 'QJ' (joggled), which differs by ~1e-10 relative.
 */
import type quickhullRunner from 'quickhull3d';
// The package's dist/index.js uses extensionless relative imports that plain Node ESM (CLI, vitest) cannot
// resolve; its self-contained bundle is the same function and loads everywhere. It ships no .d.ts of its own.
// @ts-expect-error -- typed through the package's main entry below
import quickhullBundle from 'quickhull3d/dist/quickhull3d.js';
import { sin, cos } from '../math/libm.ts';
import { type KernelArena, kernelArena, kernels } from '../math/kernels.ts';

const quickhull = quickhullBundle as typeof quickhullRunner;

/** Coordinates as flat xyz triples or as a list of points. */
export type PointCloud = Float64Array | ArrayLike<readonly [number, number, number] | number[]>;

/** Flattens any accepted point cloud to xyz triples. */
export function flatCoordinates(points: PointCloud): Float64Array {
  if (points instanceof Float64Array) return points;
  const out = new Float64Array(points.length * 3);
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    out[3 * i] = p[0];
    out[3 * i + 1] = p[1];
    out[3 * i + 2] = p[2];
  }
  return out;
}

// Point-cloud loops shared by the analyses (hull, Hausdorff, RDF, alignment), each a small function of its own: a
// long loop inside a larger function is compiled on the fly (OSR) and dropped back to the interpreter at the code after it.

/** Adds the x, y and z of every point to s. */
export function addCoordinates(xyz: Float64Array, s: Float64Array): void {
  for (let i = 0; i < xyz.length; i += 3) {
    s[0] += xyz[i];
    s[1] += xyz[i + 1];
    s[2] += xyz[i + 2];
  }
}

/** Lowers lo and raises hi (x, y, z) to the points' range; a RangeError at the first non-finite coordinate. */
export function finiteBounds(xyz: Float64Array, lo: Float64Array, hi: Float64Array): void {
  const n = xyz.length / 3;
  for (let i = 0; i < n; i++)
    for (let d = 0; d < 3; d++) {
      const v = xyz[3 * i + d];
      if (!Number.isFinite(v)) throw new RangeError(`point ${i + 1} has a non-finite coordinate (${v})`);
      if (v < lo[d]) lo[d] = v;
      if (v > hi[d]) hi[d] = v;
    }
}

interface CentredHull {
  /** Points relative to their centroid (particles sit tens of Å from the file origin, which would cost digits), xyz triples. */
  centred: Float64Array;
  /** Hull faces as point-index polygons; empty for fewer than 4 points or a flat/degenerate cloud. */
  faces: number[][];
}

function centredHull(points: PointCloud): CentredHull {
  const xyz = flatCoordinates(points);
  const n = xyz.length / 3;
  // The loops over every point are WebAssembly kernels (kernels/hull.ts): in a fresh process they ran interpreted
  // for most of their time as TypeScript.
  const arena = kernelArena();
  const centredAt = arena.zerosF64(3 * n);
  kernels().centre(arena.put(xyz), n, centredAt);
  const centred = arena.readF64(centredAt, 3 * n);
  if (n < 4) return { centred, faces: [] };
  const point = (i: number): [number, number, number] => [centred[3 * i], centred[3 * i + 1], centred[3 * i + 2]];
  try {
    const keep = hullCandidates(centred, arena, centredAt) ?? Array.from({ length: n }, (_, i) => i);
    const faces = quickhull(keep.map(point));
    return { centred, faces: faces.map((f) => f.map((k) => keep[k])) };
  } catch {
    return { centred, faces: [] };
  }
}

/** Directions for the pre-filter's extreme points: a Fibonacci sphere (even coverage, no lattice symmetry). */
const PREFILTER_DIRECTIONS: Float64Array = (() => {
  const m = 64,
    golden = Math.PI * (3 - Math.sqrt(5));
  const out = new Float64Array(3 * m);
  for (let k = 0; k < m; k++) {
    const z = 1 - (2 * k + 1) / m,
      r = Math.sqrt(1 - z * z);
    out.set([r * cos(golden * k), r * sin(golden * k), z], 3 * k);
  }
  return out;
})();

/**
 * The points that can be hull vertices (Akl–Toussaint): a point strictly inside the hull of a few extreme points
 * lies strictly inside the full hull, so dropping it changes nothing. For a particle this keeps a thin outer
 * shell (~10 % of the atoms) and saves most of quickhull's work. Null when filtering would not pay or the
 * extreme points are degenerate (then the full set is used).
 */
function hullCandidates(centred: Float64Array, arena: KernelArena, centredAt: number): number[] | null {
  const n = centred.length / 3;
  const p = (i: number): [number, number, number] => [centred[3 * i], centred[3 * i + 1], centred[3 * i + 2]];
  if (n < 200) return null;
  const directions = PREFILTER_DIRECTIONS.length / 3;
  const farthestAt = arena.zerosI32(directions);
  kernels().farthestAlong(centredAt, n, arena.put(PREFILTER_DIRECTIONS), directions, farthestAt);
  const anchors = [...new Set(arena.readI32(farthestAt, directions))];
  if (anchors.length < 4) return null;
  const faces = quickhull(anchors.map(p));
  // Outward face planes n·x = d; the centroid (origin) must be strictly inside all of them.
  let scale = 0;
  for (const i of anchors) scale = Math.max(scale, Math.hypot(centred[3 * i], centred[3 * i + 1], centred[3 * i + 2]));
  const margin = 1e-9 * scale;
  const planes: number[] = [];
  for (const f of faces) {
    const a = p(anchors[f[0]]),
      b = p(anchors[f[1]]),
      c = p(anchors[f[2]]);
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
      w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let nx = u[1] * w[2] - u[2] * w[1],
      ny = u[2] * w[0] - u[0] * w[2],
      nz = u[0] * w[1] - u[1] * w[0];
    const len = Math.hypot(nx, ny, nz);
    if (!(len > 0)) return null;
    nx /= len;
    ny /= len;
    nz /= len;
    let d = nx * a[0] + ny * a[1] + nz * a[2];
    if (d < 0) {
      nx = -nx;
      ny = -ny;
      nz = -nz;
      d = -d;
    }
    if (!(d > margin)) return null; // the centroid is not safely inside: degenerate, use everything
    planes.push(nx, ny, nz, d - margin);
  }
  // A point closer to the centroid than every (margin-shifted) plane is inside them all: no plane loop needed.
  let inscribed2 = Infinity;
  for (let k = 3; k < planes.length; k += 4) inscribed2 = Math.min(inscribed2, planes[k] * planes[k]);
  inscribed2 *= 1 - 1e-9;
  const keepAt = arena.zerosI32(n);
  const kept = kernels().outsidePoints(centredAt, n, inscribed2, arena.put(Float64Array.from(planes)), planes.length / 4, keepAt);
  return kept < 0.8 * n ? Array.from(arena.readI32(keepAt, kept)) : null;
}

/** Triangles (3 point indices each) of the convex hull; empty when there are fewer than 4 points or it is flat. */
export function convexHullTriangles(points: PointCloud): number[] {
  const out: number[] = [];
  for (const f of centredHull(points).faces) for (let k = 1; k + 1 < f.length; k++) out.push(f[0], f[k], f[k + 1]);
  return out;
}

/**
 * Volume in Å³ of the convex hull. Fewer than 4 points, or a flat/degenerate cloud, give 0 — the value the
 * reported C2NP baselines use when Qhull fails.
 */
export function convexHullVolume(points: PointCloud): number {
  const { centred, faces } = centredHull(points);
  // Sum of signed tetrahedra (origin = centroid, inside the hull) over the triangulated faces.
  let six = 0;
  const q = centred;
  for (const f of faces) {
    const a = 3 * f[0];
    for (let k = 1; k + 1 < f.length; k++) {
      const b = 3 * f[k],
        c = 3 * f[k + 1];
      six +=
        q[a] * (q[b + 1] * q[c + 2] - q[b + 2] * q[c + 1]) -
        q[a + 1] * (q[b] * q[c + 2] - q[b + 2] * q[c]) +
        q[a + 2] * (q[b] * q[c + 1] - q[b + 1] * q[c]);
    }
  }
  const volume = Math.abs(six) / 6;
  return Number.isFinite(volume) ? volume : 0;
}
