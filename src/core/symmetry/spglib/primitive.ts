/**
 * Port of spglib v2.0.2 src/primitive.c (github.com/spglib/spglib, BSD-3-Clause): the primitive cell from
 * the pure translations (tolerance reduced by 0.95 up to 20 times in `get_primitive` and in
 * `get_primitive_lattice_vectors`, where the pure translations are also re-checked at the reduced tolerance
 * with the angle tolerance), Delaunay-reduced, and the operations of a conventional cell carried to its
 * primitive cell. Left out: layer groups (`del_layer_delaunay_reduce` and the aperiodic_axis branches;
 * aperiodic_axis is always -1), frees, debug and warning prints. C's NULL is `null`.
 */
import { celAllocCell, celTrimCell } from './cell.ts';
import { delDelaunayReduce } from './delaunay.ts';
import {
  matAllocVecDBL,
  matCastMatrix3dTo3i,
  matCastMatrix3iTo3d,
  matCheckIdentityMatrixI3,
  matCopyMatrixD3,
  matCopyMatrixI3,
  matCopyVectorD3,
  matDabs,
  matDmod1,
  matGetDeterminantD3,
  matGetDeterminantI3,
  matInverseMatrixD3,
  matMultiplyMatrixD3,
  matMultiplyMatrixDi3,
  matMultiplyMatrixVectorD3,
  matNint,
  zeroMat3,
} from './mathfunc.ts';
import { symAllocSymmetry, symGetPureTranslation, symReducePureTranslation } from './symmetry.ts';
import type { Cell, Mat3, Primitive, Symmetry, Vec3, VecDBL } from './types.ts';

const REDUCE_RATE = 0.95;
const NUM_ATTEMPT = 20;

/** `prm_alloc_primitive`: no cell, mapping table of -1, tolerance 0, angle tolerance -1 (C's NULL orig_lattice is zeros). */
export function prmAllocPrimitive(size: number): Primitive {
  const mappingTable: number[] = [];
  for (let i = 0; i < size; i++) mappingTable.push(-1);
  return {
    cell: null,
    mapping_table: mappingTable,
    size,
    tolerance: 0,
    angle_tolerance: -1.0,
    orig_lattice: zeroMat3(),
  };
}

/** `prm_get_primitive`. Return null if failed. */
export function prmGetPrimitive(cell: Cell, symprec: number, angleTolerance: number): Primitive | null {
  return getPrimitive(cell, symprec, angleTolerance);
}

/** `prm_get_primitive_with_pure_trans`: primitive cell from given pure translations. If failed, return 0. */
export function prmGetPrimitiveWithPureTrans(
  primitive: Primitive,
  cell: Cell,
  pureTrans: VecDBL,
  symprec: number,
  angleTolerance: number,
): number {
  if (pureTrans.size === 1) {
    if ((primitive.cell = getCellWithSmallestLattice(cell, symprec)) === null) {
      return 0;
    }
    for (let i = 0; i < cell.size; i++) {
      primitive.mapping_table[i] = i;
    }
  } else {
    if ((primitive.cell = getPrimitiveCell(primitive.mapping_table, cell, pureTrans, symprec, angleTolerance)) === null) {
      return 0;
    }
  }

  primitive.tolerance = symprec;
  primitive.angle_tolerance = angleTolerance;
  primitive.orig_lattice = zeroMat3();
  matCopyMatrixD3(primitive.orig_lattice, cell.lattice);
  return 1;
}

/**
 * `prm_get_primitive_symmetry`: the operations of `symmetry` (of a cell with pure translations) carried to
 * its primitive cell. t_mat transforms primitive cell to conventional: (a_p, b_p, c_p) t_mat = (a_c, b_c, c_c).
 */
export function prmGetPrimitiveSymmetry(tMat: Mat3, symmetry: Symmetry, symprec: number): Symmetry | null {
  const tMatInv = zeroMat3();
  const tmpMat = zeroMat3();

  const pureTrans = collectPureTranslations(symmetry);
  const primsymSize = Math.trunc(symmetry.size / pureTrans.size);

  /* t_mat: T=(Lp^-1.L) where L is identity matrix. */
  if (getPrimitiveInTranslationSpace(tMatInv, pureTrans, symmetry.size, symprec) === 0) {
    return null;
  }

  if (!matInverseMatrixD3(tMat, tMatInv, symprec)) {
    return null;
  }

  /* Collect operations for primitive cell from operations in 'symmetry' */
  const primSymmetry = collectPrimitiveSymmetry(symmetry, primsymSize);
  if (primSymmetry === null) {
    return null;
  }

  /* Overwrite prim_symmetry by (T, 0) (R, t) (T, 0)^-1 = (T R T^-1, T t) */
  for (let i = 0; i < primSymmetry.size; i++) {
    matMultiplyMatrixDi3(tmpMat, tMat, primSymmetry.rot[i]);
    matMultiplyMatrixD3(tmpMat, tmpMat, tMatInv);
    matCastMatrix3dTo3i(primSymmetry.rot[i], tmpMat);
    matMultiplyMatrixVectorD3(primSymmetry.trans[i], tMat, primSymmetry.trans[i]);
  }
  return primSymmetry;
}

/** `prm_get_primitive_lattice_vectors`: the number of pure translations used, 0 if failed. */
export function prmGetPrimitiveLatticeVectors(
  primLattice: Mat3,
  cell: Cell,
  pureTrans: VecDBL,
  symprec: number,
  angleTolerance: number,
): number {
  return getPrimitiveLatticeVectors(primLattice, cell, pureTrans, symprec, angleTolerance);
}

/*=======*/
/* local */
/*=======*/

/** `get_primitive`. Return null if failed. */
function getPrimitive(cell: Cell, symprec: number, angleTolerance: number): Primitive | null {
  const primitive = prmAllocPrimitive(cell.size);

  let tolerance = symprec;
  for (let attempt = 0; attempt < NUM_ATTEMPT; attempt++) {
    const pureTrans = symGetPureTranslation(cell, tolerance);
    if (pureTrans !== null) {
      if (prmGetPrimitiveWithPureTrans(primitive, cell, pureTrans, tolerance, angleTolerance)) {
        return primitive;
      }
    }
    tolerance *= REDUCE_RATE;
  }
  return null;
}

/** `get_cell_with_smallest_lattice`: the cell on its Delaunay-reduced lattice. Return null if failed. */
function getCellWithSmallestLattice(cell: Cell, symprec: number): Cell | null {
  const minLat = zeroMat3();
  const transMat = zeroMat3();
  const invLat = zeroMat3();

  if (!delDelaunayReduce(minLat, cell.lattice, symprec)) {
    return null;
  }

  matInverseMatrixD3(invLat, minLat, 0);
  matMultiplyMatrixD3(transMat, invLat, cell.lattice);

  const smallestCell = celAllocCell(cell.size);
  if (smallestCell === null) {
    return null;
  }

  matCopyMatrixD3(smallestCell.lattice, minLat);
  for (let i = 0; i < cell.size; i++) {
    smallestCell.types[i] = cell.types[i];
    matMultiplyMatrixVectorD3(smallestCell.position[i], transMat, cell.position[i]);
    for (let j = 0; j < 3; j++) {
      smallestCell.position[i][j] = matDmod1(smallestCell.position[i][j]);
    }
  }
  return smallestCell;
}

/** `get_primitive_cell`. Return null if failed. */
function getPrimitiveCell(mappingTable: number[], cell: Cell, pureTrans: VecDBL, symprec: number, angleTolerance: number): Cell | null {
  const primLattice = zeroMat3();

  /* Primitive lattice vectors are searched. */
  /* To be consistent, sometimes tolerance is decreased iteratively. */
  const multi = getPrimitiveLatticeVectors(primLattice, cell, pureTrans, symprec, angleTolerance);
  if (!multi) {
    return null;
  }

  /* Fit atoms into new primitive cell */
  return celTrimCell(mappingTable, primLattice, cell, symprec);
}

/** `get_primitive_lattice_vectors`. Return 0 if failed. */
function getPrimitiveLatticeVectors(primLattice: Mat3, cell: Cell, pureTrans: VecDBL, symprec: number, angleTolerance: number): number {
  let tolerance = symprec;

  let pureTransReduced: VecDBL | null = matAllocVecDBL(pureTrans.size);
  for (let i = 0; i < pureTrans.size; i++) {
    matCopyVectorD3(pureTransReduced.vec[i], pureTrans.vec[i]);
  }

  for (let attempt = 0; attempt < NUM_ATTEMPT; attempt++) {
    const multi = pureTransReduced.size;

    const vectors = getTranslationCandidates(pureTransReduced);

    /* Lattice of primitive cell is found among pure translation vectors */
    if (findPrimitiveLatticeVectors(primLattice, vectors, cell, tolerance)) {
      if (!delDelaunayReduce(primLattice, primLattice, symprec)) {
        return 0;
      }
      return multi;
    } else {
      const tmpVec = matAllocVecDBL(multi);
      for (let i = 0; i < multi; i++) {
        matCopyVectorD3(tmpVec.vec[i], pureTransReduced.vec[i]);
      }

      pureTransReduced = symReducePureTranslation(cell, tmpVec, tolerance, angleTolerance);
      if (pureTransReduced === null) {
        return 0;
      }

      tolerance *= REDUCE_RATE;
    }
  }
  return 0;
}

/** `find_primitive_lattice_vectors`: the first three candidates spanning the primitive volume. Return 0 if failed. */
function findPrimitiveLatticeVectors(primLattice: Mat3, vectors: VecDBL, cell: Cell, symprec: number): number {
  const relativeLattice = zeroMat3();
  const minVectors = zeroMat3();
  const tmpLattice = zeroMat3();
  const invMatDbl = zeroMat3();
  const invMatInt = zeroMat3();

  const size = vectors.size;
  const initialVolume = matDabs(matGetDeterminantD3(cell.lattice));

  /* check volumes of all possible lattices, find smallest volume */
  let found = false;
  search: for (let i = 0; i < size; i++) {
    for (let j = i + 1; j < size; j++) {
      for (let k = j + 1; k < size; k++) {
        matMultiplyMatrixVectorD3(tmpLattice[0], cell.lattice, vectors.vec[i]);
        matMultiplyMatrixVectorD3(tmpLattice[1], cell.lattice, vectors.vec[j]);
        matMultiplyMatrixVectorD3(tmpLattice[2], cell.lattice, vectors.vec[k]);
        const volume = matDabs(matGetDeterminantD3(tmpLattice));
        if (volume > symprec) {
          if (matNint(initialVolume / volume) === size - 2) {
            matCopyVectorD3(minVectors[0], vectors.vec[i]);
            matCopyVectorD3(minVectors[1], vectors.vec[j]);
            matCopyVectorD3(minVectors[2], vectors.vec[k]);
            found = true;
            break search;
          }
        }
      }
    }
  }

  if (!found) {
    return 0;
  }

  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      relativeLattice[j][i] = minVectors[i][j];
    }
  }

  matInverseMatrixD3(invMatDbl, relativeLattice, 0);
  matCastMatrix3dTo3i(invMatInt, invMatDbl);
  if (Math.abs(matGetDeterminantI3(invMatInt)) === size - 2) {
    matCastMatrix3iTo3d(invMatDbl, invMatInt);
    matInverseMatrixD3(relativeLattice, invMatDbl, 0);
  }
  // else: "Primitive lattice cleaning is incomplete" (a warning only).
  matMultiplyMatrixD3(primLattice, cell.lattice, relativeLattice);
  return 1;
}

/** `get_translation_candidates`: the pure translations but the first (zero), then the three unit vectors. */
function getTranslationCandidates(pureTrans: VecDBL): VecDBL {
  const multi = pureTrans.size;
  const vectors = matAllocVecDBL(multi + 2);

  /* store pure translations in original cell as trial primitive lattice vectors */
  for (let i = 0; i < multi - 1; i++) {
    matCopyVectorD3(vectors.vec[i], pureTrans.vec[i + 1]);
  }

  /* store lattice translations of original cell as trial primitive lattice vectors */
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      if (i === j) {
        vectors.vec[i + multi - 1][j] = 1;
      } else {
        vectors.vec[i + multi - 1][j] = 0;
      }
    }
  }
  return vectors;
}

/** `collect_pure_translations`: translations of the identity operations, in order. */
function collectPureTranslations(symmetry: Symmetry): VecDBL {
  const identity: Mat3 = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  const found: Vec3[] = [];
  for (let i = 0; i < symmetry.size; i++) {
    if (matCheckIdentityMatrixI3(symmetry.rot[i], identity)) {
      found.push(symmetry.trans[i]);
    }
  }

  const retPureTrans = matAllocVecDBL(found.length);
  for (let i = 0; i < found.length; i++) {
    matCopyVectorD3(retPureTrans.vec[i], found[i]);
  }
  return retPureTrans;
}

/** `get_primitive_in_translation_space`: t_mat_inv, the primitive lattice of the pure translations in the unit cube. */
function getPrimitiveInTranslationSpace(tMatInv: Mat3, pureTrans: VecDBL, symmetrySize: number, symprec: number): number {
  const cell = celAllocCell(pureTrans.size);
  if (cell === null) {
    return 0;
  }

  const primsymSize = Math.trunc(symmetrySize / pureTrans.size);
  if (symmetrySize !== primsymSize * pureTrans.size) {
    return 0;
  }

  for (let i = 0; i < pureTrans.size; i++) {
    cell.types[i] = 1;
    for (let j = 0; j < 3; j++) {
      cell.position[i][j] = pureTrans.vec[i][j];
    }
  }

  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      if (i === j) {
        cell.lattice[i][j] = 1;
      } else {
        cell.lattice[i][j] = 0;
      }
    }
  }

  const primitive = getPrimitive(cell, symprec, -1.0);
  // C dereferences the result without a NULL check.
  if (primitive === null || primitive.cell === null || primitive.cell.size !== 1) {
    return 0;
  }

  matCopyMatrixD3(tMatInv, primitive.cell.lattice);
  return 1;
}

/** `collect_primitive_symmetry`: the first operation of each distinct rotation. */
function collectPrimitiveSymmetry(symmetry: Symmetry, primsymSize: number): Symmetry | null {
  if (primsymSize < 1 || symmetry.size < 1) {
    return null; // C: sym_alloc_symmetry(0) is NULL (then dereferenced)
  }
  const primSymmetry = symAllocSymmetry(primsymSize);
  let numPsym = 1;
  matCopyMatrixI3(primSymmetry.rot[0], symmetry.rot[0]);
  matCopyVectorD3(primSymmetry.trans[0], symmetry.trans[0]);
  for (let i = 1; i < symmetry.size; i++) {
    let isFound = 1;
    for (let j = 0; j < numPsym; j++) {
      if (matCheckIdentityMatrixI3(primSymmetry.rot[j], symmetry.rot[i])) {
        isFound = 0;
        break;
      }
    }
    if (isFound) {
      if (numPsym === primsymSize) {
        return null;
      }
      matCopyMatrixI3(primSymmetry.rot[numPsym], symmetry.rot[i]);
      matCopyVectorD3(primSymmetry.trans[numPsym], symmetry.trans[i]);
      numPsym++;
    }
  }

  if (numPsym !== primsymSize) {
    return null;
  }
  return primSymmetry;
}
