/**
 * Formulas against pymatgen 2022.11's own strings in every corpus golden file (structures and XYZ
 * frames). Compositions are built from the golden sites, so the file readers are not involved.
 */
import { describe, expect, it } from 'vitest';
import {
  formula,
  formatAmount,
  pythonFixed,
  pythonFloatRepr,
  pythonRound8,
  pythonSort,
  reducedFormula,
  speciesString,
} from '../../src/core/structure/composition.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import type { Site, Structure } from '../../src/core/structure/structure.ts';
import { corpusFileNames, readCorpusGolden } from '../../scripts/support/paths.ts';

/** pymatgen species strings: `Fe`, `Fe3+`, `O2-`, `Na+`, `Cu1.7+`, `D0+`. */
function parseSpecies(key: string): { el: string; ox?: number } {
  const m = /^([A-Z][a-z]*)(?:(\d+(?:\.\d+)?)?([+-]))?$/.exec(key);
  if (!m) throw new Error(`unexpected species ${key}`);
  if (!m[3]) return { el: m[1] };
  return { el: m[1], ox: (m[3] === '-' ? -1 : 1) * Number(m[2] ?? '1') };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function structureFromGolden(g: any): Structure {
  const { a, b, c, alpha, beta, gamma } = g.lattice;
  const lattice = Lattice.fromParameters(a, b, c, alpha, beta, gamma);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const sites: Site[] = g.sites.map((s: any) => {
    const species: Record<string, number> = {};
    const oxidation: Record<string, number> = {};
    for (const [key, occ] of Object.entries(s.species)) {
      const { el, ox } = parseSpecies(key);
      species[el] = occ as number;
      if (ox !== undefined) oxidation[el] = ox;
    }
    const site: Site = { species, frac: s.frac, xyz: lattice.fracToCart(s.frac) };
    if (Object.keys(oxidation).length) site.oxidation = oxidation;
    return site;
  });
  return { name: 'golden', lattice, sites };
}

function moleculeFromSymbols(symbols: string[]): Structure {
  return { name: 'frame', lattice: null, sites: symbols.map((el) => ({ species: { [el]: 1 }, xyz: [0, 0, 0] })) };
}

function moleculeFromAmounts(amounts: Record<string, number>): Structure {
  return { name: 'frame', lattice: null, sites: Object.entries(amounts).map(([el, n]) => ({ species: { [el]: n }, xyz: [0, 0, 0] })) };
}

interface Case {
  file: string;
  expectedFormula: string;
  expectedReduced?: string;
  structure: Structure;
}
const cases: Case[] = [];
for (const file of corpusFileNames()) {
  const golden = readCorpusGolden(file);
  const pmg = golden.pymatgen;
  if (!pmg?.ok) continue;
  (pmg.structures ?? []).forEach((s: { formula: string; reduced_formula: string }, k: number) =>
    cases.push({ file: `${file}#${k}`, expectedFormula: s.formula, expectedReduced: s.reduced_formula, structure: structureFromGolden(s) }),
  );
  (pmg.frames ?? []).forEach((fr: { formula: string; species?: string[]; element_amounts: Record<string, number> }, k: number) =>
    cases.push({
      file: `${file}@frame${k}`,
      expectedFormula: fr.formula,
      structure: fr.species?.length ? moleculeFromSymbols(fr.species) : moleculeFromAmounts(fr.element_amounts),
    }),
  );
}

describe('formulas match pymatgen on the corpus', () => {
  it('has cases', () => expect(cases.length).toBeGreaterThan(80));
  it.each(cases.map((c) => [c.file, c] as const))('%s', (_name, c) => {
    expect(formula(c.structure)).toBe(c.expectedFormula);
    if (c.expectedReduced !== undefined) expect(reducedFormula(c.structure)).toBe(c.expectedReduced);
  });
});

const mol = (amounts: [string, number][]): Structure => ({
  name: 'm',
  lattice: null,
  sites: amounts.map(([el, n]) => ({ species: { [el]: n }, xyz: [0, 0, 0] })),
});

describe('pymatgen special cases (expected strings from pymatgen 2022.11 run offline)', () => {
  // Each expected value below was printed by Composition(...).formula / .reduced_formula.
  it.each([
    [
      [
        ['Fe', 4],
        ['O', 6],
      ],
      'Fe4 O6',
      'Fe2O3',
    ],
    [[['O', 4]], 'O4', 'O2'],
    [[['H', 2]], 'H2', 'H2'],
    [
      [
        ['Li', 2],
        ['O', 2],
      ],
      'Li2 O2',
      'Li2O2',
    ],
    [
      [
        ['Fe', 4],
        ['S', 12],
        ['O', 48],
      ],
      'Fe4 S12 O48',
      'Fe(SO4)3',
    ],
    [
      [
        ['Fe', 4],
        ['S', 6],
        ['O', 24],
      ],
      'Fe4 S6 O24',
      'Fe2(SO4)3',
    ],
    [
      [
        ['Li', 4],
        ['Fe', 4],
        ['P', 4],
        ['O', 16],
      ],
      'Li4 Fe4 P4 O16',
      'LiFePO4',
    ],
    [
      [
        ['Na', 0.36],
        ['Ca', 2.464],
      ],
      'Na0.36 Ca2.464',
      'Na0.36Ca2.464',
    ],
    [
      [
        ['Xe', 1],
        ['Ar', 2],
        ['He', 3],
        ['O', 1],
      ],
      'Xe1 Ar2 He3 O1',
      'XeAr2He3O',
    ],
    [
      [
        ['Ar', 2],
        ['Xe', 1],
        ['He', 3],
        ['O', 1],
      ],
      'Ar2 Xe1 He3 O1',
      'Ar2XeHe3O',
    ],
    [[['Cu', 2.9999999999]], 'Cu3.0', 'Cu'],
    [
      [
        ['C', 0.00001],
        ['H', 1],
      ],
      'H1 C1e-05',
      'H1C1e-05',
    ],
  ] as [[string, number][], string, string][])('%j', (amounts, f, rf) => {
    expect(formula(mol(amounts))).toBe(f);
    expect(reducedFormula(mol(amounts))).toBe(rf);
  });
});

describe('Python number formatting helpers', () => {
  it('repr', () => {
    expect(pythonFloatRepr(2.0)).toBe('2.0');
    expect(pythonFloatRepr(0.0001)).toBe('0.0001');
    expect(pythonFloatRepr(0.00001)).toBe('1e-05');
    expect(pythonFloatRepr(1e16)).toBe('1e+16');
    expect(pythonFloatRepr(1234567890123456)).toBe('1234567890123456.0');
    expect(pythonFloatRepr(2.464)).toBe('2.464');
    expect(pythonFloatRepr(1.5e-7)).toBe('1.5e-07');
  });
  it('round(x, 8) ties to even on exact binary values', () => {
    expect(pythonRound8(0.001953125)).toBe(0.00195312); // 1/512 is an exact tie
    expect(pythonRound8(0.005859375)).toBe(0.00585938); // 3/512: tie, 7 is odd → up
    expect(pythonRound8(0.123456789)).toBe(0.12345679);
  });
  it('formula_double_format', () => {
    expect(formatAmount(1, true)).toBe('');
    expect(formatAmount(1, false)).toBe('1');
    expect(formatAmount(2.000000001, false)).toBe('2');
    expect(formatAmount(1.999999999, false)).toBe('2.0');
  });
  it('sort replays CPython for NaN keys', () => {
    // sorted([nan, 1.0, 0.5]) == [nan, 0.5, 1.0]; sorted([1.0, nan, 0.5]) == [1.0, nan, 0.5] in CPython 3.11.
    const lt = (a: number, b: number) => a < b;
    expect(pythonSort([NaN, 1, 0.5], lt)).toEqual([NaN, 0.5, 1]);
    expect(pythonSort([1, NaN, 0.5], lt)).toEqual([1, NaN, 0.5]);
  });
});

describe('speciesString (expected strings from pymatgen 2022.11 Site.species_string, run offline)', () => {
  const cases: [Pick<Site, 'species' | 'oxidation'>, string][] = [
    [{ species: { Ni: 0.5, Fe: 0.5 }, oxidation: { Ni: 2, Fe: 3 } }, 'Fe3+:0.500, Ni2+:0.500'],
    [{ species: { O: 1 }, oxidation: { O: -2 } }, 'O2-'],
    [{ species: { Fe: 0.5, Ni: 0.5 } }, 'Fe:0.500, Ni:0.500'],
    [{ species: { Na: 1 } }, 'Na'],
    [{ species: { Na: 1 }, oxidation: { Na: 1 } }, 'Na+'],
    [{ species: { P: 1 }, oxidation: { P: 0 } }, 'P0+'],
    [{ species: { Na: 0.5 } }, 'Na:0.500'],
    [{ species: { Ne: 0.5, He: 0.5 } }, 'He:0.500, Ne:0.500'],
    [{ species: { He: 0.5, Fe: 0.5 } }, 'Fe:0.500, He:0.500'],
    [{ species: { Co: 0.25, Fe: 0.75 }, oxidation: { Fe: 3 } }, 'Fe3+:0.750, Co:0.250'],
    [{ species: { Fe: 0.0625, Ni: 0.9375 } }, 'Fe:0.062, Ni:0.938'],
    [{ species: { Fe: 0.1875, Ni: 0.8125 } }, 'Fe:0.188, Ni:0.812'],
  ];
  for (const [site, expected] of cases) it(expected, () => expect(speciesString(site)).toBe(expected));
  it("pythonFixed rounds exact ties to even like Python's format", () => {
    expect([0.0625, 0.9375, 0.1875, 0.8125, -0.0625, 0.1234].map((x) => pythonFixed(x, 3))).toEqual([
      '0.062',
      '0.938',
      '0.188',
      '0.812',
      '-0.062',
      '0.123',
    ]);
  });
});
