/**
 * The aligned (order- and rigid-motion-invariant) comparison. Expected values are by construction: a
 * particle moved by a known rotation + translation, shuffled and thinned must superpose back to rmsd ≈ 0.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alignParticles, assignBySpecies, superpose, type Particle } from '../../src/core/analysis/alignment.ts';
import { det } from '../../src/core/math/mat3.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

const C2NP = join(REFERENCE, 'golden', 'c2np');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const cases: any = JSON.parse(readFileSync(join(C2NP, 'metric_cases.json'), 'utf8'));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const rotations: any = JSON.parse(readFileSync(join(C2NP, 'rotation_sets.json'), 'utf8'));

/** Raw R=10 particle (317 atoms, uncentred supercell frame) read directly, independent of the XYZ reader. */
function readXyz(path: string): Particle {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .slice(2)
    .filter((l) => l.trim().split(/\s+/).length >= 4);
  const symbols = lines.map((l) => l.trim().split(/\s+/)[0]);
  return { symbols, coords: new Float64Array(lines.flatMap((l) => l.trim().split(/\s+/).slice(1, 4).map(Number))) };
}

let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/** Rotation matrix of a scalar-last unit quaternion (scipy Rotation.from_quat order, as C2NP stores them). */
function quaternionMatrix([x, y, z, w]: number[]): number[][] {
  const n = Math.hypot(x, y, z, w);
  [x, y, z, w] = [x / n, y / n, z / n, w / n];
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
}

/** Rotate (about the file origin, as C2NP does), translate, shuffle and drop `remove` atoms. */
function transformed(p: Particle, quaternion: number[], shift: number[], remove: number, noise = 0): Particle {
  const R = quaternionMatrix(quaternion);
  const order = [...p.symbols.keys()];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const kept = order.slice(remove);
  const coords = new Float64Array(kept.length * 3);
  kept.forEach((i, k) => {
    const v = [p.coords[3 * i], p.coords[3 * i + 1], p.coords[3 * i + 2]];
    for (let r = 0; r < 3; r++) coords[3 * k + r] = R[r][0] * v[0] + R[r][1] * v[1] + R[r][2] * v[2] + shift[r] + noise * gaussian();
  });
  return { symbols: kept.map((i) => p.symbols[i]), coords };
}

describe('aligned comparison', () => {
  const truth = readXyz(join(C2NP, 'sample', 'raw', 'materials', 'illustrative_KMgH3_a4.0213_Borigin_R10.xyz'));
  const quats: number[][] = rotations.radii['10'].quats;

  it('recovers a known rotation + translation of a shuffled particle with atoms removed (rmsd ≈ 0)', () => {
    for (const q of [quats[0], quats[5], quats[17]]) {
      const pred = transformed(truth, q, [3.2, -11, 47], 20);
      const a = alignParticles(pred, truth);
      expect(a.rmsd).toBeLessThan(1e-9);
      expect(a.maxDisplacement).toBeLessThan(1e-9);
      expect(a.pairs.length).toBe(pred.symbols.length);
      // Every prediction atom found its partner; the 20 removed ones count against the fraction.
      expect(a.matchedFraction).toBeCloseTo((truth.symbols.length - 20) / truth.symbols.length, 12);
      expect(det(a.transform.rotation)).toBeCloseTo(1, 12);
      for (const [i, j] of a.pairs) expect(pred.symbols[i]).toBe(truth.symbols[j]);
    }
  });

  it('is symmetric in which side has the missing atoms', () => {
    const pred = transformed(truth, quats[3], [0, 0, 0], 0);
    const thinnedTruth = transformed(truth, [0, 0, 0, 1], [0, 0, 0], 30);
    const a = alignParticles(pred, thinnedTruth);
    expect(a.rmsd).toBeLessThan(1e-9);
    expect(a.pairs.length).toBe(thinnedTruth.symbols.length);
  });

  it('with 0.05 Å noise: rmsd near the noise level, everything matched within 0.5 Å', () => {
    const pred = transformed(truth, quats[9], [-5, 2, 1], 0, 0.05);
    const a = alignParticles(pred, truth);
    // Per-atom rms of 3-D N(0, 0.05²) noise is 0.05·√3 ≈ 0.087 Å; superposition can only lower it.
    expect(a.rmsd).toBeGreaterThan(0.06);
    expect(a.rmsd).toBeLessThan(0.095);
    expect(a.matchedFraction).toBe(1);
  });

  it('with 0.3 Å noise (nearest partners collide, so the Hungarian step runs): rmsd below the noise level', () => {
    const pred = transformed(truth, quats[11], [1, 1, 1], 10, 0.3);
    const a = alignParticles(pred, truth);
    // Optimal pairs can only beat the true correspondence, whose rms is about 0.3·√3 ≈ 0.52 Å.
    expect(a.rmsd).toBeLessThan(0.3 * Math.sqrt(3) * 1.1);
    expect(a.rmsd).toBeGreaterThan(0.3);
    expect(a.pairs.length).toBe(pred.symbols.length);
  });

  it('the golden pair rot_1 vs rot_0 (C2NP rmsd 70.8 Å) is the same particle', () => {
    const c = cases.cases.find((x: { name: string }) => x.name === 'dataset_rot1_vs_rot0');
    const p = (s: { symbols: string[]; coords: number[][] }): Particle => ({
      symbols: s.symbols,
      coords: new Float64Array(s.coords.flat()),
    });
    const a = alignParticles(p(c.pred), p(c.gt));
    // The files carry 8 decimals, so the superposition is exact only to ~1e-8 Å.
    expect(a.rmsd).toBeLessThan(1e-6);
    expect(a.matchedFraction).toBe(1);
  });

  it('rectangular assignment: the smaller side is matched in full, optimally (brute force)', () => {
    for (let trial = 0; trial < 20; trial++) {
      const [na, nb] = trial % 2 ? [3, 6] : [6, 3];
      const a = new Float64Array(Array.from({ length: 3 * na }, () => random() * 3));
      const b = new Float64Array(Array.from({ length: 3 * nb }, () => random() * 3));
      const all = (n: number) => new Map([['X', [...Array(n).keys()]]]);
      const d2 = (i: number, j: number) =>
        (a[3 * i] - b[3 * j]) ** 2 + (a[3 * i + 1] - b[3 * j + 1]) ** 2 + (a[3 * i + 2] - b[3 * j + 2]) ** 2;
      const pairs = assignBySpecies(all(na), a, all(nb), b);
      expect(pairs.length).toBe(3);
      const cost = pairs.reduce((s, [i, j]) => s + d2(i, j), 0);
      let best = Infinity;
      // Every injective map of the 3-element side into the 6-element side.
      for (let x = 0; x < 6; x++)
        for (let y = 0; y < 6; y++)
          for (let z = 0; z < 6; z++) {
            if (x === y || y === z || x === z) continue;
            const c = na === 3 ? d2(0, x) + d2(1, y) + d2(2, z) : d2(x, 0) + d2(y, 1) + d2(z, 2);
            best = Math.min(best, c);
          }
      expect(Math.abs(cost - best)).toBeLessThan(1e-12);
    }
  });

  it('never answers with a reflection: a mirror image of a chiral cloud keeps rmsd > 0', () => {
    const chiral = new Float64Array([0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 1, 1, 0.5]);
    const mirror = chiral.map((v, k) => (k % 3 === 0 ? -v : v));
    const pairs: [number, number][] = [0, 1, 2, 3, 4].map((i) => [i, i]);
    const t = superpose(mirror, chiral, pairs);
    expect(det(t.rotation)).toBeCloseTo(1, 12);
    const same = superpose(chiral, chiral, pairs);
    expect(det(same.rotation)).toBeCloseTo(1, 12);
    const a = alignParticles(
      { symbols: ['C', 'C', 'C', 'C', 'C'], coords: mirror },
      { symbols: ['C', 'C', 'C', 'C', 'C'], coords: chiral },
    );
    expect(a.rmsd).toBeGreaterThan(0.1);
  });

  it('per-species assignment is optimal (brute force over all permutations) and never crosses species', () => {
    let collisions = 0;
    for (let trial = 0; trial < 40; trial++) {
      const n = 6;
      const a = new Float64Array(Array.from({ length: 3 * n }, () => random() * 4));
      const b = new Float64Array(Array.from({ length: 3 * n }, () => random() * 4));
      const sym = ['A', 'B', 'A', 'A', 'B', 'A'];
      const groups = (s: string[]) => {
        const m = new Map<string, number[]>();
        s.forEach((x, i) => m.set(x, [...(m.get(x) ?? []), i]));
        return m;
      };
      const d2 = (i: number, j: number) =>
        (a[3 * i] - b[3 * j]) ** 2 + (a[3 * i + 1] - b[3 * j + 1]) ** 2 + (a[3 * i + 2] - b[3 * j + 2]) ** 2;
      const pairs = assignBySpecies(groups(sym), a, groups(sym), b);
      // Count trials where two atoms share a nearest partner: those need the Hungarian step, not the shortcut.
      const nearest = [0, 1, 2, 3, 4, 5].map(
        (i) => [0, 1, 2, 3, 4, 5].filter((j) => sym[j] === sym[i]).sort((x, y) => d2(i, x) - d2(i, y))[0],
      );
      if (new Set(nearest).size < n) collisions++;
      const cost = pairs.reduce((s, [i, j]) => s + d2(i, j), 0);
      for (const [i, j] of pairs) expect(sym[i]).toBe(sym[j]);
      let best = Infinity;
      const perms = (xs: number[]): number[][] =>
        xs.length <= 1 ? [xs] : xs.flatMap((x, k) => perms([...xs.slice(0, k), ...xs.slice(k + 1)]).map((r) => [x, ...r]));
      for (const pa of perms([0, 2, 3, 5]))
        for (const pb of perms([1, 4])) {
          const c = [0, 2, 3, 5].reduce((s, i, k) => s + d2(i, pa[k]), 0) + [1, 4].reduce((s, i, k) => s + d2(i, pb[k]), 0);
          best = Math.min(best, c);
        }
      expect(Math.abs(cost - best)).toBeLessThan(1e-12);
    }
    expect(collisions).toBeGreaterThan(5);
  });
});
