import { describe, expect, it } from 'vitest';
import { angle, distance } from '../../src/core/math/measure.ts';
import { pickSphere } from '../../src/viewer/picking.ts';

describe('CPU sphere picking', () => {
  const centers = new Float32Array([0, 0, -10, 0, 0, -5, 3, 0, -5]);
  const radii = new Float32Array([1, 1, 1]);

  it('returns the nearest sphere along the ray', () => {
    expect(pickSphere([0, 0, 0], [0, 0, -1], centers, radii)).toBe(1);
    expect(pickSphere([0, 0, 0], [0, 0, 1], centers, radii)).toBeNull();
    // grazing: offset 0.99 from the axis still hits, 1.01 misses (radius 1)
    expect(pickSphere([3.99, 0, 0], [0, 0, -1], centers, radii)).toBe(2);
    expect(pickSphere([4.01, 0, 0], [0, 0, -1], centers, radii)).toBeNull();
  });

  it('agrees with brute-force ray-sphere intersection on random scenes', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const n = 400;
    const c = new Float32Array(3 * n);
    const r = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      c.set([rand() * 20 - 10, rand() * 20 - 10, rand() * 20 - 30], 3 * i);
      r[i] = 0.3 + rand();
    }
    for (let trial = 0; trial < 50; trial++) {
      const o = [rand() * 10 - 5, rand() * 10 - 5, 0];
      const d = [rand() * 0.4 - 0.2, rand() * 0.4 - 0.2, -1];
      // independent: solve |o + t d - c|^2 = r^2 with the quadratic formula on the unnormalised direction
      let best = -1;
      let bestT = Infinity;
      for (let i = 0; i < n; i++) {
        const oc = [o[0] - c[3 * i], o[1] - c[3 * i + 1], o[2] - c[3 * i + 2]];
        const A = d[0] ** 2 + d[1] ** 2 + d[2] ** 2;
        const B = 2 * (oc[0] * d[0] + oc[1] * d[1] + oc[2] * d[2]);
        const C = oc[0] ** 2 + oc[1] ** 2 + oc[2] ** 2 - r[i] ** 2;
        const disc = B * B - 4 * A * C;
        if (disc < 0) continue;
        const t = (-B - Math.sqrt(disc)) / (2 * A);
        if (t > 0 && t < bestT) {
          bestT = t;
          best = i;
        }
      }
      expect(pickSphere(o, d, c, r)).toBe(best < 0 ? null : best);
    }
  });

  it('measures distances and angles', () => {
    const p = [1, 0, 0, 0, 0, 0, 0, 2, 0];
    expect(distance(p, 0, 2)).toBeCloseTo(Math.sqrt(5), 12);
    expect(angle(p, 0, 1, 2)).toBeCloseTo(90, 12);
  });
});
