/**
 * Port of spglib v2.0.2 src/sitesym_database.c (github.com/spglib/spglib, BSD-3-Clause).
 * The static tables (position_wyckoff, coordinates_first, multiplicities, site_symmetry_symbols) are read verbatim
 * from tables/sitesym_database.json (scripts/make-spglib-tables.py). Left out: the layer-group branch of
 * ssmdb_get_wyckoff_indices (hall_number <= 0).
 */

import sitesymJson from './tables/sitesym_database.json';
import { spgdbRemoveSpace } from './spg-database.ts';

interface SitesymTables {
  position_wyckoff: number[];
  coordinates_first: number[];
  multiplicities: number[];
  site_symmetry_symbols: string[];
}

const tables = sitesymJson as unknown as SitesymTables;
const positionWyckoff = tables.position_wyckoff;
const coordinatesFirst = tables.coordinates_first;
const multiplicities = tables.multiplicities;
const siteSymmetrySymbols = tables.site_symmetry_symbols;

/**
 * ssmdb_get_coordinate: decodes the first 'Coordinates' of a Wyckoff position into `rot` and `trans` (mutated)
 * and returns its multiplicity. Rotation is base-45 (ternary rows), translation base-24.
 */
export function ssmdbGetCoordinate(rot: number[][], trans: number[], index: number): number {
  const rows = [0, 0, 0];
  const transInt = [0, 0, 0];

  const rotEnc = coordinatesFirst[index] % 91125; /* = 45**3 */
  rows[0] = Math.trunc(rotEnc / 2025); /* = 45**2 */
  rows[1] = Math.trunc((rotEnc % 2025) / 45);
  rows[2] = rotEnc % 45;

  for (let i = 0; i < 3; i++) {
    rot[i][0] = Math.trunc(rows[i] / 9) - 2;
    rot[i][1] = Math.trunc((rows[i] % 9) / 3) - 1;
    rot[i][2] = (rows[i] % 3) - 1;
  }

  const transEnc = Math.trunc(coordinatesFirst[index] / 91125); /* = 45**3 */
  transInt[0] = Math.trunc(transEnc / 576);
  transInt[1] = Math.trunc((transEnc % 576) / 24);
  transInt[2] = transEnc % 24;
  for (let i = 0; i < 3; i++) {
    trans[i] = transInt[i] / 24;
  }

  return multiplicities[index];
}

/** ssmdb_get_wyckoff_indices: indices[0] = first database row of `hallNumber`, indices[1] = number of rows. */
export function ssmdbGetWyckoffIndices(indices: number[], index: number): void {
  indices[0] = positionWyckoff[index];
  indices[1] = positionWyckoff[index + 1] - positionWyckoff[index];
}

/** ssmdb_get_site_symmetry_symbol: the 6-character symbol with trailing spaces removed. */
export function ssmdbGetSiteSymmetrySymbol(index: number): string {
  return spgdbRemoveSpace(siteSymmetrySymbols[index].slice(0, 6), 7);
}
