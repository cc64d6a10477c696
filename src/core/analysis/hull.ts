/**
 * Convex-hull volume of a point cloud (quickhull3d; exact hull, robust on coplanar lattice faces, see
 * algorithms.md §3.1). Upstream C2NP uses Qhull 'QJ' (joggled), which differs by ~1e-10 relative.
 */
import type quickhullRunner from 'quickhull3d';
// The package's dist/index.js uses extensionless relative imports that plain Node ESM (CLI, vitest) cannot
// resolve; its self-contained bundle is the same function and loads everywhere. It ships no .d.ts of its own.
// @ts-ignore -- typed through the package's main entry below
import quickhullBundle from 'quickhull3d/dist/quickhull3d.js';

const quickhull = quickhullBundle as typeof quickhullRunner;

/** Coordinates as flat xyz triples or as a list of points. */
export type PointCloud = Float64Array | ArrayLike<readonly [number, number, number] | number[]>;

/** Flattens any accepted point cloud to xyz triples. */
export function flatCoordinates(points: PointCloud): Float64Array {
  if (points instanceof Float64Array) return points;
  const out = new Float64Array(points.length * 3);
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    out[3 * i] = p[0]; out[3 * i + 1] = p[1]; out[3 * i + 2] = p[2];
  }
  return out;
}

interface CentredHull {
  /** Points relative to their centroid (particles sit tens of Å from the file origin, which would cost digits). */
  centred: [number, number, number][];
  /** Hull faces as point-index polygons; empty for fewer than 4 points or a flat/degenerate cloud. */
  faces: number[][];
}

function centredHull(points: PointCloud): CentredHull {
  const xyz = flatCoordinates(points);
  const n = xyz.length / 3;
  let cx = 0, cy = 0, cz = 0;
  for (let i = 0; i < n; i++) { cx += xyz[3 * i]; cy += xyz[3 * i + 1]; cz += xyz[3 * i + 2]; }
  cx /= n; cy /= n; cz /= n;
  const centred: [number, number, number][] = new Array(n);
  for (let i = 0; i < n; i++) centred[i] = [xyz[3 * i] - cx, xyz[3 * i + 1] - cy, xyz[3 * i + 2] - cz];
  if (n < 4) return { centred, faces: [] };
  try {
    return { centred, faces: quickhull(centred) };
  } catch {
    return { centred, faces: [] };
  }
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
  for (const f of faces) {
    const a = centred[f[0]];
    for (let k = 1; k + 1 < f.length; k++) {
      const b = centred[f[k]], c = centred[f[k + 1]];
      six += a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
    }
  }
  const volume = Math.abs(six) / 6;
  return Number.isFinite(volume) ? volume : 0;
}
