/** Small helpers shared by the format readers and writers. */
import { type Site, isOrderedSite } from '../structure/structure.ts';

/** A plain decimal number as POSCAR and XYZ files write it: sign, digits, optional E or Fortran D exponent. */
export const DECIMAL_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eEdD][+-]?\d+)?$/;

/** Shortest text that reads back as exactly the same double ("-0" written as "0"); throws for ±Infinity/NaN. */
export function shortestNumber(x: number, format: string): string {
  if (!Number.isFinite(x)) throw new Error(`${format} cannot hold the non-finite number ${x}.`);
  return String(x === 0 ? 0 : x);
}

/** The element of an ordered site; throws, naming the 0-based `index` as site index+1, for a mixed or partial site. */
export function orderedSymbol(site: Site, index: number, format: string): string {
  if (!isOrderedSite(site)) {
    const desc = Object.entries(site.species).map(([el, occ]) => `${el}:${occ}`).join(', ');
    throw new Error(`${format} cannot hold partial occupancy (site ${index + 1} has ${desc}); write CIF or JSON instead.`);
  }
  return Object.keys(site.species)[0];
}
