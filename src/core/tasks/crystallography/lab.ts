/**
 * What the Structure page's Symmetry and Local-environment panels show (the symmetry and env sections of this
 * repository's docs/crystallography.md), DOM-free:
 * the dataset of `structlab symmetry` regrouped as a Wyckoff table (one row per orbit), the operations as x,y,z
 * triplets and the four cells the viewer can switch between; `structlab env`'s coordination, binned bond lengths and
 * RDF. It sits above core/match because the Niggli lattice comes from there.
 */
import { wrapFrac, type Vec3 } from '../../math/mat3.ts';
import { localEnvironment } from '../../analysis/env.ts';
import { niggliReducedLattice } from '../../structure/niggli.ts';
import { type Structure, fracOf, isOrdered, makeSiteFromFrac } from '../../structure/structure.ts';
import type { Lattice } from '../../structure/lattice.ts';
import { type SymmetryDataset, symmetryDataset } from '../../symmetry/dataset.ts';
import { symopToString } from '../../symmetry/symop.ts';

export type CellChoice = 'read' | 'primitive' | 'conventional' | 'niggli';

export interface WyckoffRow {
  /** Sites of this orbit in the table's cell (0-based, ascending); the first is the representative. */
  sites: number[];
  /** Species of the orbit, e.g. "Fe" or "Fe0.5Ni0.5". */
  species: string;
  wyckoff: string;
  /** Multiplicity of the Wyckoff position in the conventional cell. */
  multiplicity: number;
  siteSymmetry: string;
  /** Fractional coordinates of the representative in the table's cell, wrapped into [0, 1). */
  frac: Vec3;
}

/** One cell's Wyckoff table: one row per orbit, sites numbered in that cell. */
export interface WyckoffTable {
  rows: WyckoffRow[];
  /** Per site of the cell, its row in `rows`. */
  rowOfSite: number[];
}

export interface SymmetryView extends WyckoffTable {
  number: number;
  international: string;
  hall: string;
  pointGroup: string;
  crystalSystem: string;
  /** The tolerances of the search: distance (Å) and angle (degrees; -1: spglib's default, lengths only). */
  symprec: number;
  angleTolerance: number;
  /** Operations of the input cell, as `structlab symmetry` lists them, written x,y,z. */
  operations: string[];
  cells: Record<Exclude<CellChoice, 'read'>, Structure>;
  /** The table of each other cell, from the same search on that cell: its own site numbers and coordinates, so the
   * panel describes the cell the viewer shows; null where that search fails. */
  cellTables: Record<Exclude<CellChoice, 'read'>, WyckoffTable | null>;
}

const speciesText = (species: Record<string, number>): string =>
  Object.entries(species)
    .map(([el, occ]) => (occ === 1 ? el : `${el}${Number(occ.toPrecision(4))}`))
    .join('');

/** The structure in its Niggli-reduced cell (the same lattice points, pymatgen's reduced basis), sites wrapped into it. */
export function niggliCell(s: Structure & { lattice: Lattice }): Structure {
  const lattice = niggliReducedLattice(s.lattice);
  return {
    name: `${s.name} (Niggli)`,
    lattice,
    sites: s.sites.map((site) => {
      const f = lattice.cartToFrac(site.xyz).map((x) => wrapFrac(x)) as Vec3;
      return makeSiteFromFrac(lattice, f, site.species);
    }),
  };
}

/** The Wyckoff table of `s` (with a lattice) from its dataset `d`. */
function wyckoffTable(s: Structure, lattice: Lattice, d: SymmetryDataset): WyckoffTable {
  const perCell = d.stdCell.lattice!.volume / lattice.volume;
  const rowOfOrbit = new Map<number, number>();
  const rows: WyckoffRow[] = [];
  const rowOfSite = d.sites.map((site, k) => {
    let r = rowOfOrbit.get(site.orbit);
    if (r === undefined) {
      r = rows.length;
      rowOfOrbit.set(site.orbit, r);
      rows.push({
        sites: [],
        species: speciesText(site.species),
        wyckoff: site.wyckoff,
        multiplicity: 0,
        siteSymmetry: site.siteSymmetry,
        frac: fracOf(s.sites[k], lattice).map((x) => wrapFrac(x)) as Vec3,
      });
    }
    rows[r].sites.push(k);
    return r;
  });
  for (const row of rows) row.multiplicity = Math.round(row.sites.length * perCell);
  return { rows, rowOfSite };
}

/** The panel's data for `s` at `symprec` Å; null when the search fails (as `structlab symmetry` fails). */
export function symmetryView(s: Structure, symprec: number): SymmetryView | null {
  if (!s.lattice) return null;
  const lattice = s.lattice;
  const d = symmetryDataset(s, symprec);
  if (!d) return null;
  const cells = { primitive: d.primStdCell, conventional: d.stdCell, niggli: niggliCell({ ...s, lattice }) };
  // Each cell's own search: its orbits are the input's, but its letters may be another of the space group's origin
  // choices (docs/crystallography.md, symmetry section), e.g. diamond's 8a read and 8b in its Niggli cell.
  const tableOf = (c: Structure): WyckoffTable | null => {
    const dc = c.lattice ? symmetryDataset(c, symprec) : null;
    return dc ? wyckoffTable(c, c.lattice!, dc) : null;
  };
  return {
    number: d.number,
    international: d.international,
    hall: d.hall,
    pointGroup: d.pointGroup,
    crystalSystem: d.crystalSystem,
    symprec: d.symprec,
    angleTolerance: d.angleTolerance,
    operations: d.operations.map(symopToString),
    ...wyckoffTable(s, lattice, d),
    cells,
    cellTables: { primitive: tableOf(cells.primitive), conventional: tableOf(cells.conventional), niggli: tableOf(cells.niggli) },
  };
}

export interface EnvironmentView {
  cutoff: number;
  /** Per input site, its coordination number (neighbours within the cutoff, own images included). */
  coordination: number[];
  /** Bond lengths per element pair ("A-B", sorted) binned on [0, cutoff) with `bin` Å: counts[k] is bin k. */
  bondHistogram: { bin: number; pairs: string[]; counts: number[][] };
  rdf: { r: number[]; g: number[] };
  /** Bond angles at each centre element (whole-degree bins 0…180°, as `structlab env`): element names and their counts. */
  angles: { centers: string[]; counts: number[][] };
}

/** Bond-length bins of the Local environment panel (Å). */
const BOND_BIN = 0.02;

/** The Local environment panel's data: `structlab env FILE --cutoff R` (RDF to 10 Å in 0.05 Å bins), bond lengths binned. */
export function environmentView(s: Structure, cutoff: number): EnvironmentView {
  if (!s.lattice) throw new Error('local environments need a periodic structure');
  if (!isOrdered(s)) throw new Error('local environments need an ordered structure (one element per site, occupancy 1)');
  const e = localEnvironment(s, { cutoff, rdfMax: 10, rdfBin: 0.05 });
  const nBins = Math.ceil(cutoff / BOND_BIN);
  const pairs = [...e.bondLengths.keys()].sort();
  const counts = pairs.map((pair) => {
    const c = new Array<number>(nBins).fill(0);
    for (const d of e.bondLengths.get(pair)!) c[Math.min(nBins - 1, Math.floor(d / BOND_BIN))]++;
    return c;
  });
  const centers = [...e.angles.byCenter.keys()].sort();
  return {
    cutoff,
    coordination: e.coordination,
    bondHistogram: { bin: BOND_BIN, pairs, counts },
    rdf: { r: e.rdf.r, g: e.rdf.g },
    angles: { centers, counts: centers.map((c) => e.angles.byCenter.get(c)!) },
  };
}
