/**
 * Supercells: site counts, lattice = M·L, pymatgen's site order (checked against pymatgen 2022.11's
 * `lattice_points_in_supercell` output, printed offline), and invariance of every site's neighbour
 * distances (an independent physical check). Periodic images: counts from the geometry of the cell.
 */
import { describe, expect, it } from 'vitest';
import { type Mat3, det, matMul } from '../../src/core/math/mat3.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { findNeighbors } from '../../src/core/structure/neighbors.ts';
import type { Structure } from '../../src/core/structure/structure.ts';
import { makeSupercell, periodicImages, supercellTranslations } from '../../src/core/structure/supercell.ts';
import { readCorpusGolden } from '../../scripts/support/paths.ts';

function fromGolden(file: string): Structure {
  const g = readCorpusGolden(file).pymatgen.structures[0];
  const { a, b, c, alpha, beta, gamma } = g.lattice;
  const lattice = Lattice.fromParameters(a, b, c, alpha, beta, gamma);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const sites = g.sites.map((s: any) => ({ species: { ...s.species }, frac: s.frac, xyz: lattice.fracToCart(s.frac) }));
  return { name: file, lattice, sites };
}

/** Sorted neighbour distances of every site within `cutoff`, as strings rounded to 1e-6 Å. */
function distanceSignature(s: Structure, cutoff: number): string[] {
  const nl = findNeighbors(s, cutoff);
  const per: number[][] = s.sites.map(() => []);
  for (let m = 0; m < nl.i.length; m++) {
    per[nl.i[m]].push(nl.distance[m]);
    per[nl.j[m]].push(nl.distance[m]);
  }
  return per.map((d) =>
    d
      .sort((x, y) => x - y)
      .map((x) => x.toFixed(6))
      .join(' '),
  );
}

const STRUCTURE = 'pmg-LiFePO4.cif';

describe('makeSupercell', () => {
  const base = fromGolden(STRUCTURE);
  const matrices: [string, [number, number, number] | Mat3][] = [
    ['diagonal 2x1x3', [2, 1, 3]],
    [
      'shear',
      [
        [1, 1, 0],
        [-1, 1, 0],
        [0, 0, 1],
      ],
    ],
    [
      'general det 3',
      [
        [1, 0, 1],
        [0, 1, 0],
        [-1, 1, 2],
      ],
    ],
  ];
  it.each(matrices)('%s', (_name, scaling) => {
    const m: Mat3 = Array.isArray(scaling[0])
      ? (scaling as Mat3)
      : [
          [scaling[0] as number, 0, 0],
          [0, scaling[1] as number, 0],
          [0, 0, scaling[2] as number],
        ];
    const nCells = Math.abs(det(m));
    const sc = makeSupercell(base, scaling);
    expect(sc.sites.length).toBe(base.sites.length * nCells);
    const expected = matMul(m, base.lattice!.matrix);
    for (let r = 0; r < 3; r++) for (let k = 0; k < 3; k++) expect(sc.lattice!.matrix[r][k]).toBeCloseTo(expected[r][k], 10);
    expect(sc.lattice!.volume).toBeCloseTo(base.lattice!.volume * nCells, 6);
    // frac and xyz agree in the new cell.
    for (const site of sc.sites) {
      const x = sc.lattice!.fracToCart(site.frac!);
      for (let k = 0; k < 3; k++) expect(Math.abs(x[k] - site.xyz[k])).toBeLessThan(1e-9);
    }
    // No two sites coincide modulo the new lattice.
    const keys = new Set(sc.sites.map((s) => s.frac!.map((f) => ((Math.round((f - Math.floor(f)) * 1e6) % 1e6) + 1e6) % 1e6).join(',')));
    expect(keys.size).toBe(sc.sites.length);
    // Each site of copy t keeps its environment: neighbour distances identical to the original site's.
    const sig = distanceSignature(base, 3.0);
    const sigSc = distanceSignature(sc, 3.0);
    sigSc.forEach((s, k) => expect(s).toBe(sig[Math.floor(k / nCells)]));
    // Species copied site-major, as pymatgen orders them.
    sc.sites.forEach((s, k) => expect(s.species).toEqual(base.sites[Math.floor(k / nCells)].species));
  });

  it("enumerates lattice points in pymatgen's order", () => {
    // pymatgen: lattice_points_in_supercell([[2,0,0],[0,1,0],[0,0,2]]) → [[0,0,0],[0,0,.5],[.5,0,0],[.5,0,.5]]
    expect(
      supercellTranslations([
        [2, 0, 0],
        [0, 1, 0],
        [0, 0, 2],
      ]),
    ).toEqual([
      [0, 0, 0],
      [0, 0, 1],
      [1, 0, 0],
      [1, 0, 1],
    ]);
    // pymatgen: [[1,1,0],[-1,1,0],[0,0,1]] → frac [[0,0,0],[.5,.5,0]], i.e. old-cell translation (0,1,0).
    expect(
      supercellTranslations([
        [1, 1, 0],
        [-1, 1, 0],
        [0, 0, 1],
      ]),
    ).toEqual([
      [0, 0, 0],
      [0, 1, 0],
    ]);
  });

  it('rejects singular and non-integer scalings and finite structures', () => {
    expect(() => makeSupercell(base, [1, 0, 1])).toThrow(/singular/);
    expect(() => makeSupercell(base, [1.5, 1, 1])).toThrow(/integer/);
    expect(() => makeSupercell({ name: 'm', lattice: null, sites: [] }, [2, 2, 2])).toThrow(/lattice/);
  });
});

describe('periodicImages', () => {
  const L = Lattice.fromParameters(4, 5, 6, 80, 95, 100);
  const mk = (fracs: [number, number, number][]): Structure => ({
    name: 't',
    lattice: L,
    sites: fracs.map((f) => ({ species: { Na: 1 }, frac: f, xyz: L.fracToCart(f) })),
  });

  it('corner, edge, face and interior atoms appear 8, 4, 2 and 1 times in one cell', () => {
    const s = mk([
      [0, 0, 0],
      [0.5, 0, 0],
      [0.5, 0.5, 0],
      [0.5, 0.5, 0.5],
    ]);
    const im = periodicImages(s);
    const counts = [0, 0, 0, 0];
    im.site.forEach((k) => counts[k]++);
    expect(counts).toEqual([8, 4, 2, 1]);
    // Each drawn position is the site plus its image, and lies in the closed cell.
    for (let m = 0; m < im.site.length; m++) {
      const p = [im.xyz[3 * m], im.xyz[3 * m + 1], im.xyz[3 * m + 2]] as [number, number, number];
      const f = L.cartToFrac(p);
      for (const x of f) {
        expect(x).toBeGreaterThan(-1e-9);
        expect(x).toBeLessThan(1 + 1e-9);
      }
      const site = s.sites[im.site[m]];
      const expected = L.fracToCart([
        site.frac![0] + im.image[3 * m],
        site.frac![1] + im.image[3 * m + 1],
        site.frac![2] + im.image[3 * m + 2],
      ]);
      for (let k = 0; k < 3; k++) expect(p[k]).toBeCloseTo(expected[k], 9);
    }
  });

  it('wraps atoms outside the cell and treats 0.99999 like 0', () => {
    const s = mk([
      [1.25, -0.5, 2.75],
      [0.99999999, 0.3, 0.3],
    ]);
    const im = periodicImages(s);
    expect(Array.from(im.site)).toEqual([0, 1, 1]);
    expect(Array.from(im.image.slice(0, 3))).toEqual([-1, 1, -2]);
  });

  it('repeats over a block of cells', () => {
    const s = mk([
      [0, 0, 0],
      [0.5, 0.5, 0.5],
    ]);
    const im = periodicImages(s, [2, 3, 1]);
    expect(im.site.filter((k) => k === 0).length).toBe(3 * 4 * 2);
    expect(im.site.filter((k) => k === 1).length).toBe(6);
  });
});
