/**
 * The matcher's OrderDisorderElementComparator with attemptSupercell + allowSubset (pymatgen 2022.11
 * `StructureMatcher.fit` accepts the pair), disordered sites, and MatterGen's ordered / disordered matchers
 * (microsoft/mattergen `mattergen/evaluation/utils/structure_matcher.py`).
 *
 * Expected values were computed independently with Debian's python3-pymatgen 2022.11.7: the structures
 * below built as pymatgen `Structure`s, `StructureMatcher(ltol=0.2, stol=0.3, angle_tol=5, primitive_cell=True,
 * scale=True, attempt_supercell=True, allow_subset=True, comparator=OrderDisorderElementComparator())`
 * `.fit(a, b)` and `.get_rms_dist(a, b)`; the MatterGen verdicts by MatterGen's steps (reduced formula,
 * ordered `StructureMatcher().fit`, substitution groups from pymatgen `atomic_radius` / `X`,
 * `replace_species` with the mixed occupancies, the fit above) on the same pymatgen. Several pairs are
 * MatterGen's own test pairs (`mattergen/tests/test_structure_matcher.py`, oxidation states dropped:
 * BeO/PoO vs SrO/BaO distinct, Fe₂NiMn orderings duplicates, SrBa swapped equivalent, moved sites distinct).
 */
import { describe, expect, it } from 'vitest';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { type Structure, makeSiteFromFrac } from '../../src/core/structure/structure.ts';
import type { Mat3, Vec3 } from '../../src/core/math/mat3.ts';
import { matcherFit, matcherRmsDist } from '../../src/core/match/structure-matcher.ts';
import {
  disorderedCopy,
  elementsSubstitute,
  mattergenFit,
  substitutionGroups,
} from '../../src/core/tasks/generations/mattergen-matcher.ts';

const STRUCTURES: Record<string, { lattice: number[][]; species: Record<string, number>[]; frac: number[][] }> = {
  beo_po: {
    lattice: [
      [6.0, 0.0, 0.0],
      [0.0, 6.0, 0.0],
      [0.0, 0.0, 6.0],
    ],
    species: [{ O: 1.0 }, { O: 1.0 }, { Be: 1.0 }, { Po: 1.0 }],
    frac: [
      [0.0, 0.0, 0.0],
      [0.5, 0.5, 0.5],
      [0.4, 0.6, 0.2],
      [0.0, 0.0, 0.75],
    ],
  },
  srba: {
    lattice: [
      [6.0, 0.0, 0.0],
      [0.0, 6.0, 0.0],
      [0.0, 0.0, 6.0],
    ],
    species: [{ O: 1.0 }, { O: 1.0 }, { Sr: 1.0 }, { Ba: 1.0 }],
    frac: [
      [0.0, 0.0, 0.0],
      [0.5, 0.5, 0.5],
      [0.4, 0.6, 0.2],
      [0.0, 0.0, 0.75],
    ],
  },
  basr: {
    lattice: [
      [6.0, 0.0, 0.0],
      [0.0, 6.0, 0.0],
      [0.0, 0.0, 6.0],
    ],
    species: [{ O: 1.0 }, { O: 1.0 }, { Ba: 1.0 }, { Sr: 1.0 }],
    frac: [
      [0.0, 0.0, 0.0],
      [0.5, 0.5, 0.5],
      [0.4, 0.6, 0.2],
      [0.0, 0.0, 0.75],
    ],
  },
  basr_moved: {
    lattice: [
      [6.0, 0.0, 0.0],
      [0.0, 6.0, 0.0],
      [0.0, 0.0, 6.0],
    ],
    species: [{ O: 1.0 }, { O: 1.0 }, { Ba: 1.0 }, { Sr: 1.0 }],
    frac: [
      [0.0, 0.0, 0.0],
      [0.75, 0.2, 0.1],
      [0.25, 0.3, 0.5],
      [0.0, 0.0, 0.75],
    ],
  },
  fefenimn: {
    lattice: [
      [6.0, 0.0, 0.0],
      [0.0, 6.0, 0.0],
      [0.0, 0.0, 6.0],
    ],
    species: [{ Fe: 1.0 }, { Fe: 1.0 }, { Ni: 1.0 }, { Mn: 1.0 }],
    frac: [
      [0.0, 0.0, 0.0],
      [0.5, 0.5, 0.5],
      [0.4, 0.6, 0.2],
      [0.0, 0.0, 0.75],
    ],
  },
  nifemnfe: {
    lattice: [
      [6.0, 0.0, 0.0],
      [0.0, 6.0, 0.0],
      [0.0, 0.0, 6.0],
    ],
    species: [{ Ni: 1.0 }, { Fe: 1.0 }, { Mn: 1.0 }, { Fe: 1.0 }],
    frac: [
      [0.0, 0.0, 0.0],
      [0.5, 0.5, 0.5],
      [0.4, 0.6, 0.2],
      [0.0, 0.0, 0.75],
    ],
  },
  basr_half: {
    lattice: [
      [6.0, 0.0, 0.0],
      [0.0, 6.0, 0.0],
      [0.0, 0.0, 6.0],
    ],
    species: [{ O: 1.0 }, { O: 1.0 }, { Ba: 0.5, Sr: 0.5 }, { Ba: 0.5, Sr: 0.5 }],
    frac: [
      [0.0, 0.0, 0.0],
      [0.5, 0.5, 0.5],
      [0.4, 0.6, 0.2],
      [0.0, 0.0, 0.75],
    ],
  },
  basr_tenth: {
    lattice: [
      [6.0, 0.0, 0.0],
      [0.0, 6.0, 0.0],
      [0.0, 0.0, 6.0],
    ],
    species: [{ O: 1.0 }, { O: 1.0 }, { Ba: 0.1, Sr: 0.9 }, { Ba: 0.1, Sr: 0.9 }],
    frac: [
      [0.0, 0.0, 0.0],
      [0.5, 0.5, 0.5],
      [0.4, 0.6, 0.2],
      [0.0, 0.0, 0.75],
    ],
  },
  fenimn_mixed: {
    lattice: [
      [6.0, 0.0, 0.0],
      [0.0, 6.0, 0.0],
      [0.0, 0.0, 6.0],
    ],
    species: [{ O: 1.0 }, { O: 1.0 }, { Fe: 0.5, Ni: 0.25, Mn: 0.25 }, { Fe: 0.5, Ni: 0.25, Mn: 0.25 }],
    frac: [
      [0.0, 0.0, 0.0],
      [0.5, 0.5, 0.5],
      [0.4, 0.6, 0.2],
      [0.0, 0.0, 0.75],
    ],
  },
  feni_mixed_all: {
    lattice: [
      [6.0, 0.0, 0.0],
      [0.0, 6.0, 0.0],
      [0.0, 0.0, 6.0],
    ],
    species: [
      { Fe: 0.5, Ni: 0.25, Mn: 0.25 },
      { Fe: 0.5, Ni: 0.25, Mn: 0.25 },
      { Fe: 0.5, Ni: 0.25, Mn: 0.25 },
      { Fe: 0.5, Ni: 0.25, Mn: 0.25 },
    ],
    frac: [
      [0.0, 0.0, 0.0],
      [0.5, 0.5, 0.5],
      [0.4, 0.6, 0.2],
      [0.0, 0.0, 0.75],
    ],
  },
  cuau_l10: {
    lattice: [
      [3.9, 0.0, 0.0],
      [0.0, 3.9, 0.0],
      [0.0, 0.0, 3.9779999999999998],
    ],
    species: [{ Cu: 1.0 }, { Cu: 1.0 }, { Au: 1.0 }, { Au: 1.0 }],
    frac: [
      [0.0, 0.0, 0.0],
      [0.5, 0.5, 0.0],
      [0.5, 0.0, 0.5],
      [0.0, 0.5, 0.5],
    ],
  },
  cuau_fcc_disordered: {
    lattice: [
      [0.0, 1.95, 1.95],
      [1.95, 0.0, 1.95],
      [1.95, 1.95, 0.0],
    ],
    species: [{ Cu: 0.5, Au: 0.5 }],
    frac: [[0, 0, 0]],
  },
  cu_fcc_conv: {
    lattice: [
      [3.9, 0.0, 0.0],
      [0.0, 3.9, 0.0],
      [0.0, 0.0, 3.9],
    ],
    species: [{ Cu: 1.0 }, { Cu: 1.0 }, { Cu: 1.0 }, { Cu: 1.0 }],
    frac: [
      [0.0, 0.0, 0.0],
      [0.5, 0.5, 0.0],
      [0.5, 0.0, 0.5],
      [0.0, 0.5, 0.5],
    ],
  },
  nacl: {
    lattice: [
      [5.64, 0.0, 0.0],
      [0.0, 5.64, 0.0],
      [0.0, 0.0, 5.64],
    ],
    species: [{ Na: 1.0 }, { Na: 1.0 }, { Na: 1.0 }, { Na: 1.0 }, { Cl: 1.0 }, { Cl: 1.0 }, { Cl: 1.0 }, { Cl: 1.0 }],
    frac: [
      [0.0, 0.0, 0.0],
      [0.5, 0.5, 0.0],
      [0.5, 0.0, 0.5],
      [0.0, 0.5, 0.5],
      [0.5, 0.0, 0.0],
      [0.0, 0.5, 0.0],
      [0.0, 0.0, 0.5],
      [0.5, 0.5, 0.5],
    ],
  },
  nacl_vacancy: {
    lattice: [
      [5.64, 0.0, 0.0],
      [0.0, 5.64, 0.0],
      [0.0, 0.0, 5.64],
    ],
    species: [{ Na: 1.0 }, { Na: 1.0 }, { Na: 1.0 }, { Cl: 1.0 }, { Cl: 1.0 }, { Cl: 1.0 }, { Cl: 1.0 }],
    frac: [
      [0.0, 0.0, 0.0],
      [0.5, 0.0, 0.5],
      [0.0, 0.5, 0.5],
      [0.5, 0.0, 0.0],
      [0.0, 0.5, 0.0],
      [0.0, 0.0, 0.5],
      [0.5, 0.5, 0.5],
    ],
  },
  tri_alloy: {
    lattice: [
      [5.061985373370741, 0.0, -0.6215336513662516],
      [-1.2798264133484225, 5.48242259032542, 0.8916764507293163],
      [0.0, 0.0, 6.3],
    ],
    species: [{ Cu: 1.0 }, { Cu: 1.0 }, { Cu: 1.0 }, { Au: 1.0 }, { Au: 1.0 }, { Ag: 1.0 }],
    frac: [
      [0.625095466604667, 0.8972138009695755, 0.7756856902451935],
      [0.22520718999059186, 0.30016628491122543, 0.8735534453962619],
      [0.005265304565574724, 0.8212284183827663, 0.7970694287520462],
      [0.4679349528437208, 0.3030324268193135, 0.2784256121007733],
      [0.2548695876541246, 0.4450763058826466, 0.5045482589579533],
      [0.5534973520744925, 0.9955002834343927, 0.7926619192137531],
    ],
  },
  tri_alloy_swapped: {
    lattice: [
      [5.061985373370741, 0.0, -0.6215336513662516],
      [-1.2798264133484225, 5.48242259032542, 0.8916764507293163],
      [0.0, 0.0, 6.3],
    ],
    species: [{ Au: 1.0 }, { Cu: 1.0 }, { Cu: 1.0 }, { Cu: 1.0 }, { Au: 1.0 }, { Ag: 1.0 }],
    frac: [
      [0.6174905756454636, 0.8920556500104356, 0.7683187500940266],
      [0.22426682546629315, 0.2950964989854506, 0.8746385028315486],
      [0.0058923089120716254, 0.8204806946042464, 0.7870023899087641],
      [0.4657801812603342, 0.30283842303770925, 0.2788788480447866],
      [0.248749044592103, 0.44316529277851086, 0.5006341826457268],
      [0.5502620031167901, 0.999743877927937, 0.7894317805124255],
    ],
  },
  tri_alloy_mixed: {
    lattice: [
      [5.061985373370741, 0.0, -0.6215336513662516],
      [-1.2798264133484225, 5.48242259032542, 0.8916764507293163],
      [0.0, 0.0, 6.3],
    ],
    species: [{ Cu: 0.6, Au: 0.4 }, { Cu: 0.6, Au: 0.4 }, { Cu: 0.6, Au: 0.4 }, { Cu: 0.6, Au: 0.4 }, { Cu: 0.6, Au: 0.4 }, { Ag: 1.0 }],
    frac: [
      [0.625095466604667, 0.8972138009695755, 0.7756856902451935],
      [0.22520718999059186, 0.30016628491122543, 0.8735534453962619],
      [0.005265304565574724, 0.8212284183827663, 0.7970694287520462],
      [0.4679349528437208, 0.3030324268193135, 0.2784256121007733],
      [0.2548695876541246, 0.4450763058826466, 0.5045482589579533],
      [0.5534973520744925, 0.9955002834343927, 0.7926619192137531],
    ],
  },
  tri_alloy_swapped_super: {
    lattice: [
      [3.782158960022319, 5.48242259032542, 0.27014279936306473],
      [-1.2798264133484225, 5.48242259032542, 0.8916764507293163],
      [0.0, 0.0, 12.6],
    ],
    species: [
      { Au: 1.0 },
      { Au: 1.0 },
      { Cu: 1.0 },
      { Cu: 1.0 },
      { Cu: 1.0 },
      { Cu: 1.0 },
      { Cu: 1.0 },
      { Cu: 1.0 },
      { Au: 1.0 },
      { Au: 1.0 },
      { Ag: 1.0 },
      { Ag: 1.0 },
    ],
    frac: [
      [0.6174905756454635, 0.274565074364972, 0.3841593750470133],
      [0.6174905756454635, 0.274565074364972, 0.8841593750470133],
      [0.22426682546629317, 0.07082967351915742, 0.43731925141577427],
      [0.22426682546629317, 0.07082967351915742, 0.9373192514157742],
      [0.005892308912071578, 0.8145883856921748, 0.39350119495438207],
      [0.005892308912071578, 0.8145883856921748, 0.893501194954382],
      [0.46578018126033416, 0.8370582417773751, 0.13943942402239326],
      [0.46578018126033416, 0.8370582417773751, 0.6394394240223933],
      [0.248749044592103, 0.19441624818640788, 0.25031709132286334],
      [0.248749044592103, 0.19441624818640788, 0.7503170913228633],
      [0.5502620031167901, 0.44948187481114693, 0.3947158902562127],
      [0.5502620031167901, 0.44948187481114693, 0.8947158902562126],
    ],
  },
};

/**
 * pymatgen StructureMatcher(attempt_supercell=True, allow_subset=True, comparator=OrderDisorderElementComparator()):
 * fit(a, b) and get_rms_dist(a, b).
 */
const PYMATGEN_CASES: { a: string; b: string; fit: boolean; rms: [number, number] | null }[] = [
  { a: 'basr_half', b: 'srba', fit: true, rms: [5.087521652101441e-17, 8.811845986046449e-17] },
  { a: 'srba', b: 'basr_half', fit: true, rms: [5.087521652101441e-17, 8.811845986046449e-17] },
  { a: 'basr_tenth', b: 'srba', fit: true, rms: [5.087521652101441e-17, 8.811845986046449e-17] },
  { a: 'basr_half', b: 'basr_tenth', fit: true, rms: [5.087521652101441e-17, 8.811845986046449e-17] },
  { a: 'fenimn_mixed', b: 'basr', fit: false, rms: null },
  { a: 'feni_mixed_all', b: 'fefenimn', fit: true, rms: [5.087521652101441e-17, 8.811845986046449e-17] },
  { a: 'feni_mixed_all', b: 'nifemnfe', fit: true, rms: [5.087521652101441e-17, 8.811845986046449e-17] },
  { a: 'fefenimn', b: 'feni_mixed_all', fit: true, rms: [5.087521652101441e-17, 8.811845986046449e-17] },
  { a: 'beo_po', b: 'basr_half', fit: false, rms: null },
  { a: 'basr_moved', b: 'basr_half', fit: false, rms: null },
  { a: 'cuau_l10', b: 'cuau_fcc_disordered', fit: true, rms: [0.0, 0.0] },
  { a: 'cuau_fcc_disordered', b: 'cuau_l10', fit: true, rms: [0.0, 0.0] },
  { a: 'cu_fcc_conv', b: 'cuau_fcc_disordered', fit: true, rms: [0.0, 0.0] },
  { a: 'nacl_vacancy', b: 'nacl', fit: true, rms: [0.0, 0.0] },
  { a: 'nacl', b: 'nacl_vacancy', fit: true, rms: [0.0, 0.0] },
  { a: 'tri_alloy_mixed', b: 'tri_alloy_swapped', fit: true, rms: [0.010909327252768294, 0.01468844121050402] },
  { a: 'tri_alloy_swapped', b: 'tri_alloy_mixed', fit: true, rms: [0.01090932725276832, 0.0146884412105041] },
  { a: 'tri_alloy', b: 'tri_alloy_swapped', fit: false, rms: null },
  { a: 'tri_alloy_mixed', b: 'tri_alloy_swapped_super', fit: true, rms: [0.01090932725276828, 0.014688441210504236] },
  { a: 'tri_alloy_swapped_super', b: 'tri_alloy_mixed', fit: true, rms: [0.010909327252768327, 0.01468844121050432] },
];

/** MatterGen's matchers (spec'd steps, run on pymatgen 2022.11): fit(a, b) under each. */
const MATTERGEN_CASES: { a: string; b: string; disordered: boolean; ordered: boolean }[] = [
  { a: 'beo_po', b: 'beo_po', disordered: true, ordered: true },
  { a: 'beo_po', b: 'srba', disordered: false, ordered: false },
  { a: 'fefenimn', b: 'nifemnfe', disordered: true, ordered: false },
  { a: 'srba', b: 'basr', disordered: true, ordered: true },
  { a: 'srba', b: 'basr_moved', disordered: false, ordered: false },
  { a: 'tri_alloy_swapped', b: 'tri_alloy', disordered: true, ordered: false },
  { a: 'tri_alloy', b: 'tri_alloy_swapped', disordered: true, ordered: false },
  { a: 'tri_alloy_swapped_super', b: 'tri_alloy', disordered: true, ordered: false },
  { a: 'cuau_l10', b: 'cu_fcc_conv', disordered: false, ordered: false },
];

const GROUPS: Record<string, string[][] | null> = {
  beo_po: null,
  srba: [['Ba', 'Sr']],
  fefenimn: [['Fe', 'Mn', 'Ni']],
  tri_alloy: [['Ag', 'Au', 'Cu']],
  nacl: null,
};

function structure(name: string): Structure {
  const e = STRUCTURES[name];
  const lattice = new Lattice(e.lattice as Mat3);
  return { name, lattice, sites: e.frac.map((f, i) => makeSiteFromFrac(lattice, f as Vec3, { ...e.species[i] })) };
}

const OD = { attemptSupercell: true, allowSubset: true, comparator: 'orderDisorder' as const };

describe('OrderDisorderElementComparator with attemptSupercell and allowSubset', () => {
  for (const c of PYMATGEN_CASES) {
    it(`fit(${c.a}, ${c.b}) = ${c.fit}, get_rms_dist as pymatgen`, () => {
      expect(matcherFit(structure(c.a), structure(c.b), OD)).toBe(c.fit);
      const rms = matcherRmsDist(structure(c.a), structure(c.b), OD);
      if (c.rms === null) expect(rms).toBeNull();
      else {
        expect(rms).not.toBeNull();
        expect(Math.abs(rms!.rms - c.rms[0])).toBeLessThan(1e-9);
        expect(Math.abs(rms!.maxDist - c.rms[1])).toBeLessThan(1e-9);
      }
    });
  }

  it('an element set matches its supersets and subsets only', () => {
    const one = (species: Record<string, number>): Structure => {
      const lattice = new Lattice([
        [3, 0, 0],
        [0, 3.3, 0],
        [0, 0, 3.7],
      ]);
      return { name: 'x', lattice, sites: [makeSiteFromFrac(lattice, [0, 0, 0], species)] };
    };
    expect(matcherFit(one({ Cu: 1 }), one({ Cu: 0.5, Au: 0.5 }), OD)).toBe(true);
    expect(matcherFit(one({ Au: 0.5, Cu: 0.5 }), one({ Ag: 0.2, Au: 0.4, Cu: 0.4 }), OD)).toBe(true);
    expect(matcherFit(one({ Au: 0.5, Cu: 0.5 }), one({ Ag: 0.5, Cu: 0.5 }), OD)).toBe(false);
    expect(matcherFit(one({ Au: 1 }), one({ Cu: 1 }), OD)).toBe(false);
    // The species comparator still tells occupancies apart.
    expect(matcherFit(one({ Cu: 0.5, Au: 0.5 }), one({ Cu: 0.6, Au: 0.4 }))).toBe(false);
  });
});

describe("MatterGen's matchers", () => {
  for (const c of MATTERGEN_CASES) {
    it(`fit(${c.a}, ${c.b}): disordered ${c.disordered}, ordered ${c.ordered}`, () => {
      expect(mattergenFit(structure(c.a), structure(c.b), 'disordered')).toBe(c.disordered);
      expect(mattergenFit(structure(c.a), structure(c.b), 'ordered')).toBe(c.ordered);
    });
  }

  it('substitution groups are the connected components of the Hume-Rothery pairs', () => {
    for (const [name, groups] of Object.entries(GROUPS)) {
      const got = substitutionGroups(structure(name));
      expect(got && got.map((g) => [...g].sort()), name).toEqual(groups);
    }
  });

  it('the substitution rule: radius within 30 %, X within 1.0; missing radius or X never substitutes', () => {
    expect(elementsSubstitute('Cu', 'Au')).toBe(true);
    expect(elementsSubstitute('Na', 'Cl')).toBe(false);
    expect(elementsSubstitute('Ar', 'N')).toBe(false); // radii 0.71 / 0.65 Å, but X(Ar) missing
    expect(elementsSubstitute('Kr', 'Br')).toBe(false); // atomic_radius(Kr) missing
  });

  it('the disordered copy mixes each group by atomic fraction, other sites unchanged', () => {
    const s = structure('tri_alloy');
    const d = disorderedCopy(s, [['Cu', 'Au']]);
    for (const i of [0, 3]) {
      expect(Object.keys(d.sites[i].species).sort()).toEqual(['Au', 'Cu']);
      expect(d.sites[i].species.Cu).toBeCloseTo(0.6, 14);
      expect(d.sites[i].species.Au).toBeCloseTo(0.4, 14);
    }
    expect(d.sites[5].species).toEqual({ Ag: 1 });
    expect(s.sites[0].species).toEqual({ Cu: 1 });
  });
});
