/**
 * What the Structure page's Symmetry and Local-environment panels show (the symmetry and env sections of this
 * repository's docs/crystallography.md), DOM-free:
 * the dataset of `structlab symmetry` regrouped as a Wyckoff table (one row per orbit), the operations as x,y,z
 * triplets and the four cells the viewer can switch between; `structlab env`'s coordination, binned bond lengths and
 * RDF, with CrystalNN's weighed neighbours per site. It sits above core/match because the Niggli lattice comes from there.
 */
import { wrapFrac, type Vec3 } from '../../math/mat3.ts';
import { type EnvNeighbor, localEnvironment } from '../../analysis/env.ts';
import type { PolyhedronNeighbors } from '../../analysis/display-scene.ts';
import { type CrystalNNNeighbor, crystalNN } from '../../analysis/local-env/crystal-nn.ts';
import { type SiteMotif, siteMotif } from '../../analysis/local-env/fingerprint.ts';
import { elementBySymbol } from '../../structure/elements.ts';
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

export type EnvironmentMethod = 'crystalnn' | 'cutoff';

export interface EnvironmentNeighbor {
  index: number;
  /** Lattice image relative to the fractional coordinates as given (not wrapped): the neighbour is at f[index] + image. */
  image: Vec3;
  distance: number;
  /** CrystalNN's weight of the neighbour (get_nn_data, rounded to 3 decimals); null for the cutoff method. */
  weight: number | null;
}

export interface EnvironmentSite {
  /** Coordination number: CrystalNN's most probable CN, or the count within the cutoff. */
  cn: number;
  /** CrystalNN: the probability of that CN (its get_nn_data cn_weights entry); null for the cutoff method. */
  cnProbability: number | null;
  /**
   * CrystalNN: every neighbour it weighs (weight > 0), highest weight first, the first `cn` being the chosen ones;
   * cutoff: every neighbour within the cutoff, nearest first.
   */
  neighbors: EnvironmentNeighbor[];
  /** CrystalNN: the most likely named motif of that CN and its order parameter (fingerprint.ts siteMotif); else null. */
  motif: SiteMotif | null;
}

export interface EnvironmentView {
  method: EnvironmentMethod;
  /** The cutoff (Å) of the cutoff method; null for CrystalNN. */
  cutoff: number | null;
  /** Per input site, its coordination number (sites[k].cn). */
  coordination: number[];
  sites: EnvironmentSite[];
  /** The chosen neighbours of the cation-like sites, for the view's polyhedra (display-scene.ts). */
  polyhedra: PolyhedronNeighbors;
  /** Bond lengths per element pair ("A-B", sorted) binned from 0 with `bin` Å: counts[k] is bin k. */
  bondHistogram: { bin: number; pairs: string[]; counts: number[][] };
  rdf: { r: number[]; g: number[] };
  /** Bond angles at each centre element (whole-degree bins 0…180°, as `structlab env`): element names and their counts. */
  angles: { centers: string[]; counts: number[][] };
}

/** Bond-length bins of the Local environment panel (Å). */
const BOND_BIN = 0.02;
/** CrystalNN's bond-length histogram ends at the longest bond rounded up to this (Å). */
const BOND_RANGE_STEP = 0.5;

/** Images of env.ts (for the coordinates wrapped into [0, 1)) re-expressed for the coordinates as given. */
function imagesAsGiven(s: Structure, lattice: Lattice, lists: EnvNeighbor[][]): EnvironmentNeighbor[][] {
  // env.ts wraps site i to f − shift_i: a neighbour at wrapped f_j + n sits at given f_j + n − shift_j + shift_i.
  const shift = s.sites.map((site) => fracOf(site, lattice).map((x) => Math.round(x - wrapFrac(x))) as Vec3);
  return lists.map((list, i) =>
    list.map((nb) => ({
      index: nb.index,
      image: [0, 1, 2].map((d) => nb.image[d] - shift[nb.index][d] + shift[i][d] + 0) as Vec3,
      distance: nb.distance,
      weight: null,
    })),
  );
}

/**
 * The chosen neighbours of each polyhedron centre: a site whose neighbours are on average more electronegative
 * (Pauling X) than itself, i.e. a cation among anions; in a one-element structure every site.
 */
function polyhedronNeighbors(elements: string[], chosen: EnvironmentNeighbor[][]): PolyhedronNeighbors {
  const X = (el: string) => elementBySymbol(el)?.X ?? NaN;
  const single = new Set(elements).size === 1;
  const centre = chosen.map((list, i) => single || X(elements[i]) < list.reduce((sum, nb) => sum + X(elements[nb.index]), 0) / list.length);
  const start = new Uint32Array(chosen.length + 1);
  chosen.forEach((list, i) => (start[i + 1] = start[i] + (centre[i] ? list.length : 0)));
  const site = new Uint32Array(start[chosen.length]);
  const image = new Int32Array(3 * site.length);
  chosen.forEach((list, i) => {
    if (!centre[i]) return;
    list.forEach((nb, k) => {
      site[start[i] + k] = nb.index;
      image.set(nb.image, 3 * (start[i] + k));
    });
  });
  return { start, site, image };
}

/**
 * The Local environment panel's data: `structlab env FILE --cutoff R` (every neighbour within R Å; the method unless
 * told) or `structlab env FILE` (`method` 'crystalnn': CrystalNN with pymatgen 2022.11's defaults, R unused), RDF to
 * 10 Å in 0.05 Å bins, bond lengths binned; for CrystalNN also every weighed neighbour, the chosen CN's probability and
 * the site's most likely motif.
 */
export function environmentView(s: Structure, cutoff: number, method: EnvironmentMethod = 'cutoff'): EnvironmentView {
  const lattice = s.lattice;
  if (!lattice) throw new Error('local environments need a periodic structure');
  if (!isOrdered(s)) throw new Error('local environments need an ordered structure (one element per site, occupancy 1)');
  // CrystalNN once: env.ts takes get_nn_info's neighbours from it, the panel get_nn_data's weighed ones as well.
  const nn = method === 'crystalnn' ? crystalNN(s) : null;
  const e = localEnvironment(s, { method, cutoff, rdfMax: 10, rdfBin: 0.05, ...(nn ? { crystalNNSites: nn } : {}) });
  const elements = e.sites.map((site) => site.element);
  let sites: EnvironmentSite[];
  let chosen: EnvironmentNeighbor[][];
  if (nn) {
    const asView = (nb: CrystalNNNeighbor): EnvironmentNeighbor => ({ ...nb, image: [...nb.image], weight: nb.weight });
    sites = nn.map((r, k) => ({
      cn: r.cn,
      cnProbability: r.cnWeights.find((w) => w.cn === r.cn)?.weight ?? 0,
      neighbors: r.allNeighbors.map(asView),
      motif: siteMotif(s, k, r),
    }));
    chosen = nn.map((r) => r.neighbors.map(asView));
  } else {
    chosen = imagesAsGiven(s, lattice, e.neighbors);
    sites = chosen.map((neighbors) => ({ cn: neighbors.length, cnProbability: null, neighbors, motif: null }));
  }
  const pairs = [...e.bondLengths.keys()].sort();
  const longest = Math.max(0, ...pairs.map((pair) => e.bondLengths.get(pair)!.at(-1)!));
  const range = method === 'cutoff' ? cutoff : Math.max(BOND_RANGE_STEP, Math.ceil(longest / BOND_RANGE_STEP) * BOND_RANGE_STEP);
  const nBins = Math.ceil(range / BOND_BIN);
  const counts = pairs.map((pair) => {
    const c = new Array<number>(nBins).fill(0);
    for (const d of e.bondLengths.get(pair)!) c[Math.min(nBins - 1, Math.floor(d / BOND_BIN))]++;
    return c;
  });
  const centers = [...e.angles.byCenter.keys()].sort();
  return {
    method,
    cutoff: method === 'cutoff' ? cutoff : null,
    coordination: e.coordination,
    sites,
    polyhedra: polyhedronNeighbors(elements, chosen),
    bondHistogram: { bin: BOND_BIN, pairs, counts },
    rdf: { r: e.rdf.r, g: e.rdf.g },
    angles: { centers, counts: centers.map((c) => e.angles.byCenter.get(c)!) },
  };
}
