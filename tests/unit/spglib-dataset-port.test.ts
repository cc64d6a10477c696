// Smoke test of the spglib 2.0.2 port's top layer (dataset.ts → determination.ts → refinement.ts → site-symmetry.ts).
// Every expected value below came from spglib 2.0.2 (/usr/bin/python3, spglib.get_symmetry_dataset and
// spglib.standardize_cell with symprec as given and angle_tolerance=-1). Python's lattices are rows = basis
// vectors; the port (like spglib's C API) takes and returns columns = basis vectors, so they are transposed here.
import { describe, expect, it } from 'vitest';
import { spgatGetDataset, spgatStandardizeCell } from '../../src/core/symmetry/spglib/dataset.ts';

type M3 = number[][];

const transpose = (m: M3): M3 => [0, 1, 2].map((i) => [0, 1, 2].map((j) => m[j][i]));
const letters = (s: string): number[] => [...s].map((c) => c.charCodeAt(0) - 'a'.charCodeAt(0));

function expectMatClose(actual: M3, expected: M3, digits = 10): void {
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(actual[i][j]).toBeCloseTo(expected[i][j], digits);
}

interface Case {
  name: string;
  /** Rows = basis vectors (Python's convention). */
  lattice: M3;
  positions: number[][];
  types: number[];
  symprec: number;
  number: number;
  hallNumber: number;
  international: string;
  wyckoffs: string;
  siteSymmetrySymbols: string[];
  equivalentAtoms: number[];
  /** Rows = basis vectors (Python's convention). */
  stdLattice: M3;
}

const aRs = 5.64;
const aW = 3.25;
const cW = 5.21;
const uW = 0.382;

const cases: Case[] = [
  {
    name: 'rocksalt NaCl, conventional cell',
    lattice: [
      [aRs, 0, 0],
      [0, aRs, 0],
      [0, 0, aRs],
    ],
    positions: [
      [0, 0, 0],
      [0, 0.5, 0.5],
      [0.5, 0, 0.5],
      [0.5, 0.5, 0],
      [0.5, 0.5, 0.5],
      [0.5, 0, 0],
      [0, 0.5, 0],
      [0, 0, 0.5],
    ],
    types: [11, 11, 11, 11, 17, 17, 17, 17],
    symprec: 1e-5,
    number: 225,
    hallNumber: 523,
    international: 'Fm-3m',
    wyckoffs: 'aaaabbbb',
    siteSymmetrySymbols: Array<string>(8).fill('m-3m'),
    equivalentAtoms: [0, 0, 0, 0, 4, 4, 4, 4],
    stdLattice: [
      [5.640000000000001, 0.0, 0.0],
      [0.0, 5.640000000000001, 0.0],
      [0.0, 0.0, 5.640000000000001],
    ],
  },
  {
    name: 'wurtzite ZnO',
    lattice: [
      [aW, 0, 0],
      [-aW / 2, (aW * Math.sqrt(3)) / 2, 0],
      [0, 0, cW],
    ],
    positions: [
      [1 / 3, 2 / 3, 0],
      [2 / 3, 1 / 3, 0.5],
      [1 / 3, 2 / 3, uW],
      [2 / 3, 1 / 3, 0.5 + uW],
    ],
    types: [30, 30, 8, 8],
    symprec: 1e-5,
    number: 186,
    hallNumber: 480,
    international: 'P6_3mc',
    wyckoffs: 'bbbb',
    siteSymmetrySymbols: ['3m.', '3m.', '3m.', '3m.'],
    equivalentAtoms: [0, 0, 2, 2],
    stdLattice: [
      [3.25, 0.0, 0.0],
      [-1.625, 2.8145825622994254, 0.0],
      [0.0, 0.0, 5.21],
    ],
  },
  {
    // Pnma (4c, 4a, 8d) in the (c, a, b) axis setting, positions jittered by up to 5e-5.
    name: 'primitive orthorhombic Pnma, non-standard axes, jittered',
    lattice: [
      [7.2, 0.0, 0.0],
      [0.0, 5.5, 0.0],
      [0.0, 0.0, 3.9],
    ],
    positions: [
      [0.300001, 0.100045, 0.249964],
      [0.700045, 0.899981, 0.749992],
      [0.800033, 0.399991, 0.750005],
      [0.199953, 0.600025, 0.250004],
      [0.999983, 2.9e-5, 0.99998],
      [0.499995, 0.499963, 0.99999],
      [0.49997, 0.499976, 0.500025],
      [0.999978, 0.999999, 0.500048],
      [0.700046, 0.200022, 0.050004],
      [0.299978, 0.799966, 0.950047],
      [0.200002, 0.299962, 0.950012],
      [0.800028, 0.700011, 0.050042],
      [0.799954, 0.700003, 0.449996],
      [0.199956, 0.300014, 0.550035],
      [0.300009, 0.799976, 0.550034],
      [0.700001, 0.200001, 0.450025],
    ],
    types: [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3],
    symprec: 5e-3,
    number: 62,
    hallNumber: 292,
    international: 'Pnma',
    wyckoffs: 'ccccaaaadddddddd',
    siteSymmetrySymbols: [...Array<string>(4).fill('.m.'), ...Array<string>(4).fill('-1'), ...Array<string>(8).fill('1')],
    equivalentAtoms: [0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8],
    stdLattice: [
      [5.5, 0.0, 0.0],
      [0.0, 3.9, 0.0],
      [0.0, 0.0, 7.2],
    ],
  },
];

describe('spgatGetDataset (spglib 2.0.2 port)', () => {
  for (const c of cases) {
    it(c.name, () => {
      const ds = spgatGetDataset(transpose(c.lattice), c.positions, c.types, c.types.length, c.symprec, -1);
      expect(ds).not.toBeNull();
      if (ds === null) return;
      expect(ds.spacegroup_number).toBe(c.number);
      expect(ds.hall_number).toBe(c.hallNumber);
      expect(ds.international_symbol).toBe(c.international);
      expect(ds.wyckoffs).toEqual(letters(c.wyckoffs));
      expect(ds.site_symmetry_symbols).toEqual(c.siteSymmetrySymbols);
      expect(ds.equivalent_atoms).toEqual(c.equivalentAtoms);
      expectMatClose(ds.std_lattice, transpose(c.stdLattice));
    });
  }

  it('returns null when two atoms of one type are closer than symprec', () => {
    const lattice = transpose(cases[0].lattice);
    expect(
      spgatGetDataset(
        lattice,
        [
          [0, 0, 0],
          [0, 0, 1e-6],
        ],
        [1, 1],
        2,
        1e-5,
        -1,
      ),
    ).toBeNull();
  });
});

describe('spgatStandardizeCell (spglib 2.0.2 port)', () => {
  const rs = cases[0];
  it('rocksalt to the idealized primitive cell', () => {
    const out = spgatStandardizeCell(transpose(rs.lattice), rs.positions, rs.types, rs.types.length, true, false, 1e-5, -1);
    expect(out).not.toBeNull();
    if (out === null) return;
    const h = 2.8200000000000003;
    expectMatClose(
      out.lattice,
      transpose([
        [0.0, h, h],
        [h, 0.0, h],
        [h, h, 0.0],
      ]),
    );
    expect(out.types).toEqual([11, 17]);
    expect(out.position[1][0]).toBeCloseTo(0.5, 12);
  });

  it('rocksalt to the conventional cell', () => {
    const out = spgatStandardizeCell(transpose(rs.lattice), rs.positions, rs.types, rs.types.length, false, false, 1e-5, -1);
    expect(out).not.toBeNull();
    if (out === null) return;
    expectMatClose(out.lattice, transpose(rs.stdLattice));
    expect(out.types).toEqual([11, 17, 11, 17, 11, 17, 11, 17]);
  });
});
