/**
 * Port of spglib v2.0.2 src/symmetry.c (github.com/spglib/spglib, BSD-3-Clause): the lattice point symmetry
 * (`get_lattice_symmetry` over the 26 candidate axes, with the angle-tolerance test when angle_tolerance > 0
 * and the length-only test otherwise), the translations of each rotation searched through the overlap
 * checker from the atom of the rarest type, the pure translations, and the reduction of operations at a
 * smaller tolerance. Left out: layer groups (`*_layer_*` and the aperiodic_axis branches; aperiodic_axis is
 * always -1), magnetic symmetry (`sym_alloc_magnetic_symmetry`), frees, debug and warning prints.
 * `symAllocSymmetry` always returns an object (README convention); where C relies on
 * `sym_alloc_symmetry(0)` returning NULL, the callers below return null for a size < 1.
 */
import { acos } from '../../math/libm.ts';
import { celIsOverlapWithSameType } from './cell.ts';
import { delDelaunayReduce } from './delaunay.ts';
import {
  matAllocMatINT,
  matAllocVecDBL,
  matCastMatrix3dTo3i,
  matCastMatrix3iTo3d,
  matCheckIdentityMatrixI3,
  matCopyMatrixI3,
  matCopyVectorD3,
  matDabs,
  matDmod1,
  matGetDeterminantD3,
  matGetDeterminantI3,
  matGetMetric,
  matGetSimilarMatrixD3,
  matInverseMatrixD3,
  matIsIntMatrix,
  matMultiplyMatrixD3,
  matMultiplyMatrixDi3,
  matMultiplyMatrixVectorId3,
  zeroMat3,
} from './mathfunc.ts';
import { ovlCheckTotalOverlap, ovlOverlapCheckerInit } from './overlap.ts';
import type { Cell, Mat3, PointSymmetry, Symmetry, Vec3, VecDBL } from './types.ts';

const ANGLE_REDUCE_RATE = 0.95;
const SIN_DTHETA2_CUTOFF = 1e-12;
const NUM_ATTEMPT = 100;
const PI = 3.141592653589793; // C: 3.14159265358979323846 (the same double)

const relative_axes: number[][] = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
  [-1, 0, 0],
  [0, -1, 0] /* 5 */,
  [0, 0, -1],
  [0, 1, 1],
  [1, 0, 1],
  [1, 1, 0],
  [0, -1, -1] /* 10 */,
  [-1, 0, -1],
  [-1, -1, 0],
  [0, 1, -1],
  [-1, 0, 1],
  [1, -1, 0] /* 15 */,
  [0, -1, 1],
  [1, 0, -1],
  [-1, 1, 0],
  [1, 1, 1],
  [-1, -1, -1] /* 20 */,
  [-1, 1, 1],
  [1, -1, 1],
  [1, 1, -1],
  [1, -1, -1],
  [-1, 1, -1] /* 25 */,
  [-1, -1, 1],
];

const identity: Mat3 = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

/** `PointSymmetry` of C: 48 rotation slots and a size. */
function newPointSymmetry(): PointSymmetry {
  const rot: Mat3[] = [];
  for (let i = 0; i < 48; i++) rot.push(zeroMat3());
  return { rot, size: 0 };
}

/** `sym_alloc_symmetry`: `size` zero rotations and translations (C returns NULL for size < 1). */
export function symAllocSymmetry(size: number): Symmetry {
  const rot: Mat3[] = [];
  const trans: Vec3[] = [];
  for (let i = 0; i < size; i++) {
    rot.push(zeroMat3());
    trans.push([0, 0, 0]);
  }
  return { size, rot, trans };
}

/** `sym_get_operation`. Return null if failed. */
export function symGetOperation(primitive: Cell, symprec: number, angleTolerance: number): Symmetry | null {
  return getOperations(primitive, symprec, angleTolerance);
}

/** `sym_reduce_operation`. Return null if failed. */
export function symReduceOperation(primitive: Cell, symmetry: Symmetry, symprec: number, angleTolerance: number): Symmetry | null {
  return reduceOperation(primitive, symmetry, symprec, angleTolerance, 0);
}

/** `sym_get_pure_translation`. Return null if failed. */
export function symGetPureTranslation(cell: Cell, symprec: number): VecDBL | null {
  const pureTrans = getTranslation(identity, cell, symprec, 1);
  if (pureTrans === null) {
    return null;
  }
  // C only warns when cell->size is not a multiple of the number of pure translations.
  return pureTrans;
}

/** `sym_reduce_pure_translation`. Return null if failed. */
export function symReducePureTranslation(cell: Cell, pureTrans: VecDBL, symprec: number, angleTolerance: number): VecDBL | null {
  let multi = pureTrans.size;
  if (multi < 1) {
    return null; // sym_alloc_symmetry(0) is NULL
  }
  const symmetry = symAllocSymmetry(multi);
  for (let i = 0; i < multi; i++) {
    matCopyMatrixI3(symmetry.rot[i], identity);
    matCopyVectorD3(symmetry.trans[i], pureTrans.vec[i]);
  }

  const symmetryReduced = reduceOperation(cell, symmetry, symprec, angleTolerance, 1);
  if (symmetryReduced === null) {
    return null;
  }

  multi = symmetryReduced.size;
  const pureTransReduced = matAllocVecDBL(multi);
  for (let i = 0; i < multi; i++) {
    matCopyVectorD3(pureTransReduced.vec[i], symmetryReduced.trans[i]);
  }
  return pureTransReduced;
}

/* 1) Point-group operations of the primitive cell are obtained from its lattice. */
/* 2) Space-group operations are searched for the primitive cell using them. */
function getOperations(primitive: Cell, symprec: number, angleSymprec: number): Symmetry | null {
  const latticeSym = getLatticeSymmetry(primitive, symprec, angleSymprec);
  if (latticeSym.size === 0) {
    return null;
  }
  return getSpaceGroupOperations(latticeSym, primitive, symprec);
}

/** `reduce_operation`. Return null if failed. */
function reduceOperation(primitive: Cell, symmetry: Symmetry, symprec: number, angleSymprec: number, isPureTrans: number): Symmetry | null {
  let pointSymmetry: PointSymmetry;
  if (isPureTrans) {
    pointSymmetry = newPointSymmetry();
    pointSymmetry.size = 1;
    matCopyMatrixI3(pointSymmetry.rot[0], identity);
  } else {
    pointSymmetry = getLatticeSymmetry(primitive, symprec, angleSymprec);
    if (pointSymmetry.size === 0) {
      return null;
    }
  }

  const rot = matAllocMatINT(symmetry.size);
  const trans = matAllocVecDBL(symmetry.size);

  let numSym = 0;
  for (let i = 0; i < pointSymmetry.size; i++) {
    for (let j = 0; j < symmetry.size; j++) {
      if (matCheckIdentityMatrixI3(pointSymmetry.rot[i], symmetry.rot[j])) {
        // is_overlap_all_atoms returns -1 on error, which C counts as true here.
        if (isOverlapAllAtoms(symmetry.trans[j], symmetry.rot[j], primitive, symprec, 0)) {
          matCopyMatrixI3(rot.mat[numSym], symmetry.rot[j]);
          matCopyVectorD3(trans.vec[numSym], symmetry.trans[j]);
          numSym++;
        }
      }
    }
  }

  if (numSym < 1) {
    return null; // sym_alloc_symmetry(0) is NULL
  }
  const symReduced = symAllocSymmetry(numSym);
  for (let i = 0; i < numSym; i++) {
    matCopyMatrixI3(symReduced.rot[i], rot.mat[i]);
    matCopyVectorD3(symReduced.trans[i], trans.vec[i]);
  }
  return symReduced;
}

/** `get_translation`: the translations that make (rot, t) a symmetry of `cell`. Return null if failed. */
function getTranslation(rot: Mat3, cell: Cell, symprec: number, isIdentity: number): VecDBL | null {
  const isFound: number[] = new Array<number>(cell.size).fill(0);
  const origin: Vec3 = [0, 0, 0];

  /* Look for the atom index with least number of atoms within same type */
  const minAtomIndex = getIndexWithLeastAtoms(cell);
  if (minAtomIndex === -1) {
    return null;
  }

  /* Set min_atom_index as the origin to measure the distance between atoms. */
  matMultiplyMatrixVectorId3(origin, rot, cell.position[minAtomIndex]);

  const numTrans = searchTranslationPart(isFound, cell, rot, minAtomIndex, origin, symprec, isIdentity);
  if (numTrans === -1 || numTrans === 0) {
    return null;
  }

  const trans = matAllocVecDBL(numTrans);
  let k = 0;
  for (let i = 0; i < cell.size; i++) {
    if (isFound[i]) {
      for (let j = 0; j < 3; j++) {
        trans.vec[k][j] = cell.position[i][j] - origin[j];
        trans.vec[k][j] = matDmod1(trans.vec[k][j]);
      }
      k++;
    }
  }
  return trans;
}

/** `search_translation_part`. Returns -1 on failure. */
function searchTranslationPart(
  atomsFound: number[],
  cell: Cell,
  rot: Mat3,
  minAtomIndex: number,
  origin: Vec3,
  symprec: number,
  isIdentity: number,
): number {
  const trans: Vec3 = [0, 0, 0];
  const checker = ovlOverlapCheckerInit(cell);
  if (checker === null) {
    return -1;
  }

  let numTrans = 0;
  for (let i = 0; i < cell.size; i++) {
    if (atomsFound[i]) {
      continue;
    }
    if (cell.types[i] !== cell.types[minAtomIndex]) {
      continue;
    }
    for (let j = 0; j < 3; j++) {
      trans[j] = cell.position[i][j] - origin[j];
    }
    const isOverlap = ovlCheckTotalOverlap(checker, trans, rot, symprec, isIdentity);
    if (isOverlap === -1) {
      return -1;
    } else if (isOverlap) {
      atomsFound[i] = 1;
      numTrans++;
      if (isIdentity) {
        numTrans += searchPureTranslations(atomsFound, cell, trans, symprec);
      }
    }
  }
  return numTrans;
}

/** `search_pure_translations`: follows chains atom → atom + trans to mark further lattice translations. */
function searchPureTranslations(atomsFound: number[], cell: Cell, trans: Vec3, symprec: number): number {
  const vec: Vec3 = [0, 0, 0];
  let numTrans = 0;
  const copyAtomsFound = atomsFound.slice(0, cell.size);

  for (let initialAtom = 0; initialAtom < cell.size; initialAtom++) {
    if (!copyAtomsFound[initialAtom]) {
      continue;
    }
    let iAtom = initialAtom;
    for (let i = 0; i < cell.size; i++) {
      for (let j = 0; j < 3; j++) {
        vec[j] = cell.position[iAtom][j] + trans[j];
      }
      for (let j = 0; j < cell.size; j++) {
        if (celIsOverlapWithSameType(vec, cell.position[j], cell.types[iAtom], cell.types[j], cell.lattice, symprec)) {
          if (!atomsFound[j]) {
            atomsFound[j] = 1;
            numTrans++;
          }
          iAtom = j;
          break;
        }
      }
      if (iAtom === initialAtom) {
        break;
      }
    }
  }
  return numTrans;
}

/** `is_overlap_all_atoms`. -1: error, 0: not a symmetry, 1: a symmetry. */
function isOverlapAllAtoms(trans: Vec3, rot: Mat3, cell: Cell, symprec: number, isIdentity: number): number {
  const checker = ovlOverlapCheckerInit(cell);
  if (checker === null) {
    return -1;
  }
  return ovlCheckTotalOverlap(checker, trans, rot, symprec, isIdentity);
}

/** `get_index_with_least_atoms`: first atom of the type with the fewest atoms (lowest index on ties). */
function getIndexWithLeastAtoms(cell: Cell): number {
  const mapping: number[] = new Array<number>(cell.size).fill(0);
  for (let i = 0; i < cell.size; i++) {
    for (let j = 0; j < cell.size; j++) {
      if (cell.types[i] === cell.types[j]) {
        mapping[j]++;
        break;
      }
    }
  }

  let min = mapping[0];
  let minIndex = 0;
  for (let i = 0; i < cell.size; i++) {
    if (min > mapping[i] && mapping[i] > 0) {
      min = mapping[i];
      minIndex = i;
    }
  }
  return minIndex;
}

/** `get_space_group_operations`. Return null if failed. */
function getSpaceGroupOperations(latticeSym: PointSymmetry, primitive: Cell, symprec: number): Symmetry | null {
  const trans: (VecDBL | null)[] = new Array<VecDBL | null>(latticeSym.size).fill(null);

  let totalNumSym = 0;
  for (let i = 0; i < latticeSym.size; i++) {
    const t = getTranslation(latticeSym.rot[i], primitive, symprec, 0);
    trans[i] = t;
    if (t !== null) {
      totalNumSym += t.size;
    }
  }

  if (totalNumSym < 1) {
    return null; // sym_alloc_symmetry(0) is NULL
  }
  const symmetry = symAllocSymmetry(totalNumSym);

  let numSym = 0;
  for (let i = 0; i < latticeSym.size; i++) {
    const t = trans[i];
    if (t === null) {
      continue;
    }
    for (let j = 0; j < t.size; j++) {
      matCopyVectorD3(symmetry.trans[numSym + j], t.vec[j]);
      matCopyMatrixI3(symmetry.rot[numSym + j], latticeSym.rot[i]);
    }
    numSym += t.size;
  }
  return symmetry;
}

/** `get_lattice_symmetry`: lattice_sym.size = 0 is returned if failed. */
function getLatticeSymmetry(cell: Cell, symprec: number, angleSymprec: number): PointSymmetry {
  const axes = zeroMat3();
  const lattice = zeroMat3();
  const minLattice = zeroMat3();
  const metric = zeroMat3();
  const metricOrig = zeroMat3();
  const latticeSym = newPointSymmetry();

  if (!delDelaunayReduce(minLattice, cell.lattice, symprec)) {
    return latticeSym;
  }

  matGetMetric(metricOrig, minLattice);
  let angleTol = angleSymprec;

  attempts: for (let attempt = 0; attempt < NUM_ATTEMPT; attempt++) {
    let numSym = 0;
    for (let i = 0; i < 26; i++) {
      for (let j = 0; j < 26; j++) {
        for (let k = 0; k < 26; k++) {
          setAxes(axes, i, j, k);
          if (!(matGetDeterminantI3(axes) === 1 || matGetDeterminantI3(axes) === -1)) {
            continue;
          }
          matMultiplyMatrixDi3(lattice, minLattice, axes);
          matGetMetric(metric, lattice);

          if (isIdentityMetric(metric, metricOrig, symprec, angleTol)) {
            if (numSym > 47) {
              // Too many lattice symmetries were found.
              if (angleTol > 0) {
                angleTol *= ANGLE_REDUCE_RATE;
              }
              continue attempts; // goto next_attempt
            }
            matCopyMatrixI3(latticeSym.rot[numSym], axes);
            numSym++;
          }
        }
      }
    }

    if (numSym < 49 || angleTol < 0) {
      latticeSym.size = numSym;
      return transformPointsymmetry(latticeSym, cell.lattice, minLattice);
    }
  }

  latticeSym.size = 0;
  return latticeSym;
}

/** `is_identity_metric`: whether the rotated metric equals the original within the tolerances. */
function isIdentityMetric(metricRotated: Mat3, metricOrig: Mat3, symprec: number, angleSymprec: number): number {
  const elemSets = [
    [0, 1],
    [0, 2],
    [1, 2],
  ];
  const lengthOrig: Vec3 = [0, 0, 0];
  const lengthRot: Vec3 = [0, 0, 0];

  for (let i = 0; i < 3; i++) {
    lengthOrig[i] = Math.sqrt(metricOrig[i][i]);
    lengthRot[i] = Math.sqrt(metricRotated[i][i]);
    if (matDabs(lengthOrig[i] - lengthRot[i]) > symprec) {
      return 0;
    }
  }

  for (let i = 0; i < 3; i++) {
    const j = elemSets[i][0];
    const k = elemSets[i][1];
    if (angleSymprec > 0) {
      if (matDabs(getAngle(metricOrig, j, k) - getAngle(metricRotated, j, k)) > angleSymprec) {
        return 0;
      }
    } else {
      /* dtheta = arccos(c1) - arccos(c2) = arccos(c1c2 + sqrt((1-c1^2)(1-c2^2))) */
      /* sin(dtheta) = sin(arccos(x)) = sqrt(1 - x^2) */
      const cos1 = metricOrig[j][k] / lengthOrig[j] / lengthOrig[k];
      const cos2 = metricRotated[j][k] / lengthRot[j] / lengthRot[k];
      const x = cos1 * cos2 + Math.sqrt(1 - cos1 * cos1) * Math.sqrt(1 - cos2 * cos2);
      const sinDtheta2 = 1 - x * x;
      const lengthAve2 = ((lengthOrig[j] + lengthRot[j]) * (lengthOrig[k] + lengthRot[k])) / 4;
      if (sinDtheta2 > SIN_DTHETA2_CUTOFF) {
        if (sinDtheta2 * lengthAve2 > symprec * symprec) {
          return 0;
        }
      }
    }
  }
  return 1;
}

/** `get_angle`: the angle between basis vectors i and j in degrees. */
function getAngle(metric: Mat3, i: number, j: number): number {
  const lengthI = Math.sqrt(metric[i][i]);
  const lengthJ = Math.sqrt(metric[j][j]);
  return (acos(metric[i][j] / lengthI / lengthJ) / PI) * 180;
}

/** `transform_pointsymmetry`: rotations in the basis of `originalLattice` re-expressed in that of `newLattice`. */
function transformPointsymmetry(latSymOrig: PointSymmetry, newLattice: Mat3, originalLattice: Mat3): PointSymmetry {
  const transMat = zeroMat3();
  const invMat = zeroMat3();
  const drot = zeroMat3();
  const latSymNew = newPointSymmetry();

  matInverseMatrixD3(invMat, originalLattice, 0);
  matMultiplyMatrixD3(transMat, invMat, newLattice);

  let size = 0;
  for (let i = 0; i < latSymOrig.size; i++) {
    matCastMatrix3iTo3d(drot, latSymOrig.rot[i]);
    matGetSimilarMatrixD3(drot, drot, transMat, 0);

    /* new_lattice may have lower point symmetry than original_lattice. */
    /* The operations that have non-integer elements are not counted. */
    if (matIsIntMatrix(drot, matDabs(matGetDeterminantD3(transMat)) / 10)) {
      matCastMatrix3dTo3i(latSymNew.rot[size], drot);
      if (Math.abs(matGetDeterminantI3(latSymNew.rot[size])) !== 1) {
        // A point symmetry operation is not unimodular.
        latSymNew.size = 0;
        return latSymNew;
      }
      size++;
    }
  }

  latSymNew.size = size;
  return latSymNew;
}

/** `set_axes`: columns of `axes` are relative_axes[a1], [a2], [a3]. */
function setAxes(axes: Mat3, a1: number, a2: number, a3: number): void {
  for (let i = 0; i < 3; i++) {
    axes[i][0] = relative_axes[a1][i];
  }
  for (let i = 0; i < 3; i++) {
    axes[i][1] = relative_axes[a2][i];
  }
  for (let i = 0; i < 3; i++) {
    axes[i][2] = relative_axes[a3][i];
  }
}
