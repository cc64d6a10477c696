/**
 * Element table: spot values from the literature (Cordero 2008 radii, Pauling electronegativities,
 * IUPAC masses, Jmol/VESTA colours), table consistency, and symbol parsing against gemmi 0.5.7's
 * element/charge for every atom-site type symbol in the corpus goldens.
 */
import { describe, expect, it } from 'vitest';
import {
  ELEMENTS,
  chargeFromSuffix,
  elementByNumber,
  elementBySymbol,
  elementSymbolOf,
  isElementSymbol,
  parseElementSymbol,
} from '../../src/core/structure/elements.ts';
import { corpusFileNames, readCorpusGolden } from '../../scripts/support/paths.ts';

describe('element table', () => {
  it('holds 118 elements in Z order with unique symbols and well-formed colours', () => {
    expect(ELEMENTS.length).toBe(118);
    ELEMENTS.forEach((e, k) => {
      expect(e.Z).toBe(k + 1);
      expect(elementByNumber(e.Z)).toBe(e);
      expect(elementBySymbol(e.symbol)).toBe(e);
      expect(e.jmolColor).toMatch(/^#[0-9a-f]{6}$/);
      expect(e.vestaColor).toMatch(/^#[0-9a-f]{6}$/);
      expect(e.mass).toBeGreaterThan(0);
      expect(e.covalentRadius).toBeGreaterThan(0);
    });
    expect(new Set(ELEMENTS.map((e) => e.symbol)).size).toBe(118);
    expect(elementByNumber(0)).toBeUndefined();
    expect(elementByNumber(119)).toBeUndefined();
  });

  it.each([
    // symbol, Z, mass, Cordero radius (Å), Pauling X
    ['H', 1, 1.008, 0.31, 2.2],
    ['C', 6, 12.011, 0.76, 2.55],
    ['O', 8, 15.999, 0.66, 3.44],
    ['F', 9, 18.998403163, 0.57, 3.98],
    ['Fe', 26, 55.845, 1.32, 1.83],
    ['Cs', 55, 132.90545196, 2.44, 0.79],
    ['U', 92, 238.02891, 1.96, 1.38],
    ['Cm', 96, 247.07035, 1.69, 1.3],
  ] as const)('%s', (sym, Z, mass, r, X) => {
    const e = elementBySymbol(sym)!;
    expect(e.Z).toBe(Z);
    expect(e.mass).toBeCloseTo(mass, 6);
    expect(e.covalentRadius).toBe(r);
    expect(e.X).toBe(X);
  });

  it('uses 0.2 Å beyond Cordero (Bk on) and NaN electronegativity where pymatgen has none', () => {
    expect(elementBySymbol('Bk')!.covalentRadius).toBe(0.2);
    expect(elementBySymbol('Og')!.covalentRadius).toBe(0.2);
    for (const sym of ['He', 'Ne', 'Ar', 'Rf', 'Og']) expect(Number.isNaN(elementBySymbol(sym)!.X)).toBe(true);
    expect(elementBySymbol('Kr')!.X).toBe(3);
  });

  it('colours: Jmol and VESTA schemes', () => {
    expect(elementBySymbol('O')!.jmolColor).toBe('#ff0d0d');
    expect(elementBySymbol('C')!.jmolColor).toBe('#909090');
    expect(elementBySymbol('Fe')!.jmolColor).toBe('#e06633');
    expect(elementBySymbol('O')!.vestaColor).toBe('#fe0300'); // VESTA 0.99675 0.01176 0.00000
  });

  it('looks symbols up case-insensitively; D and T are hydrogen', () => {
    expect(elementBySymbol('fe')!.symbol).toBe('Fe');
    expect(elementBySymbol('FE')!.symbol).toBe('Fe');
    expect(elementBySymbol('D')!.symbol).toBe('H');
    expect(elementBySymbol('t')!.symbol).toBe('H');
    expect(elementBySymbol('Xx')).toBeUndefined();
    expect(isElementSymbol('Fe')).toBe(true);
    expect(isElementSymbol('FE')).toBe(false);
    expect(isElementSymbol('D')).toBe(false);
  });
});

describe('parseElementSymbol', () => {
  it.each([
    ['Fe1A', 'Fe', undefined],
    ['O2-', 'O', -2],
    ['Fe3+', 'Fe', 3],
    ['Fe+3', 'Fe', 3],
    ['Na+', 'Na', 1],
    ['Cl-', 'Cl', -1],
    ['Cu1.7+', 'Cu', 1.7],
    ['CA', 'Ca', undefined],
    ['ca1', 'Ca', undefined],
    ['C1', 'C', undefined],
    ['Os', 'Os', undefined],
    ['OW1', 'O', undefined],
    ['D1', 'D', undefined],
    [' Si4+ ', 'Si', 4],
  ] as const)('%s', (label, symbol, oxidation) => {
    const p = parseElementSymbol(label)!;
    expect(p.symbol).toBe(symbol);
    expect(p.oxidation).toBe(oxidation);
  });

  it('returns undefined for labels without an element', () => {
    expect(parseElementSymbol('')).toBeUndefined();
    expect(parseElementSymbol('Q1')).toBeUndefined();
    expect(parseElementSymbol('123')).toBeUndefined();
  });

  it("agrees with gemmi's element and charge for every corpus type symbol", () => {
    const seen = new Map<string, { element: string; charge: number }>();
    for (const file of corpusFileNames()) {
      const blocks = readCorpusGolden(file).gemmi?.blocks ?? [];
      for (const b of blocks)
        for (const s of b.asym_sites ?? []) {
          // gemmi marks unknown symbols as X; those are not elements.
          if (s.type_symbol && s.element !== 'X') seen.set(s.type_symbol, { element: s.element, charge: s.charge ?? 0 });
        }
    }
    expect(seen.size).toBeGreaterThan(100);
    const mismatches: string[] = [];
    for (const [ts, { element, charge }] of seen) {
      const p = parseElementSymbol(ts);
      // gemmi 0.5.7 reads sign-first charges (`Cs+1`, `O-2`) as 0; we read them (tested above).
      if (/^[A-Za-z]+[+-]\d+$/.test(ts)) {
        if (p?.symbol !== element) mismatches.push(`${ts}: gemmi ${element}, ours ${p?.symbol}`);
        continue;
      }
      if (p?.symbol.toLowerCase() !== element.toLowerCase() || (p.oxidation ?? 0) !== charge) {
        mismatches.push(`${ts}: gemmi ${element} ${charge}, ours ${p?.symbol} ${p?.oxidation}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe('elementSymbolOf and the isotope rule', () => {
  it('keeps D and T as written, otherwise gives the canonical symbol of any capitalisation', () => {
    expect(['D', 'T', 'd', 'fe', 'FE', 'Fe', 'Xx', 'D1'].map(elementSymbolOf)).toEqual([
      'D',
      'T',
      'H',
      'Fe',
      'Fe',
      'Fe',
      undefined,
      undefined,
    ]);
  });
  it('parseElementSymbol reads a lower-case d/t isotope only when asked (CIF labels, as pymatgen)', () => {
    expect(parseElementSymbol('d1')).toBeUndefined();
    expect(parseElementSymbol('d1', { isotopesAnyCase: true })?.symbol).toBe('D');
    expect(parseElementSymbol('t2+', { isotopesAnyCase: true })).toEqual({ symbol: 'T', oxidation: 2 });
  });
  it('chargeFromSuffix reads only a whole charge', () => {
    expect(['3+', '+3', '2-', '-', '1.7+', '3', '2+3', 'A', ''].map(chargeFromSuffix)).toEqual([
      3,
      3,
      -2,
      -1,
      1.7,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
