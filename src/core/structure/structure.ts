import { type Vec3, vec3 } from '../math/mat3.ts';
import { Lattice } from './lattice.ts';

/** Element symbol → occupancy (1 for an ordered site). Oxidation states live in `oxidation`. */
export type SpeciesMap = Record<string, number>;

export interface Site {
  species: SpeciesMap;
  /** Cartesian position, Å. Always present. */
  xyz: Vec3;
  /** Fractional position (not wrapped) when the structure has a lattice. */
  frac?: Vec3;
  /** CIF label or similar; informative only. */
  label?: string;
  /** Element symbol → oxidation state, when the file declares one (e.g. `Fe3+`). */
  oxidation?: Record<string, number>;
  /** Per-site extra data (selective dynamics, velocities, forces, extxyz columns…). */
  properties?: Record<string, unknown>;
}

/**
 * A periodic crystal (lattice set) or a finite structure (lattice null: particle, molecule).
 * Plain data so it can be cloned, serialised and sent to workers.
 */
export interface Structure {
  name: string;
  lattice: Lattice | null;
  sites: Site[];
  /** Structure-level metadata (extxyz info line, POSCAR comment, CIF block name…). */
  properties?: Record<string, unknown>;
}

export function makeSiteFromFrac(lattice: Lattice, frac: Vec3, species: SpeciesMap, extra: Partial<Site> = {}): Site {
  return { ...extra, species, frac: vec3(frac[0], frac[1], frac[2]), xyz: lattice.fracToCart(frac) };
}

export function makeSiteFromCart(lattice: Lattice | null, xyz: Vec3, species: SpeciesMap, extra: Partial<Site> = {}): Site {
  const site: Site = { ...extra, species, xyz: vec3(xyz[0], xyz[1], xyz[2]) };
  if (lattice) site.frac = lattice.cartToFrac(xyz);
  return site;
}

/**
 * Whether `s` was read from a CIF block (the reader marks it with `symmetrySource`): pymatgen's CifParser returns
 * such a structure in its sorted site order, which the symmetry search then follows (symmetry/analyze.ts).
 */
export const readFromCif = (s: Structure): boolean => s.properties?.symmetrySource !== undefined;

/** Fractional position of a site: the stored one, else computed from its Cartesian position. */
export const fracOf = (site: Site, lattice: Lattice): Vec3 => site.frac ?? lattice.cartToFrac(site.xyz);

/** Element → summed occupancy over all sites (pymatgen's `composition` without oxidation states). */
export function elementAmounts(s: Structure): Record<string, number> {
  const out: Record<string, number> = {};
  for (const site of s.sites) for (const [el, occ] of Object.entries(site.species)) out[el] = (out[el] ?? 0) + occ;
  return out;
}

/** The dominant species of a site (largest occupancy; first on ties). Used for colouring and symmetry. */
export function majorSpecies(site: Site): string {
  let best = '';
  let bestOcc = -Infinity;
  // for…in keeps insertion order like Object.entries without building an array per site.
  for (const el in site.species) {
    const occ = site.species[el];
    if (occ > bestOcc) {
      best = el;
      bestOcc = occ;
    }
  }
  return best;
}

/** One species with occupancy 1 (within 1e-12). */
export const isOrderedSite = (site: Site): boolean => {
  const e = Object.entries(site.species);
  return e.length === 1 && Math.abs(e[0][1] - 1) < 1e-12;
};

export const isOrdered = (s: Structure): boolean => s.sites.every(isOrderedSite);
