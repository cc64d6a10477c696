/**
 * Space-group analysis of a periodic structure through moyo (spglib-compatible setting).
 * Disordered sites: every distinct species/occupancy mix is its own atom type, as spglib does
 * through pymatgen's SpacegroupAnalyzer.
 */
import type { MoyoCell, MoyoDataset } from '@spglib/moyo-wasm';
import { type Mat3, type Vec3, det } from '../math/mat3.ts';
import { Lattice } from '../structure/lattice.ts';
import { type Site, type SpeciesMap, type Structure, fracOf } from '../structure/structure.ts';
import { moyo } from './moyo.ts';
import { LIMITS } from '../limits.ts';
import { type PrimitiveReduction, findPrimitive } from './primitive.ts';
import { findNeighbors } from '../structure/neighbors.ts';

/**
 * The space-group search is not attempted above LIMITS.symmetrySites sites: a cell that does not reduce
 * to a small primitive cell costs moyo seconds per thousand sites (7 s for 20,000 random sites).
 */

/**
 * Why no space-group search is made for `s` (finite, too many sites, or — given `symprec` — two atoms of one
 * kind closer than twice the tolerance), or null when it is. spglib refuses atoms of one kind closer than symprec
 * ("too close distance between atoms"); moyo searched for minutes on a cell with two atoms 1.06 × symprec apart
 * and answered at once from 1.4 × symprec, hence the margin.
 */
export function symmetryUnavailable(s: Structure, symprec?: number): string | null {
  if (!s.lattice) return 'a finite structure has no space group';
  if (s.sites.length > LIMITS.symmetrySites) {
    return (
      `${s.sites.length.toLocaleString('en')} sites is above the ${LIMITS.symmetrySites.toLocaleString('en')}-site limit of the ` +
      'space-group search'
    );
  }
  if (symprec !== undefined && symprec > 0) {
    let close: ReturnType<typeof findNeighbors>;
    try {
      close = findNeighbors(s, 2 * symprec);
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
          `twice symprec (${symprec} Å): no space group is searched`
        );
      }
    }
  }
  return null;
}

/** Cells with more sites than this are reduced to their primitive cell before moyo sees them. */
const PRIMITIVE_FIRST_SITES = 64;

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
}

/** A site's kind for the search: elements, their oxidation states and occupancies (pymatgen's SpacegroupAnalyzer
 * types sites by `site.species`, so Fe2+ and Fe3+ are two kinds). */
const speciesKey = (site: Pick<Site, 'species' | 'oxidation'>): string =>
  Object.entries(site.species)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([el, occ]) => `${el}${site.oxidation?.[el] ? `(${site.oxidation[el]})` : ''}:${occ.toFixed(6)}`)
    .join(',');

interface TypedCell {
  cell: MoyoCell;
  speciesOfType: SpeciesMap[];
}

function toMoyoCell(s: Structure): TypedCell {
  if (!s.lattice) throw new Error('symmetry analysis needs a periodic structure');
  const typeOf = new Map<string, number>();
  const speciesOfType: SpeciesMap[] = [];
  const numbers: number[] = [];
  const positions: [number, number, number][] = [];
  for (const site of s.sites) {
    const key = speciesKey(site);
    let t = typeOf.get(key);
    if (t === undefined) {
      t = speciesOfType.length + 1;
      typeOf.set(key, t);
      speciesOfType.push(site.species);
    }
    numbers.push(t);
    const f = fracOf(site, s.lattice);
    positions.push([f[0], f[1], f[2]]);
  }
  const m = s.lattice.matrix;
  const basis = [m[0][0], m[0][1], m[0][2], m[1][0], m[1][1], m[1][2], m[2][0], m[2][1], m[2][2]] as MoyoCell['lattice']['basis'];
  return { cell: { lattice: { basis }, positions, numbers }, speciesOfType };
}

export interface MoyoRun {
  dataset: MoyoDataset;
  speciesOfType: SpeciesMap[];
  /** Set when moyo analysed the primitive cell rather than the input cell. */
  reduction: PrimitiveReduction | null;
}

export function runMoyo(s: Structure, symprec: number): MoyoRun | null {
  if (!s.lattice || s.sites.length === 0 || symmetryUnavailable(s, symprec)) return null;
  const { cell, speciesOfType } = toMoyoCell(s);
  const reduction =
    cell.positions.length > PRIMITIVE_FIRST_SITES ? findPrimitive(s.lattice.matrix, cell.positions, cell.numbers, symprec) : null;
  const input: MoyoCell = reduction
    ? { lattice: { basis: reduction.matrix.flat() as MoyoCell['lattice']['basis'] }, positions: reduction.frac, numbers: reduction.types }
    : cell;
  const engine = moyo(); // outside the try: "not initialised" must reach the caller, not read as "no symmetry"
  try {
    return { dataset: engine.analyze_cell(JSON.stringify(input), symprec, 'Spglib'), speciesOfType, reduction };
  } catch {
    // moyo throws strings such as "moyo error: PrimitiveSymmetrySearchError" (e.g. overlapping atoms).
    return null;
  }
}

const symbolCache = new Map<number, { symbol: string; crystalSystem: string }>();
export function spaceGroupSymbol(number: number): { symbol: string; crystalSystem: string } {
  let hit = symbolCache.get(number);
  if (!hit) {
    const t = moyo().space_group_type(number);
    hit = { symbol: t.hm_short.replace(/\s+/g, ''), crystalSystem: t.crystal_system };
    symbolCache.set(number, hit);
  }
  return hit;
}

/** Space group of a periodic structure; null for finite structures or when the search fails. */
export function analyzeSymmetry(s: Structure, symprec = 0.01): SymmetryInfo | null {
  const run = runMoyo(s, symprec);
  if (!run) return null;
  const d = run.dataset;
  const { symbol, crystalSystem } = spaceGroupSymbol(d.number);
  let { wyckoffs, orbits } = d;
  let nOperations = d.operations.length;
  const r = run.reduction;
  if (r) {
    // Back to the input sites: each takes its primitive site's letter; an orbit is represented by its
    // lowest input index, as spglib's equivalent_atoms is.
    const firstInput = new Map<number, number>();
    for (let i = r.siteMap.length - 1; i >= 0; i--) firstInput.set(d.orbits[r.siteMap[i]], i);
    wyckoffs = Array.from(r.siteMap, (p) => d.wyckoffs[p]);
    orbits = Array.from(r.siteMap, (p) => firstInput.get(d.orbits[p])!);
    nOperations *= r.translations;
  }
  // As the Symmetry panel's Wyckoff table counts them (src/core/tasks/crystallography/lab.ts symmetryView): the orbit's
  // input sites times the conventional cell's volume over the input cell's.
  const b = d.std_cell.lattice.basis;
  const perCell =
    Math.abs(
      det([
        [b[0], b[1], b[2]],
        [b[3], b[4], b[5]],
        [b[6], b[7], b[8]],
      ]),
    ) / s.lattice!.volume;
  const orbitSize = new Map<number, number>();
  for (const o of orbits) orbitSize.set(o, (orbitSize.get(o) ?? 0) + 1);
  const multiplicities = orbits.map((o) => Math.round(orbitSize.get(o)! * perCell));
  return {
    number: d.number,
    symbol,
    hallNumber: d.hall_number,
    hallSymbol: moyo().hall_symbol_entry(d.hall_number).hall_symbol,
    crystalSystem,
    wyckoffs,
    multiplicities,
    orbits,
    nOperations,
    symprec,
  };
}

function cellToStructure(cell: MoyoCell, speciesOfType: SpeciesMap[], name: string): Structure {
  const b = cell.lattice.basis;
  const lattice = new Lattice([
    [b[0], b[1], b[2]],
    [b[3], b[4], b[5]],
    [b[6], b[7], b[8]],
  ] as Mat3);
  const sites: Site[] = cell.positions.map((p, k) => {
    const frac: Vec3 = [p[0], p[1], p[2]];
    return { species: { ...speciesOfType[cell.numbers[k] - 1] }, frac, xyz: lattice.fracToCart(frac) };
  });
  return { name, lattice, sites };
}

/** The standardized conventional (or primitive) cell, spglib setting; null when the search fails. */
export function standardizedCell(s: Structure, symprec = 0.01, primitive = false): Structure | null {
  const run = runMoyo(s, symprec);
  if (!run) return null;
  const cell = primitive ? run.dataset.prim_std_cell : run.dataset.std_cell;
  return cellToStructure(cell, run.speciesOfType, `${s.name} (${primitive ? 'primitive' : 'conventional'} standard)`);
}
