/**
 * C2NP metrics against the upstream values in metric_cases.json (computed by the benchmark's own numpy/scipy
 * functions), hull volumes against analytic solids, Hausdorff against brute force.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alignParticles } from '../../src/core/analysis/alignment.ts';
import { describe, expect, it } from 'vitest';
import { hausdorffDistance } from '../../src/core/analysis/hausdorff.ts';
import { convexHullVolume } from '../../src/core/analysis/hull.ts';
import { pairDistanceHistogram } from '../../src/core/analysis/rdf.ts';
import {
  averageForwardMetrics,
  forwardMetrics,
  inverseMetrics,
  type LatticeParameters,
  type Particle,
} from '../../src/core/tasks/c2np/metrics.ts';
import { runMetrics } from '../../src/cli/commands/metrics.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { expectRelClose } from '../expect.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const golden: any = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'c2np', 'metric_cases.json'), 'utf8'));

const particle = (p: { symbols: string[]; coords: number[][] }): Particle => ({
  symbols: p.symbols,
  coords: new Float64Array(p.coords.flat()),
});

/** The absolute floor under the relative tolerances, for values that are zero upstream. */
const FLOOR = 1e-12;

describe('C2NP forward metrics (metric_cases.json, 1e-9 relative; hulls 1e-6)', () => {
  for (const c of golden.cases) {
    it(c.name, () => {
      const m = c.metrics;
      const pred = particle(c.pred),
        truth = particle(c.gt);
      const got = forwardMetrics(pred, truth, { radius: c.R_for_vratio, aligned: false });
      expect(got.n_pred).toBe(m.n_pred);
      expect(got.n_truth).toBe(m.n_gt);
      expectRelClose(got.rmsd, m.rmsd_c2np, 1e-9, FLOOR);
      expectRelClose(got.hausdorff, m.hausdorff, 1e-9, FLOOR);
      expectRelClose(got.rdf_error, m.rdf_energy, 1e-9, FLOOR);
      // Upstream uses Qhull QJ (joggled); the exact hull differs by ~1e-10 relative, and the golden file has the exact one too.
      expectRelClose(got.hull_volume_pred, m.hull_volume_pred_exact, 1e-12, 1e-9 * m.hull_volume_pred_exact);
      expectRelClose(got.hull_volume_truth, m.hull_volume_gt_exact, 1e-12, 1e-9 * m.hull_volume_gt_exact);
      expectRelClose(got.hull_volume_pred, m.hull_volume_pred_QJ, 1e-6, FLOOR);
      // ΔHull of a rigid motion is pure QJ noise upstream (~1e-8 Å³): compare on the scale of the volumes.
      expectRelClose(got.delta_hull_volume, m.delta_hull_vol, 1e-6, 1e-6 * m.hull_volume_gt_QJ);
      expectRelClose(got.volume_ratio, m.vratio_pred, 1e-6, FLOOR);
      if (c.rdf_hist_gt) {
        const hg = pairDistanceHistogram(truth.coords),
          hp = pairDistanceHistogram(pred.coords);
        expect(hg.inRange).toBe(m.rdf_pairs_in_range_gt);
        expect(hp.inRange).toBe(m.rdf_pairs_in_range_pred);
        c.rdf_hist_gt.forEach((v: number, k: number) => expectRelClose(hg.density[k], v, 1e-12, FLOOR));
        c.rdf_hist_pred.forEach((v: number, k: number) => expectRelClose(hp.density[k], v, 1e-12, FLOOR));
      }
    });
  }

  it('split averages skip undefined RMSDs (different counts) and equal the mean of the golden values', () => {
    const results = golden.cases.map((c: { pred: never; gt: never; R_for_vratio: number }) =>
      forwardMetrics(particle(c.pred), particle(c.gt), { radius: c.R_for_vratio, aligned: false }),
    );
    const avg = averageForwardMetrics(results);
    const mean = (xs: (number | null)[]) => {
      const v = xs.filter((x): x is number => x !== null);
      return v.reduce((a, b) => a + b, 0) / v.length;
    };
    const values = (key: string) => golden.cases.map((c: { metrics: Record<string, number | null> }) => c.metrics[key]);
    expectRelClose(avg.rmsd, mean(values('rmsd_c2np')), 1e-9, FLOOR);
    expectRelClose(avg.hausdorff, mean(values('hausdorff')), 1e-9, FLOOR);
    expectRelClose(avg.rdf_error, mean(values('rdf_energy')), 1e-9, FLOOR);
    expectRelClose(avg.volume_ratio, mean(values('vratio_pred')), 1e-6, FLOOR);
  });

  it('volume_ratio is null without a radius', () => {
    const c = golden.cases[0];
    expect(forwardMetrics(particle(c.pred), particle(c.gt), { aligned: false }).volume_ratio).toBeNull();
  });
});

describe('C2NP inverse metrics (task2_example)', () => {
  it('lattice RMSE, space-group and joint accuracy', () => {
    const t = golden.task2_example;
    const got = inverseMetrics(
      t.per_sample.map((s: { pred_lattice: LatticeParameters; pred_sg: number }) => ({
        predLattice: s.pred_lattice,
        predSpacegroup: s.pred_sg,
        trueLattice: t.true_lattice,
        trueSpacegroup: t.true_spacegroup,
      })),
    );
    expectRelClose(got.lattice_rmse, t.lattice_rmse, 1e-9, FLOOR);
    expect(got.sg_accuracy).toBe(t.sg_accuracy);
    expect(got.joint_accuracy).toBe(t.joint_accuracy);
  });
});

/** Lattice points of a simple-cubic grid (a = 1) inside a sphere: hull faces full of coplanar points. */
function latticeSphere(radius: number, a: number): number[][] {
  const out: number[][] = [];
  const n = Math.ceil(radius / a);
  for (let i = -n; i <= n; i++)
    for (let j = -n; j <= n; j++)
      for (let k = -n; k <= n; k++) {
        if (Math.hypot(i, j, k) * a < radius) out.push([i * a + 40, j * a - 17, k * a + 3]);
      }
  return out;
}

describe('convex hull volume', () => {
  it('is exact on a cube grid and an octahedron of lattice points (degenerate coplanar faces)', () => {
    const cube: number[][] = [];
    for (let i = 0; i <= 8; i++)
      for (let j = 0; j <= 8; j++) for (let k = 0; k <= 8; k++) cube.push([i * 0.5 + 100, j * 0.5, k * 0.5 - 50]);
    expect(convexHullVolume(cube)).toBeCloseTo(64, 9);
    const octahedron = latticeSphere(20, 1).filter(([x, y, z]) => Math.abs(x - 40) + Math.abs(y + 17) + Math.abs(z - 3) <= 6);
    // |x|+|y|+|z| ≤ 6: volume (4/3)·6³.
    expect(convexHullVolume(octahedron)).toBeCloseTo((4 / 3) * 216, 9);
  });

  it('a lattice sphere: the volume is invariant to point order and below the ball', () => {
    const pts = latticeSphere(6.5, 1);
    const v = convexHullVolume(pts);
    const reversed = convexHullVolume([...pts].reverse());
    expect(Math.abs(v - reversed)).toBeLessThan(1e-9 * v);
    expect(v).toBeLessThan((4 / 3) * Math.PI * 6.5 ** 3);
    expect(v).toBeGreaterThan((4 / 3) * Math.PI * 5.5 ** 3);
  });

  it('matches scipy ConvexHull volumes on FCC Au spheres (a = 4.08 Å), also rotated and moved far away', () => {
    const a = 4.08;
    const fccSphere = (radius: number) => {
      const out: number[][] = [];
      const n = Math.ceil(radius / a) + 1;
      const basis = [
        [0, 0, 0],
        [0.5, 0.5, 0],
        [0.5, 0, 0.5],
        [0, 0.5, 0.5],
      ];
      for (let i = -n; i <= n; i++)
        for (let j = -n; j <= n; j++)
          for (let k = -n; k <= n; k++)
            for (const b of basis) {
              const p = [(i + b[0]) * a, (j + b[1]) * a, (k + b[2]) * a];
              if (Math.hypot(p[0], p[1], p[2]) < radius) out.push(p);
            }
      return out;
    };
    const small = fccSphere(6.68 * a);
    expect(small.length).toBe(5017);
    // The table gives 4 decimals.
    expect(Math.abs(convexHullVolume(small) - 79406.6573)).toBeLessThan(6e-5);
    const [c, s] = [Math.cos(0.7), Math.sin(0.7)];
    const moved = small.map(([x, y, z]) => [c * x - s * z + 1000, y - 2000, s * x + c * z + 500]);
    expect(Math.abs(convexHullVolume(moved) - 79406.6573)).toBeLessThan(6e-5);
    const large = fccSphere(14.4 * a);
    expect(large.length).toBe(49901);
    expect(Math.abs(convexHullVolume(large) - 823565.3253)).toBeLessThan(6e-5);
  });

  it('is 0 for fewer than 4 points and for a flat set', () => {
    expect(
      convexHullVolume([
        [0, 0, 0],
        [1, 0, 0],
        [0, 1, 0],
      ]),
    ).toBe(0);
    expect(
      convexHullVolume([
        [0, 0, 0],
        [1, 0, 0],
        [0, 1, 0],
        [1, 1, 0],
        [0.5, 0.3, 0],
      ]),
    ).toBeLessThan(1e-12);
  });
});

describe('Hausdorff distance (cell list) equals brute force', () => {
  it('on random clouds with different sizes, scales and offsets', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const [na, nb, spread, offset] of [
      [300, 250, 10, 0],
      [50, 400, 3, 25],
      [1, 200, 20, -60],
      [500, 3, 5, 0],
    ]) {
      const a = Array.from({ length: na }, () => [rand() * spread, rand() * spread, rand() * spread]);
      const b = Array.from({ length: nb }, () => [rand() * spread + offset, rand() * spread, rand() * spread * 0.2]);
      const directed = (p: number[][], q: number[][]) =>
        Math.max(...p.map((x) => Math.min(...q.map((y) => Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2])))));
      const brute = Math.max(directed(a, b), directed(b, a));
      expect(Math.abs(hausdorffDistance(a, b) - brute)).toBeLessThanOrEqual(1e-12 * brute);
    }
  });
});

describe('pair-distance histogram (z-sorted columns) equals a count of every pair', () => {
  /** Every pair i < j, binned by numpy's rule: edges k·(rMax/bins), [e_k, e_k+1), the last bin closed. */
  function bruteCounts(p: number[][], bins: number, rMax: number): number[] {
    const counts = new Array<number>(bins).fill(0);
    const edges = Array.from({ length: bins + 1 }, (_, k) => k * (rMax / bins));
    for (let i = 0; i < p.length; i++)
      for (let j = i + 1; j < p.length; j++) {
        const d = Math.sqrt((p[i][0] - p[j][0]) ** 2 + (p[i][1] - p[j][1]) ** 2 + (p[i][2] - p[j][2]) ** 2);
        if (d > rMax) continue;
        let k = 0;
        while (k < bins - 1 && d >= edges[k + 1]) k++;
        counts[k]++;
      }
    return counts;
  }
  let seed = 11;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const clouds: [string, number[][], number][] = [
    ['a dense random ball', Array.from({ length: 700 }, () => [rand() * 18, rand() * 18, rand() * 18]), 10],
    // More than 64 atoms in one column: the crowded-column sort.
    ['atoms on a line along z', Array.from({ length: 300 }, (_, k) => [0.1, 0.2, k * 0.137]), 10],
    [
      'coincident atoms and a far cluster',
      [...Array(40).fill([1, 1, 1]), ...Array.from({ length: 80 }, () => [50 + rand(), rand(), rand()])],
      10,
    ],
    // Atoms exactly on column boundaries (multiples of rMax/3) and at distance exactly rMax.
    [
      'a grid of spacing rMax/3',
      Array.from({ length: 343 }, (_, k) => [(k % 7) * (10 / 3), (Math.floor(k / 7) % 7) * (10 / 3), Math.floor(k / 49) * (10 / 3)]),
      10,
    ],
    // Spread wider than 160 columns of rMax/3: the column side grows.
    ['a wide sparse slab', Array.from({ length: 600 }, () => [rand() * 900, rand() * 40, rand() * 3]), 10],
    ['another cutoff', Array.from({ length: 400 }, () => [rand() * 12, rand() * 12, rand() * 12]), 3.7],
  ];
  for (const [name, cloud, rMax] of clouds) {
    it(name, () => {
      const h = pairDistanceHistogram(cloud, 128, rMax);
      const expected = bruteCounts(cloud, 128, rMax);
      expect(Array.from(h.counts)).toEqual(expected);
      expect(h.inRange).toBe(expected.reduce((a, b) => a + b, 0));
    });
  }
});

describe('structlab metrics (command core)', () => {
  it('reads the C2NP XYZ files and prints the documented keys with the upstream values', async () => {
    const dir = join(REFERENCE, 'golden', 'c2np', 'sample', 'quaternions', 'illustrative_KMgH3_a4.0213_Borigin', 'R7', 'xyz');
    const m = golden.cases.find((c: { name: string }) => c.name === 'dataset_rot1_vs_rot0').metrics;
    const warnings: string[] = [];
    const out = JSON.parse(await runMetrics([join(dir, 'rot_0.xyz'), join(dir, 'rot_1.xyz'), '--radius', '7'], (l) => warnings.push(l)));
    expect(Object.keys(out)).toEqual([
      'n_pred',
      'n_truth',
      'rmsd',
      'hausdorff',
      'hull_volume_pred',
      'hull_volume_truth',
      'delta_hull_volume',
      'rdf_error',
      'volume_ratio',
      'aligned',
    ]);
    expect(Object.keys(out.aligned)).toEqual(['rmsd', 'max_displacement', 'matched_fraction']);
    expect(warnings).toEqual([]);
    expectRelClose(out.rmsd, m.rmsd_c2np, 1e-9, FLOOR);
    expectRelClose(out.hausdorff, m.hausdorff, 1e-9, FLOOR);
    expectRelClose(out.volume_ratio, m.vratio_pred, 1e-6, FLOOR);
    expect(out.rdf_error).toBe(0);
    // Same particle, different frame: the aligned comparison sees it (8-decimal files: ~1e-8 Å).
    expect(out.aligned.rmsd).toBeLessThan(1e-6);
    expect(out.aligned.matched_fraction).toBe(1);
    const noRadius = JSON.parse(await runMetrics([join(dir, 'rot_0.xyz'), join(dir, 'rot_1.xyz')], () => {}));
    expect(noRadius.volume_ratio).toBeNull();
  });
});

describe('structlab metrics on particles large enough for the alignment thread', () => {
  it('gives the aligned comparison the alignment gives in this thread (21,952 atoms)', { timeout: 120_000 }, async () => {
    // A simple-cubic block of two species and the same block turned 30° about z and moved: 28³ atoms is above the
    // size from which the command aligns in a worker thread.
    const side = 28,
      a = 3.1,
      turn = Math.PI / 6;
    const symbols: string[] = [],
      truth: number[] = [],
      pred: number[] = [];
    for (let i = 0; i < side; i++)
      for (let j = 0; j < side; j++)
        for (let k = 0; k < side; k++) {
          symbols.push((i + j + k) % 2 ? 'Na' : 'Cl');
          const [x, y, z] = [i * a, j * a, k * a];
          truth.push(x, y, z);
          pred.push(Math.cos(turn) * x - Math.sin(turn) * y + 5, Math.sin(turn) * x + Math.cos(turn) * y - 2, z + 1);
        }
    const xyz = (c: number[]) =>
      `${symbols.length}\n\n${symbols.map((s, n) => `${s} ${c[3 * n]} ${c[3 * n + 1]} ${c[3 * n + 2]}`).join('\n')}\n`;
    const dir = mkdtempSync(join(tmpdir(), 'metrics-thread-'));
    try {
      writeFileSync(join(dir, 'pred.xyz'), xyz(pred));
      writeFileSync(join(dir, 'truth.xyz'), xyz(truth));
      const warnings: string[] = [];
      const out = JSON.parse(await runMetrics([join(dir, 'pred.xyz'), join(dir, 'truth.xyz')], (l) => warnings.push(l)));
      expect(warnings).toEqual([]);
      const direct = alignParticles(
        { symbols, coords: new Float64Array(pred.map((v) => Number(String(v)))) },
        { symbols, coords: new Float64Array(truth) },
      );
      expect(out.aligned).toEqual({
        rmsd: direct.rmsd,
        max_displacement: direct.maxDisplacement,
        matched_fraction: direct.matchedFraction,
      });
      expect(out.aligned.matched_fraction).toBe(1);
      expect(out.aligned.rmsd).toBeLessThan(1e-9);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
