/**
 * spglib's symmetry dataset (spglib/spglib src/spglib.c, src/refinement.c; through pymatgen symmetry/analyzer.py,
 * materialsproject/pymatgen v2022.11.7) in StructLab's terms: operations, Wyckoff letters, orbits and site symmetries per
 * input site, and the standardized conventional and primitive cells spglib chooses (idealized). The numbers are
 * spglib's own: ./spglib is a port of its algorithm. This repository's docs/crystallography.md states the conventions.
 */
import type { Mat3, Vec3 } from '../math/mat3.ts';
import { wrapFrac } from '../math/mat3.ts';
import { type SpeciesMap, type Structure, fracOf } from '../structure/structure.ts';
import { PYMATGEN_ANGLE_TOLERANCE, crystalSystemOf, searchSymmetry, structureOfSpglibCell, wyckoffLetter } from './analyze.ts';
import { standardPrimitiveOf } from './spglib/dataset.ts';
import type { SymOp } from './symop.ts';

export interface SymmetrySite {
  species: SpeciesMap;
  frac: Vec3;
  wyckoff: string;
  /** Index of the first site of the same orbit (spglib's equivalent_atoms). */
  orbit: number;
  siteSymmetry: string;
}

export interface SymmetryDataset {
  number: number;
  international: string;
  hallNumber: number;
  hall: string;
  pointGroup: string;
  crystalSystem: string;
  /** Every operation of the input cell, x' = R·x + t (fractional, R row-major), t in [0, 1). */
  operations: SymOp[];
  sites: SymmetrySite[];
  stdCell: Structure;
  primStdCell: Structure;
  /** spglib's (P, p): x_std = P·x + p. */
  transformationMatrix: Mat3;
  originShift: Vec3;
  symprec: number;
  angleTolerance: number;
}

const wrap3 = (v: readonly number[]): Vec3 => [wrapFrac(v[0]), wrapFrac(v[1]), wrapFrac(v[2])];

/** The dataset of `s` at `symprec` (Å) and `angleTolerance` (degrees; -1: spglib's default); null when the search fails. */
export function symmetryDataset(s: Structure, symprec = 0.01, angleTolerance = PYMATGEN_ANGLE_TOLERANCE): SymmetryDataset | null {
  const run = searchSymmetry(s, symprec, angleTolerance);
  if (!run) return null;
  const { dataset: d, speciesOfType } = run;
  const prim = standardPrimitiveOf(d, symprec);
  if (!prim) return null;
  const stdCell = structureOfSpglibCell(
    { lattice: d.std_lattice, positions: d.std_positions, types: d.std_types },
    speciesOfType,
    `${s.name} (conventional standard)`,
  );
  const primStdCell = structureOfSpglibCell(
    { lattice: prim.lattice, positions: prim.position, types: prim.types },
    speciesOfType,
    `${s.name} (primitive standard)`,
  );
  return {
    number: d.spacegroup_number,
    international: d.international_symbol,
    hallNumber: d.hall_number,
    hall: d.hall_symbol,
    pointGroup: d.pointgroup_symbol,
    crystalSystem: crystalSystemOf(d.spacegroup_number),
    operations: d.rotations.map((rot, k) => ({ rot: rot.map((r) => r.slice()) as Mat3, trans: wrap3(d.translations[k]) })),
    sites: s.sites.map((site, k) => ({
      species: site.species,
      frac: wrap3(fracOf(site, s.lattice!)),
      wyckoff: wyckoffLetter(d.wyckoffs[k]),
      orbit: d.equivalent_atoms[k],
      siteSymmetry: d.site_symmetry_symbols[k],
    })),
    stdCell,
    primStdCell,
    transformationMatrix: d.transformation_matrix.map((r) => r.slice()) as Mat3,
    originShift: wrap3(d.origin_shift),
    symprec,
    angleTolerance,
  };
}
