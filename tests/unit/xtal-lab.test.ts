/**
 * The Symmetry panel's data (src/core/tasks/crystallography/lab.ts) against the spglib goldens: the Wyckoff table's
 * rows are the golden orbits with their letters and site symmetries (within the origin/axis alternatives of
 * docs/crystallography.md §1), the multiplicities fill the golden conventional cell, the operations are the golden
 * count, and the four cells carry the golden lattices and compositions. The Local environment panel's coordination
 * numbers and binned bond lengths are pymatgen's neighbour list at 3.5 Å.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { initMoyo } from '../../src/core/symmetry/moyo.ts';
import { environmentView, symmetryView } from '../../src/core/tasks/crystallography/lab.ts';
import type { Structure } from '../../src/core/structure/structure.ts';
import { type Json, corpusPath, matchSitesByPosition, readXtalGolden, xtalGoldenNames } from '../xtal-goldens.ts';

const paramsOf = (l: Json): number[] => [l.a, l.b, l.c, l.alpha, l.beta, l.gamma];
const withinParams = (p: number[], q: number[]) =>
  p.slice(0, 3).every((x, i) => Math.abs(x - q[i]) <= 1e-4) && p.slice(3).every((x, i) => Math.abs(x - q[3 + i]) <= 1e-3);

const composition = (s: Structure) => {
  const m = new Map<string, number>();
  for (const site of s.sites) for (const [el, occ] of Object.entries(site.species)) m.set(el, (m.get(el) ?? 0) + occ);
  const n = s.sites.length;
  return [...m]
    .sort()
    .map(([el, x]) => `${el}${(x / n).toFixed(4)}`)
    .join(' ');
};

/** Site k's species as the Wyckoff table writes them ("Fe", "Fe0.5Ni0.5"). */
const speciesOf = (s: Structure, k: number) =>
  Object.entries(s.sites[k].species)
    .map(([el, occ]) => (occ === 1 ? el : `${el}${Number(occ.toPrecision(4))}`))
    .join('');

beforeAll(() => initMoyo());

describe.each(xtalGoldenNames())('symmetry panel %s', (name) => {
  it('equals the spglib golden at symprec 0.01', () => {
    const golden = readXtalGolden(name);
    const g = golden.symmetry['0.01'];
    const parsed = parseStructureFile(readFileSync(corpusPath(name), 'utf8'), name);
    if (!parsed.ok) throw new Error(parsed.error);
    const s = parsed.structures[0];
    const view = symmetryView(s, 0.01);
    expect(view).not.toBeNull();
    const v = view!;
    expect([v.number, v.international, v.hall, v.pointGroup, v.crystalSystem, v.operations.length]).toEqual([
      g.number,
      g.international,
      g.hall,
      g.point_group,
      g.crystal_system,
      g.n_operations,
    ]);
    const lattice = s.lattice!;
    const perm = matchSitesByPosition(
      s.sites.map((site) => ({ species: site.species, frac: lattice.cartToFrac(site.xyz) })),
      golden.input.sites,
      golden.input.lattice.matrix,
    );
    // Rows = golden orbits: every site of a row has the row's golden orbit, and no two rows share one.
    const orbitOfRow = v.rows.map((row) => new Set(row.sites.map((k) => g.equivalent_atoms[perm[k]])));
    expect(orbitOfRow.every((o) => o.size === 1)).toBe(true);
    expect(new Set(orbitOfRow.map((o) => [...o][0])).size).toBe(v.rows.length);
    expect(v.rows.flatMap((r) => r.sites).sort((a, b) => a - b)).toEqual(s.sites.map((_, k) => k));
    expect(v.rowOfSite.every((r, k) => v.rows[r].sites.includes(k))).toBe(true);
    const ours = JSON.stringify(
      s.sites
        .map((_, k) => [perm[k], v.rows[v.rowOfSite[k]].wyckoff, v.rows[v.rowOfSite[k]].siteSymmetry])
        .sort((x, y) => (x[0] as number) - (y[0] as number)),
    );
    const alternatives = g.wyckoff_alternatives.map((a: Json) =>
      JSON.stringify(a.wyckoffs.map((w: string, j: number) => [j, w, a.site_symmetry_symbols[j]])),
    );
    expect(alternatives).toContain(ours);
    // Wyckoff multiplicities count conventional-cell sites: together they fill spglib's conventional cell.
    expect(v.rows.reduce((sum, r) => sum + r.multiplicity, 0)).toBe(g.std_cell.sites.length);
    const cells: [Structure, number[][], number][] = [
      [v.cells.conventional, g.std_cell_alternatives, g.std_cell.sites.length],
      [v.cells.primitive, g.prim_std_cell_alternatives, g.prim_std_cell.sites.length],
      [v.cells.niggli, [paramsOf(g.niggli_lattice)], s.sites.length],
    ];
    for (const [cell, alts, n] of cells) {
      const p = paramsOf(cell.lattice!.parameters);
      expect(
        alts.some((q) => withinParams(p, q)),
        `${cell.name}: ${p.join(' ')}`,
      ).toBe(true);
      expect(cell.sites.length).toBe(n);
      expect(composition(cell)).toBe(composition(s));
    }
    // Each cell's table: its sites numbered in that cell, each once; the input's orbits (species, multiplicity, site
    // symmetry), each with its share of the cell's sites (multiplicities count conventional-cell sites). The letters
    // may be another origin choice's (docs/crystallography.md), so they are not compared here.
    const orbits = (rows: typeof v.rows) => rows.map((r) => `${r.species} ${r.multiplicity} ${r.siteSymmetry}`).sort();
    for (const [which, cell] of Object.entries(v.cells) as [keyof typeof v.cells, Structure][]) {
      const table = v.cellTables[which];
      expect(table, which).not.toBeNull();
      expect(orbits(table!.rows), which).toEqual(orbits(v.rows));
      expect(table!.rows.flatMap((r) => r.sites).sort((a, b) => a - b)).toEqual(cell.sites.map((_, k) => k));
      expect(table!.rowOfSite.every((r, k) => table!.rows[r].sites.includes(k))).toBe(true);
      for (const r of table!.rows) {
        expect(r.sites.length * g.std_cell.sites.length, `${which} ${r.multiplicity}${r.wyckoff}`).toBe(r.multiplicity * cell.sites.length);
        expect(r.sites.every((k) => speciesOf(cell, k) === r.species)).toBe(true);
        expect(r.frac.every((x) => x >= 0 && x < 1)).toBe(true);
      }
    }
  });
});

describe('symmetry panel on a cell switch', () => {
  it('numbers the conventional cell’s sites in its Wyckoff table (pmg rhomb_3478: 4 sites read, 12 conventional)', () => {
    const name = 'pmg-rhomb_3478.cif';
    const parsed = parseStructureFile(readFileSync(corpusPath(name), 'utf8'), name);
    if (!parsed.ok) throw new Error(parsed.error);
    const v = symmetryView(parsed.structures[0], 0.01)!;
    expect(v.rowOfSite).toHaveLength(4);
    const table = v.cellTables.conventional!;
    expect(table.rowOfSite).toHaveLength(12);
    expect(table.rows.flatMap((r) => r.sites).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // In the conventional cell every orbit has as many sites as its multiplicity, and the letters are the input's.
    for (const r of table.rows) expect(r.sites).toHaveLength(r.multiplicity);
    // (Rows come in order of each cell's first site of the orbit, so compare the letters as sets.)
    expect(table.rows.map((r) => r.wyckoff).sort()).toEqual(v.rows.map((r) => r.wyckoff).sort());
  });
});

describe.each(xtalGoldenNames().filter((n) => readXtalGolden(n).env))('environment panel %s', (name) => {
  it('equals the pymatgen neighbour-list golden at 3.5 Å', () => {
    const golden = readXtalGolden(name);
    const g = golden.env['3.5'];
    const parsed = parseStructureFile(readFileSync(corpusPath(name), 'utf8'), name);
    if (!parsed.ok) throw new Error(parsed.error);
    const s = parsed.structures[0];
    const v = environmentView(s, 3.5);
    const perm = matchSitesByPosition(
      s.sites.map((site) => ({ species: site.species, frac: s.lattice!.cartToFrac(site.xyz) })),
      golden.input.sites,
      golden.input.lattice.matrix,
    );
    expect(v.coordination.map((c, k) => [perm[k], c]).sort((a, b) => a[0] - b[0])).toEqual(
      g.coordination.map((c: number, k: number) => [k, c]),
    );
    const { pairs, counts, bin } = v.bondHistogram;
    expect(pairs).toEqual(Object.keys(g.bond_lengths).sort());
    pairs.forEach((pair, p) => {
      // A golden length (12 digits) within 1e-7 Å of a bin edge may fall on either side: those are left to the total.
      const want = new Array<number>(counts[p].length).fill(0);
      let edge = 0;
      for (const d of g.bond_lengths[pair] as number[]) {
        const [lo, hi] = [d - 1e-7, d + 1e-7].map((x) => Math.min(want.length - 1, Math.floor(x / bin)));
        if (lo === hi) want[lo]++;
        else edge++;
      }
      expect(
        counts[p].reduce((x, y) => x + y, 0),
        pair,
      ).toBe(g.bond_lengths[pair].length);
      expect(
        counts[p].reduce((sum, c, k) => sum + Math.abs(c - want[k]), 0),
        pair,
      ).toBe(edge);
    });
    expect(v.rdf.g.length).toBe(g.rdf.g.length);
    // Bond angles per centre element, whole-degree bins (the goldens have no angle within 1e-6 of a bin edge).
    expect(v.angles.centers).toEqual(Object.keys(g.angles.by_center).sort());
    v.angles.centers.forEach((c, k) => expect(v.angles.counts[k], c).toEqual(g.angles.by_center[c]));
  });
});
