// Point-cloud loops of src/core/analysis/hull.ts. Each f64 operation is the one the TypeScript it replaced made, in
// the same order.

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
