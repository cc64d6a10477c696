/**
 * Space-group analysis of a periodic structure by spglib 2.0.2's algorithm (the port in ./spglib), on the cell
 * pymatgen's SpacegroupAnalyzer hands it: every distinct species/occupancy mix is its own atom type.
 */
import { type Mat3, type Vec3, det } from '../math/mat3.ts';
import { Lattice } from '../structure/lattice.ts';
import { type Site, type SpeciesMap, type Structure, fracOf, readFromCif } from '../structure/structure.ts';
import { pymatgenSortedOrder } from '../structure/composition.ts';
import { LIMITS, groupedNumber } from '../limits.ts';
import { findNeighbors } from '../structure/neighbors.ts';
import { spgatGetDataset, spgatStandardizeCell } from './spglib/dataset.ts';
import { spgdbGetSpacegroupType } from './spglib/spg-database.ts';
import type { SpglibDataset } from './spglib/types.ts';

/**
 * Why the space-group search of `s` gives nothing, or null when nothing stands in its way: a finite structure, more
 * sites than LIMITS.symmetrySites, or (given `symprec`) two atoms of one kind closer than symprec, which spglib
 * refuses (src/spglib.c `get_dataset`: "too close distance between atoms").
 */
export function symmetryUnavailable(s: Structure, symprec?: number): string | null {
  if (!s.lattice) return 'a finite structure has no space group';
  if (s.sites.length > LIMITS.symmetrySites) {
    return (
      `${groupedNumber(s.sites.length)} sites is above the ${groupedNumber(LIMITS.symmetrySites)}-site limit of the ` + 'space-group search'
    );
  }
  if (symprec !== undefined && symprec > 0) {
    let close: ReturnType<typeof findNeighbors>;
    try {
      close = findNeighbors(s, symprec);
    } catch (e) {
      // A cell far smaller than the tolerance (the neighbour search refuses it) has no meaningful symmetry search.
      return `the cell is too small for a search at symprec ${symprec} Å (${e instanceof Error ? e.message : String(e)})`;
    }
    for (let k = 0; k < close.i.length; k++) {
      const a = s.sites[close.i[k]],
        b = s.sites[close.j[k]];
      if (speciesKey(a) === speciesKey(b)) {
        return (
          `sites ${close.i[k] + 1} and ${close.j[k] + 1} of one kind are ${close.distance[k].toPrecision(3)} Å apart, closer than ` +
          `symprec (${symprec} Å)`
        );
      }
    }
  }
  return null;
}

/** The angle tolerance (degrees) pymatgen's SpacegroupAnalyzer hands to spglib by default; -1 is spglib's own default. */
export const PYMATGEN_ANGLE_TOLERANCE = 5;

export interface SymmetryInfo {
  number: number;
  /** International short symbol without spaces, as spglib/pymatgen print it (e.g. "P2_1/c"). */
  symbol: string;
  hallNumber: number;
  hallSymbol: string;
  crystalSystem: string;
  /** Wyckoff letter per input site. */
  wyckoffs: string[];
  /** Multiplicity of each input site's Wyckoff position, in the conventional cell (the "2" of "2b"). */
  multiplicities: number[];
  /** Index of the representative of each site's orbit (spglib's equivalent_atoms). */
  orbits: number[];
  nOperations: number;
  symprec: number;
  angleTolerance: number;
}

/** A site's kind for the search: elements, their oxidation states and occupancies (pymatgen's SpacegroupAnalyzer
 * types sites by `site.species`, so Fe2+ and Fe3+ are two kinds). */
const speciesKey = (site: Pick<Site, 'species' | 'oxidation'>): string =>
  Object.entries(site.species)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([el, occ]) => `${el}${site.oxidation?.[el] ? `(${site.oxidation[el]})` : ''}:${occ.toFixed(6)}`)
    .join(',');

/** spglib's input cell: basis vectors as columns, fractional positions, integer types. */
export interface SpglibCell {
  lattice: number[][];
  positions: number[][];
  types: number[];
}

/**
 * The cell pymatgen's SpacegroupAnalyzer hands to spglib: types numbered from 1 in order of first appearance, and a
 * structure read from a CIF in the order pymatgen's CifParser returns it (`get_sorted_structure`, every block; the
 * reader keeps a P1 file's order, as ASE does). The order is not cosmetic: at a loose symprec it can decide which
 * group spglib finds (CDVAE predictions mp-1097010, mp-1226286: Cm in file order, P1 in pymatgen's).
 * `order[k]` is the input site at position k of the cell.
 */
function spglibCellOf(s: Structure): { cell: SpglibCell; speciesOfType: SpeciesMap[]; order: number[] } {
  if (!s.lattice) throw new Error('symmetry analysis needs a periodic structure');
  const order = readFromCif(s) ? pymatgenSortedOrder(s.sites) : s.sites.map((_, k) => k);
  const typeOf = new Map<string, number>();
  const speciesOfType: SpeciesMap[] = [];
  const types: number[] = [];
  const positions: number[][] = [];
  for (const k of order) {
    const site = s.sites[k];
    const key = speciesKey(site);
    let t = typeOf.get(key);
    if (t === undefined) {
      t = speciesOfType.length + 1;
      typeOf.set(key, t);
      speciesOfType.push(site.species);
    }
    types.push(t);
    positions.push(fracOf(site, s.lattice));
  }
  const m = s.lattice.matrix;
  const lattice = [0, 1, 2].map((i) => [m[0][i], m[1][i], m[2][i]]);
  return { cell: { lattice, positions, types }, speciesOfType, order };
}

/**
 * The dataset's per-site fields in the input's site order; an orbit is represented by its lowest input index, as
 * spglib's equivalent_atoms is in its own.
 */
function inInputOrder(d: SpglibDataset, order: number[]): SpglibDataset {
  if (order.every((k, i) => k === i)) return d;
  const n = order.length;
  const at = new Array<number>(n); // cell position of each input site
  order.forEach((k, i) => (at[k] = i));
  const lowest = new Map<number, number>();
  for (let k = n - 1; k >= 0; k--) lowest.set(d.equivalent_atoms[at[k]], k);
  const lowestOrbit = new Map<number, number>();
  for (let k = n - 1; k >= 0; k--) lowestOrbit.set(d.crystallographic_orbits[at[k]], k);
  return {
    ...d,
    wyckoffs: order.map((_, k) => d.wyckoffs[at[k]]),
    site_symmetry_symbols: order.map((_, k) => d.site_symmetry_symbols[at[k]]),
    equivalent_atoms: order.map((_, k) => lowest.get(d.equivalent_atoms[at[k]])!),
    crystallographic_orbits: order.map((_, k) => lowestOrbit.get(d.crystallographic_orbits[at[k]])!),
    mapping_to_primitive: order.map((_, k) => d.mapping_to_primitive[at[k]]),
  };
}

export interface SymmetrySearch {
  /** spglib's dataset, its per-site fields in the input's site order. */
  dataset: SpglibDataset;
  /** The cell spglib saw (possibly in another site order than the input: pymatgen's, for CIFs). */
  cell: SpglibCell;
  speciesOfType: SpeciesMap[];
  symprec: number;
  angleTolerance: number;
}

/**
 * spglib's dataset of `s` (src/core/symmetry/spglib, a port of spglib 2.0.2) on the cell pymatgen would hand it;
 * null for finite structures, past the site limit, or when spglib finds none (e.g. atoms of one kind closer
 * than symprec).
 */
export function searchSymmetry(s: Structure, symprec: number, angleTolerance = PYMATGEN_ANGLE_TOLERANCE): SymmetrySearch | null {
  if (!s.lattice || s.sites.length === 0 || s.sites.length > LIMITS.symmetrySites) return null;
  const { cell, speciesOfType, order } = spglibCellOf(s);
  const dataset = spgatGetDataset(cell.lattice, cell.positions, cell.types, cell.types.length, symprec, angleTolerance);
  return dataset ? { dataset: inInputOrder(dataset, order), cell, speciesOfType, symprec, angleTolerance } : null;
}

let firstHallOfNumber: number[] | null = null;

/** The international short symbol ("P2_1/c") and crystal system of space group `number`, from spglib's table. */
export function spaceGroupSymbol(number: number): { symbol: string; crystalSystem: string } {
  if (!firstHallOfNumber) {
    firstHallOfNumber = [];
    for (let h = 530; h >= 1; h--) firstHallOfNumber[spgdbGetSpacegroupType(h).number] = h;
  }
  const hall = firstHallOfNumber[number];
  if (hall === undefined) throw new Error(`no space group ${number}`);
  return { symbol: spgdbGetSpacegroupType(hall).international_short, crystalSystem: crystalSystemOf(number) };
}

/** pymatgen `SpacegroupAnalyzer.get_crystal_system` from the space-group number. */
export function crystalSystemOf(n: number): string {
  if (n <= 2) return 'triclinic';
  if (n <= 15) return 'monoclinic';
  if (n <= 74) return 'orthorhombic';
  if (n <= 142) return 'tetragonal';
  if (n <= 167) return 'trigonal';
  if (n <= 194) return 'hexagonal';
  return 'cubic';
}

/** spglib's Wyckoff letters by index (spglib python/spglib/spglib.py `get_symmetry_dataset`). */
const WYCKOFF_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const wyckoffLetter = (index: number): string => WYCKOFF_LETTERS[index];

/** |det| of a 3×3 matrix given as rows or columns. */
const volumeOf = (m: number[][]): number => Math.abs(det(m as Mat3));

/** Space group of a periodic structure; null for finite structures or when the search fails. */
export function analyzeSymmetry(s: Structure, symprec = 0.01, angleTolerance = PYMATGEN_ANGLE_TOLERANCE): SymmetryInfo | null {
  const run = searchSymmetry(s, symprec, angleTolerance);
  if (!run) return null;
  const d = run.dataset;
  const orbits = d.equivalent_atoms.slice();
  // As the Symmetry panel's Wyckoff table counts them (src/core/tasks/crystallography/lab.ts symmetryView): the orbit's
  // input sites times the conventional cell's volume over the input cell's.
  const perCell = volumeOf(d.std_lattice) / volumeOf(run.cell.lattice);
  const orbitSize = new Map<number, number>();
  for (const o of orbits) orbitSize.set(o, (orbitSize.get(o) ?? 0) + 1);
  return {
    number: d.spacegroup_number,
    symbol: d.international_symbol,
    hallNumber: d.hall_number,
    hallSymbol: d.hall_symbol,
    crystalSystem: crystalSystemOf(d.spacegroup_number),
    wyckoffs: d.wyckoffs.map(wyckoffLetter),
    multiplicities: orbits.map((o) => Math.round(orbitSize.get(o)! * perCell)),
    orbits,
    nOperations: d.n_operations,
    symprec,
    angleTolerance,
  };
}

/** A spglib cell (basis columns) as a structure, its types mapped back to species. */
export function structureOfSpglibCell(cell: SpglibCell, speciesOfType: SpeciesMap[], name: string): Structure {
  const lattice = new Lattice([0, 1, 2].map((i) => [cell.lattice[0][i], cell.lattice[1][i], cell.lattice[2][i]]) as Mat3);
  const sites: Site[] = cell.positions.map((p, k) => {
    const frac: Vec3 = [p[0], p[1], p[2]];
    return { species: { ...speciesOfType[cell.types[k] - 1] }, frac, xyz: lattice.fracToCart(frac) };
  });
  return { name, lattice, sites };
}

/** The standardized conventional (or primitive) cell, spglib's choice, idealized; null when the search fails. */
export function standardizedCell(
  s: Structure,
  symprec = 0.01,
  primitive = false,
  angleTolerance = PYMATGEN_ANGLE_TOLERANCE,
): Structure | null {
  if (!s.lattice || s.sites.length === 0 || s.sites.length > LIMITS.symmetrySites) return null;
  const { cell, speciesOfType } = spglibCellOf(s);
  const std = spgatStandardizeCell(
    cell.lattice,
    cell.positions,
    cell.types,
    cell.types.length,
    primitive ? 1 : 0,
    0,
    symprec,
    angleTolerance,
  );
  if (!std) return null;
  return structureOfSpglibCell(
    { lattice: std.lattice, positions: std.position, types: std.types },
    speciesOfType,
    `${s.name} (${primitive ? 'primitive' : 'conventional'} standard)`,
  );
}
