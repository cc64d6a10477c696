/**
 * Port of spglib v2.0.2 src/cell.c (github.com/spglib/spglib, BSD-3-Clause), 3D only: no layer cells
 * (`cel_set_layer_cell`, `cel_layer_*`), no site tensors (`cel_set_cell_with_tensors`), so `aperiodic_axis`
 * is always -1 and the `lattice_rank == 2` branches are gone. C's NULL is `null`; `cel_free_cell` has no
 * counterpart (garbage collection).
 */
import {
  matCastMatrix3dTo3i,
  matCopyMatrixD3,
  matDabs,
  matDmod1,
  matGetDeterminantD3,
  matGetDeterminantI3,
  matInverseMatrixD3,
  matMultiplyMatrixD3,
  matMultiplyMatrixVectorD3,
  matNint,
  matNormSquaredD3,
  matAllocVecDBL,
  zeroMat3,
} from './mathfunc.ts';
import { findNeighborsRaw } from '../../structure/neighbors.ts';
import type { Mat3 as Mat3Rows } from '../../math/mat3.ts';
import type { Cell, Mat3, Vec3, VecDBL } from './types.ts';

const INCREASE_RATE = 2.0;
const REDUCE_RATE = 0.95;
const NUM_ATTEMPT = 100;

/** C's integer division of non-negative ints. */
function idiv(a: number, b: number): number {
  return Math.trunc(a / b);
}

/** Allocate a Cell of `size` atoms (zero lattice, positions and types); null when size < 1. */
export function celAllocCell(size: number): Cell | null {
  if (size < 1) {
    return null;
  }
  const position: Vec3[] = [];
  for (let i = 0; i < size; i++) position.push([0, 0, 0]);
  return {
    size,
    aperiodic_axis: -1,
    lattice: zeroMat3(),
    types: new Array<number>(size).fill(0),
    position,
  };
}

/** Copies the lattice and types; positions are reduced by `x - nint(x)` (into [-0.5, 0.5]). */
export function celSetCell(cell: Cell, lattice: Mat3, position: Vec3[], types: number[]): void {
  matCopyMatrixD3(cell.lattice, lattice);
  for (let i = 0; i < cell.size; i++) {
    for (let j = 0; j < 3; j++) {
      cell.position[i][j] = position[i][j] - matNint(position[i][j]);
    }
    cell.types[i] = types[i];
  }
}

export function celCopyCell(cell: Cell): Cell | null {
  const cellNew = celAllocCell(cell.size);
  if (cellNew === null) {
    return null;
  }
  celSetCell(cellNew, cell.lattice, cell.position, cell.types);
  return cellNew;
}

/** 1 when fractional points a and b coincide within symprec (Cartesian distance, nearest image by nint). */
export function celIsOverlap(a: Vec3, b: Vec3, lattice: Mat3, symprec: number): number {
  const vDiff = [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    vDiff[i] = a[i] - b[i];
    vDiff[i] -= matNint(vDiff[i]);
  }
  matMultiplyMatrixVectorD3(vDiff, lattice, vDiff);
  if (Math.sqrt(matNormSquaredD3(vDiff)) < symprec) {
    return 1;
  } else {
    return 0;
  }
}

export function celIsOverlapWithSameType(a: Vec3, b: Vec3, typeA: number, typeB: number, lattice: Mat3, symprec: number): number {
  if (typeA === typeB) {
    return celIsOverlap(a, b, lattice, symprec);
  } else {
    return 0;
  }
}

/** 1: at least one overlap of a pair of atoms was found. 0: no overlap of atoms was found. */
export function celAnyOverlap(cell: Cell, symprec: number): number {
  for (let i = 0; i < cell.size; i++) {
    for (let j = i + 1; j < cell.size; j++) {
      if (celIsOverlap(cell.position[i], cell.position[j], cell.lattice, symprec)) {
        return 1;
      }
    }
  }
  return 0;
}

/** 1: at least one overlap of a pair of atoms with the same type was found. 0: none. */
export function celAnyOverlapWithSameType(cell: Cell, symprec: number): number {
  if (cell.size > PAIR_SEARCH_SITES && symprec > 0) {
    const found = anyOverlapWithSameTypeByGrid(cell, symprec);
    if (found !== null) return found;
  }
  for (let i = 0; i < cell.size; i++) {
    for (let j = i + 1; j < cell.size; j++) {
      if (celIsOverlapWithSameType(cell.position[i], cell.position[j], cell.types[i], cell.types[j], cell.lattice, symprec)) {
        return 1;
      }
    }
  }
  return 0;
}

/** Above this many atoms the all-pairs test of `cel_any_overlap_with_same_type` (n²/2 pairs) goes through a grid. */
const PAIR_SEARCH_SITES = 200;

/**
 * The same answer as C's all-pairs loop, from the pairs a grid finds: `cel_is_overlap` measures one image (the
 * rounded fractional difference), never shorter than the nearest, so every overlapping pair is among the pairs
 * closer than symprec (a hair of margin for rounding), and each is then tested exactly as C tests it. null when
 * the grid search refuses the cell (the caller then runs C's loop).
 */
function anyOverlapWithSameTypeByGrid(cell: Cell, symprec: number): number | null {
  const l = cell.lattice;
  const rows = [0, 1, 2].map((i) => [l[0][i], l[1][i], l[2][i]]) as Mat3Rows;
  const cart = new Float64Array(3 * cell.size);
  for (let k = 0; k < cell.size; k++) {
    const f = cell.position[k];
    for (let x = 0; x < 3; x++) cart[3 * k + x] = f[0] * rows[0][x] + f[1] * rows[1][x] + f[2] * rows[2][x];
  }
  let pairs: ReturnType<typeof findNeighborsRaw>;
  try {
    pairs = findNeighborsRaw(cart, rows, symprec * (1 + 1e-9) + 1e-12);
  } catch {
    return null;
  }
  for (let p = 0; p < pairs.i.length; p++) {
    const i = pairs.i[p],
      j = pairs.j[p];
    if (i === j) continue;
    const [a, b] = i < j ? [i, j] : [j, i];
    if (celIsOverlapWithSameType(cell.position[a], cell.position[b], cell.types[a], cell.types[b], cell.lattice, symprec)) return 1;
  }
  return 0;
}

/**
 * @param mappingTable out, length cell.size: atom i of `cell` maps to atom mappingTable[i] of the trimmed cell.
 * @returns the trimmed cell, or null when it fails.
 */
export function celTrimCell(mappingTable: number[], trimmedLattice: Mat3, cell: Cell, symprec: number): Cell | null {
  return trimCell(mappingTable, trimmedLattice, cell, symprec);
}

/* Return null if failed */
function trimCell(mappingTable: number[], trimmedLattice: Mat3, cell: Cell, symprec: number): Cell | null {
  const tmpMatInt = zeroMat3();
  const tmpMat = zeroMat3();

  const ratio = Math.abs(matNint(matGetDeterminantD3(cell.lattice) / matGetDeterminantD3(trimmedLattice)));

  // C ignores the result; on failure tmp_mat is uninitialised there and all zeros here.
  matInverseMatrixD3(tmpMat, trimmedLattice, symprec);
  matMultiplyMatrixD3(tmpMat, tmpMat, cell.lattice);
  matCastMatrix3dTo3i(tmpMatInt, tmpMat);
  if (Math.abs(matGetDeterminantI3(tmpMatInt)) !== ratio) {
    return null;
  }

  // C divides by zero here (SIGFPE); a zero ratio is a failure.
  if (ratio === 0) {
    return null;
  }

  /* Check if cell->size is dividable by ratio */
  if (idiv(cell.size, ratio) * ratio !== cell.size) {
    return null;
  }

  const trimmedCell = celAllocCell(idiv(cell.size, ratio));
  if (trimmedCell === null) {
    return null;
  }

  const position = translateAtomsInTrimmedLattice(cell, trimmedLattice);

  matCopyMatrixD3(trimmedCell.lattice, trimmedLattice);
  /* aperiodic axis of trimmed_cell is directly copied from cell */
  trimmedCell.aperiodic_axis = cell.aperiodic_axis;

  const overlapTable = getOverlapTable(position, cell.size, cell.types, trimmedCell, symprec);
  if (overlapTable === null) {
    return null;
  }

  let indexAtom = 0;
  for (let i = 0; i < cell.size; i++) {
    if (overlapTable[i] === i) {
      mappingTable[i] = indexAtom;
      trimmedCell.types[indexAtom] = cell.types[i];
      indexAtom++;
    } else {
      mappingTable[i] = mappingTable[overlapTable[i]];
    }
  }

  setPositions(trimmedCell, position, mappingTable, overlapTable);

  return trimmedCell;
}

/** `set_positions_and_tensors` without tensors: positions of overlapped atoms are averaged. */
function setPositions(trimmedCell: Cell, position: VecDBL, mappingTable: number[], overlapTable: number[]): void {
  for (let i = 0; i < trimmedCell.size; i++) {
    for (let j = 0; j < 3; j++) {
      trimmedCell.position[i][j] = 0;
    }
  }

  /* Positions of overlapped atoms are averaged. */
  for (let i = 0; i < position.size; i++) {
    const j = mappingTable[i];
    const k = overlapTable[i];
    for (let l = 0; l < 3; l++) {
      /* boundary treatment */
      /* One is at right and one is at left or vice versa. */
      if (matDabs(position.vec[k][l] - position.vec[i][l]) > 0.5) {
        if (position.vec[i][l] < position.vec[k][l]) {
          trimmedCell.position[j][l] += position.vec[i][l] + 1;
        } else {
          trimmedCell.position[j][l] += position.vec[i][l] - 1;
        }
      } else {
        trimmedCell.position[j][l] += position.vec[i][l];
      }
    }
  }

  const multi = idiv(position.size, trimmedCell.size);
  for (let i = 0; i < trimmedCell.size; i++) {
    for (let j = 0; j < 3; j++) {
      trimmedCell.position[i][j] /= multi;
      if (j !== trimmedCell.aperiodic_axis) {
        trimmedCell.position[i][j] = matDmod1(trimmedCell.position[i][j]);
      }
    }
  }
}

function translateAtomsInTrimmedLattice(cell: Cell, trimmedLattice: Mat3): VecDBL {
  const tmpMatrix = zeroMat3();
  const axisInv = zeroMat3();
  const position = matAllocVecDBL(cell.size);

  matInverseMatrixD3(tmpMatrix, trimmedLattice, 0);
  matMultiplyMatrixD3(axisInv, tmpMatrix, cell.lattice);

  /* Send atoms into the trimmed cell */
  for (let i = 0; i < cell.size; i++) {
    matMultiplyMatrixVectorD3(position.vec[i], axisInv, cell.position[i]);
    for (let j = 0; j < 3; j++) {
      if (j !== cell.aperiodic_axis) {
        position.vec[i][j] = matDmod1(position.vec[i][j]);
      }
    }
  }

  return position;
}

/* Return null if failed */
function getOverlapTable(position: VecDBL, cellSize: number, cellTypes: number[], trimmedCell: Cell, symprec: number): number[] | null {
  let trimTolerance = symprec;
  const ratio = idiv(cellSize, trimmedCell.size);
  const overlapTable = new Array<number>(cellSize).fill(0);

  for (let attempt = 0; attempt < NUM_ATTEMPT; attempt++) {
    for (let i = 0; i < cellSize; i++) {
      overlapTable[i] = i;
      for (let j = 0; j < cellSize; j++) {
        if (cellTypes[i] === cellTypes[j]) {
          if (celIsOverlap(position.vec[i], position.vec[j], trimmedCell.lattice, trimTolerance)) {
            if (overlapTable[j] === j) {
              overlapTable[i] = j;
              break;
            }
          }
        }
      }
    }

    let retry = false;
    for (let i = 0; i < cellSize; i++) {
      if (overlapTable[i] !== i) {
        continue;
      }

      let numOverlap = 0;
      for (let j = 0; j < cellSize; j++) {
        if (i === overlapTable[j]) {
          numOverlap++;
        }
      }

      if (numOverlap === ratio) {
        continue;
      }

      if (numOverlap < ratio) {
        trimTolerance *= INCREASE_RATE;
        retry = true;
        break;
      }
      if (numOverlap > ratio) {
        trimTolerance *= REDUCE_RATE;
        retry = true;
        break;
      }
    }

    if (!retry) {
      return overlapTable;
    }
  }

  /* Could not trim cell well */
  return null;
}
