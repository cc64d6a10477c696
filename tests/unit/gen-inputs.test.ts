/** Generation metrics, the parts G2 builds on: input sets and pairing, structural validity, SMACT. */
import { describe, expect, it } from 'vitest';
import { pymatgenJson } from '../hostile-structures.ts';
import { p1Cif } from '../cif.ts';
import {
  GenInputError,
  energiesFor,
  pairCsp,
  setFromExtxyz,
  setFromFolder,
  setFromJsonl,
  type GenItem,
} from '../../src/core/tasks/generations/inputs.ts';
import { smactValidity, type SmactTable } from '../../src/core/tasks/generations/smact.ts';
import { minPairDistance, structuralValidity } from '../../src/core/tasks/generations/validity.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { makeSiteFromFrac, type Structure } from '../../src/core/structure/structure.ts';

/** Element counts from a formula such as "Fe3O4". */
function counts(formula: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [, el, n] of formula.matchAll(/([A-Z][a-z]?)(\d*)/g)) out[el] = (out[el] ?? 0) + (n ? Number(n) : 1);
  return out;
}
const smact = (formula: string, table: SmactTable = 'legacy', diffcsp = true) => smactValidity(counts(formula), table, diffcsp);

function crystal(a: number, sites: [string, number, number, number][]): Structure {
  const lattice = Lattice.cubic(a);
  return { name: 'x', lattice, sites: sites.map(([el, x, y, z]) => makeSiteFromFrac(lattice, [x, y, z], { [el]: 1 })) };
}

describe('SMACT compositional validity', () => {
  it("reproduces SMACT's own test expectations in both tables (smact/tests/test_core.py)", () => {
    for (const table of ['legacy', 'icsd24'] as const) {
      for (const f of ['NaCl', 'Fe', 'FeAl', 'XeF2', 'KrF2']) expect(smact(f, table).valid, `${f} ${table}`).toBe(true);
      for (const f of ['Fe3O4', 'LiF2', 'NeF2']) expect(smact(f, table).valid, `${f} ${table}`).toBe(false);
    }
  });

  it('one oxidation state per element: mixed-valence oxides are charge-imbalanced', () => {
    expect(smact('Fe3O4')).toEqual({ valid: false, reason: 'charge_imbalance' });
    expect(smact('Mn3O4')).toEqual({ valid: false, reason: 'charge_imbalance' });
  });

  it('metals with B, Si, As or Te are outside the all-metal rule (MgB2 legacy/icsd24, Mn5Si3)', () => {
    expect(smact('MgB2', 'legacy').valid).toBe(false);
    expect(smact('MgB2', 'icsd24').valid).toBe(true);
    expect(smact('Mn5Si3', 'legacy').valid).toBe(false);
    expect(smact('Mn5Si3', 'icsd24').valid).toBe(false);
    expect(smact('Cu3Au').valid).toBe(true);
    expect(smact('GeSb').valid).toBe(true); // Ge and Sb are in smact.metals
  });

  it('peroxides pass, superoxides do not', () => {
    for (const table of ['legacy', 'icsd24'] as const) {
      expect(smact('Na2O2', table).valid).toBe(true);
      expect(smact('KO2', table).valid).toBe(false);
    }
  });

  it('legacy: a missing χ in a cation/anion pair accepts the choice (PmSe); icsd24 rejects it (Pm has no states)', () => {
    expect(smact('PmSe', 'legacy')).toEqual({ valid: true, reason: null });
    expect(smact('PmSe', 'icsd24')).toEqual({ valid: false, reason: 'charge_imbalance' });
  });

  it('legacy: a missing χ in a same-sign pair fails the choice; the first deciding pair wins', () => {
    // Pm (no χ) and Sm as cations, At⁻: the Pm/Sm pair (same sign) comes first and fails the only neutral choice.
    expect(smact('PmSmAt6', 'legacy')).toEqual({ valid: false, reason: 'electronegativity' });
    // Se (Z 34) before Pm: the Se/Pm pair (opposite signs) raises upstream's TypeError first, which accepts.
    expect(smact('PmSmSe3', 'legacy')).toEqual({ valid: true, reason: null });
    expect(smact('HeF2', 'legacy').reason).toBe('charge_imbalance'); // He has no oxidation states
  });

  it('electronegativity: neutral choices exist but every one fails the Pauling test', () => {
    expect(smact('MgSi3Ir')).toEqual({ valid: false, reason: 'electronegativity' });
    expect(smact('Fe5CoH')).toEqual({ valid: false, reason: 'electronegativity' });
    expect(smact('Ba2Te3')).toEqual({ valid: false, reason: 'charge_imbalance' });
    expect(smact('NCl3').valid).toBe(true);
  });

  it("DiffCSP's 10⁷ cut exists only with the DiffCSP convention", () => {
    const eight = 'CNSiPSClMnOs'; // 8⁶ · 10 · 10 ≈ 2.6 · 10⁷ combinations in the legacy table
    expect(smact(eight, 'legacy', true)).toEqual({ valid: false, reason: 'oxidation_combinations_over_limit' });
    expect(smact(eight, 'legacy', false).reason).not.toBe('oxidation_combinations_over_limit');
  });
});

describe('structural validity', () => {
  it('strict thresholds: 0.5 Å exactly is valid, and a one-site cell has no distance', () => {
    const ok = structuralValidity(
      crystal(4, [
        ['Na', 0, 0, 0],
        ['Cl', 0.125, 0, 0],
      ]),
    );
    expect(ok.minDistance).toBeCloseTo(0.5, 12);
    const close = structuralValidity(
      crystal(4, [
        ['Na', 0, 0, 0],
        ['Cl', 0.1, 0, 0],
      ]),
    );
    expect(close.reasons).toEqual(['atoms_too_close']);
    const one = structuralValidity(crystal(0.3, [['Fe', 0, 0, 0]]));
    expect(one.minDistance).toBeNull();
    expect(one.reasons).toEqual(['volume_too_small']);
    expect(structuralValidity(crystal(0.47, [['Fe', 0, 0, 0]])).valid).toBe(true); // self-images never tested
  });

  it('distances are minimum-image across the cell boundary', () => {
    expect(
      minPairDistance(
        crystal(5, [
          ['Na', 0.01, 0, 0],
          ['Cl', 0.97, 0, 0],
        ]),
      ),
    ).toBeCloseTo(0.2, 12);
    const both = structuralValidity(
      crystal(0.4, [
        ['Na', 0, 0, 0],
        ['Cl', 0.5, 0.5, 0.5],
      ]),
    );
    expect(both.reasons).toEqual(['atoms_too_close', 'volume_too_small']);
  });
});

const CIF = (label: string, occ = '1.0') =>
  p1Cif(label, 4, [`Na2+ Na1 0 0 0 ${occ}`, 'Cl Cl1 0.5 0.5 0.5 1.0'], {
    columns: [
      '_atom_site_type_symbol',
      '_atom_site_label',
      '_atom_site_fract_x',
      '_atom_site_fract_y',
      '_atom_site_fract_z',
      '_atom_site_occupancy',
    ],
  });

describe('input sets', () => {
  it('a folder: structure files only, ids without the ending, sorted by code point, oxidation states dropped', () => {
    const set = setFromFolder('prediction', 'pred', [
      { name: 'b.cif', text: CIF('b') },
      { name: '.hidden.cif', text: 'junk' },
      { name: 'notes.txt', text: 'junk' },
      { name: 'a.cif', text: CIF('a') },
    ]);
    expect(set.map((s) => s.id)).toEqual(['a', 'b']);
    expect(set[0].structure.sites[0]).toEqual(expect.objectContaining({ species: { Na: 1 } }));
    expect(set[0].structure.sites[0].oxidation).toBeUndefined();
  });

  it("CIF coordinates within 1e-4 (relative) of 1/3 or 2/3 are rounded, as pymatgen's CifParser does even in P1", () => {
    const text = CIF('a').replace('Cl Cl1 0.5 0.5 0.5', 'Cl Cl1 0.333358 0.666642 0.3334');
    const [s] = setFromFolder('truth', 'truth', [{ name: 'a.cif', text }]);
    expect(s.structure.sites[1].frac).toEqual([1 / 3, 2 / 3, 0.3334]);
    expect(s.structure.sites[1].xyz[0]).toBeCloseTo(4 / 3, 12);
  });

  it('refuses partial occupancy and unreadable files with the file named', () => {
    expect(() => setFromFolder('prediction', 'pred', [{ name: 'a.cif', text: CIF('a', '0.5') }])).toThrow(
      /pred\/a\.cif site 0 is partially occupied; gen commands need ordered structures/,
    );
    expect(() => setFromFolder('prediction', 'pred', [{ name: 'a.cif', text: 'data_x\n_cell_length_a' }])).toThrow(GenInputError);
  });

  it('a folder with subfolders: ids are the paths below it, so one file name in two subfolders is two structures', () => {
    // MatterGen's CIFs (tests/reference/golden/generations/sources/mattergen_cifs) as a folder: both halves hold HfZnN2.cif.
    const set = setFromFolder('prediction', 'mattergen_cifs', [
      { name: 'random_structure_search/chemical_system/HfZnN2.cif', text: CIF('r') },
      { name: 'mattergen/chemical_system/HfZnN2.cif', text: CIF('m') },
      { name: 'mattergen/.ipynb_checkpoints/HfZnN2.cif', text: 'junk' },
      { name: '__MACOSX/mattergen/HfZnN2.cif', text: 'junk' },
      { name: 'LICENSE.md', text: 'junk' },
    ]);
    expect(set.map((s) => [s.id, s.where])).toEqual([
      ['mattergen/chemical_system/HfZnN2', 'mattergen_cifs/mattergen/chemical_system/HfZnN2.cif'],
      ['random_structure_search/chemical_system/HfZnN2', 'mattergen_cifs/random_structure_search/chemical_system/HfZnN2.cif'],
    ]);
  });

  it('ids may repeat in a set (de novo never looks one up); CSP pairing and energies by id refuse them, naming both files', () => {
    const vasp = 'x\n1\n4 0 0\n0 4 0\n0 0 4\nNa\n1\nDirect\n0 0 0\n';
    const set = setFromFolder('prediction', 'pred', [
      { name: 'a.cif', text: CIF('a') },
      { name: 'a.vasp', text: vasp },
    ]);
    expect(set.map((s) => s.id)).toEqual(['a', 'a']);
    const truth = setFromFolder('truth', 'truth', [{ name: 'a.cif', text: CIF('a') }]);
    expect(() => pairCsp(set, truth, 1)).toThrow(
      /^the predictions pred\/a\.cif and pred\/a\.vasp have the same id "a"; CSP pairs predictions with truths by id$/,
    );
    expect(() => pairCsp(truth, set, 1)).toThrow(/^the truths pred\/a\.cif and pred\/a\.vasp have the same id "a"/);
    expect(() => energiesFor('e.json', new Map([['a', 0]]), set)).toThrow(/have the same id "a"; e\.json gives the energies by id$/);
    expect(energiesFor('e.json', new Map([['a', 0]]), set.slice(0, 1))).toEqual(new Map([['a', 0]]));
  });

  it('extended XYZ: id= or the frame index; frames need a lattice', () => {
    const frame = (extra: string) => `1\nLattice="3 0 0 0 3 0 0 0 3" Properties=species:S:1:pos:R:3 ${extra}\nFe 0 0 0\n`;
    const set = setFromExtxyz('prediction', 'p.extxyz', frame('id=x__1') + frame(''));
    expect(set.map((s) => s.id)).toEqual(['x__1', '1']);
    expect(() => setFromExtxyz('prediction', 'p.extxyz', '1\nProperties=species:S:1:pos:R:3\nFe 0 0 0\n')).toThrow(
      /frame 0 has no Lattice=/,
    );
  });

  it('JSONL: a string id and a structure per line, named by line', () => {
    const s = pymatgenJson({});
    const set = setFromJsonl('truth', 't.jsonl', `{"id": "a", "structure": ${s}}\n\n{"id": "b", "structure": ${s}}\n`);
    expect(set.map((x) => x.id)).toEqual(['a', 'b']);
    expect(() => setFromJsonl('truth', 't.jsonl', `{"id": "a", "structure": ${s}}\n{"structure": ${s}}\n`)).toThrow(
      /t\.jsonl line 2 needs a string "id" and an object "structure"/,
    );
  });

  it('CSP pairing by id, and by TRUTHID__k with --n-samples K (split at the last __)', () => {
    const item = (id: string): GenItem => ({ id, structure: crystal(3, [['Fe', 0, 0, 0]]), where: id });
    const truths = [item('b'), item('a__x')];
    const one = pairCsp([item('a__x'), item('b')], truths, 1);
    expect(one.map((g) => [g.truth.id, g.samples.map((s) => s.k)])).toEqual([
      ['a__x', [0]],
      ['b', [0]],
    ]);
    const two = pairCsp([item('a__x__2'), item('b__10'), item('b__03'), item('a__x__1')], truths, 2);
    expect(two.map((g) => g.samples.map((s) => s.k))).toEqual([
      [1, 2],
      [3, 10],
    ]);
    expect(() => pairCsp([item('b'), item('c')], [item('b')], 1)).toThrow(/prediction c has no truth/);
    expect(() => pairCsp([item('b')], [item('b'), item('c')], 1)).toThrow(/truth c has 0 predictions, --n-samples is 1/);
    expect(() => pairCsp([item('b'), item('b__x')], [item('b')], 2)).toThrow(/prediction b is not named TRUTHID__k/);
    expect(() => pairCsp([item('b__1'), item('b__01')], [item('b')], 2)).toThrow(/same sample 1/);
  });
});
