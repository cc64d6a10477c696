/**
 * Port of the dataset and standardization part of spglib v2.0.2 src/spglib.c (github.com/spglib/spglib,
 * BSD-3-Clause): spgat_get_dataset(_with_hall_number) → get_dataset → init_dataset/set_dataset, and
 * spgat_standardize_cell → standardize_primitive / standardize_cell / get_standardized_cell.
 * Left out: layer and magnetic datasets, k-points, the other spg_* entry points, spg_free_dataset, and the
 * SPGERR error codes (a failure returns null). Lattices hold the basis vectors as columns, as in C.
 */

import { celAllocCell, celAnyOverlapWithSameType, celSetCell } from './cell.ts';
import { detDetermineAll } from './determination.ts';
import { matCopyMatrixD3, matCopyVectorD3, matInverseMatrixD3, matMultiplyMatrixD3, zeroMat3 } from './mathfunc.ts';
import { ovlResetWork } from './overlap.ts';
import { ptgGetPointgroup } from './pointgroup.ts';
import { spaTransformFromPrimitive, spaTransformToPrimitive } from './spacegroup.ts';
import { spgdbGetSpacegroupType } from './spg-database.ts';
import { Centering } from './types.ts';
import type { Cell, ExactStructure, Mat3, Primitive, Spacegroup, SpglibDataset, Vec3 } from './types.ts';

/** The cell spgat_standardize_cell writes back into its lattice, position and types arguments. */
export interface StandardizedCell {
  /** Basis vectors as columns. */
  lattice: Mat3;
  position: Vec3[];
  types: number[];
}

/** spgat_get_dataset: the symmetry dataset of a cell (lattice columns = basis vectors); null if failed. */
export function spgatGetDataset(
  lattice: Mat3,
  position: Vec3[],
  types: number[],
  numAtom: number,
  symprec: number,
  angleTolerance: number,
): SpglibDataset | null {
  ovlResetWork();
  return getDataset(lattice, position, types, numAtom, 0, symprec, angleTolerance);
}

/**
 * spgat_standardize_cell: the standardized conventional (toPrimitive false) or primitive cell, idealized unless
 * noIdealize (C's int flags: 0/1 or booleans). Returns the cell C writes back into its arguments, or null where C returns 0.
 */
export function spgatStandardizeCell(
  lattice: Mat3,
  position: Vec3[],
  types: number[],
  numAtom: number,
  toPrimitive: number | boolean,
  noIdealize: number | boolean,
  symprec: number,
  angleTolerance: number,
): StandardizedCell | null {
  ovlResetWork();
  /* C's int flags: any non-zero value is true. */
  if (toPrimitive) {
    if (noIdealize) {
      return getStandardizedCell(lattice, position, types, numAtom, true, symprec, angleTolerance);
    } else {
      return standardizePrimitive(lattice, position, types, numAtom, symprec, angleTolerance);
    }
  } else {
    if (noIdealize) {
      return getStandardizedCell(lattice, position, types, numAtom, false, symprec, angleTolerance);
    } else {
      return standardizeCell(lattice, position, types, numAtom, symprec, angleTolerance);
    }
  }
}

/* get_dataset: null if failed (SPGERR_SPACEGROUP_SEARCH_FAILED, SPGERR_ATOMS_TOO_CLOSE). */
function getDataset(
  lattice: Mat3,
  position: Vec3[],
  types: number[],
  numAtom: number,
  hallNumber: number,
  symprec: number,
  angleTolerance: number,
): SpglibDataset | null {
  const dataset = initDataset();

  const cell = celAllocCell(numAtom);
  if (cell === null) {
    return null;
  }
  celSetCell(cell, lattice, position, types);
  if (celAnyOverlapWithSameType(cell, symprec)) {
    return null; /* atoms too close */
  }

  const container = detDetermineAll(cell, hallNumber, symprec, angleTolerance);
  if (container !== null && container.primitive !== null && container.spacegroup !== null && container.exact_structure !== null) {
    if (setDataset(dataset, cell, container.primitive, container.spacegroup, container.exact_structure)) {
      return dataset;
    }
  }

  return null;
}

/* init_dataset */
function initDataset(): SpglibDataset {
  return {
    spacegroup_number: 0,
    hall_number: 0,
    international_symbol: '',
    hall_symbol: '',
    choice: '',
    transformation_matrix: zeroMat3(),
    origin_shift: [0, 0, 0],
    n_operations: 0,
    rotations: [],
    translations: [],
    n_atoms: 0,
    wyckoffs: [],
    site_symmetry_symbols: [],
    equivalent_atoms: [],
    crystallographic_orbits: [],
    primitive_lattice: zeroMat3(),
    mapping_to_primitive: [],
    n_std_atoms: 0,
    std_lattice: zeroMat3(),
    std_types: [],
    std_positions: [],
    std_rotation_matrix: zeroMat3(),
    std_mapping_to_primitive: [],
    pointgroup_symbol: '',
  };
}

/* set_dataset: returns false if failed. */
function setDataset(dataset: SpglibDataset, cell: Cell, primitive: Primitive, spacegroup: Spacegroup, exstr: ExactStructure): boolean {
  const invLat = zeroMat3();

  if (primitive.cell === null) {
    return false;
  }

  /* Spacegroup type, transformation matrix, origin shift */
  dataset.n_atoms = cell.size;
  dataset.spacegroup_number = spacegroup.number;
  dataset.hall_number = spacegroup.hall_number;
  dataset.international_symbol = spacegroup.international_short;
  dataset.hall_symbol = spacegroup.hall_symbol;
  dataset.choice = spacegroup.choice;
  matInverseMatrixD3(invLat, spacegroup.bravais_lattice, 0);
  matMultiplyMatrixD3(dataset.transformation_matrix, invLat, cell.lattice);
  matCopyVectorD3(dataset.origin_shift, spacegroup.origin_shift);

  dataset.n_operations = exstr.symmetry.size;
  dataset.rotations = [];
  dataset.translations = [];
  for (let i = 0; i < exstr.symmetry.size; i++) {
    dataset.rotations.push(exstr.symmetry.rot[i].map((row) => row.slice()));
    dataset.translations.push(exstr.symmetry.trans[i].slice());
  }

  /* Wyckoff positions */
  dataset.wyckoffs = [];
  dataset.site_symmetry_symbols = [];
  dataset.equivalent_atoms = [];
  dataset.crystallographic_orbits = [];
  for (let i = 0; i < dataset.n_atoms; i++) {
    dataset.wyckoffs.push(exstr.wyckoffs[i]);
    dataset.site_symmetry_symbols.push(exstr.site_symmetry_symbols[i]);
    dataset.equivalent_atoms.push(exstr.equivalent_atoms[i]);
    dataset.crystallographic_orbits.push(exstr.crystallographic_orbits[i]);
  }

  matCopyMatrixD3(dataset.primitive_lattice, primitive.cell.lattice);
  dataset.mapping_to_primitive = [];
  for (let i = 0; i < dataset.n_atoms; i++) {
    dataset.mapping_to_primitive.push(primitive.mapping_table[i]);
  }

  dataset.n_std_atoms = exstr.bravais.size;
  matCopyMatrixD3(dataset.std_lattice, exstr.bravais.lattice);

  dataset.std_positions = [];
  dataset.std_types = [];
  dataset.std_mapping_to_primitive = [];
  for (let i = 0; i < dataset.n_std_atoms; i++) {
    dataset.std_positions.push(exstr.bravais.position[i].slice());
    dataset.std_types.push(exstr.bravais.types[i]);
    dataset.std_mapping_to_primitive.push(exstr.std_mapping_to_primitive[i]);
  }

  matCopyMatrixD3(dataset.std_rotation_matrix, exstr.rotation);

  const pointgroup = ptgGetPointgroup(spacegroup.pointgroup_number);
  dataset.pointgroup_symbol = pointgroup.symbol;

  return true;
}

/* standardize_primitive: null if failed (SPGERR_CELL_STANDARDIZATION_FAILED). */
function standardizePrimitive(
  lattice: Mat3,
  position: Vec3[],
  types: number[],
  numAtom: number,
  symprec: number,
  angleTolerance: number,
): StandardizedCell | null {
  const dataset = getDataset(lattice, position, types, numAtom, 0, symprec, angleTolerance);
  if (dataset === null) {
    return null;
  }
  return standardPrimitiveOf(dataset, symprec);
}

/**
 * The second half of standardize_primitive: the idealized primitive cell from a dataset already found (the caller
 * that has one need not search again; it uses only the dataset's Hall number and standardized cell).
 */
export function standardPrimitiveOf(dataset: SpglibDataset, symprec: number): StandardizedCell | null {
  const identity: Mat3 = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];

  const centering = getCentering(dataset.hall_number);
  if (centering === Centering.CENTERING_ERROR) {
    return null;
  }

  const bravais = celAllocCell(dataset.n_std_atoms);
  if (bravais === null) {
    return null;
  }
  celSetCell(bravais, dataset.std_lattice, dataset.std_positions, dataset.std_types);

  const mappingTable: number[] = new Array<number>(bravais.size).fill(0);

  const primitive = spaTransformToPrimitive(mappingTable, bravais, identity, centering, symprec);

  /* C checks the mapping before the null check (and would dereference NULL); null first here. */
  if (primitive === null) {
    return null;
  }

  for (let i = 0; i < primitive.size; i++) {
    /* This is an assertion. */
    if (mappingTable[i] !== i) {
      return null;
    }
  }

  return setCell(primitive);
}

/* standardize_cell (num_array_size = 0): null if failed. */
function standardizeCell(
  lattice: Mat3,
  position: Vec3[],
  types: number[],
  numAtom: number,
  symprec: number,
  angleTolerance: number,
): StandardizedCell | null {
  const dataset = getDataset(lattice, position, types, numAtom, 0, symprec, angleTolerance);
  if (dataset === null) {
    return null;
  }

  const out: StandardizedCell = { lattice: zeroMat3(), position: [], types: [] };
  matCopyMatrixD3(out.lattice, dataset.std_lattice);
  for (let i = 0; i < dataset.n_std_atoms; i++) {
    out.types.push(dataset.std_types[i]);
    out.position.push(dataset.std_positions[i].slice());
  }

  return out;
}

/* get_standardized_cell (num_array_size = 0): null if failed. */
function getStandardizedCell(
  lattice: Mat3,
  position: Vec3[],
  types: number[],
  numAtom: number,
  toPrimitive: boolean,
  symprec: number,
  angleTolerance: number,
): StandardizedCell | null {
  const dataset = getDataset(lattice, position, types, numAtom, 0, symprec, angleTolerance);
  if (dataset === null) {
    return null;
  }

  const centering = getCentering(dataset.hall_number);
  if (centering === Centering.CENTERING_ERROR) {
    return null;
  }

  const cell = celAllocCell(numAtom);
  if (cell === null) {
    return null;
  }
  celSetCell(cell, lattice, position, types);

  const mappingTable: number[] = new Array<number>(cell.size).fill(0);

  const primitive = spaTransformToPrimitive(mappingTable, cell, dataset.transformation_matrix, centering, symprec);

  for (let i = 0; i < cell.size; i++) {
    /* This is an assertion. */
    if (mappingTable[i] !== dataset.mapping_to_primitive[i]) {
      return null;
    }
  }

  if (primitive === null) {
    return null;
  }

  if (toPrimitive || centering === Centering.PRIMITIVE) {
    return setCell(primitive);
  }

  const stdCell = spaTransformFromPrimitive(primitive, centering, symprec);
  if (stdCell === null) {
    return null;
  }

  return setCell(stdCell);
}

/* set_cell: what C copies back into lattice, position and types. */
function setCell(cell: Cell): StandardizedCell {
  const out: StandardizedCell = { lattice: zeroMat3(), position: [], types: [] };
  matCopyMatrixD3(out.lattice, cell.lattice);
  for (let i = 0; i < cell.size; i++) {
    out.types.push(cell.types[i]);
    out.position.push(cell.position[i].slice());
  }
  return out;
}

/* get_centering */
function getCentering(hallNumber: number): Centering {
  const spgtype = spgdbGetSpacegroupType(hallNumber);

  return spgtype.centering;
}
