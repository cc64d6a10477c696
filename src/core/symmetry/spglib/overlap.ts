/**
 * Port of spglib v2.0.2 src/overlap.c (github.com/spglib/spglib, BSD-3-Clause), 3D only (no
 * `ovl_check_layer_total_overlap`). C packs the checker's work areas into one malloc'd blob; here they are
 * plain arrays allocated once per checker and reused by every check, with the same algorithm: a brute-force
 * look at the first three sorted atoms, then an argsort of the moved atoms by (type, squared distance to the
 * nearest lattice point) and a greedy sweep that matches sorted originals to sorted images.
 *
 * C sorts with qsort, which glibc implements as a stable merge sort for arrays of this size; JavaScript's
 * Array.prototype.sort is stable too, so ties (same type, same distance) keep their index order in both.
 * The -1 (allocation failure) results of C cannot happen here; `ovl_overlap_checker_free` has no counterpart.
 */
import { matCopyMatrixD3, matMultiplyMatrixVectorD3, matMultiplyMatrixVectorId3, matNint, matNormSquaredD3 } from './mathfunc.ts';
import type { Cell, Mat3, Vec3 } from './types.ts';
import { LIMITS, LimitError, limitSentence } from '../../limits.ts';

/**
 * Atoms looked at by the overlap checks of one space-group search (each check is charged the cell's size), held to
 * LIMITS.symmetryWork. spglib tries every translation between atoms of the cell's rarest kind, each costing a pass
 * over the cell, so a large cell without symmetry (an amorphous frame) costs n²: 20,000 random sites take 32 s in
 * spglib's C and longer here. The count, not the clock, decides.
 */
let workSpent = 0;

/** Opens a new account (at the start of each dataset or standardization). */
export function ovlResetWork(): void {
  workSpent = 0;
}

function spendWork(units: number): void {
  workSpent += units;
  if (workSpent > LIMITS.symmetryWork) {
    throw new LimitError(
      'symmetryWork',
      limitSentence(
        "the space-group search of this cell (spglib's test of every translation between atoms of its rarest kind)",
        null,
        LIMITS.symmetryWork,
        'atom visits',
        'symmetryWork',
      ),
    );
  }
}

/** Helper type used to get sorted indices of values. */
interface ValueWithIndex {
  value: number;
  type: number;
  index: number;
}

/** overlap.h `OverlapChecker`. */
export interface OverlapChecker {
  /** Number of atoms. */
  size: number;
  argsortWork: ValueWithIndex[];
  /** Temp areas for writing stuff. */
  posTemp1: Vec3[];
  posTemp2: Vec3[];
  /** Temp area for lattice point distances. */
  distanceTemp: Float64Array;
  /** Temp area for permutations during sort. */
  permTemp: Int32Array;
  /** Sorted data of the original cell. */
  lattice: Mat3;
  posSorted: Vec3[];
  typesSorted: number[];
}

function cartesianNorm(lat: Mat3, v: Vec3): number {
  const t0 = lat[0][0] * v[0] + lat[0][1] * v[1] + lat[0][2] * v[2];
  const t1 = lat[1][0] * v[0] + lat[1][1] * v[1] + lat[1][2] * v[2];
  const t2 = lat[2][0] * v[0] + lat[2][1] * v[1] + lat[2][2] * v[2];
  return Math.sqrt(t0 * t0 + t1 * t1 + t2 * t2);
}

const vDiffScratch = [0, 0, 0];

/** Note `<=` (cel_is_overlap uses `<`). */
function hasOverlap(a: Vec3, b: Vec3, lattice: Mat3, symprec: number): number {
  const vDiff = vDiffScratch;
  vDiff[0] = a[0] - b[0];
  vDiff[2] = a[2] - b[2];
  vDiff[1] = a[1] - b[1];

  vDiff[0] -= matNint(vDiff[0]);
  vDiff[1] -= matNint(vDiff[1]);
  vDiff[2] -= matNint(vDiff[2]);

  if (cartesianNorm(lattice, vDiff) <= symprec) {
    return 1;
  } else {
    return 0;
  }
}

function hasOverlapWithSameType(a: Vec3, b: Vec3, typeA: number, typeB: number, lattice: Mat3, symprec: number): number {
  if (typeA === typeB) {
    return hasOverlap(a, b, lattice, symprec);
  } else {
    return 0;
  }
}

function vec3Array(n: number): Vec3[] {
  const out: Vec3[] = [];
  for (let i = 0; i < n; i++) out.push([0, 0, 0]);
  return out;
}

function overlapCheckerAlloc(size: number): OverlapChecker {
  const argsortWork: ValueWithIndex[] = [];
  for (let i = 0; i < size; i++) argsortWork.push({ value: 0, type: 0, index: 0 });
  return {
    size,
    argsortWork,
    posTemp1: vec3Array(size),
    posTemp2: vec3Array(size),
    distanceTemp: new Float64Array(size),
    permTemp: new Int32Array(size),
    lattice: [
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ],
    posSorted: vec3Array(size),
    typesSorted: new Array<number>(size).fill(0),
  };
}

/** Sorts the cell's atoms by (type, squared distance to the nearest lattice point) and keeps that copy. */
export function ovlOverlapCheckerInit(cell: Cell): OverlapChecker {
  const checker = overlapCheckerAlloc(cell.size);

  matCopyMatrixD3(checker.lattice, cell.lattice);

  /* Get the permutation that sorts the original cell. */
  argsortByLatticePointDistance(
    checker.permTemp,
    cell.lattice,
    cell.position,
    cell.types,
    checker.distanceTemp,
    checker.argsortWork,
    checker.size,
  );

  /* Use the perm to sort the cell. */
  /* The sorted cell is saved for as long as the OverlapChecker lives. */
  permuteDouble3(checker.posSorted, cell.position, checker.permTemp, cell.size);
  permuteInt(checker.typesSorted, cell.types, checker.permTemp, cell.size);

  return checker;
}

/**
 * Whether x → rot·x + testTrans maps the checker's cell onto itself within symprec: 0 not a symmetry,
 * 1 a symmetry. With isIdentity, rot is skipped when moving all atoms (the first brute-force look still uses it).
 */
export function ovlCheckTotalOverlap(
  checker: OverlapChecker,
  testTrans: Vec3,
  rot: Mat3,
  symprec: number,
  isIdentity: number | boolean,
): number {
  spendWork(checker.size);
  /* Check a few atoms by brute force before continuing. */
  /* For bad translations, this can be much cheaper than sorting. */
  if (!checkPossibleOverlap(checker, testTrans, rot, symprec)) {
    return 0;
  }

  /* Write rotated positions to 'pos_temp_1' */
  for (let i = 0; i < checker.size; i++) {
    if (isIdentity) {
      for (let k = 0; k < 3; k++) {
        checker.posTemp1[i][k] = checker.posSorted[i][k];
      }
    } else {
      matMultiplyMatrixVectorId3(checker.posTemp1[i], rot, checker.posSorted[i]);
    }

    for (let k = 0; k < 3; k++) {
      checker.posTemp1[i][k] += testTrans[k];
    }
  }

  /* Get permutation that sorts these positions. */
  argsortByLatticePointDistance(
    checker.permTemp,
    checker.lattice,
    checker.posTemp1,
    checker.typesSorted,
    checker.distanceTemp,
    checker.argsortWork,
    checker.size,
  );

  /* Use the permutation to sort them. Write to 'pos_temp_2'. */
  permuteDouble3(checker.posTemp2, checker.posTemp1, checker.permTemp, checker.size);

  /* Do optimized check for overlap between sorted coordinates. */
  return checkTotalOverlapForSorted(
    checker.lattice,
    checker.posSorted /* pos_original */,
    checker.posTemp2 /* pos_rotated */,
    checker.typesSorted /* types_original */,
    checker.typesSorted /* types_original */,
    checker.size,
    symprec,
  );
}

/** Order by atom type, then by value (C's `(b < a) - (a < b)`). */
function valueWithIndexComparator(a: ValueWithIndex, b: ValueWithIndex): number {
  let cmp = Number(b.type < a.type) - Number(a.type < b.type);
  if (!cmp) {
    cmp = Number(b.value < a.value) - Number(a.value < b.value);
  }
  return cmp;
}

/** A permutation that sorts values first by atom type, then by value (stable, as glibc's qsort). */
function permArgsort(perm: Int32Array, types: number[], values: Float64Array, work: ValueWithIndex[], n: number): void {
  /* Make array of all data for each value. */
  for (let i = 0; i < n; i++) {
    work[i].value = values[i];
    work[i].index = i;
    work[i].type = types[i];
  }

  /* Sort by type and value. */
  work.sort(valueWithIndexComparator);

  /* Retrieve indices.  This is the permutation. */
  for (let i = 0; i < n; i++) {
    perm[i] = work[i].index;
  }
}

/* data_out and data_in MUST NOT ALIAS. */
function permuteInt(dataOut: number[], dataIn: number[], perm: Int32Array, n: number): void {
  for (let i = 0; i < n; i++) dataOut[i] = dataIn[perm[i]];
}

/* data_out and data_in MUST NOT ALIAS (values are copied, not the row arrays). */
function permuteDouble3(dataOut: Vec3[], dataIn: Vec3[], perm: Int32Array, n: number): void {
  for (let i = 0; i < n; i++) {
    const read = dataIn[perm[i]];
    const write = dataOut[i];
    write[0] = read[0];
    write[1] = read[1];
    write[2] = read[2];
  }
}

const diffScratch = [0, 0, 0];

function argsortByLatticePointDistance(
  perm: Int32Array,
  lattice: Mat3,
  positions: Vec3[],
  types: number[],
  distanceTemp: Float64Array,
  argsortWork: ValueWithIndex[],
  size: number,
): void {
  const diff = diffScratch;

  /* Fill distance_temp with distances. */
  for (let i = 0; i < size; i++) {
    /* Fractional vector to nearest lattice point. */
    for (let k = 0; k < 3; k++) {
      const x = positions[i][k];
      diff[k] = x - matNint(x);
    }

    /* Squared distance to lattice point. */
    matMultiplyMatrixVectorD3(diff, lattice, diff);
    distanceTemp[i] = matNormSquaredD3(diff);
  }

  permArgsort(perm, types, distanceTemp, argsortWork, size);
}

const posRotScratch = [0, 0, 0];

/**
 * Tests if an operator COULD be a symmetry of the cell, without the cost of sorting the rotated positions.
 * It only inspects a few atoms. 0: not a symmetry. 1: possible symmetry.
 */
function checkPossibleOverlap(checker: OverlapChecker, testTrans: Vec3, rot: Mat3, symprec: number): number {
  const posRot = posRotScratch;
  const maxSearchNum = 3;
  const searchNum = checker.size <= maxSearchNum ? checker.size : maxSearchNum;

  /* Check a few rotated positions. */
  for (let iTest = 0; iTest < searchNum; iTest++) {
    const typeRot = checker.typesSorted[iTest];
    matMultiplyMatrixVectorId3(posRot, rot, checker.posSorted[iTest]);
    for (let k = 0; k < 3; k++) {
      posRot[k] += testTrans[k];
    }

    /* Brute-force search for the rotated position. */
    let isFound = 0;
    for (let i = 0; i < checker.size; i++) {
      if (hasOverlapWithSameType(posRot, checker.posSorted[i], typeRot, checker.typesSorted[i], checker.lattice, symprec)) {
        isFound = 1;
        break;
      }
    }

    /* The rotated position is not in the structure! */
    /* This symmetry operator is therefore clearly invalid. */
    if (!isFound) {
      return 0;
    }
  }

  return 1;
}

/**
 * Optimized for the case where the max difference in index between pos_original and pos_rotated is small.
 * 0: false. 1: true.
 */
function checkTotalOverlapForSorted(
  lattice: Mat3,
  posOriginal: Vec3[],
  posRotated: Vec3[],
  typesOriginal: number[],
  typesRotated: number[],
  numPos: number,
  symprec: number,
): number {
  /* found[i] = 1 if pos_rotated[i] has been found in pos_original */
  const found = new Uint8Array(numPos);

  let searchStart = 0;
  for (let iOrig = 0; iOrig < numPos; iOrig++) {
    /* Permanently skip positions filled near the beginning. */
    while (searchStart < numPos && found[searchStart]) {
      searchStart++;
    }

    let iRot: number;
    for (iRot = searchStart; iRot < numPos; iRot++) {
      /* Skip any filled positions that aren't near the beginning. */
      if (found[iRot]) {
        continue;
      }

      if (hasOverlapWithSameType(posOriginal[iOrig], posRotated[iRot], typesOriginal[iOrig], typesRotated[iRot], lattice, symprec)) {
        found[iRot] = 1;
        break;
      }
    }

    if (iRot === numPos) {
      /* We never hit the 'break'. */
      /* Failure; a position in pos_original does not */
      /* overlap with any position in pos_rotated. */
      return 0;
    }
  }

  /* Success */
  return 1;
}
