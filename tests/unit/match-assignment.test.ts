/**
 * The assignment step and the whole matcher against brute force on small cases:
 * - minimumCostAssignment reaches the minimum over all injections (square and rectangular, with
 *   pymatgen's 1e20 sentinel), to 1e-12 relative;
 * - linearAssignmentSquare reading only the listed entries of a matrix that is 1e20 elsewhere (the matcher's
 *   distances) returns the same assignment, cost and column duals, bit for bit, as reading every entry: ties, rows whose only near
 *   column is their own, rows and columns with nothing near, listed entries above 1e20 (the dense fallback);
 * - for a random low-symmetry crystal and a copy with another basis, shuffled sites, a translation
 *   and 0.01 Å noise, get_rms_dist equals the minimum over all species-preserving permutations of
 *   the rms of the mean-removed minimum-image displacements, normalised by (V/n)^(1/3), to 1e-9.
 */
import { describe, expect, it } from 'vitest';
import { type Mat3, type Vec3, inverse, matMul } from '../../src/core/math/mat3.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { type Structure, makeSiteFromCart, makeSiteFromFrac } from '../../src/core/structure/structure.ts';
import { linearAssignmentSquare, minimumCostAssignment } from '../../src/core/match/assignment.ts';
import {
  type MatcherOptions,
  matcherBestMapping,
  matcherFit,
  matcherFitAndRmsDist,
  matcherRmsDist,
} from '../../src/core/match/structure-matcher.ts';
import { gaussian, mulberry32 } from '../../scripts/support/random.ts';

function* injections(rows: number, cols: number, used = new Set<number>(), prefix: number[] = []): Generator<number[]> {
  if (prefix.length === rows) {
    yield [...prefix];
    return;
  }
  for (let c = 0; c < cols; c++) {
    if (used.has(c)) continue;
    used.add(c);
    prefix.push(c);
    yield* injections(rows, cols, used, prefix);
    used.delete(c);
    prefix.pop();
  }
}

describe('minimumCostAssignment', () => {
  it('reaches the brute-force minimum on random square and rectangular matrices with sentinels', () => {
    const rand = mulberry32(3);
    for (let trial = 0; trial < 300; trial++) {
      const rows = 1 + Math.floor(rand() * 6);
      const cols = rows + Math.floor(rand() * 3);
      const cost = Array.from({ length: rows }, () => Float64Array.from({ length: cols }, () => (rand() < 0.2 ? 1e20 : rand() * 10)));
      const got = minimumCostAssignment(cost);
      expect(new Set(got).size).toBe(rows);
      const total = (a: ArrayLike<number>) => Array.from(a).reduce((s, c, r) => s + cost[r][c], 0);
      let best = Infinity;
      for (const p of injections(rows, cols)) best = Math.min(best, total(p));
      expect(Math.abs(total(got) - best)).toBeLessThanOrEqual(1e-12 * Math.max(1, best));
    }
  });
});

/** A random triclinic crystal with no symmetry (species A×3, B×2). */
function randomCrystal(rand: () => number): Structure {
  const lattice = Lattice.fromParameters(
    4 + 2 * rand(),
    4.5 + 2 * rand(),
    5 + 2 * rand(),
    80 + 15 * rand(),
    85 + 15 * rand(),
    95 + 15 * rand(),
  );
  const species = ['Na', 'Na', 'Na', 'Cl', 'Cl'];
  return { name: 'random', lattice, sites: species.map((el) => makeSiteFromFrac(lattice, [rand(), rand(), rand()], { [el]: 1 })) };
}

function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  return permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, k) => [...p.slice(0, k), n - 1, ...p.slice(k)]));
}

/** Minimum-image Cartesian vector for a fractional difference, by search over images in [-2, 2]³. */
function minimumImage(m: Mat3, df: Vec3): Vec3 {
  let best: Vec3 = [0, 0, 0],
    bestD = Infinity;
  for (let i = -2; i <= 2; i++)
    for (let j = -2; j <= 2; j++)
      for (let k = -2; k <= 2; k++) {
        const f = [df[0] - Math.round(df[0]) + i, df[1] - Math.round(df[1]) + j, df[2] - Math.round(df[2]) + k];
        const v = [0, 1, 2].map((x) => f[0] * m[0][x] + f[1] * m[1][x] + f[2] * m[2][x]) as Vec3;
        const d = v[0] ** 2 + v[1] ** 2 + v[2] ** 2;
        if (d < bestD) {
          bestD = d;
          best = v;
        }
      }
  return best;
}

describe('linearAssignmentSquare with the far entries left out', () => {
  it('assigns as the dense reading does, bit for bit, on matrices that are 1e20 outside a few listed entries', () => {
    const rand = mulberry32(20261204);
    const FAR = 1e20;
    let cases = 0,
      farMinima = 0;
    for (let trial = 0; trial < 4000; trial++) {
      const n = 1 + Math.floor(rand() * 14);
      const c = new Float64Array(n * n).fill(FAR);
      const columns = new Int32Array(n * n),
        count = new Int32Array(n);
      // How near entries are spread: a permutation's diagonal only, a few per row, or dense; some columns left with
      // none; some rows left with none (all far).
      const style = trial % 5;
      const perm = Array.from({ length: n }, (_, k) => k).sort(() => rand() - 0.5);
      const empty = style === 3 && n > 1 ? Math.floor(rand() * n) : -1;
      for (let i = 0; i < n; i++) {
        const listed = new Set<number>();
        if (style === 4 && rand() < 0.4) continue;
        if (style !== 3 || perm[i] !== empty) listed.add(perm[i]);
        const extra = style === 0 ? 0 : style === 2 ? n : Math.floor(rand() * 3);
        for (let e = 0; e < extra; e++) {
          const j = Math.floor(rand() * n);
          if (j !== empty) listed.add(j);
        }
        for (const j of listed) {
          // Small integers make ties; now and then a listed entry above far (the column minima then scan densely).
          const value = rand() < 0.002 ? 2 * FAR : rand() < 0.5 ? Math.floor(rand() * 4) : rand() * 3;
          c[i * n + j] = value;
          columns[i * n + count[i]++] = j;
        }
      }
      if (style === 4) {
        // Every column near some row, so that an empty row's scan meets only columns that are exactly far.
        const rows = Array.from({ length: n }, (_, i) => i).filter((i) => count[i] > 0);
        for (let j = 0; j < n && rows.length > 0; j++) {
          let near = false;
          for (const i of rows) for (let q = 0; q < count[i]; q++) near ||= columns[i * n + q] === j;
          if (near) continue;
          const i = rows[Math.floor(rand() * rows.length)];
          c[i * n + j] = Math.floor(rand() * 4);
          columns[i * n + count[i]++] = j;
        }
      }
      const dense = linearAssignmentSquare(c, n);
      const sparse = linearAssignmentSquare(c, n, { columns, count, far: FAR });
      expect([...sparse.rowToColumn], `trial ${trial}`).toEqual([...dense.rowToColumn]);
      // The column duals too: every step saw the same numbers.
      expect([...sparse.duals], `trial ${trial}: duals`).toEqual([...dense.duals]);
      expect(Object.is(sparse.cost, dense.cost), `trial ${trial}: cost ${sparse.cost} against ${dense.cost}`).toBe(true);
      cases++;
      if (dense.cost >= FAR) farMinima++;
    }
    expect(cases).toBe(4000);
    // Rows left with only far entries beyond their own column happen (they send v down by far: the odd columns).
    expect(farMinima).toBeGreaterThan(100);
  });
});

describe('StructureMatcher against brute force', () => {
  it('get_rms_dist equals the best permutation rms for shuffled, re-based, translated, jittered copies', () => {
    const rand = mulberry32(21);
    const gauss = gaussian(mulberry32(22));
    for (let trial = 0; trial < 25; trial++) {
      const a = randomCrystal(rand);
      const T: Mat3 = [
        [1, 1, 0],
        [0, 1, 0],
        [0, -1, 1],
      ];
      const bLattice = new Lattice(matMul(T, a.lattice!.matrix));
      const shift: Vec3 = [rand() * 3, rand() * 3, rand() * 3];
      const order = [2, 0, 4, 1, 3];
      const moved = order.map((k) => {
        const x = a.sites[k].xyz;
        return [x[0] + shift[0] + 0.01 * gauss(), x[1] + shift[1] + 0.01 * gauss(), x[2] + shift[2] + 0.01 * gauss()] as Vec3;
      });
      const b: Structure = {
        name: 'copy',
        lattice: bLattice,
        sites: order.map((k, i) => makeSiteFromCart(bLattice, moved[i], { ...a.sites[k].species })),
      };

      // Brute force in a's lattice (same volume, so scale=True changes nothing): displacements of every
      // species-preserving correspondence after the known shift, mean removed.
      const inv = inverse(a.lattice!.matrix);
      const n = a.sites.length;
      const normalization = Math.cbrt(n / a.lattice!.volume);
      let best = Infinity;
      for (const p of permutations(n)) {
        if (p.some((j, i) => Object.keys(b.sites[i].species)[0] !== Object.keys(a.sites[j].species)[0])) continue;
        const vecs = p.map((j, i) => {
          const d = [0, 1, 2].map((x) => b.sites[i].xyz[x] - shift[x] - a.sites[j].xyz[x]);
          const df = [0, 1, 2].map((x) => d[0] * inv[0][x] + d[1] * inv[1][x] + d[2] * inv[2][x]) as Vec3;
          return minimumImage(a.lattice!.matrix, df);
        });
        const mean = [0, 1, 2].map((x) => vecs.reduce((s, v) => s + v[x], 0) / n);
        const rms =
          Math.sqrt(vecs.reduce((s, v) => s + (v[0] - mean[0]) ** 2 + (v[1] - mean[1]) ** 2 + (v[2] - mean[2]) ** 2, 0) / n) *
          normalization;
        best = Math.min(best, rms);
      }
      const got = matcherRmsDist(a, b, { primitiveCell: false });
      expect(got).not.toBeNull();
      expect(Math.abs(got!.rms - best)).toBeLessThan(1e-9);
      expect(matcherFit(a, b, { primitiveCell: false })).toBe(true);
      // The overlay mapping pairs every site of a with a same-species site of b, one to one.
      const mapping = matcherBestMapping(a, b, { primitiveCell: false })!;
      expect(mapping.rms).toBeCloseTo(got!.rms, 12);
      expect(new Set(mapping.pairs.map((q) => q.b)).size).toBe(n);
      for (const q of mapping.pairs) expect(b.sites[q.b].species).toEqual(a.sites[q.a].species);
      expect(Math.max(...mapping.pairs.map((q) => q.distance))).toBeCloseTo(got!.maxDist, 12);
    }
  });

  it('fit rejects a copy with one atom moved far, and different compositions', () => {
    const rand = mulberry32(8);
    const a = randomCrystal(rand);
    const far = {
      ...a,
      sites: a.sites.map((s, i) =>
        i === 0 ? makeSiteFromFrac(a.lattice!, [s.frac![0] + 0.5, s.frac![1] + 0.5, s.frac![2]], s.species) : s,
      ),
    };
    expect(matcherFit(a, far, { primitiveCell: false, stol: 0.1 })).toBe(false);
    const swapped = { ...a, sites: a.sites.map((s, i) => (i === 0 ? { ...s, species: { K: 1 } } : s)) };
    expect(matcherFit(a, swapped)).toBe(false);
  });

  it('matcherFitAndRmsDist (one reduction) answers as matcherFit and matcherRmsDist do, also when the fit fails but an rms exists', () => {
    const rand = mulberry32(41);
    const a = randomCrystal(rand);
    const moved = (d: number): Structure => ({
      ...a,
      sites: a.sites.map((s, i) => (i === 0 ? makeSiteFromFrac(a.lattice!, [s.frac![0] + d, s.frac![1], s.frac![2]], s.species) : s)),
    });
    // One atom moved: its distance (the max) exceeds stol while the rms stays below it.
    const loose = matcherRmsDist(a, moved(0.12), { primitiveCell: false, stol: 1 })!;
    expect(loose.maxDist).toBeGreaterThan(1.5 * loose.rms);
    const between = (loose.rms + loose.maxDist) / 2;
    const cases: [Structure, Structure, MatcherOptions][] = [
      [a, moved(0.12), { primitiveCell: false, stol: between }],
      [a, moved(0.02), {}],
      [a, moved(0.5), { primitiveCell: false, stol: 0.1 }],
      [a, { ...a, sites: a.sites.map((s, i) => (i === 0 ? { ...s, species: { K: 1 } } : s)) }, {}],
      [a, a, { scale: false, ltol: 0.1 }],
    ];
    let fitFailedWithRms = 0;
    for (const [x, y, o] of cases) {
      const both = matcherFitAndRmsDist(x, y, o);
      expect(both).toEqual({ fit: matcherFit(x, y, o), rms: matcherRmsDist(x, y, o) });
      if (!both.fit && both.rms !== null) fitFailedWithRms++;
    }
    expect(fitFailedWithRms).toBeGreaterThan(0);
  });

  it('treats a 2x1x1 supercell as pymatgen does (structure_matcher.py): primitive reduction or attempt_supercell match it', () => {
    const a = randomCrystal(mulberry32(31));
    const m = a.lattice!.matrix;
    const big = new Lattice([[2 * m[0][0], 2 * m[0][1], 2 * m[0][2]], m[1], m[2]]);
    const sites = [0, 1].flatMap((shift) =>
      a.sites.map((s) => makeSiteFromFrac(big, [(s.frac![0] + shift) / 2, s.frac![1], s.frac![2]], s.species)),
    );
    const supercell: Structure = { name: 'supercell', lattice: big, sites };
    expect(matcherFit(a, supercell)).toBe(true);
    expect(matcherFit(a, supercell, { primitiveCell: false })).toBe(false);
    expect(matcherFit(a, supercell, { primitiveCell: false, attemptSupercell: true })).toBe(true);
    expect(matcherFit(supercell, a, { primitiveCell: false, attemptSupercell: true })).toBe(true);
    expect(matcherRmsDist(a, supercell)!.rms).toBeLessThan(1e-8);
    expect(matcherRmsDist(supercell, a, { primitiveCell: false, attemptSupercell: true })!.rms).toBeLessThan(1e-8);
  });
});
