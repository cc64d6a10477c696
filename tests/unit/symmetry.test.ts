/**
 * Space groups from moyo against spglib 2.0.2 (corpus goldens), on the structures pymatgen built.
 * The structures here come straight from the golden sites, so this checks the symmetry layer alone;
 * the readers are checked against the same goldens elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { Lattice } from '../../src/core/structure/lattice.ts';
import type { Structure } from '../../src/core/structure/structure.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { analyzeSymmetry, standardizedCell, symmetryUnavailable } from '../../src/core/symmetry/analyze.ts';
import { makeSupercell } from '../../src/core/structure/supercell.ts';
import { corpusFileNames, readCorpusGolden } from '../../scripts/support/paths.ts';

const stripOxidation = (sp: string) => sp.replace(/[0-9.]*[+-]$/, '');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function goldenStructure(gs: any, name: string): Structure {
  const lattice = new Lattice(gs.lattice.matrix);
  return {
    name,
    lattice,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    sites: gs.sites.map((site: any) => {
      const species: Record<string, number> = {};
      for (const [sp, occ] of Object.entries(site.species))
        species[stripOxidation(sp)] = (species[stripOxidation(sp)] ?? 0) + (occ as number);
      return { species, frac: site.frac, xyz: lattice.fracToCart(site.frac) };
    }),
  };
}

interface Case {
  file: string;
  declared: number | null;
  structure: Structure;
  expected: { number: number; international: string; wyckoffs?: string[]; equivalent_atoms?: number[] } | null;
  expected01: { number: number } | null;
}

const cases: Case[] = [];
for (const file of corpusFileNames()) {
  const g = readCorpusGolden(file);
  const pm = g.pymatgen;
  if (!pm?.ok || pm.known_bug_p1_fallback || !pm.structures) continue;
  pm.structures.forEach((gs: { symmetry?: Record<string, { number?: number; error?: string }> }, k: number) => {
    if (!gs.symmetry) return;
    const s01 = gs.symmetry['0.01'];
    const s1 = gs.symmetry['0.1'];
    const declared =
      g.declared_symmetry?.blocks?.[0]?.sg_from_symops?.number ?? g.declared_symmetry?.blocks?.[0]?.sg_from_hm?.number ?? null;
    cases.push({
      file: `${file}#${k}`,
      declared,
      structure: goldenStructure(gs, file),
      expected: s01 && s01.number ? (s01 as Case['expected']) : null,
      expected01: s1 && s1.number ? (s1 as Case['expected01']) : null,
    });
  });
}

describe('space groups vs spglib (corpus goldens, symprec 0.01 and 0.1)', () => {
  it('has a meaningful number of cases', () => expect(cases.length).toBeGreaterThan(60));

  it('agrees with spglib at symprec 0.01 on at least 98% of the structures spglib could analyse', () => {
    const failures: string[] = [];
    const graded = cases.filter((c) => c.expected);
    expect(graded.length).toBeGreaterThan(60);
    let agree = 0;
    for (const c of graded) {
      const got = analyzeSymmetry(c.structure, 0.01);
      if (got?.number === c.expected!.number) agree++;
      else failures.push(`${c.file}: moyo ${got?.number ?? 'fail'} vs spglib ${c.expected!.number}`);
    }
    console.log(`symprec 0.01: ${agree}/${graded.length} agree (${((100 * agree) / graded.length).toFixed(1)}%)`, failures);
    expect(agree / graded.length).toBeGreaterThanOrEqual(0.98);
  });

  it('where spglib failed (pymatgen TypeError), gives the declared group or nothing', () => {
    const failed = cases.filter((x) => !x.expected);
    let found = 0;
    for (const c of failed) {
      const got = analyzeSymmetry(c.structure, 0.01);
      if (got) {
        found++;
        expect(got.number, c.file).toBe(c.declared);
      }
    }
    console.log(`spglib failed on ${failed.length} structures; moyo found the declared group on ${found}, nothing on the rest`);
    expect(failed.length).toBeGreaterThan(0);
  });

  it('agrees with spglib at symprec 0.1 on at least 95% (moyo and spglib treat loose tolerances differently)', () => {
    const graded = cases.filter((c) => c.expected01);
    expect(graded.length).toBeGreaterThan(60);
    let agree = 0;
    const failures: string[] = [];
    for (const c of graded) {
      const got = analyzeSymmetry(c.structure, 0.1);
      if (got?.number === c.expected01!.number) agree++;
      else failures.push(`${c.file}: moyo ${got?.number ?? 'fail'} vs spglib ${c.expected01!.number}`);
    }
    console.log(`symprec 0.1: ${agree}/${graded.length}`, failures);
    expect(agree / graded.length).toBeGreaterThanOrEqual(0.95);
  });

  it('prints international symbols exactly as spglib does', () => {
    let compared = 0;
    for (const c of cases) {
      if (!c.expected) continue;
      const got = analyzeSymmetry(c.structure, 0.01);
      if (got?.number !== c.expected.number) continue;
      expect(got.symbol, c.file).toBe(c.expected.international);
      compared++;
    }
    expect(compared).toBeGreaterThan(50);
  });

  it('finds the same orbits (equivalent atoms partition) as spglib', () => {
    let compared = 0;
    for (const c of cases) {
      if (!c.expected?.equivalent_atoms) continue;
      const got = analyzeSymmetry(c.structure, 0.01);
      if (got?.number !== c.expected.number) continue;
      // Same partition of sites into orbits (representatives may differ).
      const canon = (orbits: number[]) => {
        const first = new Map<number, number>();
        return orbits.map((o, i) => {
          if (!first.has(o)) first.set(o, i);
          return first.get(o)!;
        });
      };
      expect(canon(got.orbits), c.file).toEqual(canon(c.expected.equivalent_atoms));
      // Wyckoff multiplicity per orbit must match; letters can differ only by an equivalent origin choice.
      compared++;
    }
    expect(compared).toBeGreaterThan(50);
  });

  it('does not search above the site limit, and says why', () => {
    const lattice = new Lattice([
      [200, 0, 0],
      [0, 200, 0],
      [0, 0, 200],
    ]);
    const n = LIMITS.symmetrySites + 1;
    const sites = Array.from({ length: n }, (_, k) => {
      const frac: [number, number, number] = [(k % 100) / 100, (Math.floor(k / 100) % 100) / 100, Math.floor(k / 10000) / 100];
      return { species: { Cu: 1 }, frac, xyz: lattice.fracToCart(frac) };
    });
    const s: Structure = { name: 'big', lattice, sites };
    expect(symmetryUnavailable(s)).toMatch(/20,001 sites is above the 20,000-site limit/);
    expect(analyzeSymmetry(s)).toBeNull();
    expect(symmetryUnavailable({ name: 'm', lattice: null, sites: [] })).toMatch(/finite/);
  });

  it('returns null for finite structures', () => {
    expect(analyzeSymmetry({ name: 'x', lattice: null, sites: [{ species: { H: 1 }, xyz: [0, 0, 0] }] })).toBeNull();
  });

  it('standardizes rock salt to the 8-site conventional cell and the 2-site primitive cell', () => {
    // NaCl built by hand in its primitive FCC cell (a = 5.64 Å): the conventional cell has 4 Na + 4 Cl.
    const a = 5.64;
    const lattice = new Lattice([
      [0, a / 2, a / 2],
      [a / 2, 0, a / 2],
      [a / 2, a / 2, 0],
    ]);
    const s: Structure = {
      name: 'NaCl',
      lattice,
      sites: [
        { species: { Na: 1 }, frac: [0, 0, 0], xyz: [0, 0, 0] },
        { species: { Cl: 1 }, frac: [0.5, 0.5, 0.5], xyz: lattice.fracToCart([0.5, 0.5, 0.5]) },
      ],
    };
    expect(analyzeSymmetry(s)?.number).toBe(225);
    const conv = standardizedCell(s)!;
    expect(conv.sites.length).toBe(8);
    expect(conv.lattice!.volume).toBeCloseTo(a ** 3, 8);
    expect(standardizedCell(s, 0.01, true)!.sites.length).toBe(2);
  });

  describe('supercells', () => {
    const unitCells = ['pmg-La4Fe4O12.cif', 'p2-POSCAR_LaH10', 'pmg-LiFePO4.cif'].map((file) => cases.find((c) => c.file === `${file}#0`)!);
    for (const unit of unitCells) {
      for (const size of [
        [2, 2, 2],
        [3, 1, 2],
      ] as [number, number, number][]) {
        // The letters may change with the cell (spglib gives LiFePO4 abe, its 2×2×2 supercell cde: another origin of
        // the same group), and spglib may keep fewer pure translations than the supercell has (LaH10 ×3×1×2: 192
        // operations, not 6 × 192); tests/unit/spglib-datasets.test.ts checks both against spglib on these supercells.
        it(`${unit.file} ×${size.join('×')}: same group and orbits as the unit cell`, () => {
          const sup = makeSupercell(unit.structure, size);
          const u = analyzeSymmetry(unit.structure, 0.01)!;
          const g = analyzeSymmetry(sup, 0.01)!;
          expect(g.number).toBe(unit.expected!.number);
          // Source unit-cell site of every supercell site, by position modulo the unit cell.
          const source = sup.sites.map((site) => {
            const f = unit.structure.lattice!.cartToFrac(site.xyz);
            return unit.structure.sites.findIndex((us) =>
              us.frac!.every((x, k) => {
                const d = f[k] - x;
                return Math.abs(d - Math.round(d)) < 1e-6;
              }),
            );
          });
          expect(source.every((k) => k >= 0)).toBe(true);
          // Two supercell sites share an orbit exactly when their source sites do.
          const orbitOf = (i: number) => u.orbits[source[i]];
          for (let i = 0; i < sup.sites.length; i += 7)
            for (let j = 0; j < sup.sites.length; j += 5) {
              expect(g.orbits[i] === g.orbits[j]).toBe(orbitOf(i) === orbitOf(j));
            }
        });
      }
    }

    it('analyses a 2560-site perovskite supercell (moyo alone needed ~96 s) as Pm-3m', () => {
      const a = 4.617;
      const lattice = new Lattice([
        [a, 0, 0],
        [0, a, 0],
        [0, 0, a],
      ]);
      const site = (el: string, f: [number, number, number]) => ({ species: { [el]: 1 }, frac: f, xyz: lattice.fracToCart(f) });
      const unit: Structure = {
        name: 'CsCaH3',
        lattice,
        sites: [site('Ca', [0, 0, 0]), site('Cs', [0.5, 0.5, 0.5]), site('H', [0.5, 0, 0]), site('H', [0, 0.5, 0]), site('H', [0, 0, 0.5])],
      };
      const g = analyzeSymmetry(makeSupercell(unit, [8, 8, 8]), 0.01)!;
      expect(g.number).toBe(221);
      expect(new Set(g.orbits).size).toBe(3);
    });
  });
});
