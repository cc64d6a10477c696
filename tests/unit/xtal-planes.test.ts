/**
 * `structlab planes` against the goldens with the rule of docs/crystallography.md §6: same order, d within 1e-6 Å,
 * normal, origin, intercepts and the polygon's vertex set within 1e-6 Å after mapping our Cartesian frame onto the
 * reference's; our polygon is also checked to be counter-clockwise seen from the normal.
 */
import { describe, expect, it } from 'vitest';
import { structlabInProcess } from '../cli-runner.ts';
import { type Json, corpusPath, readXtalGolden, xtalGoldenNames } from '../xtal-goldens.ts';

type V = number[];
const inv3 = (m: V[]): V[] => {
  const [[a, b, c], [d, e, f], [g, h, i]] = m;
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  return [
    [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
    [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
    [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det],
  ];
};
const rowTimes = (v: V, m: V[]): V => [0, 1, 2].map((x) => v[0] * m[0][x] + v[1] * m[1][x] + v[2] * m[2][x]);
const close = (a: V, b: V) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) <= 1e-6;

describe.each(xtalGoldenNames())('structlab planes %s', (name) => {
  const golden = readXtalGolden(name).planes;
  it('equals the golden seven families', async () => {
    const hkl = golden.planes.map((p: Json) => p.hkl.join(',')).join(';');
    const r = await structlabInProcess(['planes', corpusPath(name), `--hkl=${hkl}`]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    // Our frame → the reference's: row vectors v · inv(L_ours) · L_ref.
    const map = (v: V) => rowTimes(rowTimes(v, inv3(out.lattice.matrix)), golden.lattice.matrix);
    expect(out.planes.length).toBe(golden.planes.length);
    out.planes.forEach((p: Json, k: number) => {
      const g = golden.planes[k];
      expect(p.hkl).toEqual(g.hkl);
      expect(Math.abs(p.d - g.d)).toBeLessThanOrEqual(1e-6);
      expect(close(map(p.normal), g.normal), `normal ${p.hkl}`).toBe(true);
      expect(close(map(p.origin), g.origin), `origin ${p.hkl}`).toBe(true);
      p.intercepts.forEach((x: V | null, i: number) => {
        if (g.intercepts[i] === null) expect(x).toBeNull();
        else expect(close(map(x!), g.intercepts[i]), `intercept ${i} of ${p.hkl}`).toBe(true);
      });
      expect(p.polygon.length, `polygon of ${p.hkl}`).toBe(g.polygon.length);
      for (const v of p.polygon)
        expect(
          g.polygon.some((w: V) => close(map(v), w)),
          `vertex of ${p.hkl}`,
        ).toBe(true);
      // Counter-clockwise from +normal: every consecutive turn has a positive component along the normal.
      for (let i = 0; p.polygon.length >= 3 && i < p.polygon.length; i++) {
        const [a, b, c] = [0, 1, 2].map((s) => p.polygon[(i + s) % p.polygon.length]);
        const u = [0, 1, 2].map((x) => b[x] - a[x]);
        const w = [0, 1, 2].map((x) => c[x] - b[x]);
        const turn = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
        expect(turn[0] * p.normal[0] + turn[1] * p.normal[1] + turn[2] * p.normal[2]).toBeGreaterThan(0);
      }
    });
  });
});

describe('structlab planes refuses bad indices', () => {
  it('exits 2 with a sentence', async () => {
    const file = corpusPath('pmg-CsSnI3.cif');
    for (const hkl of ['0,0,0', '1,1', '1.5,0,0', 'a,b,c']) {
      const r = await structlabInProcess(['planes', file, '--hkl', hkl]);
      expect(r.code, hkl).toBe(2);
      expect(r.stderr).toMatch(/--hkl/);
    }
    expect((await structlabInProcess(['planes', file])).code).toBe(2);
  });
});
