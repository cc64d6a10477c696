// The convex hull's pre-filter over all the points, for src/core/analysis/hull.ts (Akl–Toussaint: only the points
// outside the hull of a few extreme points go on to quickhull). Each f64 operation is the one the TypeScript it
// replaced made, in the same order.

/** `centred` (f64 triples) = each of the n points of `xyz` less their centroid (summed in order, then divided by n). */
export function centre(xyz: usize, n: i32, centred: usize): void {
  let sx: f64 = 0,
    sy: f64 = 0,
    sz: f64 = 0;
  for (let i = 0; i < n; i++) {
    const p = xyz + <usize>i * 24;
    sx += load<f64>(p);
    sy += load<f64>(p, 8);
    sz += load<f64>(p, 16);
  }
  sx /= <f64>n;
  sy /= <f64>n;
  sz /= <f64>n;
  for (let i = 0; i < n; i++) {
    const p = xyz + <usize>i * 24,
      q = centred + <usize>i * 24;
    store<f64>(q, load<f64>(p) - sx);
    store<f64>(q, load<f64>(p, 8) - sy, 8);
    store<f64>(q, load<f64>(p, 16) - sz, 16);
  }
}

/** For each of the nDirs directions of `dirs` (f64 triples), the index of the point farthest along it (the first of equals), into `out` (i32). */
export function farthestAlong(xyz: usize, n: i32, dirs: usize, nDirs: i32, out: usize): void {
  for (let k = 0; k < nDirs; k++) {
    const d = dirs + <usize>k * 24;
    const dx = load<f64>(d),
      dy = load<f64>(d, 8),
      dz = load<f64>(d, 16);
    let best = -Infinity,
      at = 0;
    for (let i = 0; i < n; i++) {
      const p = xyz + <usize>i * 24;
      const v = load<f64>(p) * dx + load<f64>(p, 8) * dy + load<f64>(p, 16) * dz;
      if (v > best) {
        best = v;
        at = i;
      }
    }
    store<i32>(out + ((<usize>k) << 2), at);
  }
}

/**
 * Into `keep` (i32), in increasing order, the points at or beyond the sphere of radius² r2 that lie on or beyond
 * some plane n·p = d of `planes` (nPlanes of them, nx, ny, nz, d as f64); returns how many.
 */
export function outsidePoints(xyz: usize, n: i32, r2: f64, planes: usize, nPlanes: i32, keep: usize): i32 {
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const p = xyz + <usize>i * 24;
    const x = load<f64>(p),
      y = load<f64>(p, 8),
      z = load<f64>(p, 16);
    if (!(x * x + y * y + z * z >= r2)) continue;
    for (let k = 0; k < nPlanes; k++) {
      const q = planes + <usize>k * 32;
      if (load<f64>(q) * x + load<f64>(q, 8) * y + load<f64>(q, 16) * z >= load<f64>(q, 24)) {
        store<i32>(keep + ((<usize>kept) << 2), i);
        kept++;
        break;
      }
    }
  }
  return kept;
}
