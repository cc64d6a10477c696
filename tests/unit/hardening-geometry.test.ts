/**
 * Issue 10 (hardening), geometry: every analysis terminates with a defined number or a sentence on any finite
 * input — huge or coincident coordinates, collinear/coplanar/empty particles, flat cells, hostile action
 * parameters. Expected values come from brute force or from the definition (a flat hull has volume 0).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alignParticles } from '../../src/core/analysis/alignment.ts';
import { hausdorffDistance, hausdorffWorstPair } from '../../src/core/analysis/hausdorff.ts';
import { convexHullVolume } from '../../src/core/analysis/hull.ts';
import { LIMITS, LimitError } from '../../src/core/limits.ts';
import { matcherFit, matcherRmsDist } from '../../src/core/match/structure-matcher.ts';
import { carveParticle } from '../../src/core/tasks/c2np/carve.ts';
import { forwardMetrics } from '../../src/core/tasks/c2np/metrics.ts';
import { applyAtomworldAction } from '../../src/core/tasks/atomworld/actions.ts';
import { mulberry32 } from '../../src/core/math/random.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { makeSiteFromFrac, type Structure } from '../../src/core/structure/structure.ts';
import { structlabInProcess } from '../cli-runner.ts';
import { errorOf } from '../expect.ts';

const bruteHausdorff = (a: Float64Array, b: Float64Array): number => {
  const directed = (p: Float64Array, q: Float64Array) => {
    let worst = 0;
    for (let i = 0; i < p.length; i += 3) {
      let best = Infinity;
      for (let j = 0; j < q.length; j += 3)
        best = Math.min(best, (p[i] - q[j]) ** 2 + (p[i + 1] - q[j + 1]) ** 2 + (p[i + 2] - q[j + 2]) ** 2);
      worst = Math.max(worst, best);
    }
    return worst;
  };
  return Math.sqrt(Math.max(directed(a, b), directed(b, a)));
};

const particle = (coords: number[]) => ({ symbols: Array(coords.length / 3).fill('Cu'), coords: new Float64Array(coords) });

describe('Hausdorff terminates and is exact for any finite coordinates', () => {
  it('a coordinate of 1e16 (the reported infinite loop) and other huge offsets', () => {
    for (const v of [1e16, 3e16, 2 ** 53 + 2, 1e20, 1e100]) {
      for (const w of [0, 1e-9, 0.3, 1]) {
        const a = new Float64Array([0, 0, 0, w, 0, 0]);
        for (const b of [
          new Float64Array([0, 0, 0, v, 0, 0]),
          new Float64Array([v, v, v, v + 1, v, v]),
          new Float64Array([v, 0, 0, -v, 0, 0]),
        ]) {
          expect(hausdorffDistance(a, b)).toBe(bruteHausdorff(a, b));
        }
      }
    }
  }, 30_000);

  it('random clouds at every scale and offset (grid, far queries through the k-d tree) match brute force', () => {
    const rnd = mulberry32(11);
    for (let trial = 0; trial < 150; trial++) {
      const n = 1 + Math.floor(rnd() * 200),
        m = 1 + Math.floor(rnd() * 200);
      const scale = [1e-6, 1, 100, 1e6][trial % 4],
        off = [0, 5, 1e3, -1e7, 1e15][Math.floor(trial / 4) % 5];
      const a = new Float64Array(3 * n).map(() => (rnd() - 0.5) * scale);
      const b = new Float64Array(3 * m).map((_, k) => (rnd() - 0.5) * scale * (k % 3 === 0 ? 0.01 : 1) + off);
      const expected = bruteHausdorff(a, b);
      expect(hausdorffDistance(a, b)).toBe(expected);
      expect(hausdorffWorstPair(a, b)!.distance).toBe(expected);
    }
  }, 60_000);

  it('coincident points, one point, no points; non-finite points are refused with a sentence', () => {
    const same = new Float64Array(300).fill(2);
    expect(hausdorffDistance(same, same)).toBe(0);
    expect(hausdorffDistance(new Float64Array([1, 2, 3]), same)).toBe(Math.sqrt(2));
    expect(hausdorffDistance(new Float64Array(0), new Float64Array(0))).toBe(0);
    expect(hausdorffWorstPair(new Float64Array(0), same)).toBeNull();
    expect(() => hausdorffDistance(new Float64Array([NaN, 0, 0]), same)).toThrow(/non-finite/);
  });
});

describe('degenerate particles give defined metrics', () => {
  const line = Array.from({ length: 60 }, (_, i) => [i * 0.5, 0, 0]).flat();
  const plane = Array.from({ length: 100 }, (_, i) => [i % 10, Math.floor(i / 10), 0]).flat();
  const pile = new Array(90).fill(1);

  it('hull volume 0 for empty, 1-atom, coincident, collinear and coplanar particles', () => {
    for (const c of [[], [1, 2, 3], pile, line, plane]) expect(convexHullVolume(new Float64Array(c))).toBe(0);
    expect(convexHullVolume(new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]))).toBeCloseTo(1 / 6, 15);
  });

  it('forward metrics of degenerate pairs hold no NaN except the documented rdf_error', () => {
    for (const [p, t] of [
      [line, line],
      [plane, plane],
      [pile, pile],
      [
        [0, 0, 0],
        [0, 0, 0],
      ],
      [line, plane],
      [[1, 2, 3], pile],
    ]) {
      const m = forwardMetrics(particle(p), particle(t));
      for (const [k, v] of Object.entries(m)) if (typeof v === 'number' && k !== 'rdf_error') expect(Number.isFinite(v), k).toBe(true);
      for (const v of Object.values(m.aligned!)) expect(Number.isFinite(v)).toBe(true);
    }
  });

  it('coordinates beyond the policy and non-finite ones are refused by the metrics with a sentence', () => {
    expect(() => forwardMetrics(particle([0, 0, 0, 1, 0, 0]), particle([0, 0, 0, 1e16, 0, 0]))).toThrow(LimitError);
    expect(() => forwardMetrics(particle([0, 0, 0, 1, 0, 0]), particle([0, 0, 0, 1e16, 0, 0]))).toThrow(
      /atom 2 of the truth .*the limit is 1,000,000/,
    );
    expect(() => forwardMetrics(particle([0, 0, 0, NaN, 0, 0]), particle([0, 0, 0, 1, 0, 0]))).toThrow(/non-finite/);
  });

  it('atoms piled on one spot and dense random clouds align in bounded work (greedy past the bound, reported)', () => {
    const rnd = mulberry32(3);
    const pileUp = particle(new Array(3 * 1500).fill(0).map(() => rnd() * 0.2));
    const a = alignParticles(pileUp, particle(new Array(3 * 1500).fill(0).map(() => rnd() * 0.2)));
    expect(a.pairs.length).toBe(1500);
    expect(a.optimal).toBe(false);
    expect(Number.isFinite(a.rmsd)).toBe(true);
    // The truth piled on three spots, the prediction a triangle: every triad fits, the seeds stay bounded.
    const spots = [
      [0, 0, 0],
      [2, 0, 0],
      [0, 2, 0],
    ];
    const truth = particle(Array.from({ length: 1500 }, (_, i) => spots[i % 3]).flat());
    const b = alignParticles(particle([0, 0, 0, 2, 0, 0, 0, 2, 0, 5, 5, 5]), truth);
    expect(b.pairs.length).toBe(4);
  }, 60_000);
});

describe('carving refuses absurd sizes before allocating', () => {
  const cubic = (a: number): Structure => {
    const lattice = new Lattice([
      [a, 0, 0],
      [0, a, 0],
      [0, 0, a],
    ]);
    return { name: 'c', lattice, sites: [makeSiteFromFrac(lattice, [0, 0, 0], { Cu: 1 })] };
  };
  it('radius 1e9, repeats 1e6, flat cells', () => {
    expect(() => carveParticle(cubic(3), { radius: 1e9, repeats: 1000 })).toThrow(/the limit is 200,000 atoms/);
    expect(() => carveParticle(cubic(3), { radius: 1e9, repeats: 1_000_000 })).toThrow(LimitError);
    expect(carveParticle(cubic(3), { radius: 6, repeats: 1_000_000 }).symbols.length).toBeGreaterThan(0);
    const flat = new Lattice([
      [3, 0, 0],
      [0, 3, 0],
      [3, 3, 1e-9],
    ]);
    expect(() =>
      carveParticle(
        { name: 'f', lattice: flat, sites: [makeSiteFromFrac(flat, [0, 0, 0], { Cu: 1 })] },
        { radius: 10, keepLatticeFrame: true },
      ),
    ).toThrow(/flat/);
  });
});

describe('the structure matcher is bounded for programmatic callers', () => {
  const structure = (matrix: number[][], n = 1): Structure => {
    const lattice = new Lattice(matrix);
    return { name: 's', lattice, sites: Array.from({ length: n }, (_, i) => makeSiteFromFrac(lattice, [i / n, 0, 0], { Fe: 1 })) };
  };
  it('a flat cell (α = β = γ = 120°, the reported 4 GB) is refused with a sentence', () => {
    const flat = Lattice.fromParameters(3, 3, 3, 120, 120, 120);
    const s: Structure = { name: 'f', lattice: flat, sites: [makeSiteFromFrac(flat, [0, 0, 0], { Fe: 1 })] };
    expect(() => matcherFit(s, s)).toThrow(/flat cell/);
    expect(() => matcherRmsDist(s, s)).toThrow(LimitError);
  });
  it('a needle cell, a huge cell and too many sites are refused; a normal cell still matches', () => {
    expect(() =>
      matcherFit(
        structure([
          [1e7, 0, 0],
          [0, 3, 0],
          [0, 0, 3],
        ]),
        structure([
          [3, 0, 0],
          [0, 3, 0],
          [0, 0, 3],
        ]),
      ),
    ).toThrow(/at most 1,000,000/);
    const big = structure(
      [
        [3 * LIMITS.matchSites, 0, 0],
        [0, 3, 0],
        [0, 0, 3],
      ],
      LIMITS.matchSites + 1,
    );
    expect(() => matcherFit(big, big)).toThrow(/the limit is 2,000 sites/);
    const needle = structure([
      [2000, 0, 0],
      [0, 2, 0],
      [0, 0, 2],
    ]);
    expect(() =>
      matcherRmsDist(
        needle,
        structure([
          [2, 0, 0],
          [0, 2, 0],
          [0, 0, 2000],
        ]),
      ),
    ).not.toThrow(RangeError);
    expect(
      matcherFit(
        structure([
          [3, 0, 0],
          [0, 3, 0],
          [0, 0, 3],
        ]),
        structure([
          [0, 3, 0],
          [3, 0, 0],
          [0, 0, -3],
        ]),
      ),
    ).toBe(true);
  }, 60_000);
});

describe('AtomWorld actions with hostile parameters', () => {
  const lattice = new Lattice([
    [4, 0, 0],
    [0, 4, 0],
    [0, 0, 4],
  ]);
  const before: Structure = {
    name: 'b',
    lattice,
    sites: [makeSiteFromFrac(lattice, [0, 0, 0], { Fe: 1 }), makeSiteFromFrac(lattice, [0.5, 0.5, 0.5], { O: 1 })],
  };
  it.each([
    ['super_cell', { size: [1e6, 1, 1] }, /the limit is 200,000 atoms/],
    ['super_cell', { size: [NaN, 1, 1] }, /three numbers/],
    ['remove', { index: -1 }, /out of range/],
    ['remove', { index: 1e9 }, /out of range/],
    ['remove', { index: 'x' }, /integer atom index/],
    ['move', { index: 0, displacement: [NaN, 0, 0] }, /./],
    ['rotate_around', { index: 0, axis: [0, 0, 1], angle: NaN }, /./],
    ['change', { index: 0, symbol: 'x'.repeat(100_000) }, /./],
  ])('%s with hostile parameters → a sentence (case %#)', (action, params, message) => {
    const error = errorOf(() => applyAtomworldAction(before, action, params as Record<string, unknown>), Error);
    expect(error.message).toMatch(message);
    expect(error.message.length).toBeLessThan(400);
  });
});

describe('through the CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'structlab-geometry-'));
  it('metrics on a 1e16 coordinate ends with exit 2 and one sentence (no hang)', async () => {
    writeFileSync(join(dir, 'a.xyz'), '2\nc\nFe 0 0 0\nFe 1 0 0\n');
    writeFileSync(join(dir, 'b.xyz'), '2\nc\nFe 0 0 0\nFe 1e16 0 0\n');
    const r = await structlabInProcess(['metrics', join(dir, 'a.xyz'), join(dir, 'b.xyz')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  }, 90_000);

  it('metrics on collinear particles gives finite numbers', async () => {
    const rod = (n: number, d: number) => `${n}\nrod\n${Array.from({ length: n }, (_, i) => `Cu ${i * d} 0 0`).join('\n')}\n`;
    writeFileSync(join(dir, 'r1.xyz'), rod(300, 2.5));
    writeFileSync(join(dir, 'r2.xyz'), rod(250, 2.6));
    const r = await structlabInProcess(['metrics', join(dir, 'r1.xyz'), join(dir, 'r2.xyz')]);
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout);
    expect(m.hull_volume_pred).toBe(0);
    expect(Number.isFinite(m.hausdorff)).toBe(true);
    expect(Number.isFinite(m.aligned.rmsd)).toBe(true);
  }, 90_000);
});
