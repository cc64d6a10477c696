/**
 * Port of spglib v2.0.2 src/spg_database.c (github.com/spglib/spglib, BSD-3-Clause).
 * The static tables (spacegroup_types, symmetry_operations, symmetry_operation_index) are read verbatim from
 * tables/spg_database.json (scripts/make-spglib-tables.py). Left out: layer groups (layer_group_types,
 * layer_symmetry_operation_index and the negative-Hall-number branches, which here behave as out of range).
 */

import spgDatabaseJson from './tables/spg_database.json' with { type: 'json' };
import { matCopyMatrixI3, matCopyVectorD3 } from './mathfunc.ts';
import type { Mat3, SpacegroupType, Symmetry, Vec3 } from './types.ts';

interface SpgDatabaseTables {
  spacegroup_types: SpacegroupType[];
  symmetry_operations: number[];
  symmetry_operation_index: number[][];
}

const tables = spgDatabaseJson as unknown as SpgDatabaseTables;
const spacegroupTypes = tables.spacegroup_types;
const symmetryOperations = tables.symmetry_operations;
const symmetryOperationIndex = tables.symmetry_operation_index;

/**
 * The Hall numbers of the seven rhombohedral space groups (146, 148, 155, 160, 161, 166, 167), each on hexagonal
 * and on rhombohedral axes; spglib's hall_symbol.c and spacegroup.c each spell the list out.
 */
export const RHOMBOHEDRAL_HALL_NUMBERS: ReadonlySet<number> = new Set([
  433, 434, 436, 437, 444, 445, 450, 451, 452, 453, 458, 459, 460, 461,
]);

/** Of those, the settings on hexagonal axes. */
export const RHOMBOHEDRAL_HEXAGONAL_AXES: ReadonlySet<number> = new Set([433, 436, 444, 450, 452, 458, 460]);

/**
 * spgdb_decode_symmetry: an operation is stored as rotation (ternary, 3^9) + 19683 × translation (duodecimal,
 * twelfths). Writes `rot` and `trans` in place.
 */
export function spgdbDecodeSymmetry(rot: Mat3, trans: Vec3, encoded: number): void {
  const r = encoded % 19683; /* 19683 = 3**9 */
  let degit = 6561; /* 6561 = 3**8 */
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      rot[i][j] = Math.trunc((r % (degit * 3)) / degit) - 1;
      degit = Math.trunc(degit / 3);
    }
  }

  const t = Math.trunc(encoded / 19683); /* 19683 = 3**9 */
  degit = 144;
  for (let i = 0; i < 3; i++) {
    trans[i] = Math.trunc((t % (degit * 12)) / degit) / 12;
    degit = Math.trunc(degit / 12);
  }
}

/** spgdb_get_operation: decodes symmetry_operations[index] (the C parameter is named hall_number but is an index). */
export function spgdbGetOperation(rot: Mat3, trans: Vec3, index: number): number {
  spgdbDecodeSymmetry(rot, trans, symmetryOperations[index]);
  return 1;
}

/**
 * spgdb_get_operation_index: indices = [number of operations, first index in symmetry_operations].
 * Hall numbers <= 0 (layer groups in C) give [0, 0].
 */
export function spgdbGetOperationIndex(indices: number[], hallNumber: number): void {
  if (hallNumber > 0) {
    indices[0] = symmetryOperationIndex[hallNumber][0];
    indices[1] = symmetryOperationIndex[hallNumber][1];
  } else {
    indices[0] = 0;
    indices[1] = 0;
  }
}

/** spgdb_get_spacegroup_operations: the operations of a Hall number (1–530), or null. */
export function spgdbGetSpacegroupOperations(hallNumber: number): Symmetry | null {
  if (!Number.isInteger(hallNumber) || hallNumber < 1 || 530 < hallNumber) {
    return null;
  }

  const operationIndex = [0, 0];
  spgdbGetOperationIndex(operationIndex, hallNumber);

  const size = operationIndex[0];
  const symmetry: Symmetry = { size, rot: [], trans: [] };
  const rot = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const trans = [0, 0, 0];
  for (let i = 0; i < size; i++) {
    /* rotation matrix matching and set difference of translations */
    spgdbGetOperation(rot, trans, operationIndex[1] + i);
    const r = [
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ];
    const t = [0, 0, 0];
    matCopyMatrixI3(r, rot);
    matCopyVectorD3(t, trans);
    symmetry.rot.push(r);
    symmetry.trans.push(t);
  }

  return symmetry;
}

/**
 * spgdb_get_spacegroup_type: the type of a Hall number with the padding spaces removed and '=' turned back into
 * '"' in the Hall symbol. Out of range (including the layer groups' negative numbers) gives entry 0 (number 0).
 */
export function spgdbGetSpacegroupType(hallNumber: number): SpacegroupType {
  const spgtype = { ...(0 < hallNumber && hallNumber < 531 ? spacegroupTypes[hallNumber] : spacegroupTypes[0]) };

  spgtype.schoenflies = spgdbRemoveSpace(spgtype.schoenflies, 7);
  spgtype.hall_symbol = replaceEqualChar(spgdbRemoveSpace(spgtype.hall_symbol, 17));
  spgtype.international = spgdbRemoveSpace(spgtype.international, 32);
  spgtype.international_full = spgdbRemoveSpace(spgtype.international_full, 20);
  spgtype.international_short = spgdbRemoveSpace(spgtype.international_short, 11);
  spgtype.choice = spgdbRemoveSpace(spgtype.choice, 6);

  return spgtype;
}

/**
 * spgdb_remove_space: C scans `symbol` (a char[numChar]) back from index numChar - 2 and cuts trailing spaces,
 * stopping at the first other character; a string shorter than numChar - 1 ends in NULs there, so nothing is cut.
 * C returns the index of the last kept character; here the cut string is returned (its length - 1 is that index).
 * numChar defaults to symbol.length + 1: all trailing spaces go.
 */
export function spgdbRemoveSpace(symbol: string, numChar: number = symbol.length + 1): string {
  let i: number;
  for (i = numChar - 2; i > -1; i--) {
    // Past the end of the JS string C would read '\0' (not a space).
    if (i < symbol.length && symbol[i] === ' ') {
      continue;
    }
    break;
  }
  // Characters at i + 1 .. numChar - 2 were spaces and became '\0'; C strings end at the first '\0'.
  return i + 1 < symbol.length ? symbol.slice(0, i + 1) : symbol;
}

/** replace_equal_char: '=' stands for '"' in the Hall symbols of spacegroup_types. */
function replaceEqualChar(symbol: string): string {
  return symbol.replaceAll('=', '"');
}
