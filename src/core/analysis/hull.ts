/**
 * Convex hulls of point clouds: the quickhull kernel (kernels/quickhull.ts, exact orientation tests), so the hull is
 * that of the coordinates as given, coplanar facet atoms included, as scipy.spatial.ConvexHull's. Upstream C2NP uses
 * Qhull 'QJ' (joggled), which differs by ~1e-10 relative.
 */
import { type KernelArena, kernelArena, kernels } from '../math/kernels.ts';

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

// Point-cloud loops shared by the analyses (Hausdorff, RDF, alignment), each a small function of its own: a
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
  /** Hull triangles, 3 point indices each (flat); empty for fewer than 4 points or a flat/degenerate cloud. */
  triangles: number[];
}

function centredHull(points: PointCloud): CentredHull {
  const xyz = flatCoordinates(points);
  const n = xyz.length / 3;
  const arena = kernelArena();
  const centredAt = arena.zerosF64(3 * n);
  kernels().centre(arena.put(xyz), n, centredAt);
  const centred = arena.readF64(centredAt, 3 * n);
  return { centred, triangles: n < 4 ? [] : hullTriangles(arena, centredAt, n) };
}

/** The hull's triangles (point indices, counter-clockwise seen from outside) of the n points at `pointsAt`; none when they are flat. */
function hullTriangles(arena: KernelArena, pointsAt: number, n: number): number[] {
  const faces = 2 * n + 8;
  const vertices = arena.zerosI32(3 * faces),
    neighbours = arena.zerosI32(3 * faces),
    areas = arena.zerosF64(faces),
    states = arena.zerosI32(faces),
    outsides = arena.zerosI32(faces),
    next = arena.zerosI32(n),
    free = arena.zerosI32(faces),
    work = arena.zerosI32(4 * n + 16),
    horizon = arena.zerosI32(4 * faces),
    orphans = arena.zerosI32(n),
    walk = arena.zerosI32(3 * faces);
  const used = kernels().quickhull(
    pointsAt,
    n,
    vertices,
    neighbours,
    areas,
    states,
    outsides,
    next,
    free,
    work,
    4 * n + 16,
    horizon,
    horizon + 4 * faces,
    horizon + 8 * faces,
    horizon + 12 * faces,
    orphans,
    walk,
  );
  const onHull = arena.readI32(states, used),
    corners = arena.readI32(vertices, 3 * used);
  const out: number[] = [];
  for (let f = 0; f < used; f++) if (onHull[f] === 1) out.push(corners[3 * f], corners[3 * f + 1], corners[3 * f + 2]);
  return out;
}

/** Triangles (3 point indices each) of the convex hull; empty when there are fewer than 4 points or it is flat. */
export const convexHullTriangles = (points: PointCloud): number[] => centredHull(points).triangles;

/**
 * Volume in Å³ of the convex hull. Fewer than 4 points, or a flat/degenerate cloud, give 0 — the value the
 * reported C2NP baselines use when Qhull fails.
 */
export function convexHullVolume(points: PointCloud): number {
  const { centred: q, triangles } = centredHull(points);
  // Sum of signed tetrahedra (origin = centroid, inside the hull) over the triangles.
  let six = 0;
  for (let t = 0; t < triangles.length; t += 3) {
    const a = 3 * triangles[t],
      b = 3 * triangles[t + 1],
      c = 3 * triangles[t + 2];
    six +=
      q[a] * (q[b + 1] * q[c + 2] - q[b + 2] * q[c + 1]) -
      q[a + 1] * (q[b] * q[c + 2] - q[b + 2] * q[c]) +
      q[a + 2] * (q[b] * q[c + 1] - q[b + 1] * q[c]);
  }
  const volume = Math.abs(six) / 6;
  return Number.isFinite(volume) ? volume : 0;
}
