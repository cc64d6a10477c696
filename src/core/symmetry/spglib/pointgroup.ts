/**
 * Port of spglib v2.0.2 src/pointgroup.c (github.com/spglib/spglib, BSD-3-Clause).
 * Left out: ptg_get_layer_transformation_matrix, layer_laue2m, layer_check_and_sort_axes and the aperiodic_axis
 * branches (3D only: aperiodic_axis is -1), and lauemmm/laue4m/laue4mmm/laue3/laue3m/lauem3m, which C compiles
 * only with SPGDEBUG and never calls. The static tables are copied in C order: rot_axes' order decides which of
 * several equivalent axes is found first. Where C leaves `axes` uninitialised (a failed axis search), it starts
 * at 0 here.
 */

import {
  matAddMatrixI3,
  matCheckIdentityMatrixI3,
  matCopyMatrixI3,
  matGetDeterminantI3,
  matGetTraceI3,
  matMultiplyMatrixI3,
  matMultiplyMatrixVectorI3,
  matNormSquaredI3,
  zeroMat3,
} from './mathfunc.ts';
import { Holohedry, Laue } from './types.ts';
import type { Mat3, Pointgroup, PointSymmetry, Vec3 } from './types.ts';

const NUM_ROT_AXES = 73;
const ZERO_PREC = 1e-10;

/** pointgroup.c `PointgroupType`: class table (counts of -6 -4 -3 -2 -1 1 2 3 4 6), padded symbols. */
interface PointgroupType {
  table: number[];
  symbol: string;
  schoenflies: string;
  holohedry: Holohedry;
  laue: Laue;
}

// prettier-ignore
const pointgroupData: PointgroupType[] = [
  { table: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], symbol: '     ', schoenflies: '   ', holohedry: Holohedry.HOLOHEDRY_NONE, laue: Laue.LAUE_NONE },
  { table: [0, 0, 0, 0, 0, 1, 0, 0, 0, 0], symbol: '1    ', schoenflies: 'C1 ', holohedry: Holohedry.TRICLI, laue: Laue.LAUE1 }, // 1
  { table: [0, 0, 0, 0, 1, 1, 0, 0, 0, 0], symbol: '-1   ', schoenflies: 'Ci ', holohedry: Holohedry.TRICLI, laue: Laue.LAUE1 }, // 2
  { table: [0, 0, 0, 0, 0, 1, 1, 0, 0, 0], symbol: '2    ', schoenflies: 'C2 ', holohedry: Holohedry.MONOCLI, laue: Laue.LAUE2M }, // 3
  { table: [0, 0, 0, 1, 0, 1, 0, 0, 0, 0], symbol: 'm    ', schoenflies: 'Cs ', holohedry: Holohedry.MONOCLI, laue: Laue.LAUE2M }, // 4
  { table: [0, 0, 0, 1, 1, 1, 1, 0, 0, 0], symbol: '2/m  ', schoenflies: 'C2h', holohedry: Holohedry.MONOCLI, laue: Laue.LAUE2M }, // 5
  { table: [0, 0, 0, 0, 0, 1, 3, 0, 0, 0], symbol: '222  ', schoenflies: 'D2 ', holohedry: Holohedry.ORTHO, laue: Laue.LAUEMMM }, // 6
  { table: [0, 0, 0, 2, 0, 1, 1, 0, 0, 0], symbol: 'mm2  ', schoenflies: 'C2v', holohedry: Holohedry.ORTHO, laue: Laue.LAUEMMM }, // 7
  { table: [0, 0, 0, 3, 1, 1, 3, 0, 0, 0], symbol: 'mmm  ', schoenflies: 'D2h', holohedry: Holohedry.ORTHO, laue: Laue.LAUEMMM }, // 8
  { table: [0, 0, 0, 0, 0, 1, 1, 0, 2, 0], symbol: '4    ', schoenflies: 'C4 ', holohedry: Holohedry.TETRA, laue: Laue.LAUE4M }, // 9
  { table: [0, 2, 0, 0, 0, 1, 1, 0, 0, 0], symbol: '-4   ', schoenflies: 'S4 ', holohedry: Holohedry.TETRA, laue: Laue.LAUE4M }, // 10
  { table: [0, 2, 0, 1, 1, 1, 1, 0, 2, 0], symbol: '4/m  ', schoenflies: 'C4h', holohedry: Holohedry.TETRA, laue: Laue.LAUE4M }, // 11
  { table: [0, 0, 0, 0, 0, 1, 5, 0, 2, 0], symbol: '422  ', schoenflies: 'D4 ', holohedry: Holohedry.TETRA, laue: Laue.LAUE4MMM }, // 12
  { table: [0, 0, 0, 4, 0, 1, 1, 0, 2, 0], symbol: '4mm  ', schoenflies: 'C4v', holohedry: Holohedry.TETRA, laue: Laue.LAUE4MMM }, // 13
  { table: [0, 2, 0, 2, 0, 1, 3, 0, 0, 0], symbol: '-42m ', schoenflies: 'D2d', holohedry: Holohedry.TETRA, laue: Laue.LAUE4MMM }, // 14
  { table: [0, 2, 0, 5, 1, 1, 5, 0, 2, 0], symbol: '4/mmm', schoenflies: 'D4h', holohedry: Holohedry.TETRA, laue: Laue.LAUE4MMM }, // 15
  { table: [0, 0, 0, 0, 0, 1, 0, 2, 0, 0], symbol: '3    ', schoenflies: 'C3 ', holohedry: Holohedry.TRIGO, laue: Laue.LAUE3 }, // 16
  { table: [0, 0, 2, 0, 1, 1, 0, 2, 0, 0], symbol: '-3   ', schoenflies: 'C3i', holohedry: Holohedry.TRIGO, laue: Laue.LAUE3 }, // 17
  { table: [0, 0, 0, 0, 0, 1, 3, 2, 0, 0], symbol: '32   ', schoenflies: 'D3 ', holohedry: Holohedry.TRIGO, laue: Laue.LAUE3M }, // 18
  { table: [0, 0, 0, 3, 0, 1, 0, 2, 0, 0], symbol: '3m   ', schoenflies: 'C3v', holohedry: Holohedry.TRIGO, laue: Laue.LAUE3M }, // 19
  { table: [0, 0, 2, 3, 1, 1, 3, 2, 0, 0], symbol: '-3m  ', schoenflies: 'D3d', holohedry: Holohedry.TRIGO, laue: Laue.LAUE3M }, // 20
  { table: [0, 0, 0, 0, 0, 1, 1, 2, 0, 2], symbol: '6    ', schoenflies: 'C6 ', holohedry: Holohedry.HEXA, laue: Laue.LAUE6M }, // 21
  { table: [2, 0, 0, 1, 0, 1, 0, 2, 0, 0], symbol: '-6   ', schoenflies: 'C3h', holohedry: Holohedry.HEXA, laue: Laue.LAUE6M }, // 22
  { table: [2, 0, 2, 1, 1, 1, 1, 2, 0, 2], symbol: '6/m  ', schoenflies: 'C6h', holohedry: Holohedry.HEXA, laue: Laue.LAUE6M }, // 23
  { table: [0, 0, 0, 0, 0, 1, 7, 2, 0, 2], symbol: '622  ', schoenflies: 'D6 ', holohedry: Holohedry.HEXA, laue: Laue.LAUE6MMM }, // 24
  { table: [0, 0, 0, 6, 0, 1, 1, 2, 0, 2], symbol: '6mm  ', schoenflies: 'C6v', holohedry: Holohedry.HEXA, laue: Laue.LAUE6MMM }, // 25
  { table: [2, 0, 0, 4, 0, 1, 3, 2, 0, 0], symbol: '-6m2 ', schoenflies: 'D3h', holohedry: Holohedry.HEXA, laue: Laue.LAUE6MMM }, // 26
  { table: [2, 0, 2, 7, 1, 1, 7, 2, 0, 2], symbol: '6/mmm', schoenflies: 'D6h', holohedry: Holohedry.HEXA, laue: Laue.LAUE6MMM }, // 27
  { table: [0, 0, 0, 0, 0, 1, 3, 8, 0, 0], symbol: '23   ', schoenflies: 'T  ', holohedry: Holohedry.CUBIC, laue: Laue.LAUEM3 }, // 28
  { table: [0, 0, 8, 3, 1, 1, 3, 8, 0, 0], symbol: 'm-3  ', schoenflies: 'Th ', holohedry: Holohedry.CUBIC, laue: Laue.LAUEM3 }, // 29
  { table: [0, 0, 0, 0, 0, 1, 9, 8, 6, 0], symbol: '432  ', schoenflies: 'O  ', holohedry: Holohedry.CUBIC, laue: Laue.LAUEM3M }, // 30
  { table: [0, 6, 0, 6, 0, 1, 3, 8, 0, 0], symbol: '-43m ', schoenflies: 'Td ', holohedry: Holohedry.CUBIC, laue: Laue.LAUEM3M }, // 31
  { table: [0, 6, 8, 9, 1, 1, 9, 8, 6, 0], symbol: 'm-3m ', schoenflies: 'Oh ', holohedry: Holohedry.CUBIC, laue: Laue.LAUEM3M }, // 32
];

const identity: Mat3 = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

const inversion: Mat3 = [
  [-1, 0, 0],
  [0, -1, 0],
  [0, 0, -1],
];

// prettier-ignore
const rotAxes: Vec3[] = [
  [1, 0, 0],   [0, 1, 0],   [0, 0, 1],   [0, 1, 1],   [1, 0, 1],
  [1, 1, 0],   [0, 1, -1],  [-1, 0, 1],  [1, -1, 0],  [1, 1, 1], /* 10 */
  [-1, 1, 1],  [1, -1, 1],  [1, 1, -1],  [0, 1, 2],   [2, 0, 1],
  [1, 2, 0],   [0, 2, 1],   [1, 0, 2],   [2, 1, 0],   [0, -1, 2], /* 20 */
  [2, 0, -1],  [-1, 2, 0],  [0, -2, 1],  [1, 0, -2],  [-2, 1, 0],
  [2, 1, 1],   [1, 2, 1],   [1, 1, 2],   [2, -1, -1], [-1, 2, -1], /* 30 */
  [-1, -1, 2], [2, 1, -1],  [-1, 2, 1],  [1, -1, 2],  [2, -1, 1],  /* 35 */
  [1, 2, -1],  [-1, 1, 2],  [3, 1, 2],   [2, 3, 1],   [1, 2, 3],   /* 40 */
  [3, 2, 1],   [1, 3, 2],   [2, 1, 3],   [3, -1, 2],  [2, 3, -1],  /* 45 */
  [-1, 2, 3],  [3, -2, 1],  [1, 3, -2],  [-2, 1, 3],  [3, -1, -2], /* 50 */
  [-2, 3, -1], [-1, -2, 3], [3, -2, -1], [-1, 3, -2], [-2, -1, 3], /* 55 */
  [3, 1, -2],  [-2, 3, 1],  [1, -2, 3],  [3, 2, -1],  [-1, 3, 2],  /* 60 */
  [2, -1, 3],  [1, 1, 3],   [-1, 1, 3],  [1, -1, 3],  [-1, -1, 3], /* 65 */
  [1, 3, 1],   [-1, 3, 1],  [1, 3, -1],  [-1, 3, -1], [3, 1, 1],   /* 70 */
  [3, 1, -1],  [3, -1, 1],  [3, -1, -1],
];

/**
 * ptg_get_transformation_matrix (through ptg_get_layer_transformation_matrix with aperiodic_axis = -1): writes
 * into `transformMat` the matrix whose columns are the conventional axes found among rot_axes. Returns number 0
 * (and a zero matrix) when the rotations form no crystallographic point group; C leaves the other fields of that
 * Pointgroup uninitialised, here they are empty / NONE.
 */
export function ptgGetTransformationMatrix(transformMat: Mat3, rotations: Mat3[], numRotations: number): Pointgroup {
  const axes = [0, 0, 0];

  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      transformMat[i][j] = 0;
    }
  }

  const pgNum = getPointgroupNumberByRotations(rotations, numRotations);

  if (pgNum > 0) {
    const pointgroup = ptgGetPointgroup(pgNum);
    const pointsym = ptgGetPointsymmetry(rotations, numRotations);
    getAxes(axes, pointgroup.laue, pointsym);
    setTransformationMatrix(transformMat, axes);
    return pointgroup;
  }
  return { number: 0, symbol: '', schoenflies: '', holohedry: Holohedry.HOLOHEDRY_NONE, laue: Laue.LAUE_NONE };
}

/** ptg_get_pointgroup: pointgroup_data[number] with the padding spaces (C: turned into '\0') cut. */
export function ptgGetPointgroup(pointgroupNumber: number): Pointgroup {
  const pointgroupType = pointgroupData[pointgroupNumber];
  return {
    number: pointgroupNumber,
    symbol: cutAtSpace(pointgroupType.symbol, 5),
    schoenflies: cutAtSpace(pointgroupType.schoenflies, 3),
    holohedry: pointgroupType.holohedry,
    laue: pointgroupType.laue,
  };
}

/** The C string left after the spaces among the first n characters became '\0'. */
function cutAtSpace(s: string, n: number): string {
  const k = s.slice(0, n).indexOf(' ');
  return k < 0 ? s : s.slice(0, k);
}

/** ptg_get_pointsymmetry: the distinct rotations, in order of first appearance (copied). */
export function ptgGetPointsymmetry(rotations: Mat3[], numRotations: number): PointSymmetry {
  const pointsym: PointSymmetry = { rot: [], size: 0 };
  for (let i = 0; i < numRotations; i++) {
    let found = false;
    for (let j = 0; j < pointsym.size; j++) {
      if (matCheckIdentityMatrixI3(rotations[i], pointsym.rot[j])) {
        found = true;
        break;
      }
    }
    if (found) continue;
    const r = zeroMat3();
    matCopyMatrixI3(r, rotations[i]);
    pointsym.rot.push(r);
    pointsym.size++;
  }
  return pointsym;
}

function getPointgroupNumberByRotations(rotations: Mat3[], numRotations: number): number {
  const pointsym = ptgGetPointsymmetry(rotations, numRotations);
  return getPointgroupNumber(pointsym);
}

function getPointgroupNumber(pointsym: PointSymmetry): number {
  const table = new Array<number>(10).fill(0);

  /* Get list of point symmetry operations */
  if (!getPointgroupClassTable(table, pointsym)) {
    return 0;
  }

  for (let i = 1; i < 33; i++) {
    let counter = 0;
    const pointgroupType = pointgroupData[i];
    for (let j = 0; j < 10; j++) {
      if (pointgroupType.table[j] === table[j]) {
        counter++;
      }
    }
    if (counter === 10) {
      return i;
    }
  }
  return 0;
}

/** get_pointgroup_class_table: counts of -6 -4 -3 -2 -1 1 2 3 4 6 operations; 0 on an unknown one. */
function getPointgroupClassTable(table: number[], pointsym: PointSymmetry): number {
  for (let i = 0; i < 10; i++) {
    table[i] = 0;
  }
  for (let i = 0; i < pointsym.size; i++) {
    const rotType = getRotationType(pointsym.rot[i]);
    if (rotType === -1) {
      return 0;
    }
    table[rotType]++;
  }
  return 1;
}

function getRotationType(rot: Mat3): number {
  if (matGetDeterminantI3(rot) === -1) {
    switch (matGetTraceI3(rot)) {
      case -2 /* -6 */:
        return 0;
      case -1 /* -4 */:
        return 1;
      case 0 /* -3 */:
        return 2;
      case 1 /* -2 */:
        return 3;
      case -3 /* -1 */:
        return 4;
      default:
        return -1;
    }
  }
  switch (matGetTraceI3(rot)) {
    case 3 /* 1 */:
      return 5;
    case -1 /* 2 */:
      return 6;
    case 0 /* 3 */:
      return 7;
    case 1 /* 4 */:
      return 8;
    case 2 /* 6 */:
      return 9;
    default:
      return -1;
  }
}

function getAxes(axes: number[], laue: Laue, pointsym: PointSymmetry): number {
  switch (laue) {
    case Laue.LAUE1:
      axes[0] = 0;
      axes[1] = 1;
      axes[2] = 2;
      break;
    case Laue.LAUE2M:
      laue2m(axes, pointsym);
      break;
    case Laue.LAUEMMM:
      lauennn(axes, pointsym, 2);
      break;
    case Laue.LAUE4M:
      laueOneAxis(axes, pointsym, 4);
      break;
    case Laue.LAUE4MMM:
      laueOneAxis(axes, pointsym, 4);
      break;
    case Laue.LAUE3:
      laueOneAxis(axes, pointsym, 3);
      break;
    case Laue.LAUE3M:
      laueOneAxis(axes, pointsym, 3);
      break;
    case Laue.LAUE6M:
      laueOneAxis(axes, pointsym, 3);
      break;
    case Laue.LAUE6MMM:
      laueOneAxis(axes, pointsym, 3);
      break;
    case Laue.LAUEM3:
      lauennn(axes, pointsym, 2);
      break;
    case Laue.LAUEM3M:
      lauennn(axes, pointsym, 4);
      break;
    default:
      break;
  }
  return 1;
}

function laue2m(axes: number[], pointsym: PointSymmetry): number {
  // prop_rot keeps the last rotation examined when no two-fold rotation is found, as in C.
  const propRot = zeroMat3();
  const orthoAxes = new Array<number>(NUM_ROT_AXES).fill(0);

  for (let i = 0; i < pointsym.size; i++) {
    getProperRotation(propRot, pointsym.rot[i]);

    /* Search two-fold rotation */
    if (!(matGetTraceI3(propRot) === -1)) {
      continue;
    }

    /* The first axis */
    axes[1] = getRotationAxis(propRot);
    break;
  }

  /* The second axis */
  const numOrthoAxis = getOrthogonalAxis(orthoAxes, propRot, 2);
  if (!numOrthoAxis) {
    return 0;
  }

  let minNorm = 8;
  let isFound = 0;
  for (let i = 0; i < numOrthoAxis; i++) {
    const norm = matNormSquaredI3(rotAxes[orthoAxes[i]]);
    if (norm < minNorm - ZERO_PREC) {
      minNorm = norm;
      axes[0] = orthoAxes[i];
      isFound = 1;
    }
  }
  if (!isFound) {
    return 0;
  }

  /* The third axis */
  minNorm = 8;
  isFound = 0;
  for (let i = 0; i < numOrthoAxis; i++) {
    const norm = matNormSquaredI3(rotAxes[orthoAxes[i]]);
    if (norm < minNorm - ZERO_PREC && orthoAxes[i] !== axes[0]) {
      minNorm = norm;
      axes[2] = orthoAxes[i];
      isFound = 1;
    }
  }
  if (!isFound) {
    return 0;
  }

  return 1;
}

function laueOneAxis(axes: number[], pointsym: PointSymmetry, rotOrder: number): number {
  const axisVec = [0, 0, 0];
  const tmpAxes = [0, 0, 0];
  const propRot = zeroMat3();
  const tMat = zeroMat3();
  const orthoAxes = new Array<number>(NUM_ROT_AXES).fill(0);

  for (let i = 0; i < pointsym.size; i++) {
    getProperRotation(propRot, pointsym.rot[i]);

    /* Search four-fold rotation */
    if (rotOrder === 4) {
      if (matGetTraceI3(propRot) === 1) {
        /* The first axis */
        axes[2] = getRotationAxis(propRot);
        break;
      }
    }

    /* Search three-fold rotation */
    if (rotOrder === 3) {
      if (matGetTraceI3(propRot) === 0) {
        /* The first axis */
        axes[2] = getRotationAxis(propRot);
        break;
      }
    }
  }

  /* Candidates of the second axis */
  const numOrthoAxis = getOrthogonalAxis(orthoAxes, propRot, rotOrder);
  if (!numOrthoAxis) {
    return 0; /* axes are not correctly found. */
  }

  tmpAxes[1] = -1;
  tmpAxes[2] = axes[2];
  let found = false;
  for (let i = 0; i < numOrthoAxis; i++) {
    let isFound = 0;
    tmpAxes[0] = orthoAxes[i];
    matMultiplyMatrixVectorI3(axisVec, propRot, rotAxes[tmpAxes[0]]);
    for (let j = 0; j < numOrthoAxis; j++) {
      isFound = isExistAxis(axisVec, orthoAxes[j]);
      if (isFound === 1) {
        tmpAxes[1] = orthoAxes[j];
        break;
      }
      if (isFound === -1) {
        tmpAxes[1] = orthoAxes[j] + NUM_ROT_AXES;
        break;
      }
    }

    if (!isFound) {
      continue;
    }

    setTransformationMatrix(tMat, tmpAxes);
    const det = Math.abs(matGetDeterminantI3(tMat));
    if (det < 4) {
      /* to avoid F-center choice det=4 */
      axes[0] = tmpAxes[0];
      axes[1] = tmpAxes[1];
      found = true;
      break;
    }
  }

  if (!found) {
    return 0; /* axes are not correctly found. */
  }

  setTransformationMatrix(tMat, axes);
  if (matGetDeterminantI3(tMat) < 0) {
    const tmpval = axes[0];
    axes[0] = axes[1];
    axes[1] = tmpval;
  }

  return 1;
}

function lauennn(axes: number[], pointsym: PointSymmetry, rotOrder: number): number {
  const propRot = zeroMat3();

  for (let i = 0; i < 3; i++) {
    axes[i] = -1;
  }

  let count = 0;
  for (let i = 0; i < pointsym.size; i++) {
    getProperRotation(propRot, pointsym.rot[i]);

    /* Search two- or four-fold rotation */
    if ((matGetTraceI3(propRot) === -1 && rotOrder === 2) || (matGetTraceI3(propRot) === 1 && rotOrder === 4)) {
      const axis = getRotationAxis(propRot);
      if (!(axis === axes[0] || axis === axes[1] || axis === axes[2])) {
        axes[count] = axis;
        count++;
      }
    }
  }

  sortAxes(axes);

  return 1;
}

function getRotationAxis(properRot: Mat3): number {
  let axis = -1;
  const vec = [0, 0, 0];

  /* No specific axis for I and -I */
  if (matCheckIdentityMatrixI3(properRot, identity)) {
    return axis;
  }

  /* Look for eigenvector = rotation axis */
  for (let i = 0; i < NUM_ROT_AXES; i++) {
    matMultiplyMatrixVectorI3(vec, properRot, rotAxes[i]);
    if (vec[0] === rotAxes[i][0] && vec[1] === rotAxes[i][1] && vec[2] === rotAxes[i][2]) {
      axis = i;
      break;
    }
  }

  return axis;
}

function getOrthogonalAxis(orthoAxes: number[], properRot: Mat3, rotOrder: number): number {
  const vec = [0, 0, 0];
  const sumRot = zeroMat3();
  const rot = zeroMat3();

  let numOrthoAxis = 0;

  matCopyMatrixI3(sumRot, identity);
  matCopyMatrixI3(rot, identity);
  for (let i = 0; i < rotOrder - 1; i++) {
    matMultiplyMatrixI3(rot, properRot, rot);
    matAddMatrixI3(sumRot, rot, sumRot);
  }

  for (let i = 0; i < NUM_ROT_AXES; i++) {
    matMultiplyMatrixVectorI3(vec, sumRot, rotAxes[i]);
    if (vec[0] === 0 && vec[1] === 0 && vec[2] === 0) {
      orthoAxes[numOrthoAxis] = i;
      numOrthoAxis++;
    }
  }

  return numOrthoAxis;
}

function getProperRotation(propRot: Mat3, rot: Mat3): void {
  if (matGetDeterminantI3(rot) === -1) {
    matMultiplyMatrixI3(propRot, inversion, rot);
  } else {
    matCopyMatrixI3(propRot, rot);
  }
}

/**
 * set_transformation_matrix: column j is rot_axes[axes[j] % 73], negated for axes[j] >= 73 (improper). An axis of
 * -1 (not found; C reads out of bounds) gives a zero column here.
 */
function setTransformationMatrix(tmat: Mat3, axes: number[]): void {
  const s = [0, 0, 0];

  for (let i = 0; i < 3; i++) {
    if (axes[i] < NUM_ROT_AXES) {
      s[i] = 1;
    } else {
      s[i] = -1; /* axes[i] + NUM_ROT_AXES means improper rotation. */
    }
  }

  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const axis = rotAxes[axes[j] % NUM_ROT_AXES];
      tmat[i][j] = axis === undefined ? 0 : (s[j] * axis[i]) | 0; // | 0: C int, no -0
    }
  }
}

function isExistAxis(axisVec: Vec3, axisIndex: number): number {
  if (axisVec[0] === rotAxes[axisIndex][0] && axisVec[1] === rotAxes[axisIndex][1] && axisVec[2] === rotAxes[axisIndex][2]) {
    return 1;
  }
  if (axisVec[0] === -rotAxes[axisIndex][0] && axisVec[1] === -rotAxes[axisIndex][1] && axisVec[2] === -rotAxes[axisIndex][2]) {
    return -1;
  }
  return 0;
}

function sortAxes(axes: number[]): void {
  let axis: number;
  const tMat = zeroMat3();

  if (axes[1] > axes[2] + ZERO_PREC) {
    axis = axes[1];
    axes[1] = axes[2];
    axes[2] = axis;
  }

  if (axes[0] > axes[1] + ZERO_PREC) {
    axis = axes[0];
    axes[0] = axes[1];
    axes[1] = axis;
  }

  if (axes[1] > axes[2] + ZERO_PREC) {
    axis = axes[1];
    axes[1] = axes[2];
    axes[2] = axis;
  }

  setTransformationMatrix(tMat, axes);
  if (matGetDeterminantI3(tMat) < 0) {
    axis = axes[1];
    axes[1] = axes[2];
    axes[2] = axis;
  }
}
