import { describe, expect, it } from 'vitest';
import { type Mat3, perpendicularWidths } from '../../src/core/math/mat3.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { readCorpusGolden } from '../../scripts/support/paths.ts';

describe('Lattice.fromParameters', () => {
  it('reproduces pymatgen matrices for a monoclinic cell (golden cod-1000035)', () => {
    const g = readCorpusGolden('cod-1000035.cif').pymatgen.structures[0].lattice;
    const l = Lattice.fromParameters(g.a, g.b, g.c, g.alpha, g.beta, g.gamma);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(l.matrix[i][j]).toBeCloseTo(g.matrix[i][j], 8);
    expect(l.volume).toBeCloseTo(g.volume, 6);
    const p = l.parameters;
    expect(p.beta).toBeCloseTo(g.beta, 9);
  });
  it('round-trips fractional and Cartesian coordinates', () => {
    const l = Lattice.fromParameters(5.1, 6.2, 7.3, 81, 97, 112);
    const f: [number, number, number] = [0.1, 0.7, -0.3];
    const back = l.cartToFrac(l.fracToCart(f));
    for (let i = 0; i < 3; i++) expect(back[i]).toBeCloseTo(f[i], 12);
  });
});

describe('perpendicularWidths', () => {
  it('are the face-to-face distances (analytic: a sin γ for a hexagonal-like cell), tol 1e-12', () => {
    const a = 3,
      c = 5,
      gamma = (120 * Math.PI) / 180;
    const m: Mat3 = [
      [a, 0, 0],
      [a * Math.cos(gamma), a * Math.sin(gamma), 0],
      [0, 0, c],
    ];
    const w = perpendicularWidths(m);
    // a and b both stand a·sin γ off the opposite face; c is perpendicular to the ab plane.
    expect(Math.abs(w[0] - a * Math.sin(gamma))).toBeLessThan(1e-12);
    expect(Math.abs(w[1] - a * Math.sin(gamma))).toBeLessThan(1e-12);
    expect(Math.abs(w[2] - c)).toBeLessThan(1e-12);
  });
});
