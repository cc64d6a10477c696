/**
 * src/core/analysis/phase-diagram.ts against pymatgen 2022.11 PhaseDiagram (tests/reference/golden/generations/hull,
 * made by scripts/make-hull-goldens.py): formation energies per atom, elemental references, energies above hull
 * (allow_negative=True) and decompositions of every golden query within 1e-9; hostile inputs refused in one sentence.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type PDEntry, PhaseDiagram, PhaseDiagramError, compositionFormula, parseFormula } from '../../src/core/analysis/phase-diagram.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

const TOL = 1e-9;

interface GoldenEntry {
  composition: Record<string, number>;
  energy: number;
  formation_energy_per_atom: number;
}
interface GoldenQuery extends GoldenEntry {
  e_above_hull: number;
  hull_energy_per_atom: number;
  decomposition: { reference: number | null; formula: string; amount: number }[];
}
interface GoldenSet {
  name: string;
  reference: GoldenEntry[];
  elemental_references: Record<string, number>;
  queries: GoldenQuery[];
}

const golden = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'generations', 'hull', 'hull_goldens.json'), 'utf8')) as {
  sets: GoldenSet[];
};

const entry = (g: { composition: Record<string, number>; energy: number }): PDEntry => ({
  composition: new Map(Object.entries(g.composition)),
  energy: g.energy,
});

describe('PhaseDiagram against pymatgen 2022.11', () => {
  it('has the golden sets', () => {
    expect(golden.sets.map((s) => s.name)).toHaveLength(6);
  });
  for (const set of golden.sets) {
    describe(set.name, () => {
      const refs = set.reference.map(entry);
      const pd = new PhaseDiagram(refs);
      it('picks the elemental references', () => {
        for (const [el, i] of Object.entries(set.elemental_references)) expect(pd.elementalReferences.get(el)?.energy).toBe(refs[i].energy);
        expect(pd.elementalReferences.size).toBe(Object.keys(set.elemental_references).length);
      });
      it('gives the formation energies per atom', () => {
        set.reference.forEach((g, i) =>
          expect(Math.abs(pd.formationEnergyPerAtom(refs[i]) - g.formation_energy_per_atom)).toBeLessThan(TOL),
        );
      });
      it('gives the energies above hull and decompositions', () => {
        set.queries.forEach((q, k) => {
          const r = pd.eAboveHull(entry(q));
          const where = `${set.name} query ${k}`;
          expect(Math.abs(r.eAboveHull - q.e_above_hull), where).toBeLessThan(TOL);
          expect(Math.abs(r.hullEnergyPerAtom - q.hull_energy_per_atom), where).toBeLessThan(TOL);
          expect(Math.abs(pd.formationEnergyPerAtom(entry(q)) - q.formation_energy_per_atom), where).toBeLessThan(TOL);
          const got = r.decomposition.map((p) => ({ formula: compositionFormula(p.entry.composition), amount: p.amount }));
          got.sort((a, b) => (a.formula < b.formula ? -1 : a.formula > b.formula ? 1 : 0));
          const want = [...q.decomposition].sort((a, b) => (a.formula < b.formula ? -1 : a.formula > b.formula ? 1 : 0));
          expect(
            got.map((p) => p.formula),
            where,
          ).toEqual(want.map((p) => p.formula));
          got.forEach((p, j) => expect(Math.abs(p.amount - want[j].amount), where).toBeLessThan(TOL));
          for (const p of q.decomposition)
            if (p.reference !== null) expect(r.decomposition.some((d) => d.entry.energy === refs[p.reference!].energy)).toBe(true);
        });
      });
    });
  }
});

describe('PhaseDiagram refuses hostile input in one sentence', () => {
  const m = (o: Record<string, number>) => new Map(Object.entries(o));
  const refs: PDEntry[] = [
    { composition: m({ Li: 1 }), energy: -1.9 },
    { composition: m({ O: 2 }), energy: -9.8 },
    { composition: m({ Li: 2, O: 1 }), energy: -10 },
  ];
  const oneSentence = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(PhaseDiagramError);
      const msg = (e as Error).message;
      expect(msg).not.toMatch(/\n/);
      return msg;
    }
    throw new Error('expected a refusal');
  };
  it('names a missing elemental reference', () => {
    const pd = new PhaseDiagram(refs);
    expect(oneSentence(() => pd.eAboveHull({ composition: m({ Li: 1, Fe: 1 }), energy: -5 }))).toMatch(/no entry of pure Fe/);
    expect(pd.missingReference(['Li', 'O', 'Fe'])).toBe('Fe');
  });
  it('refuses non-finite energies', () => {
    expect(oneSentence(() => new PhaseDiagram([...refs, { composition: m({ Li: 1 }), energy: NaN }]))).toMatch(/energy NaN/);
    const pd = new PhaseDiagram(refs);
    expect(oneSentence(() => pd.eAboveHull({ composition: m({ Li: 1 }), energy: Infinity }))).toMatch(/finite/);
  });
  it('refuses compositions with no atoms, negative or huge counts, and names that are not elements', () => {
    const pd = new PhaseDiagram(refs);
    expect(oneSentence(() => pd.eAboveHull({ composition: m({ Li: 0 }), energy: -1 }))).toMatch(/no atoms/);
    expect(oneSentence(() => pd.eAboveHull({ composition: m({}), energy: -1 }))).toMatch(/no atoms/);
    expect(oneSentence(() => pd.eAboveHull({ composition: m({ Li: -1, O: 2 }), energy: -1 }))).toMatch(/≥ 0/);
    expect(oneSentence(() => pd.eAboveHull({ composition: m({ Li: 1e12 }), energy: -1 }))).toMatch(/the limit is/);
    expect(oneSentence(() => new PhaseDiagram([...refs, { composition: m(JSON.parse('{"__proto__": 1}')), energy: -1 }]))).toMatch(
      /not an element/,
    );
  });
  it('parses formulas as pymatgen and refuses broken ones', () => {
    expect([...parseFormula('Ca3(PO4)2')]).toEqual([
      ['Ca', 3],
      ['P', 2],
      ['O', 8],
    ]);
    expect([...parseFormula('Li0.5CoO2')]).toEqual([
      ['Li', 0.5],
      ['Co', 1],
      ['O', 2],
    ]);
    expect([...parseFormula('Fe2 O3')]).toEqual([
      ['Fe', 2],
      ['O', 3],
    ]);
    expect(compositionFormula(parseFormula('Li4O2'))).toBe('Li2O');
    expect(oneSentence(() => parseFormula('Xx2'))).toMatch(/not an element/);
    expect(oneSentence(() => parseFormula('(LiO'))).toMatch(/unclosed/);
    expect(oneSentence(() => parseFormula('LiO)'))).toMatch(/unmatched/);
    expect(oneSentence(() => parseFormula('Li-O'))).toMatch(/unexpected/);
  });
  it('judges a composition against the hull of its own chemical system only', () => {
    const pd = new PhaseDiagram([...refs, { composition: m({ Fe: 1 }), energy: -8 }]);
    const r = pd.eAboveHull({ composition: m({ Li: 2, O: 1 }), energy: -10 });
    expect(r.eAboveHull).toBe(0);
    expect(r.decomposition.map((d) => compositionFormula(d.entry.composition))).toEqual(['Li2O']);
  });
});
