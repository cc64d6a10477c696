/**
 * CPU picking: the nearest sphere hit by a ray, by a linear scan over the instance buffers.
 * It only runs on click; ~1M spheres take a few milliseconds, so no acceleration structure is kept.
 */
export function pickSphere(
  origin: ArrayLike<number>,
  direction: ArrayLike<number>,
  centers: Float32Array,
  radii: Float32Array,
  radiusScale = 1,
): number | null {
  const [ox, oy, oz] = [origin[0], origin[1], origin[2]];
  const len = Math.hypot(direction[0], direction[1], direction[2]);
  const [dx, dy, dz] = [direction[0] / len, direction[1] / len, direction[2] / len];
  let best = -1;
  let bestT = Infinity;
  const n = radii.length;
  for (let i = 0; i < n; i++) {
    const cx = centers[3 * i] - ox;
    const cy = centers[3 * i + 1] - oy;
    const cz = centers[3 * i + 2] - oz;
    const t = cx * dx + cy * dy + cz * dz;
    const r = radii[i] * radiusScale;
    if (t + r < 0) continue;
    const d2 = cx * cx + cy * cy + cz * cz - t * t;
    if (d2 > r * r) continue;
    const hit = t - Math.sqrt(r * r - d2);
    if (hit < bestT) {
      bestT = hit;
      best = i;
    }
  }
  return best < 0 ? null : best;
}
