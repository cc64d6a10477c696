/**
 * The numbers behind the lab's crystal → nanoparticle teaching view: coordination of every carved atom,
 * which atoms are on the surface, and how the surface fraction, mean coordination and pair-distance
 * histogram approach the bulk crystal's as the radius grows.
 *
 * Coordination here is the first coordination shell, read off the bulk crystal: elements A and B are
 * neighbours when their shortest bulk distance d_AB is within 10 % of the first-shell distance of A or of
 * B (d_AB ≤ 1.1 · max(d1(A), d1(B)), d1 = an element's shortest distance to any atom), counted up to
 * 1.05 · d_AB. So in a perovskite ABX3 the B cation has 6 X, the A cation 12 X and X has 2 B + 4 A, as
 * crystallographers count them — where a covalent-radius bond rule would leave a large A cation with none.
 *
 * Surface atom (the definition the view uses): an atom of the particle whose coordination number is below
 * the smallest coordination any site of the same element has in the periodic bulk crystal. An interior
 * atom keeps all its bulk neighbours, so it can never count as surface; an atom that lost one to the cut does.
 */
import type { Mat3, Vec3 } from '../../math/mat3.ts';
import { type BondOptions, computeBonds, coordinationNumbers } from '../../structure/bonds.ts';
import { elementBySymbol } from '../../structure/elements.ts';
import { findNeighbors } from '../../structure/neighbors.ts';
import { majorSpecies, makeSiteFromCart, type Structure } from '../../structure/structure.ts';
import { C2NP_RDF_BINS, C2NP_RDF_MAX, pairDistanceHistogram } from '../../analysis/rdf.ts';
import { carveParticle, type CarveOptions } from './carve.ts';

/** Shortest bulk distance between every pair of elements present (keys "A-B", A ≤ B), searching out to `cutoff`. */
function shortestPairDistances(crystal: Structure, cutoff: number): Map<string, number> {
  const symbols = crystal.sites.map((site) => majorSpecies(site));
  const pairs = findNeighbors(crystal, cutoff);
  const shortest = new Map<string, number>();
  for (let m = 0; m < pairs.i.length; m++) {
    const a = symbols[pairs.i[m]],
      b = symbols[pairs.j[m]];
    const key = a <= b ? `${a}-${b}` : `${b}-${a}`;
    shortest.set(key, Math.min(shortest.get(key) ?? Infinity, pairs.distance[m]));
  }
  return shortest;
}

/**
 * First-shell neighbour rule of a crystal (see the header) as per-pair cutoffs, for the crystal and every
 * particle carved from it. Elements without a known symbol (dummy atoms) get no neighbours.
 */
export function teachingBondOptions(crystal: Structure, base: BondOptions = {}): BondOptions {
  if (!crystal.lattice) throw new Error('the first-shell rule needs a periodic crystal (a cell)');
  const elements = [...new Set(crystal.sites.map((site) => majorSpecies(site)))].filter((el) => elementBySymbol(el));
  // Search outwards until every element has found its first shell (cells up to ~16 Å apart).
  let shortest = new Map<string, number>();
  const firstShell = new Map<string, number>();
  for (let cutoff = 4; cutoff <= 16 && firstShell.size < elements.length; cutoff *= 2) {
    shortest = shortestPairDistances(crystal, cutoff);
    firstShell.clear();
    for (const [key, d] of shortest) for (const el of key.split('-')) firstShell.set(el, Math.min(firstShell.get(el) ?? Infinity, d));
  }
  const overrides: Record<string, number> = {};
  for (let p = 0; p < elements.length; p++)
    for (let q = p; q < elements.length; q++) {
      const [a, b] = elements[p] <= elements[q] ? [elements[p], elements[q]] : [elements[q], elements[p]];
      const d = shortest.get(`${a}-${b}`);
      const shell = Math.max(firstShell.get(a) ?? 0, firstShell.get(b) ?? 0);
      overrides[`${a}-${b}`] = d !== undefined && d <= 1.1 * shell ? 1.05 * d : 0;
    }
  return { ...base, overrides: { ...overrides, ...base.overrides }, metalMetal: true };
}

/** Smallest coordination number of each element's sites in the periodic crystal. */
export function bulkCoordinationByElement(crystal: Structure, bonds: BondOptions): Record<string, number> {
  if (!crystal.lattice) throw new Error('the bulk coordination needs a periodic crystal (a cell)');
  const cn = coordinationNumbers(crystal.sites.length, computeBonds(crystal, bonds));
  const out: Record<string, number> = {};
  crystal.sites.forEach((site, k) => {
    const el = majorSpecies(site);
    out[el] = Math.min(out[el] ?? Infinity, cn[k]);
  });
  return out;
}

/** Coordination number of every atom of a finite particle (no periodic images). */
export function particleCoordination(symbols: readonly string[], positions: readonly Vec3[], bonds: BondOptions): Uint32Array {
  const particle: Structure = {
    name: 'particle',
    lattice: null,
    sites: positions.map((p, i) => makeSiteFromCart(null, p, { [symbols[i]]: 1 })),
  };
  return coordinationNumbers(positions.length, computeBonds(particle, bonds));
}

/** 1 for surface atoms (coordination below the bulk coordination of the element), 0 for interior ones. */
export function surfaceMask(symbols: readonly string[], coordination: ArrayLike<number>, bulk: Record<string, number>): Uint8Array {
  const mask = new Uint8Array(symbols.length);
  for (let i = 0; i < symbols.length; i++) mask[i] = coordination[i] < (bulk[symbols[i]] ?? 0) ? 1 : 0;
  return mask;
}

export interface ParticleStats {
  natoms: number;
  surfaceAtoms: number;
  /** surfaceAtoms / natoms (0 for an empty particle). */
  surfaceFraction: number;
  /** Mean coordination number over all atoms (0 for an empty particle). */
  meanCoordination: number;
}

export function particleStats(mask: Uint8Array, coordination: ArrayLike<number>): ParticleStats {
  const natoms = mask.length;
  let surfaceAtoms = 0,
    total = 0;
  for (let i = 0; i < natoms; i++) {
    surfaceAtoms += mask[i];
    total += coordination[i];
  }
  return { natoms, surfaceAtoms, surfaceFraction: natoms ? surfaceAtoms / natoms : 0, meanCoordination: natoms ? total / natoms : 0 };
}

/** counts[k] = number of atoms with coordination k, for k = 0 … max. */
export function coordinationHistogram(coordination: ArrayLike<number>): number[] {
  let max = 0;
  for (let i = 0; i < coordination.length; i++) max = Math.max(max, coordination[i]);
  const counts = new Array<number>(max + 1).fill(0);
  for (let i = 0; i < coordination.length; i++) counts[coordination[i]]++;
  return coordination.length ? counts : [];
}

export interface CarvedAnalysis {
  symbols: string[];
  positions: Vec3[];
  center: Vec3;
  /** Cell vectors the particle was carved from (rows a, b, c; the frame of `positions` before any rotation). */
  cell: Mat3;
  coordination: Uint32Array;
  surface: Uint8Array;
  stats: ParticleStats;
  warnings: string[];
}

/** Carves one particle (C2NP convention unless `carve` says otherwise) and classifies its atoms. */
export function analyzeParticle(crystal: Structure, carve: CarveOptions, bonds: BondOptions, bulk: Record<string, number>): CarvedAnalysis {
  const p = carveParticle(crystal, carve);
  const coordination = particleCoordination(p.symbols, p.positions, bonds);
  const surface = surfaceMask(p.symbols, coordination, bulk);
  return {
    symbols: p.symbols,
    positions: p.positions,
    center: p.center,
    cell: p.cell,
    coordination,
    surface,
    stats: particleStats(surface, coordination),
    warnings: p.warnings,
  };
}

export interface RadiusSeries {
  radii: number[];
  natoms: number[];
  surfaceFraction: number[];
  meanCoordination: number[];
}

/** Surface fraction and mean coordination for every radius (one carve each). */
export function radiusSeries(
  crystal: Structure,
  radii: readonly number[],
  carve: Omit<CarveOptions, 'radius'>,
  bonds: BondOptions,
  bulk: Record<string, number>,
  onRadius?: (radius: number, done: number) => void,
): RadiusSeries {
  const out: RadiusSeries = { radii: [...radii], natoms: [], surfaceFraction: [], meanCoordination: [] };
  radii.forEach((radius, k) => {
    const { stats } = analyzeParticle(crystal, { ...carve, radius }, bonds, bulk);
    out.natoms.push(stats.natoms);
    out.surfaceFraction.push(stats.surfaceFraction);
    out.meanCoordination.push(stats.meanCoordination);
    onRadius?.(radius, k + 1);
  });
  return out;
}

export interface RdfCurve {
  /** Bin centres in Å. */
  r: number[];
  /** The C2NP density-normalised pair-distance histogram (0 where the particle has no pair in range). */
  density: number[];
}

/** The C2NP pair-distance histogram of a point set, with bin centres, for plotting. */
export function rdfCurve(positions: readonly Vec3[], bins = C2NP_RDF_BINS, rMax = C2NP_RDF_MAX): RdfCurve {
  const h = pairDistanceHistogram(positions, bins, rMax);
  const width = rMax / bins;
  return {
    r: Array.from({ length: bins }, (_, k) => (k + 0.5) * width),
    density: Array.from(h.density, (v) => (Number.isFinite(v) ? v : 0)),
  };
}
