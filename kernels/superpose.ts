// The sums over matched pairs behind a rigid superposition (Horn 1987), and the application of a rigid motion, for
// src/core/analysis/alignment.ts. Each f64 operation is the one the TypeScript it replaced made, in the same order.

/**
 * Into `out` (15 f64): the centroids of the moving and target points of the n pairs (i32 moving index, target
 * index), then the 9 sums Σ (p − p̄)_a (q − q̄)_b, a and b over x, y, z (xx, xy, xz, yx, …, zz).
 */
export function pairSums(moving: usize, target: usize, pairs: usize, n: i32, out: usize): void {
  let px: f64 = 0,
    py: f64 = 0,
    pz: f64 = 0,
    qx: f64 = 0,
    qy: f64 = 0,
    qz: f64 = 0;
  for (let k = 0; k < n; k++) {
    const i = moving + <usize>load<i32>(pairs + ((<usize>k) << 3)) * 24,
      j = target + <usize>load<i32>(pairs + ((<usize>k) << 3), 4) * 24;
    px += load<f64>(i);
    qx += load<f64>(j);
    py += load<f64>(i, 8);
    qy += load<f64>(j, 8);
    pz += load<f64>(i, 16);
    qz += load<f64>(j, 16);
  }
  const count: f64 = n > 0 ? <f64>n : 1;
  const cpx = px / count,
    cpy = py / count,
    cpz = pz / count,
    cqx = qx / count,
    cqy = qy / count,
    cqz = qz / count;
  let xx: f64 = 0,
    xy: f64 = 0,
    xz: f64 = 0,
    yx: f64 = 0,
    yy: f64 = 0,
    yz: f64 = 0,
    zx: f64 = 0,
    zy: f64 = 0,
    zz: f64 = 0;
  for (let k = 0; k < n; k++) {
    const i = moving + <usize>load<i32>(pairs + ((<usize>k) << 3)) * 24,
      j = target + <usize>load<i32>(pairs + ((<usize>k) << 3), 4) * 24;
    const ax = load<f64>(i) - cpx,
      ay = load<f64>(i, 8) - cpy,
      az = load<f64>(i, 16) - cpz;
    const bx = load<f64>(j) - cqx,
      by = load<f64>(j, 8) - cqy,
      bz = load<f64>(j, 16) - cqz;
    xx += ax * bx;
    xy += ax * by;
    xz += ax * bz;
    yx += ay * bx;
    yy += ay * by;
    yz += ay * bz;
    zx += az * bx;
    zy += az * by;
    zz += az * bz;
  }
  store<f64>(out, cpx);
  store<f64>(out, cpy, 8);
  store<f64>(out, cpz, 16);
  store<f64>(out, cqx, 24);
  store<f64>(out, cqy, 32);
  store<f64>(out, cqz, 40);
  store<f64>(out, xx, 48);
  store<f64>(out, xy, 56);
  store<f64>(out, xz, 64);
  store<f64>(out, yx, 72);
  store<f64>(out, yy, 80);
  store<f64>(out, yz, 88);
  store<f64>(out, zx, 96);
  store<f64>(out, zy, 104);
  store<f64>(out, zz, 112);
}

/** out = R·x + t for each of the n points of `xyz`; `motion` holds R by rows (9 f64), then t (3 f64). */
export function rigidMotion(xyz: usize, n: i32, motion: usize, out: usize): void {
  const r00 = load<f64>(motion),
    r01 = load<f64>(motion, 8),
    r02 = load<f64>(motion, 16),
    r10 = load<f64>(motion, 24),
    r11 = load<f64>(motion, 32),
    r12 = load<f64>(motion, 40),
    r20 = load<f64>(motion, 48),
    r21 = load<f64>(motion, 56),
    r22 = load<f64>(motion, 64),
    tx = load<f64>(motion, 72),
    ty = load<f64>(motion, 80),
    tz = load<f64>(motion, 88);
  for (let i = 0; i < n; i++) {
    const p = xyz + <usize>i * 24,
      q = out + <usize>i * 24;
    const x = load<f64>(p),
      y = load<f64>(p, 8),
      z = load<f64>(p, 16);
    store<f64>(q, r00 * x + r01 * y + r02 * z + tx);
    store<f64>(q, r10 * x + r11 * y + r12 * z + ty, 8);
    store<f64>(q, r20 * x + r21 * y + r22 * z + tz, 16);
  }
}
