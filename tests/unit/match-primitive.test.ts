/**
 * pymatgen's primitive search (src/core/match/primitive.ts) on supercells built here: the reduced
 * cell must have the original volume and site count, span the same lattice (integer unimodular
 * change of basis), and put every site on an original site of the same species (up to lattice
 * translations; with 0.01 Å noise, on the mean of its copies, computed here).
 */
import { describe, expect, it } from 'vitest';
import { type Mat3, det, inverse, matMul } from '../../src/core/math/mat3.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { pymatgenPrimitive } from '../../src/core/match/primitive.ts';
import { gaussian, mulberry32 } from '../../scripts/support/random.ts';

function crystal(seed: number) {
  const rand = mulberry32(seed);
  const lattice = Lattice.fromParameters(4 + rand(), 4.5 + rand(), 5 + rand(), 80 + 15 * rand(), 85 + 15 * rand(), 95 + 15 * rand());
  const labels = ['Na', 'Na', 'Cl', 'Cl', 'O', 'Cl'];
  const frac = labels.map(() => [rand(), rand(), rand()]);
  return { lattice, labels, frac };
}

describe('pymatgen primitive search', () => {
  it('returns null for a cell that is already primitive', () => {
    const c = crystal(1);
    expect(pymatgenPrimitive({ matrix: c.lattice.matrix, frac: Float64Array.from(c.frac.flat()), labels: c.labels })).toBeNull();
  });

  for (const [na, nb, nc] of [
    [2, 1, 1],
    [2, 2, 1],
    [1, 3, 1],
    [2, 1, 2],
  ]) {
    it(`recovers the cell from a ${na}x${nb}x${nc} supercell with 0.01 Å noise`, () => {
      const c = crystal(na * 7 + nb * 3 + nc);
      const gauss = gaussian(mulberry32(99));
      const m = c.lattice.matrix;
      const sc: Mat3 = [m[0].map((x) => x * na), m[1].map((x) => x * nb), m[2].map((x) => x * nc)] as Mat3;
      const labels: string[] = [],
        frac: number[] = [],
        copies: number[][][] = c.frac.map(() => []);
      for (let i = 0; i < na; i++)
        for (let j = 0; j < nb; j++)
          for (let k = 0; k < nc; k++) {
            c.frac.forEach((f, s) => {
              // Noise in fractional units of the supercell, about 0.01 Å.
              const g = [f[0] + i + 0.0025 * gauss(), f[1] + j + 0.0025 * gauss(), f[2] + k + 0.0025 * gauss()];
              copies[s].push(g);
              labels.push(c.labels[s]);
              frac.push(g[0] / na, g[1] / nb, g[2] / nc);
            });
          }
      const prim = pymatgenPrimitive({ matrix: sc, frac: Float64Array.from(frac), labels })!;
      expect(prim).not.toBeNull();
      expect(prim.labels.length).toBe(c.labels.length);
      expect(Math.abs(det(prim.matrix))).toBeCloseTo(c.lattice.volume, 8);
      const t = matMul(prim.matrix, inverse(m));
      for (const row of t) for (const x of row) expect(Math.abs(x - Math.round(x))).toBeLessThan(1e-8);
      // Each primitive site sits on the mean of one original site's copies (mod lattice), same species.
      const toOriginal = matMul(prim.matrix, inverse(m));
      const matched = new Set<number>();
      for (let p = 0; p < prim.labels.length; p++) {
        const f = [0, 1, 2].map(
          (k) => prim.frac[3 * p] * toOriginal[0][k] + prim.frac[3 * p + 1] * toOriginal[1][k] + prim.frac[3 * p + 2] * toOriginal[2][k],
        );
        const hit = c.frac.findIndex((_, s) => {
          if (c.labels[s] !== prim.labels[p]) return false;
          const mean = [0, 1, 2].map(
            (k) =>
              copies[s].reduce((acc, g) => acc + (g[k] - Math.round(g[k] - copies[s][0][k]) - copies[s][0][k]), 0) / copies[s].length +
              copies[s][0][k],
          );
          return [0, 1, 2].every((k) => {
            const d = f[k] - mean[k];
            return Math.abs(d - Math.round(d)) < 1e-9;
          });
        });
        expect(hit).toBeGreaterThanOrEqual(0);
        matched.add(hit);
      }
      expect(matched.size).toBe(c.labels.length);
    });
  }
});
