/**
 * The teaching-view numbers against hand counts and brute force: a simple-cubic Cu crystal (a = 2.6 Å, so
 * only the 6 nearest neighbours are within the bond rule's 1.15 × 2 × 1.32 = 3.036 Å) and rock salt NaCl.
 */
import { describe, expect, it } from 'vitest';
import type { Vec3 } from '../../src/core/math/mat3.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { makeSiteFromFrac, type Structure } from '../../src/core/structure/structure.ts';
import {
  analyzeParticle,
  bulkCoordinationByElement,
  coordinationHistogram,
  particleCoordination,
  radiusSeries,
  rdfCurve,
  surfaceMask,
  teachingBondOptions,
} from '../../src/core/tasks/c2np/teaching.ts';
import { convexHullTriangles } from '../../src/core/analysis/hull.ts';

const A = 2.6;
const simpleCubic: Structure = {
  name: 'sc-Cu',
  lattice: Lattice.cubic(A),
  sites: [makeSiteFromFrac(Lattice.cubic(A), [0, 0, 0], { Cu: 1 })],
};

const rockSalt = (() => {
  const lattice = Lattice.cubic(5.64);
  const sites = [];
  for (const t of [
    [0, 0, 0],
    [0, 0.5, 0.5],
    [0.5, 0, 0.5],
    [0.5, 0.5, 0],
  ] as Vec3[]) {
    sites.push(makeSiteFromFrac(lattice, t, { Na: 1 }));
    sites.push(makeSiteFromFrac(lattice, [(t[0] + 0.5) % 1, (t[1] + 0.5) % 1, (t[2] + 0.5) % 1], { Cl: 1 }));
  }
  return { name: 'NaCl', lattice, sites } as Structure;
})();

/** Brute force: lattice points n·a of the 20³ box centred on ½·20·a, strict |r − c| < R, and their 6-neighbour counts. */
function bruteForceSimpleCubic(radius: number): { natoms: number; surface: number; meanCn: number; cnCounts: number[] } {
  const inside = new Set<string>();
  const points: number[][] = [];
  for (let i = 0; i < 20; i++)
    for (let j = 0; j < 20; j++)
      for (let k = 0; k < 20; k++) {
        if (Math.hypot(i - 10, j - 10, k - 10) * A < radius) {
          inside.add(`${i},${j},${k}`);
          points.push([i, j, k]);
        }
      }
  let surface = 0,
    total = 0;
  const cnCounts = new Array(7).fill(0);
  for (const [i, j, k] of points) {
    let cn = 0;
    for (const [di, dj, dk] of [
      [1, 0, 0],
      [-1, 0, 0],
      [0, 1, 0],
      [0, -1, 0],
      [0, 0, 1],
      [0, 0, -1],
    ])
      if (inside.has(`${i + di},${j + dj},${k + dk}`)) cn++;
    if (cn < 6) surface++;
    total += cn;
    cnCounts[cn]++;
  }
  return { natoms: points.length, surface, meanCn: total / points.length, cnCounts };
}

describe('C2NP teaching numbers', () => {
  const scBonds = teachingBondOptions(simpleCubic);

  it('bulk coordination: 6 in simple cubic and for both ions of rock salt', () => {
    expect(bulkCoordinationByElement(simpleCubic, scBonds)).toEqual({ Cu: 6 });
    expect(bulkCoordinationByElement(rockSalt, teachingBondOptions(rockSalt))).toEqual({ Na: 6, Cl: 6 });
  });

  it('R = 6 Å simple-cubic particle: 57 atoms, 19 interior (|n|² ≤ 2) and 38 surface, by hand', () => {
    // |n|·2.6 < 6 ⇔ |n|² ≤ 5: 1 + 6 + 12 + 8 + 6 + 24 = 57 points; interior needs all of n ± e_k inside, i.e. |n|² ≤ 2.
    const a = analyzeParticle(simpleCubic, { radius: 6 }, scBonds, { Cu: 6 });
    expect(a.stats.natoms).toBe(57);
    expect(a.stats.surfaceAtoms).toBe(38);
    expect(a.stats.surfaceFraction).toBeCloseTo(38 / 57, 12);
  });

  it('surface fraction, mean coordination and histogram equal brute force for R = 6 … 12 Å', () => {
    const series = radiusSeries(simpleCubic, [6, 7, 8, 9, 10, 11, 12], {}, scBonds, { Cu: 6 });
    series.radii.forEach((radius, k) => {
      const brute = bruteForceSimpleCubic(radius);
      expect(series.natoms[k]).toBe(brute.natoms);
      expect(series.surfaceFraction[k]).toBeCloseTo(brute.surface / brute.natoms, 12);
      expect(series.meanCoordination[k]).toBeCloseTo(brute.meanCn, 12);
    });
    const a = analyzeParticle(simpleCubic, { radius: 9 }, scBonds, { Cu: 6 });
    const brute = bruteForceSimpleCubic(9);
    const hist = coordinationHistogram(a.coordination);
    expect(hist).toEqual(brute.cnCounts.slice(0, hist.length));
    expect(brute.cnCounts.slice(hist.length).every((c) => c === 0)).toBe(true);
  });

  it('surface fraction falls as the particle grows (surface ∝ R², volume ∝ R³)', () => {
    const s = radiusSeries(simpleCubic, [6, 12, 24], {}, scBonds, { Cu: 6 });
    expect(s.surfaceFraction[0]).toBeGreaterThan(s.surfaceFraction[1]);
    expect(s.surfaceFraction[1]).toBeGreaterThan(s.surfaceFraction[2]);
  });

  it('rock-salt particle: an isolated ion pair has coordination 1 and both are surface atoms', () => {
    const cn = particleCoordination(
      ['Na', 'Cl'],
      [
        [0, 0, 0],
        [2.82, 0, 0],
      ],
      teachingBondOptions(rockSalt),
    );
    expect(Array.from(cn)).toEqual([1, 1]);
    expect(Array.from(surfaceMask(['Na', 'Cl'], cn, { Na: 6, Cl: 6 }))).toEqual([1, 1]);
  });

  it('pair-distance curve: two points 2.6 Å apart fill only the bin holding 2.6 Å', () => {
    const curve = rdfCurve([
      [0, 0, 0],
      [2.6, 0, 0],
    ]);
    expect(curve.r.length).toBe(128);
    const bin = Math.floor(2.6 / (10 / 128));
    expect(curve.density[bin]).toBeCloseTo(128 / 10, 12); // one pair, density = 1 / width
    expect(curve.density.reduce((s, v) => s + v, 0)).toBeCloseTo(128 / 10, 12);
  });

  it('hull of a cube: 12 triangles over its 8 corners; fewer than 4 points: none', () => {
    const cube: Vec3[] = [];
    for (let i = 0; i < 8; i++) cube.push([i & 1, (i >> 1) & 1, (i >> 2) & 1]);
    cube.push([0.5, 0.5, 0.5]);
    const tri = convexHullTriangles(cube);
    expect(tri.length).toBe(36);
    expect(tri.includes(8)).toBe(false);
    expect(
      convexHullTriangles([
        [0, 0, 0],
        [1, 0, 0],
        [0, 1, 0],
      ]),
    ).toEqual([]);
  });
});

describe('first-shell coordination of a perovskite (CsCaH3, Pm-3m, a = 4.617 Å)', () => {
  // Textbook counts: B cation (Ca) 6 X at a/2, A cation (Cs) 12 X at a/√2, X (H) 2 B + 4 A; A–B at a√3/2 is not a neighbour.
  const a = 4.617;
  const lattice = new Lattice([
    [a, 0, 0],
    [0, a, 0],
    [0, 0, a],
  ]);
  const site = (el: string, f: [number, number, number]) => ({ species: { [el]: 1 }, frac: f, xyz: lattice.fracToCart(f) });
  const crystal: Structure = {
    name: 'CsCaH3',
    lattice,
    sites: [site('Ca', [0, 0, 0]), site('Cs', [0.5, 0.5, 0.5]), site('H', [0.5, 0, 0]), site('H', [0, 0.5, 0]), site('H', [0, 0, 0.5])],
  };

  it('counts 6 for Ca, 12 for Cs and 6 for H in the bulk', () => {
    expect(bulkCoordinationByElement(crystal, teachingBondOptions(crystal))).toEqual({ Ca: 6, Cs: 12, H: 6 });
  });

  it('marks no interior atom as surface in a carved particle', () => {
    const bonds = teachingBondOptions(crystal);
    const bulk = bulkCoordinationByElement(crystal, bonds);
    const p = analyzeParticle(crystal, { radius: 12, repeats: 20 }, bonds, bulk);
    const centre = p.center;
    p.positions.forEach((x, i) => {
      const r = Math.hypot(x[0] - centre[0], x[1] - centre[1], x[2] - centre[2]);
      // Every neighbour of an atom deeper than R − a/√2 − 0.1 lies inside the sphere.
      if (r < 12 - a / Math.SQRT2 - 0.1) expect(p.surface[i], `atom ${i} at r = ${r.toFixed(2)}`).toBe(0);
    });
    expect(p.stats.surfaceAtoms).toBeGreaterThan(0);
  });
});
