/**
 * The fingerprint map's principal plane (src/core/analysis/pca.ts) on points built along known orthogonal
 * directions with known spreads: the axes must come back (up to the sign rule) within 1e-9, the shares of
 * variance exactly as built within 1e-9.
 */
import { describe, expect, it } from 'vitest';
import { principalPlane, projectOnPlane } from '../../src/core/analysis/pca.ts';

const DIM = 12;
/** Orthonormal u, w (w ⟂ u) and a third direction z ⟂ both, from fixed numbers. */
function directions(): [number[], number[], number[]] {
  const unit = (v: number[]) => v.map((x) => x / Math.hypot(...v));
  const u = unit(Array.from({ length: DIM }, (_, d) => ((d * 7) % 5) - 2 + 0.25 * d));
  const minus = (v: number[], a: number[]) => {
    const p = v.reduce((s, x, d) => s + x * a[d], 0);
    return v.map((x, d) => x - p * a[d]);
  };
  const w = unit(
    minus(
      Array.from({ length: DIM }, (_, d) => ((d * 3) % 4) - 1.5),
      u,
    ),
  );
  const z = unit(
    minus(
      minus(
        Array.from({ length: DIM }, (_, d) => (d % 2 ? 1 : -0.5) + d / 10),
        u,
      ),
      w,
    ),
  );
  return [u, w, z];
}

describe('principalPlane', () => {
  it('finds the two directions of largest spread and their shares of the variance', () => {
    const [u, w, z] = directions();
    const offset = Array.from({ length: DIM }, (_, d) => 3 - d / 4);
    // Symmetric ±t along each direction: variances 4·Σt², 1·Σt², 0.01·Σt² (spreads 2, 1, 0.1), means exactly `offset`.
    const rows: number[][] = [];
    for (const t of [1, 2, 3, 4, 5]) {
      for (const [dir, spread] of [
        [u, 2],
        [w, 1],
        [z, 0.1],
      ] as const) {
        for (const sign of [1, -1]) rows.push(offset.map((o, d) => o + sign * spread * t * dir[d]));
      }
    }
    const plane = principalPlane(rows);
    const along = (a: Float64Array, v: number[]) => Math.abs(a.reduce((s, x, d) => s + x * v[d], 0));
    expect(along(plane.axes[0], u)).toBeCloseTo(1, 9);
    expect(along(plane.axes[1], w)).toBeCloseTo(1, 9);
    const total = 4 + 1 + 0.01;
    expect(plane.explained[0]).toBeCloseTo(4 / total, 9);
    expect(plane.explained[1]).toBeCloseTo(1 / total, 9);
    plane.mean.forEach((m, d) => expect(m).toBeCloseTo(offset[d], 12));
    // The sign rule: each axis's largest component is positive.
    for (const axis of plane.axes) {
      const largest = axis.reduce((a, x) => (Math.abs(x) > Math.abs(a) ? x : a), 0);
      expect(largest).toBeGreaterThan(0);
    }
    // A point 2·u + 1·w from the mean lands at (±2, ±1).
    const [x, y] = projectOnPlane(
      plane,
      offset.map((o, d) => o + 2 * u[d] + w[d]),
    );
    expect(Math.abs(x)).toBeCloseTo(2, 9);
    expect(Math.abs(y)).toBeCloseTo(1, 9);
  });

  it('maps coinciding points to the origin without NaN', () => {
    const plane = principalPlane([new Array(DIM).fill(1), new Array(DIM).fill(1)]);
    expect(plane.explained).toEqual([0, 0]);
    expect(projectOnPlane(plane, new Array(DIM).fill(1))).toEqual([0, 0]);
  });
});
