/**
 * Port of spglib v2.0.2 src/spacegroup.c (github.com/spglib/spglib, BSD-3-Clause): the space-group type,
 * Hall setting, conventional basis and origin shift of a primitive cell or of its symmetry operations.
 * The order of the candidate tables (spacegroup_to_hall_number, change_of_basis_*) decides which of several
 * equivalent settings is reported, so they are kept verbatim and in order.
 *
 * 3D only: aperiodic_axis is always -1, so the layer-group tables (layer_group_to_hall_number,
 * layer_num_axis_choices_ortho, index_monocli_rectang) and branches (Hall numbers < 0) are left out;
 * change_of_basis_monocli keeps its 12 layer entries (36-47) so that indices match C. Debug and warning
 * prints are left out. `periodic_niggli_reduce` of src/niggli.c (only spacegroup.c uses it on this path) is
 * ported at the end of this file. C's NULL `orig_lattice` (spa_search_spacegroup_with_symmetry) is `null`.
 */
import { celAllocCell, celTrimCell } from './cell.ts';
import { delDelaunayReduce2D } from './delaunay.ts';
import { halMatchHallSymbolDb } from './hall-symbol.ts';
import {
  matCastMatrix3dTo3i,
  matCastMatrix3iTo3d,
  matCheckIdentityMatrixD3,
  matCheckIdentityMatrixId3,
  matCopyMatrixD3,
  matCopyMatrixI3,
  matCopyVectorD3,
  matDabs,
  matGetDeterminantD3,
  matGetDeterminantI3,
  matGetMetric,
  matGetSimilarMatrixD3,
  matInverseMatrixD3,
  matIsIntMatrix,
  matMultiplyMatrixD3,
  matMultiplyMatrixDi3,
  matMultiplyMatrixId3,
  matMultiplyMatrixVectorD3,
  matNormSquaredD3,
  zeroMat3,
} from './mathfunc.ts';
import { ptgGetPointsymmetry, ptgGetTransformationMatrix } from './pointgroup.ts';
import { spgdbGetSpacegroupType, RHOMBOHEDRAL_HALL_NUMBERS, RHOMBOHEDRAL_HEXAGONAL_AXES } from './spg-database.ts';
import { symAllocSymmetry, symGetOperation, symReduceOperation } from './symmetry.ts';
import { Centering, Holohedry, Laue, type Cell, type Mat3, type Primitive, type Spacegroup, type Symmetry, type Vec3 } from './types.ts';

const REDUCE_RATE = 0.95;
const NUM_ATTEMPT = 100;
const INT_PREC = 0.1;
const ZERO_PREC = 1e-10;

/** The part of primitive.h `Primitive` read here; `orig_lattice` is NULL in spa_search_spacegroup_with_symmetry. */
interface PrimitiveArg {
  cell: Cell | null;
  orig_lattice: Mat3 | null;
}

const { CENTERING_ERROR, PRIMITIVE, BODY, FACE, A_FACE, B_FACE, C_FACE, R_CENTER } = Centering;

const change_of_basis_monocli: Mat3[] = [
  [
    [1, 0, 0] /* b  first turn; two axes are flipped in second turn */,
    [0, 1, 0],
    [0, 0, 1],
  ],
  [
    [0, 0, 1] /* b */,
    [0, -1, 0],
    [1, 0, 0],
  ],
  [
    [0, 0, 1] /* a */,
    [1, 0, 0],
    [0, 1, 0],
  ],
  [
    [1, 0, 0] /* c */,
    [0, 0, 1],
    [0, -1, 0],
  ],
  [
    [0, 1, 0] /* c */,
    [0, 0, 1],
    [1, 0, 0],
  ],
  [
    [0, -1, 0] /* a */,
    [1, 0, 0],
    [0, 0, 1],
  ],
  [
    [-1, 0, 1] /* b */,
    [0, 1, 0],
    [-1, 0, 0],
  ],
  [
    [1, 0, -1] /* b */,
    [0, -1, 0],
    [0, 0, -1],
  ],
  [
    [0, 1, -1] /* a */,
    [1, 0, 0],
    [0, 0, -1],
  ],
  [
    [-1, -1, 0] /* c */,
    [0, 0, 1],
    [-1, 0, 0],
  ],
  [
    [1, -1, 0] /* c */,
    [0, 0, 1],
    [0, -1, 0],
  ],
  [
    [0, 1, 1] /* a */,
    [1, 0, 0],
    [0, 1, 0],
  ],
  [
    [0, 0, -1] /* b */,
    [0, 1, 0],
    [1, 0, -1],
  ],
  [
    [-1, 0, 0] /* b */,
    [0, -1, 0],
    [-1, 0, 1],
  ],
  [
    [0, -1, 0] /* a */,
    [1, 0, 0],
    [0, -1, 1],
  ],
  [
    [0, 1, 0] /* c */,
    [0, 0, 1],
    [1, 1, 0],
  ],
  [
    [-1, 0, 0] /* c */,
    [0, 0, 1],
    [-1, 1, 0],
  ],
  [
    [0, 0, -1] /* a */,
    [1, 0, 0],
    [0, -1, -1],
  ],
  [
    [1, 0, 0] /* b  two axes are flipped to look for non-acute axes */,
    [0, -1, 0],
    [0, 0, -1],
  ],
  [
    [0, 0, -1] /* b */,
    [0, 1, 0],
    [1, 0, 0],
  ],
  [
    [0, 0, 1] /* a */,
    [-1, 0, 0],
    [0, -1, 0],
  ],
  [
    [-1, 0, 0] /* c */,
    [0, 0, -1],
    [0, -1, 0],
  ],
  [
    [0, 1, 0] /* c */,
    [0, 0, -1],
    [-1, 0, 0],
  ],
  [
    [0, 1, 0] /* a */,
    [-1, 0, 0],
    [0, 0, 1],
  ],
  [
    [-1, 0, -1] /* b */,
    [0, -1, 0],
    [-1, 0, 0],
  ],
  [
    [1, 0, 1] /* b */,
    [0, 1, 0],
    [0, 0, 1],
  ],
  [
    [0, -1, -1] /* a */,
    [-1, 0, 0],
    [0, 0, -1],
  ],
  [
    [1, -1, 0] /* c */,
    [0, 0, -1],
    [1, 0, 0],
  ],
  [
    [-1, -1, 0] /* c */,
    [0, 0, -1],
    [0, -1, 0],
  ],
  [
    [0, -1, 1] /* a */,
    [-1, 0, 0],
    [0, -1, 0],
  ],
  [
    [0, 0, 1] /* b */,
    [0, -1, 0],
    [1, 0, 1],
  ],
  [
    [-1, 0, 0] /* b */,
    [0, 1, 0],
    [-1, 0, -1],
  ],
  [
    [0, 1, 0] /* a */,
    [-1, 0, 0],
    [0, 1, 1],
  ],
  [
    [0, 1, 0] /* c */,
    [0, 0, -1],
    [-1, 1, 0],
  ],
  [
    [1, 0, 0] /* c */,
    [0, 0, -1],
    [1, 1, 0],
  ],
  [
    [0, 0, -1] /* a */,
    [-1, 0, 0],
    [0, 1, -1],
  ],
  [
    [1, 0, 0] /*  c1  Monoclinic/Oblique layer group; first turn */,
    [0, 1, 0],
    [0, 0, 1],
  ],
  [
    [0, 1, 0] /* -c1 */,
    [1, 0, 0],
    [0, 0, -1],
  ],
  [
    [0, -1, 0] /*  c2 */,
    [1, -1, 0],
    [0, 0, 1],
  ],
  [
    [-1, 0, 0] /* -c2 */,
    [-1, 1, 0],
    [0, 0, -1],
  ],
  [
    [-1, 1, 0] /*  c3 */,
    [-1, 0, 0],
    [0, 0, 1],
  ],
  [
    [1, -1, 0] /* -c3 */,
    [0, -1, 0],
    [0, 0, -1],
  ],
  [
    [1, 0, 0] /* -c1  Monoclinic/Oblique layer group; second turn */,
    [0, -1, 0],
    [0, 0, -1],
  ],
  [
    [0, -1, 0] /*  c1 */,
    [1, 0, 0],
    [0, 0, 1],
  ],
  [
    [0, 1, 0] /* -c2 */,
    [1, 1, 0],
    [0, 0, -1],
  ],
  [
    [-1, 0, 0] /*  c2 */,
    [-1, -1, 0],
    [0, 0, 1],
  ],
  [
    [-1, -1, 0] /* -c3 */,
    [-1, 0, 0],
    [0, 0, -1],
  ],
  [
    [1, 1, 0] /*  c3 */,
    [0, 1, 0],
    [0, 0, 1],
  ],
];

/* index_monocli_rectang (Monoclinic/Rectangular layer groups) is left out. */

// prettier-ignore
const change_of_centering_monocli: Centering[] = [
  C_FACE, /* first turn */
  A_FACE, B_FACE, B_FACE, A_FACE, C_FACE, A_FACE,
  C_FACE, C_FACE, A_FACE, B_FACE, B_FACE, BODY,
  BODY, BODY, BODY, BODY, BODY, C_FACE, /* second turn */
  A_FACE, B_FACE, B_FACE, A_FACE, C_FACE, A_FACE,
  C_FACE, C_FACE, A_FACE, B_FACE, B_FACE, BODY,
  BODY, BODY, BODY, BODY, BODY,
];

// prettier-ignore
const change_of_unique_axis_monocli: number[] = [
  1, 1, 0, 2, 2, 0, 1, 1, 0, 2, 2, 0, 1, 1, 0, 2, 2, 0, 1, 1, 0, 2, 2, 0,
  1, 1, 0, 2, 2, 0, 1, 1, 0, 2, 2, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
];

// prettier-ignore
const change_of_basis_ortho: Mat3[] = [
  [[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[0, 0, 1], [1, 0, 0], [0, 1, 0]],
  [[0, 1, 0], [0, 0, 1], [1, 0, 0]], [[0, 1, 0], [1, 0, 0], [0, 0, -1]],
  [[1, 0, 0], [0, 0, 1], [0, -1, 0]], [[0, 0, 1], [0, 1, 0], [-1, 0, 0]],
];

const change_of_centering_ortho: Centering[] = [C_FACE, B_FACE, A_FACE, C_FACE, B_FACE, A_FACE];
const change_of_unique_axis_ortho: number[] = [2, 1, 0, 2, 1, 0];

/* n_l : the index of L(g) in N_\epsilon(g) of SPG No.16-74 */
/* See ITA: Affine normalizer or highest symmetry Euclidean normalizer */
// prettier-ignore
const num_axis_choices_ortho: number[] = [
  6, 2, 2, 6, 2,                /* 16-20 */
  2, 6, 6, 6, 2, 1, 2, 1, 1, 1, /* 21-30 */
  1, 2, 1, 2, 2, 1, 2, 1, 1, 1, /* 31-40 */
  1, 2, 2, 2, 2, 1, 6, 6, 2, 2, /* 41-50 */
  1, 1, 1, 1, 2, 2, 1, 2, 2, 1, /* 51-60 */
  3, 1, 1, 1, 2, 2, 2, 2, 6, 6, /* 61-70 */
  6, 2, 6, 2,                   /* 71-74 */
];

/* layer_num_axis_choices_ortho (layer groups) is left out. */

// prettier-ignore
const change_of_basis_rhombo: Mat3[] = [
  [[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[0, 0, 1], [1, 0, 0], [0, 1, 0]],
  [[0, 1, 0], [0, 0, 1], [1, 0, 0]], [[0, 0, -1], [0, -1, 0], [-1, 0, 0]],
  [[0, -1, 0], [-1, 0, 0], [0, 0, -1]], [[-1, 0, 0], [0, 0, -1], [0, -1, 0]],
];

// prettier-ignore
const change_of_basis_rhombo_hex: Mat3[] = [
  [[1, 0, 1], [-1, 1, 1], [0, -1, 1]],
  [[0, -1, 1], [1, 0, 1], [-1, 1, 1]],
  [[-1, 1, 1], [0, -1, 1], [1, 0, 1]],
  [[0, 1, -1], [1, -1, -1], [-1, 0, -1]],
  [[1, -1, -1], [-1, 0, -1], [0, 1, -1]],
  [[-1, 0, -1], [0, 1, -1], [1, -1, -1]],
];

// prettier-ignore
const change_of_basis_C4: Mat3[] = [
  [[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[0, -1, 0], [1, 0, 0], [0, 0, 1]],
  [[-1, 0, 0], [0, -1, 0], [0, 0, 1]], [[0, 1, 0], [-1, 0, 0], [0, 0, 1]],
  [[0, 1, 0], [1, 0, 0], [0, 0, -1]], [[-1, 0, 0], [0, 1, 0], [0, 0, -1]],
  [[0, -1, 0], [-1, 0, 0], [0, 0, -1]], [[1, 0, 0], [0, -1, 0], [0, 0, -1]],
];

// prettier-ignore
const change_of_basis_C6: Mat3[] = [
  [[1, 0, 0], [0, 1, 0], [0, 0, 1]], /* 1 */
  [[1, -1, 0], [1, 0, 0], [0, 0, 1]], /* 2 */
  [[0, -1, 0], [1, -1, 0], [0, 0, 1]], /* 3 */
  [[-1, 0, 0], [0, -1, 0], [0, 0, 1]], /* 4 */
  [[-1, 1, 0], [-1, 0, 0], [0, 0, 1]], /* 5 */
  [[0, 1, 0], [-1, 1, 0], [0, 0, 1]], /* 6 */
  [[0, 1, 0], [1, 0, 0], [0, 0, -1]], /* 7 */
  [[-1, 1, 0], [0, 1, 0], [0, 0, -1]], /* 8 */
  [[-1, 0, 0], [-1, 1, 0], [0, 0, -1]], /* 9 */
  [[0, -1, 0], [-1, 0, 0], [0, 0, -1]], /* 10 */
  [[1, -1, 0], [0, -1, 0], [0, 0, -1]], /* 11 */
  [[1, 0, 0], [1, -1, 0], [0, 0, -1]], /* 12 */
];

/* change_of_basis_501 {{0, 0, 1}, {0, -1, 0}, {1, 0, 0}} was removed upstream after commit 67997654 */
/* (commented out in v2.0.2); the No. 205 case is covered by change_of_basis_ortho. */

// prettier-ignore
const spacegroup_to_hall_number: number[] = [
  1,   2,   3,   6,   9,   18,  21,  30,  39,  57,  60,  63,  72,  81,  90,
  108, 109, 112, 115, 116, 119, 122, 123, 124, 125, 128, 134, 137, 143, 149,
  155, 161, 164, 170, 173, 176, 182, 185, 191, 197, 203, 209, 212, 215, 218,
  221, 227, 228, 230, 233, 239, 245, 251, 257, 263, 266, 269, 275, 278, 284,
  290, 292, 298, 304, 310, 313, 316, 322, 334, 335, 337, 338, 341, 343, 349,
  350, 351, 352, 353, 354, 355, 356, 357, 358, 359, 361, 363, 364, 366, 367,
  368, 369, 370, 371, 372, 373, 374, 375, 376, 377, 378, 379, 380, 381, 382,
  383, 384, 385, 386, 387, 388, 389, 390, 391, 392, 393, 394, 395, 396, 397,
  398, 399, 400, 401, 402, 404, 406, 407, 408, 410, 412, 413, 414, 416, 418,
  419, 420, 422, 424, 425, 426, 428, 430, 431, 432, 433, 435, 436, 438, 439,
  440, 441, 442, 443, 444, 446, 447, 448, 449, 450, 452, 454, 455, 456, 457,
  458, 460, 462, 463, 464, 465, 466, 467, 468, 469, 470, 471, 472, 473, 474,
  475, 476, 477, 478, 479, 480, 481, 482, 483, 484, 485, 486, 487, 488, 489,
  490, 491, 492, 493, 494, 495, 497, 498, 500, 501, 502, 503, 504, 505, 506,
  507, 508, 509, 510, 511, 512, 513, 514, 515, 516, 517, 518, 520, 521, 523,
  524, 525, 527, 529, 530,
];

/* layer_group_to_hall_number is left out (layer groups). */

// prettier-ignore
const identity: Mat3 = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
// prettier-ignore
const monocli_i2c: Mat3 = [[1, 0, -1], [0, 1, 0], [1, 0, 0]];
// prettier-ignore
const monocli_a2c: Mat3 = [[0, 0, 1], [0, -1, 0], [1, 0, 0]];
// prettier-ignore
const rhombo_obverse: Mat3 = [[2 / 3, -1 / 3, -1 / 3], [1 / 3, 1 / 3, -2 / 3], [1 / 3, 1 / 3, 1 / 3]];
// prettier-ignore
const rhomb_reverse: Mat3 = [[1 / 3, -2 / 3, 1 / 3], [2 / 3, -1 / 3, -1 / 3], [1 / 3, 1 / 3, 1 / 3]];
// prettier-ignore
const a2c: Mat3 = [[0, 0, 1], [1, 0, 0], [0, 1, 0]];
// prettier-ignore
const b2c: Mat3 = [[0, 1, 0], [0, 0, 1], [1, 0, 0]];

// prettier-ignore
const A_mat: Mat3 = [[1, 0, 0], [0, 1 / 2, -1 / 2], [0, 1 / 2, 1 / 2]];
// prettier-ignore
const C_mat: Mat3 = [[1 / 2, 1 / 2, 0], [-1 / 2, 1 / 2, 0], [0, 0, 1]];
// prettier-ignore
const R_mat: Mat3 = [[2 / 3, -1 / 3, -1 / 3], [1 / 3, 1 / 3, -2 / 3], [1 / 3, 1 / 3, 1 / 3]];
// prettier-ignore
const I_mat: Mat3 = [[-1 / 2, 1 / 2, 1 / 2], [1 / 2, -1 / 2, 1 / 2], [1 / 2, 1 / 2, -1 / 2]];
// prettier-ignore
const F_mat: Mat3 = [[0, 1 / 2, 1 / 2], [1 / 2, 0, 1 / 2], [1 / 2, 1 / 2, 0]];

/** Space group of a primitive cell; `hallNumber` 0 searches all 230 types, otherwise only that Hall setting. */
export function spaSearchSpacegroup(primitive: Primitive, hallNumber: number, symprec: number, angleTolerance: number): Spacegroup | null {
  const symmetry = symGetOperation(primitive.cell as Cell, symprec, angleTolerance);
  if (symmetry === null) {
    return null;
  }

  if (hallNumber) {
    const candidate = [hallNumber];
    return searchSpacegroupWithSymmetry(primitive, candidate, 1, symmetry, symprec, angleTolerance);
  }
  /* primitive->cell->aperiodic_axis == -1 */
  return searchSpacegroupWithSymmetry(primitive, spacegroup_to_hall_number, 230, symmetry, symprec, angleTolerance);
}

/** Space group of symmetry operations given in a primitive basis `primLat` (columns); no preferred axes. */
export function spaSearchSpacegroupWithSymmetry(symmetry: Symmetry, primLat: Mat3, symprec: number): Spacegroup | null {
  const cell = celAllocCell(1);
  if (cell === null) {
    return null;
  }
  const primitive: PrimitiveArg = { cell, orig_lattice: null };
  matCopyMatrixD3(cell.lattice, primLat);
  for (let i = 0; i < 3; i++) {
    cell.position[0][i] = 0;
  }
  return searchSpacegroupWithSymmetry(primitive, spacegroup_to_hall_number, 230, symmetry, symprec, -1.0);
}

/** Primitive cell of `cell` with lattice cell.lattice · transMat⁻¹ · (A, C, F, I or R centring matrix); null if failed. */
export function spaTransformToPrimitive(
  mappingTable: number[],
  cell: Cell,
  transMat: Mat3,
  centering: Centering,
  symprec: number,
): Cell | null {
  const tmat = zeroMat3();
  const tmatInv = zeroMat3();
  const primLat = zeroMat3();

  if (!matInverseMatrixD3(tmatInv, transMat, symprec)) {
    return null;
  }

  switch (centering) {
    case PRIMITIVE:
      matCopyMatrixD3(tmat, tmatInv);
      break;
    case A_FACE:
      matMultiplyMatrixD3(tmat, tmatInv, A_mat);
      break;
    case C_FACE:
      matMultiplyMatrixD3(tmat, tmatInv, C_mat);
      break;
    case FACE:
      matMultiplyMatrixD3(tmat, tmatInv, F_mat);
      break;
    case BODY:
      matMultiplyMatrixD3(tmat, tmatInv, I_mat);
      break;
    case R_CENTER:
      matMultiplyMatrixD3(tmat, tmatInv, R_mat);
      break;
    default:
      return null;
  }

  matMultiplyMatrixD3(primLat, cell.lattice, tmat);
  return celTrimCell(mappingTable, primLat, cell, symprec);
}

/** Conventional cell built from a primitive cell by adding the centring translations; null if failed. */
export function spaTransformFromPrimitive(primitive: Cell, centering: Centering, symprec: number): Cell | null {
  // C leaves tmat/inv_tmat uninitialised for PRIMITIVE (its callers never pass it); identity here.
  const tmat = zeroMat3();
  const invTmat = zeroMat3();
  const shift = zeroMat3();

  switch (centering) {
    case PRIMITIVE:
      matCopyMatrixD3(tmat, identity);
      matCopyMatrixD3(invTmat, identity);
      break;
    case A_FACE:
      matCopyMatrixD3(tmat, A_mat);
      matInverseMatrixD3(invTmat, A_mat, 0);
      break;
    case C_FACE:
      matCopyMatrixD3(tmat, C_mat);
      matInverseMatrixD3(invTmat, C_mat, 0);
      break;
    case FACE:
      matCopyMatrixD3(tmat, F_mat);
      matInverseMatrixD3(invTmat, F_mat, 0);
      break;
    case BODY:
      matCopyMatrixD3(tmat, I_mat);
      matInverseMatrixD3(invTmat, I_mat, 0);
      break;
    case R_CENTER:
      matCopyMatrixD3(tmat, R_mat);
      matInverseMatrixD3(invTmat, R_mat, 0);
      break;
    default:
      return null;
  }

  const multi = getCenteringShifts(shift, centering);

  const mappingTable: number[] = new Array<number>(primitive.size * multi).fill(0);

  const stdCell = celAllocCell(primitive.size * multi);
  if (stdCell === null) {
    return null;
  }

  matMultiplyMatrixD3(stdCell.lattice, primitive.lattice, invTmat);

  let numAtom = 0;
  for (let i = 0; i < primitive.size; i++) {
    matMultiplyMatrixVectorD3(stdCell.position[numAtom], tmat, primitive.position[i]);
    stdCell.types[numAtom] = primitive.types[i];
    numAtom++;
  }

  for (let i = 0; i < multi - 1; i++) {
    for (let j = 0; j < primitive.size; j++) {
      matCopyVectorD3(stdCell.position[numAtom], stdCell.position[j]);
      for (let k = 0; k < 3; k++) {
        stdCell.position[numAtom][k] += shift[i][k];
      }
      stdCell.types[numAtom] = stdCell.types[j];
      numAtom++;
    }
  }

  return celTrimCell(mappingTable, stdCell.lattice, stdCell, symprec);
}

/** Deep copy of every field of `src` into `dst`. */
export function spaCopySpacegroup(dst: Spacegroup, src: Spacegroup): void {
  dst.number = src.number;
  dst.hall_number = src.hall_number;
  dst.pointgroup_number = src.pointgroup_number;
  dst.schoenflies = src.schoenflies;
  dst.hall_symbol = src.hall_symbol;
  dst.international = src.international;
  dst.international_long = src.international_long;
  dst.international_short = src.international_short;
  dst.choice = src.choice;
  dst.bravais_lattice = [0, 1, 2].map(() => [0, 0, 0]);
  matCopyMatrixD3(dst.bravais_lattice, src.bravais_lattice);
  dst.origin_shift = [0, 0, 0];
  matCopyVectorD3(dst.origin_shift, src.origin_shift);
}

/** search_spacegroup_with_symmetry */
function searchSpacegroupWithSymmetry(
  primitive: PrimitiveArg,
  candidates: number[],
  numCandidates: number,
  symmetry: Symmetry,
  symprec: number,
  angleTolerance: number,
): Spacegroup | null {
  const convLattice = zeroMat3();
  const originShift = [0, 0, 0];

  const pointsym = ptgGetPointsymmetry(symmetry.rot, symmetry.size);
  if (pointsym.size < symmetry.size) {
    /* Point symmetry of primitive cell is broken. */
    return null;
  }

  const hallNumber = iterativeSearchHallNumber(
    originShift,
    convLattice,
    candidates,
    numCandidates,
    primitive,
    symmetry,
    symprec,
    angleTolerance,
  );
  if (hallNumber === 0) {
    return null;
  }

  return getSpacegroup(hallNumber, originShift, convLattice);
}

/** get_spacegroup */
function getSpacegroup(hallNumber: number, originShift: Vec3, convLattice: Mat3): Spacegroup | null {
  const spacegroup: Spacegroup = {
    number: 0,
    hall_number: 0,
    pointgroup_number: 0,
    schoenflies: '',
    hall_symbol: '',
    international: '',
    international_long: '',
    international_short: '',
    choice: '',
    bravais_lattice: zeroMat3(),
    origin_shift: [0, 0, 0],
  };

  if (0 < hallNumber && hallNumber < 531) {
    const spacegroupType = spgdbGetSpacegroupType(hallNumber);
    matCopyMatrixD3(spacegroup.bravais_lattice, convLattice);
    matCopyVectorD3(spacegroup.origin_shift, originShift);
    spacegroup.number = spacegroupType.number;
    spacegroup.hall_number = hallNumber;
    spacegroup.pointgroup_number = spacegroupType.pointgroup_number;
    spacegroup.schoenflies = spacegroupType.schoenflies;
    spacegroup.hall_symbol = spacegroupType.hall_symbol;
    spacegroup.international = spacegroupType.international;
    spacegroup.international_long = spacegroupType.international_full;
    spacegroup.international_short = spacegroupType.international_short;
    spacegroup.choice = spacegroupType.choice;
  }

  return spacegroup;
}

/** iterative_search_hall_number: retry with operations reduced at a tolerance shrinking by REDUCE_RATE. */
function iterativeSearchHallNumber(
  originShift: Vec3,
  convLattice: Mat3,
  candidates: number[],
  numCandidates: number,
  primitive: PrimitiveArg,
  symmetry: Symmetry,
  symprec: number,
  angleTolerance: number,
): number {
  let hallNumber = searchHallNumber(originShift, convLattice, candidates, numCandidates, primitive, symmetry, symprec);

  if (hallNumber !== 0) {
    return hallNumber;
  }

  let tolerance = symprec;
  for (let attempt = 0; attempt < NUM_ATTEMPT; attempt++) {
    tolerance *= REDUCE_RATE;
    const symReduced = symReduceOperation(primitive.cell as Cell, symmetry, tolerance, angleTolerance);
    // C dereferences the result unchecked; a failed reduction counts as a failed attempt here.
    hallNumber =
      symReduced === null ? 0 : searchHallNumber(originShift, convLattice, candidates, numCandidates, primitive, symReduced, symprec);
    if (hallNumber !== 0) {
      break;
    }
  }

  return hallNumber;
}

/** search_hall_number */
function searchHallNumber(
  originShift: Vec3,
  convLattice: Mat3,
  candidates: number[],
  numCandidates: number,
  primitive: PrimitiveArg,
  symmetry: Symmetry,
  symprec: number,
): number {
  const tmatInt = zeroMat3();
  const correctionMat = zeroMat3();
  const tmat = zeroMat3();
  const convLatticeTmp = zeroMat3();
  const cell = primitive.cell as Cell;

  /* primitive->cell->lattice is set right handed. */
  /* tmat_int is set right handed. */

  /* For rhombohedral system, basis vectors for hP */
  /* (hexagonal lattice basis) are provided by tmat_int, */
  /* but may be either obverse or reverse setting. */
  const pointgroup = ptgGetTransformationMatrix(tmatInt, symmetry.rot, symmetry.size);

  if (pointgroup.number === 0) {
    return 0;
  }

  /* For LAUE1 and LAUE2M, update tmat_int by making smallest lattice */
  if (pointgroup.laue === Laue.LAUE1 || pointgroup.laue === Laue.LAUE2M) {
    matMultiplyMatrixDi3(convLatticeTmp, cell.lattice, tmatInt);

    if (pointgroup.laue === Laue.LAUE1) {
      if (!changeBasisTricli(tmatInt, convLatticeTmp, cell.lattice, symprec)) {
        return 0;
      }
    }

    /* The angle between non-unique axes may be acute or non-acute. */
    if (pointgroup.laue === Laue.LAUE2M) {
      if (!changeBasisMonocli(tmatInt, convLatticeTmp, cell.lattice, symprec)) {
        return 0;
      }
    }
  }

  /* For rhombohedral system, correction matrix to hR */
  /* (a=b=c primitive lattice basis) is returned judging */
  /* either obverse or reverse setting. centering=R_CENTER. */
  const centering = getCentering(correctionMat, tmatInt, pointgroup.laue);
  if (centering === CENTERING_ERROR) {
    return 0;
  }

  matMultiplyMatrixId3(tmat, tmatInt, correctionMat);
  matMultiplyMatrixD3(convLattice, cell.lattice, tmat);

  /* For rhombohedral system, symmetry for a=b=c primitive lattice */
  /* basis is returned although centering == R_CENTER. */
  const convSymmetry = getInitialConventionalSymmetry(centering, tmat, symmetry);
  if (convSymmetry === null) {
    return 0;
  }

  for (let i = 0; i < numCandidates; i++) {
    /* Check if hall_number is that of rhombohedral. */
    if (
      matchHallSymbolDb(
        originShift,
        convLattice /* <-- modified only matched */,
        primitive.orig_lattice,
        candidates[i],
        pointgroup.number,
        pointgroup.holohedry,
        centering,
        convSymmetry,
        symprec,
      )
    ) {
      return candidates[i];
    }
  }

  return 0;
}

/** change_basis_tricli: Niggli cell reduction. Returns 0 if failed. */
function changeBasisTricli(tmatInt: Mat3, convLattice: Mat3, primitiveLattice: Mat3, symprec: number): number {
  const niggliCell = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  const smallestLattice = zeroMat3();
  const invLattice = zeroMat3();
  const tmat = zeroMat3();

  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      niggliCell[i * 3 + j] = convLattice[i][j];
    }
  }

  if (!periodicNiggliReduce(niggliCell, symprec * symprec, -1)) {
    return 0;
  }

  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      smallestLattice[i][j] = niggliCell[i * 3 + j];
    }
  }
  if (matGetDeterminantD3(smallestLattice) < 0) {
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        smallestLattice[i][j] = -smallestLattice[i][j];
      }
    }
  }
  matInverseMatrixD3(invLattice, primitiveLattice, 0);
  matMultiplyMatrixD3(tmat, invLattice, smallestLattice);
  matCastMatrix3dTo3i(tmatInt, tmat);

  return 1;
}

/** change_basis_monocli: shortest a, c lattice vectors (|a| < |c|) by 2D Delaunay reduction. Returns 0 if failed. */
function changeBasisMonocli(tmatInt: Mat3, convLattice: Mat3, primitiveLattice: Mat3, symprec: number): number {
  const smallestLattice = zeroMat3();
  const invLattice = zeroMat3();
  const tmat = zeroMat3();

  /* aperiodic_axis_conv == -1: del_layer_delaunay_reduce_2D(..., 1, -1, symprec) */
  if (!delDelaunayReduce2D(smallestLattice, convLattice, 1 /* unique axis of b */, symprec)) {
    return 0;
  }

  matInverseMatrixD3(invLattice, primitiveLattice, 0);
  matMultiplyMatrixD3(tmat, invLattice, smallestLattice);
  matCastMatrix3dTo3i(tmatInt, tmat);
  return 1;
}

/** get_initial_conventional_symmetry. Returns null if failed. */
function getInitialConventionalSymmetry(centering: Centering, tmat: Mat3, symmetry: Symmetry): Symmetry | null {
  if (centering === R_CENTER) {
    /* hP for rhombohedral */
    return getConventionalSymmetry(tmat, PRIMITIVE, symmetry);
  }
  return getConventionalSymmetry(tmat, centering, symmetry);
}

/** match_hall_symbol_db. Returns 0 if failed. */
function matchHallSymbolDb(
  originShift: Vec3,
  convLattice: Mat3,
  origLattice: Mat3 | null,
  hallNumber: number,
  pointgroupNumber: number,
  holohedry: Holohedry,
  centering: Centering,
  symmetry: Symmetry,
  symprec: number,
): number {
  const changedLattice = zeroMat3();
  const invLattice = zeroMat3();
  const tmat = zeroMat3();

  const spacegroupType = spgdbGetSpacegroupType(hallNumber);

  if (pointgroupNumber !== spacegroupType.pointgroup_number) {
    return 0;
  }

  if (holohedry === Holohedry.MONOCLI) {
    return matchHallSymbolDbMonocli(originShift, convLattice, origLattice, hallNumber, spacegroupType.number, centering, symmetry, symprec);
  }

  if (holohedry === Holohedry.ORTHO) {
    const numAxisChoices = num_axis_choices_ortho[spacegroupType.number - 16];
    if (numAxisChoices === 6) {
      return matchHallSymbolDbOrtho(originShift, convLattice, origLattice, hallNumber, centering, symmetry, 6, symprec);
    }

    if (numAxisChoices === 3) {
      return matchHallSymbolDbOrtho(originShift, convLattice, origLattice, hallNumber, centering, symmetry, 3, symprec);
    }

    /* Switching two axes */
    /* Two steps: */
    /*   1. Finding principal axis for the representative hall symbol */
    /*      of the specified hall symbol without checking basis vector */
    /*      lengths preference. */
    /*   2. Finding transformation matrix and origin shift for the */
    /*      specified hall symbol. */
    if (hallNumber > 0 && numAxisChoices === 2) {
      matCopyMatrixD3(changedLattice, convLattice);
      if (
        !matchHallSymbolDbOrtho(
          originShift,
          changedLattice,
          origLattice,
          spacegroup_to_hall_number[spacegroupType.number - 1],
          centering,
          symmetry,
          0,
          symprec,
        )
      ) {
        return 0;
      }
      matInverseMatrixD3(invLattice, convLattice, 0);
      matMultiplyMatrixD3(tmat, invLattice, changedLattice);

      const changedSymmetry = getConventionalSymmetry(tmat, PRIMITIVE, symmetry);
      if (changedSymmetry === null) {
        return 0;
      }

      const isFound = matchHallSymbolDbOrtho(originShift, changedLattice, origLattice, hallNumber, centering, changedSymmetry, 2, symprec);
      if (isFound) {
        matCopyMatrixD3(convLattice, changedLattice);
        return 1;
      }
      return 0;
    }

    /* The layer-group branch (hall_number < 0, c principal) is left out. */

    if (numAxisChoices === 1) {
      return matchHallSymbolDbOrtho(originShift, convLattice, origLattice, hallNumber, centering, symmetry, 1, symprec);
    }

    return 0;
  }

  if (holohedry === Holohedry.CUBIC) {
    return matchHallSymbolDbCubic(originShift, convLattice, origLattice, hallNumber, centering, symmetry, symprec);
  }

  if (holohedry === Holohedry.TRIGO) {
    if (centering === R_CENTER && RHOMBOHEDRAL_HALL_NUMBERS.has(hallNumber)) {
      /* Rhombohedral. symmetry is for a=b=c basis. */
      return matchHallSymbolDbRhombo(originShift, convLattice, origLattice, hallNumber, symmetry, symprec);
    }
    /* Do not break for other trigonal cases */
  }

  /* default: HEXA, TETRA, TRICLI and rest of TRIGO */
  return matchHallSymbolDbOthers(originShift, convLattice, origLattice, hallNumber, centering, holohedry, symmetry, symprec);
}

/** match_hall_symbol_db_monocli. Returns 0 if failed. */
function matchHallSymbolDbMonocli(
  originShift: Vec3,
  convLattice: Mat3,
  origLattice: Mat3 | null,
  hallNumber: number,
  spaceGroupNumber: number,
  centering: Centering,
  convSymmetry: Symmetry,
  symprec: number,
): number {
  const isFound: number[] = new Array<number>(36).fill(0);
  const normsSquared: number[][] = Array.from({ length: 36 }, () => [0, 0]);
  const allConvLattices: Mat3[] = Array.from({ length: 36 }, () => zeroMat3());
  const allOriginShifts: Vec3[] = Array.from({ length: 36 }, () => [0, 0, 0]);

  /* E. Parthe and L. M. Gelato */
  /* "The best unit cell for monoclinic structure..." (1983) */
  /* 3: P2, p112. 4: P2_1, p11m. 6: Pm, p112/m. 10: P2/m. 11: P2_1/m */
  let checkNorms: number;
  if (
    spaceGroupNumber === 3 ||
    spaceGroupNumber === 4 ||
    spaceGroupNumber === 6 ||
    (hallNumber > 0 && (spaceGroupNumber === 10 || spaceGroupNumber === 11))
  ) {
    /* |a| < |c| for unique axis b. (This is as written in the paper 1983.) */
    /* |a| < |b| for unique axis c. (This is spgilb definition.) */
    /* |b| < |c| for unique axis a. (This is spgilb definition.) */
    checkNorms = 1;
  } else {
    checkNorms = 0;
  }

  /* hall_number > 0: the layer-group cases (12 and 8 changes of basis) are left out. */
  const numChangeOfBasis = 36;

  for (let i = 0; i < numChangeOfBasis; i++) {
    matCopyMatrixD3(allConvLattices[i], convLattice);
    const j = i;

    /* all_origin_shifts[i] is possibly overwritten. */
    /* is_found == 0: Not found */
    /* is_found == 1: Found. conv_lattice may not be similar to orig_lattice */
    /* is_found == 2: Found. conv_lattice is similar to orig_lattice */
    isFound[i] = matchHallSymbolDbMonocliInLoop(
      allOriginShifts[i],
      allConvLattices[i],
      normsSquared[i],
      j,
      origLattice,
      checkNorms,
      hallNumber,
      centering,
      convSymmetry,
      symprec,
    );
  }

  let isFoundAny = 0;
  let shortestNormSum = 0;
  for (let i = 0; i < numChangeOfBasis; i++) {
    if (isFound[i]) {
      shortestNormSum = Math.sqrt(normsSquared[i][0]) + Math.sqrt(normsSquared[i][1]);
      isFoundAny = 1;
      break;
    }
  }

  if (!isFoundAny) {
    return 0;
  }

  /* Find shortest non-unique axes lengths */
  for (let i = 0; i < numChangeOfBasis; i++) {
    if (isFound[i]) {
      const normSum = Math.sqrt(normsSquared[i][0]) + Math.sqrt(normsSquared[i][1]);
      if (shortestNormSum > normSum) {
        shortestNormSum = normSum;
      }
    }
  }

  /* Prefers is_found == 2, i.e., similar to orig_lattice */
  let iShortest = -1;
  for (let i = 0; i < numChangeOfBasis; i++) {
    if (isFound[i]) {
      const normSum = Math.sqrt(normsSquared[i][0]) + Math.sqrt(normsSquared[i][1]);
      if (matDabs(normSum - shortestNormSum) < symprec) {
        if (isFound[i] === 2) {
          iShortest = i;
          break;
        }
        if (iShortest < 0) {
          iShortest = i;
        }
      }
    }
  }

  matCopyVectorD3(originShift, allOriginShifts[iShortest]);
  matCopyMatrixD3(convLattice, allConvLattices[iShortest]);
  return 1;
}

/** match_hall_symbol_db_monocli_in_loop: 0 not found, 1 found, 2 found with axes similar to orig_lattice. */
function matchHallSymbolDbMonocliInLoop(
  originShift: Vec3,
  convLattice: Mat3,
  normsSquared: number[],
  i: number,
  origLattice: Mat3 | null,
  checkNorms: number,
  hallNumber: number,
  centering: Centering,
  convSymmetry: Symmetry,
  symprec: number,
): number {
  const vec: Vec3[] = [
    [0, 0, 0],
    [0, 0, 0],
  ];
  const tmat = zeroMat3();
  const changeOfBasis = zeroMat3();

  /* centring type should be P or C */
  let changedCentering: Centering;
  if (centering === C_FACE) {
    changedCentering = change_of_centering_monocli[i];
  } else {
    /* suppose PRIMITIVE */
    changedCentering = centering;
  }

  matCopyMatrixD3(changeOfBasis, change_of_basis_monocli[i]);
  matMultiplyMatrixD3(convLattice, convLattice, changeOfBasis);
  const uniqueAxis = change_of_unique_axis_monocli[i];

  /* Make non-acute and length preference */
  /* norms_squared[0] and norms_squared[1] are the norms of the two */
  /* non unique axes among a,b,c. */
  let l = 0;
  for (let j = 0; j < 3; j++) {
    if (j === uniqueAxis) {
      continue;
    }
    for (let k = 0; k < 3; k++) {
      vec[l][k] = convLattice[k][j];
    }
    normsSquared[l] = matNormSquaredD3(vec[l]);
    l++;
  }

  /* discard if principal angle is acute. */
  if (vec[0][0] * vec[1][0] + vec[0][1] * vec[1][1] + vec[0][2] * vec[1][2] > ZERO_PREC) {
    return 0;
  }

  /* Choose |a| < |b| < |c| among two non-principles axes */
  /* if there are freedom. */
  if (checkNorms) {
    if (normsSquared[0] > normsSquared[1] + ZERO_PREC) {
      return 0;
    }
  }

  /* When orig_lattice is given not NULL, try to find similar (a, b, c) */
  /* choices to the input (a, b, c) by flipping a, b, c axes. */
  /* Here flipping means a -> -a, and so on. */
  /* Note that flipped (a,b,c) that match those of input should not */
  /* change centring for monoclinic case. */
  let retval = 1;
  if (origLattice !== null) {
    if (matGetDeterminantD3(origLattice) > symprec) {
      /* This (mode=1) effectively checks C2 rotation along unique axis. */
      if (isEquivalentLattice(tmat, 1, convLattice, origLattice, symprec)) {
        if (tmat[(uniqueAxis + 1) % 3][(uniqueAxis + 1) % 3] * tmat[(uniqueAxis + 2) % 3][(uniqueAxis + 2) % 3] > ZERO_PREC) {
          matMultiplyMatrixD3(convLattice, convLattice, tmat);
          matMultiplyMatrixD3(changeOfBasis, changeOfBasis, tmat);
          retval = 2;
        }
      }
    }
  }

  const changedSymmetry = getConventionalSymmetry(changeOfBasis, PRIMITIVE, convSymmetry);
  if (changedSymmetry === null) {
    return 0;
  }

  const isFound = halMatchHallSymbolDb(originShift, convLattice, hallNumber, changedCentering, changedSymmetry, symprec);

  if (isFound) {
    return retval;
  }
  return 0;
}

/** match_hall_symbol_db_ortho. Returns 0 if failed. */
function matchHallSymbolDbOrtho(
  originShift: Vec3,
  convLattice: Mat3,
  origLattice: Mat3 | null,
  hallNumber: number,
  centering: Centering,
  convSymmetry: Symmetry,
  numFreeAxes: number,
  symprec: number,
): number {
  const j = hallNumber > 0 ? 1 : 3;

  /* Try to find the best (a, b, c) by flipping axes. */
  if (origLattice !== null) {
    if (matGetDeterminantD3(origLattice) > symprec) {
      for (let i = 0; i < 6; i += j) {
        if (
          matchHallSymbolDbOrthoInLoop(originShift, convLattice, origLattice, i, hallNumber, centering, convSymmetry, numFreeAxes, symprec)
        ) {
          return 1;
        }
      }
    }
  }

  /* If flipping didn't work, usual search is made. */
  for (let i = 0; i < 6; i += j) {
    if (matchHallSymbolDbOrthoInLoop(originShift, convLattice, null, i, hallNumber, centering, convSymmetry, numFreeAxes, symprec)) {
      return 1;
    }
  }

  return 0;
}

/** match_hall_symbol_db_ortho_in_loop */
function matchHallSymbolDbOrthoInLoop(
  originShift: Vec3,
  convLattice: Mat3,
  origLattice: Mat3 | null,
  i: number,
  hallNumber: number,
  centering: Centering,
  symmetry: Symmetry,
  numFreeAxes: number,
  symprec: number,
): number {
  const vec = [0, 0, 0];
  const norms = [0, 0, 0];
  const changedLattice = zeroMat3();
  const tmat = zeroMat3();
  const changeOfBasis = zeroMat3();

  let changedCentering: Centering;
  if (centering === C_FACE) {
    changedCentering = change_of_centering_ortho[i];
  } else {
    changedCentering = centering;
  }

  matMultiplyMatrixD3(changedLattice, convLattice, change_of_basis_ortho[i]);

  /* When orig_lattice is given not NULL, try to find similar (a, b, c) */
  /* choices to the input (a, b, c) by flipping a, b, c axes. */
  /* Here flipping means a -> -a, and so on. */
  /* Note that flipping of axes doesn't change centring. */
  matCopyMatrixD3(changeOfBasis, change_of_basis_ortho[i]);
  if (origLattice !== null) {
    if (isEquivalentLattice(tmat, 1, changedLattice, origLattice, symprec)) {
      matMultiplyMatrixD3(changedLattice, changedLattice, tmat);
      matMultiplyMatrixD3(changeOfBasis, changeOfBasis, tmat);
    } else {
      return 0; /* This is necessary to run through all change_of_basis_ortho. */
    }
  }

  if (numFreeAxes === 2) {
    let l = 0;
    for (let j = 0; j < 3; j++) {
      if (j === change_of_unique_axis_ortho[i]) {
        continue;
      }
      for (let k = 0; k < 3; k++) {
        vec[k] = changedLattice[k][j];
      }
      norms[l] = matNormSquaredD3(vec);
      l++;
    }
    if (norms[0] > norms[1] + ZERO_PREC) {
      return 0;
    }
  }

  if (numFreeAxes === 3) {
    for (let j = 0; j < 3; j++) {
      for (let k = 0; k < 3; k++) {
        vec[k] = changedLattice[k][j];
      }
      norms[j] = matNormSquaredD3(vec);
    }
    if (norms[0] > norms[1] + ZERO_PREC || norms[0] > norms[2] + ZERO_PREC) {
      return 0;
    }
  }

  if (numFreeAxes === 6) {
    for (let j = 0; j < 3; j++) {
      for (let k = 0; k < 3; k++) {
        vec[k] = changedLattice[k][j];
      }
      norms[j] = matNormSquaredD3(vec);
    }
    if (norms[0] > norms[1] + ZERO_PREC || norms[1] > norms[2] + ZERO_PREC) {
      return 0;
    }
  }

  const changedSymmetry = getConventionalSymmetry(changeOfBasis, PRIMITIVE, symmetry);
  if (changedSymmetry === null) {
    return 0;
  }

  const isFound = halMatchHallSymbolDb(originShift, changedLattice, hallNumber, changedCentering, changedSymmetry, symprec);
  if (isFound) {
    matCopyMatrixD3(convLattice, changedLattice);
    return 1;
  }

  return 0;
}

/** match_hall_symbol_db_cubic */
function matchHallSymbolDbCubic(
  originShift: Vec3,
  convLattice: Mat3,
  origLattice: Mat3 | null,
  hallNumber: number,
  centering: Centering,
  convSymmetry: Symmetry,
  symprec: number,
): number {
  /* Special treatment for No. 205 (501) is included in this change of */
  /* basis. To see old code, commit hash 67997654 and change_of_basis_501. */
  if (origLattice !== null) {
    if (matGetDeterminantD3(origLattice) > symprec) {
      for (let i = 0; i < 6; i++) {
        if (matchHallSymbolDbCubicInLoop(originShift, convLattice, origLattice, i, hallNumber, centering, convSymmetry, symprec)) {
          return 1;
        }
      }
    }
  }

  for (let i = 0; i < 6; i++) {
    if (matchHallSymbolDbCubicInLoop(originShift, convLattice, null, i, hallNumber, centering, convSymmetry, symprec)) {
      return 1;
    }
  }
  return 0;
}

/** match_hall_symbol_db_cubic_in_loop */
function matchHallSymbolDbCubicInLoop(
  originShift: Vec3,
  convLattice: Mat3,
  origLattice: Mat3 | null,
  i: number,
  hallNumber: number,
  centering: Centering,
  convSymmetry: Symmetry,
  symprec: number,
): number {
  const changedLattice = zeroMat3();
  const tmat = zeroMat3();
  const changeOfBasis = zeroMat3();

  matCopyMatrixD3(changeOfBasis, change_of_basis_ortho[i]);
  matMultiplyMatrixD3(changedLattice, convLattice, changeOfBasis);

  if (origLattice !== null) {
    if (isEquivalentLattice(tmat, 1, changedLattice, origLattice, symprec)) {
      matMultiplyMatrixD3(changedLattice, changedLattice, tmat);
      matMultiplyMatrixD3(changeOfBasis, changeOfBasis, tmat);
    } else {
      return 0; /* This is necessary to run through all change_of_basis_ortho. */
    }
  }

  const changedSymmetry = getConventionalSymmetry(changeOfBasis, PRIMITIVE, convSymmetry);
  if (changedSymmetry === null) {
    return 0;
  }

  const isFound = halMatchHallSymbolDb(originShift, changedLattice, hallNumber, centering, changedSymmetry, symprec);

  if (isFound) {
    matCopyMatrixD3(convLattice, changedLattice);
    return 1;
  }

  return 0;
}

/** match_hall_symbol_db_rhombo */
function matchHallSymbolDbRhombo(
  originShift: Vec3,
  convLattice: Mat3,
  origLattice: Mat3 | null,
  hallNumber: number,
  convSymmetry: Symmetry,
  symprec: number,
): number {
  if (RHOMBOHEDRAL_HEXAGONAL_AXES.has(hallNumber)) {
    /* Hexagonal lattice */
    const isFound = matchHallSymbolDbChangeOfBasisLoop(
      originShift,
      convLattice,
      origLattice,
      change_of_basis_rhombo_hex,
      6,
      hallNumber,
      R_CENTER,
      convSymmetry,
      symprec,
    );
    return isFound ? 1 : 0;
  }
  /* Rhombohedral (a=b=c) lattice */
  return matchHallSymbolDbChangeOfBasisLoop(
    originShift,
    convLattice,
    origLattice,
    change_of_basis_rhombo,
    6,
    hallNumber,
    PRIMITIVE,
    convSymmetry,
    symprec,
  );
}

/** match_hall_symbol_db_others: HEXA, TETRA, TRICLI and TRIGO but not Rhombohedral a=b=c. */
function matchHallSymbolDbOthers(
  originShift: Vec3,
  convLattice: Mat3,
  origLattice: Mat3 | null,
  hallNumber: number,
  centering: Centering,
  holohedry: Holohedry,
  convSymmetry: Symmetry,
  symprec: number,
): number {
  /* TRICLI: No check. */
  if (holohedry === Holohedry.TRICLI) {
    return halMatchHallSymbolDb(originShift, convLattice, hallNumber, centering, convSymmetry, symprec);
  }

  /* TETRA: Check over 4 fold rotations with/without flipping c-axis */
  if (holohedry === Holohedry.TETRA) {
    return matchHallSymbolDbChangeOfBasisLoop(
      originShift,
      convLattice,
      origLattice,
      change_of_basis_C4,
      8,
      hallNumber,
      centering,
      convSymmetry,
      symprec,
    );
  }

  /* HEXA and TRIGO but not Rhombohedral: */
  /*    Check over 6 fold rotations with/without flipping c-axis */
  return matchHallSymbolDbChangeOfBasisLoop(
    originShift,
    convLattice,
    origLattice,
    change_of_basis_C6,
    12,
    hallNumber,
    centering,
    convSymmetry,
    symprec,
  );
}

/** match_hall_symbol_db_change_of_basis_loop */
function matchHallSymbolDbChangeOfBasisLoop(
  originShift: Vec3,
  convLattice: Mat3,
  origLattice: Mat3 | null,
  changeOfBasis: Mat3[],
  numChangeOfBasis: number,
  hallNumber: number,
  centering: Centering,
  convSymmetry: Symmetry,
  symprec: number,
): number {
  const changedLattice = zeroMat3();
  const tmat = zeroMat3();

  let centeringForSymmetry: Centering;
  if (centering === R_CENTER) {
    centeringForSymmetry = R_CENTER;
  } else {
    centeringForSymmetry = PRIMITIVE;
  }

  /* Check of similarity of basis vectors to those of input */
  if (origLattice !== null) {
    if (matGetDeterminantD3(origLattice) > symprec) {
      for (let i = 0; i < numChangeOfBasis; i++) {
        const changedSymmetry = getConventionalSymmetry(changeOfBasis[i], centeringForSymmetry, convSymmetry);
        if (changedSymmetry === null) {
          continue;
        }
        matMultiplyMatrixD3(changedLattice, convLattice, changeOfBasis[i]);
        let isFound: number;
        if (isEquivalentLattice(tmat, 0, changedLattice, origLattice, symprec)) {
          /* Here R_CENTER means hP (hexagonal) setting. */
          isFound = halMatchHallSymbolDb(originShift, changedLattice, hallNumber, centering, changedSymmetry, symprec);
        } else {
          isFound = 0;
        }
        if (isFound) {
          matCopyMatrixD3(convLattice, changedLattice);
          return 1;
        }
      }
    }
  }

  /* No check of similarity of basis vectors to those of input */
  for (let i = 0; i < numChangeOfBasis; i++) {
    const changedSymmetry = getConventionalSymmetry(changeOfBasis[i], centeringForSymmetry, convSymmetry);
    if (changedSymmetry === null) {
      continue;
    }
    matMultiplyMatrixD3(changedLattice, convLattice, changeOfBasis[i]);
    const isFound = halMatchHallSymbolDb(originShift, changedLattice, hallNumber, centering, changedSymmetry, symprec);
    if (isFound) {
      matCopyMatrixD3(convLattice, changedLattice);
      return 1;
    }
  }

  return 0;
}

/** get_conventional_symmetry: C·S·C⁻¹ rotations, C⁻¹·t translations, plus the centring translations. */
function getConventionalSymmetry(tmat: Mat3, centering: Centering, primitiveSym: Symmetry): Symmetry | null {
  const invTmat = zeroMat3();
  const shift = zeroMat3();
  const symmetryRotD3 = zeroMat3();
  const primitiveSymRotD3 = zeroMat3();

  const size = primitiveSym.size;

  let symmetry: Symmetry | null;
  switch (centering) {
    case FACE:
      symmetry = symAllocSymmetry(size * 4);
      break;
    case R_CENTER:
      symmetry = symAllocSymmetry(size * 3);
      break;
    case BODY:
    case A_FACE:
    case B_FACE:
    case C_FACE:
      symmetry = symAllocSymmetry(size * 2);
      break;
    default:
      symmetry = symAllocSymmetry(size);
      break;
  }
  if (symmetry === null) {
    return null;
  }

  for (let i = 0; i < size; i++) {
    matCastMatrix3iTo3d(primitiveSymRotD3, primitiveSym.rot[i]);

    /* C*S*C^-1: recover conventional cell symmetry operation */
    matGetSimilarMatrixD3(symmetryRotD3, primitiveSymRotD3, tmat, 0);
    matCastMatrix3dTo3i(symmetry.rot[i], symmetryRotD3);

    /* translation in conventional cell: C = B^-1*P */
    matInverseMatrixD3(invTmat, tmat, 0);
    matMultiplyMatrixVectorD3(symmetry.trans[i], invTmat, primitiveSym.trans[i]);
  }

  if (centering !== PRIMITIVE) {
    const multi = getCenteringShifts(shift, centering);
    for (let i = 0; i < multi - 1; i++) {
      for (let j = 0; j < size; j++) {
        matCopyMatrixI3(symmetry.rot[(i + 1) * size + j], symmetry.rot[j]);
        for (let k = 0; k < 3; k++) {
          symmetry.trans[(i + 1) * size + j][k] = symmetry.trans[j][k] + shift[i][k];
        }
      }
    }
  }

  /* Reduction of translations mod 1 is done in get_origin_shift. */

  return symmetry;
}

/** get_centering: centring from |det tmat|, and the correction to C (monoclinic/orthorhombic) or hR. */
function getCentering(correctionMat: Mat3, tmat: Mat3, laue: Laue): Centering {
  const transCorrMat = zeroMat3();
  let centering: Centering;

  matCopyMatrixD3(correctionMat, identity);
  const det = Math.abs(matGetDeterminantI3(tmat));

  switch (det) {
    case 1:
      centering = PRIMITIVE;
      break;

    case 2:
      centering = getBaseCenter(tmat);
      if (centering === A_FACE) {
        if (laue === Laue.LAUE2M) {
          /* Monocli A to C */
          matCopyMatrixD3(correctionMat, monocli_a2c);
        } else {
          matCopyMatrixD3(correctionMat, a2c);
        }
        centering = C_FACE;
      }
      if (centering === B_FACE) {
        matCopyMatrixD3(correctionMat, b2c);
        centering = C_FACE;
      }
      if (laue === Laue.LAUE2M && centering === BODY) {
        /* Monocli I to C */
        matCopyMatrixD3(correctionMat, monocli_i2c);
        centering = C_FACE;
      }
      break;

    case 3:
      /* hP (a=b) but not hR (a=b=c) */
      centering = R_CENTER;
      matMultiplyMatrixId3(transCorrMat, tmat, rhombo_obverse);
      if (matIsIntMatrix(transCorrMat, INT_PREC)) {
        matCopyMatrixD3(correctionMat, rhombo_obverse);
      }
      matMultiplyMatrixId3(transCorrMat, tmat, rhomb_reverse);
      if (matIsIntMatrix(transCorrMat, INT_PREC)) {
        matCopyMatrixD3(correctionMat, rhomb_reverse);
      }
      break;

    case 4:
      centering = FACE;
      break;

    default:
      centering = CENTERING_ERROR;
      break;
  }

  return centering;
}

/** get_base_center */
function getBaseCenter(tmat: Mat3): Centering {
  /* C center */
  for (let i = 0; i < 3; i++) {
    if (tmat[i][0] === 0 && tmat[i][1] === 0 && Math.abs(tmat[i][2]) === 1) {
      return C_FACE;
    }
  }

  /* A center */
  for (let i = 0; i < 3; i++) {
    if (Math.abs(tmat[i][0]) === 1 && tmat[i][1] === 0 && tmat[i][2] === 0) {
      return A_FACE;
    }
  }

  /* B center */
  for (let i = 0; i < 3; i++) {
    if (tmat[i][0] === 0 && Math.abs(tmat[i][1]) === 1 && tmat[i][2] === 0) {
      return B_FACE;
    }
  }

  /* body center */
  if (
    Math.abs(tmat[0][0]) + Math.abs(tmat[0][1]) + Math.abs(tmat[0][2]) === 2 &&
    Math.abs(tmat[1][0]) + Math.abs(tmat[1][1]) + Math.abs(tmat[1][2]) === 2 &&
    Math.abs(tmat[2][0]) + Math.abs(tmat[2][1]) + Math.abs(tmat[2][2]) === 2
  ) {
    return BODY;
  }

  /* This should not happen. */
  return PRIMITIVE;
}

/** get_centering_shifts: the non-zero centring translations (rows of `shift`); returns their number + 1. */
function getCenteringShifts(shift: Mat3, centering: Centering): number {
  let multi = 1;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      shift[i][j] = 0;
    }
  }

  if (centering !== PRIMITIVE) {
    if (centering !== FACE && centering !== R_CENTER) {
      for (let i = 0; i < 3; i++) {
        shift[0][i] = 0.5;
      } /* BODY */
      if (centering === A_FACE) {
        shift[0][0] = 0;
      }
      if (centering === B_FACE) {
        shift[0][1] = 0;
      }
      if (centering === C_FACE) {
        shift[0][2] = 0;
      }
      multi = 2;
    }

    if (centering === R_CENTER) {
      shift[0][0] = 2 / 3;
      shift[0][1] = 1 / 3;
      shift[0][2] = 1 / 3;
      shift[1][0] = 1 / 3;
      shift[1][1] = 2 / 3;
      shift[1][2] = 2 / 3;
      multi = 3;
    }

    if (centering === FACE) {
      shift[0][0] = 0;
      shift[0][1] = 0.5;
      shift[0][2] = 0.5;
      shift[1][0] = 0.5;
      shift[1][1] = 0;
      shift[1][2] = 0.5;
      shift[2][0] = 0.5;
      shift[2][1] = 0.5;
      shift[2][2] = 0;
      multi = 4;
    }
  }

  return multi;
}

/**
 * is_equivalent_lattice: tmat = lattice⁻¹·orig_lattice; mode 0: tmat = I, 1: |tmat| = I (axis flips allowed),
 * 2: integer tmat of det 1 with equal metric tensors.
 */
function isEquivalentLattice(tmat: Mat3, mode: number, lattice: Mat3, origLattice: Mat3, symprec: number): number {
  const invLat = zeroMat3();
  const tmatAbs = zeroMat3();
  const metric = zeroMat3();
  const origMetric = zeroMat3();
  const tmatInt = zeroMat3();

  if (matDabs(matGetDeterminantD3(lattice) - matGetDeterminantD3(origLattice)) > symprec) {
    return 0;
  }

  if (!matInverseMatrixD3(invLat, lattice, symprec)) {
    return 0;
  }

  matMultiplyMatrixD3(tmat, invLat, origLattice);

  switch (mode) {
    case 0 /* Check identity of all elements */:
      if (matCheckIdentityMatrixD3(identity, tmat, symprec)) {
        return 1;
      }
      break;

    case 1 /* Check identity of all elements allowing axes flips */:
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          tmatAbs[i][j] = matDabs(tmat[i][j]);
        }
      }
      if (matCheckIdentityMatrixD3(identity, tmatAbs, symprec)) {
        return 1;
      }
      break;

    case 2 /* Check metric tensors */:
      matCastMatrix3dTo3i(tmatInt, tmat);
      if (!matCheckIdentityMatrixId3(tmatInt, tmat, symprec)) {
        break;
      }
      if (matGetDeterminantI3(tmatInt) !== 1) {
        break;
      }
      matGetMetric(origMetric, origLattice);
      matGetMetric(metric, lattice);
      if (matCheckIdentityMatrixD3(origMetric, metric, symprec)) {
        return 1;
      }
      break;
  }

  return 0;
}

/* ---------------------------------------------------------------------------------------------------------- */
/* Port of spglib v2.0.2 src/niggli.c (niggli-0.1.2), 3D only: periodic_niggli_reduce with aperiodic_axis -1  */
/* (no layer_swap_axis / step2_for_layer). `lattice_` is the 3×3 matrix flattened row by row.                */
/* ---------------------------------------------------------------------------------------------------------- */

const NIGGLI_MAX_NUM_LOOP = 100;

/** niggli.c NiggliParams */
interface NiggliParams {
  A: number;
  B: number;
  C: number;
  eta: number;
  xi: number;
  zeta: number;
  eps: number;
  l: number;
  m: number;
  n: number;
  tmat: number[];
  lattice: number[];
}

/** periodic_niggli_reduce (aperiodic_axis must be -1). Returns 1 if reduced; lattice_ is overwritten either way. */
function periodicNiggliReduce(lattice_: number[], eps_: number, aperiodicAxis: number): number {
  const steps = [step1, step2, step3, step4, step5, step6, step7, step8];
  let succeeded = 0;
  void aperiodicAxis; /* always -1 here */

  const p = initialize(lattice_, eps_);

  /* Step 0 */
  if (setParameters(p)) {
    outer: for (let i = 0; i < NIGGLI_MAX_NUM_LOOP; i++) {
      let j: number;
      for (j = 0; j < 8; j++) {
        if (steps[j](p)) {
          if (!reset(p)) {
            break outer;
          }
          if (j === 1 || j === 4 || j === 5 || j === 6 || j === 7) {
            break;
          }
        }
      }
      if (j === 8) {
        succeeded = 1;
        break;
      }
    }
  }

  finalize(lattice_, p);
  return succeeded;
}

/** initialize */
function initialize(lattice_: number[], eps_: number): NiggliParams {
  return {
    A: 0,
    B: 0,
    C: 0,
    eta: 0,
    xi: 0,
    zeta: 0,
    eps: eps_,
    l: 0,
    m: 0,
    n: 0,
    tmat: [0, 0, 0, 0, 0, 0, 0, 0, 0],
    lattice: lattice_.slice(0, 9),
  };
}

/** finalize */
function finalize(lattice_: number[], p: NiggliParams): void {
  for (let i = 0; i < 9; i++) {
    lattice_[i] = p.lattice[i];
  }
}

/** reset: lattice ← lattice · tmat, then the parameters. */
function reset(p: NiggliParams): number {
  const latTmp = multiplyMatrices(p.lattice, p.tmat);
  for (let i = 0; i < 9; i++) {
    p.lattice[i] = latTmp[i];
  }
  return setParameters(p);
}

/** set_parameters */
function setParameters(p: NiggliParams): number {
  const G = getMetric(p.lattice);

  p.A = G[0];
  p.B = G[4];
  p.C = G[8];
  p.xi = G[5] * 2;
  p.eta = G[2] * 2;
  p.zeta = G[1] * 2;

  setAngleTypes(p);

  return 1;
}

/** set_angle_types */
function setAngleTypes(p: NiggliParams): void {
  p.l = 0;
  p.m = 0;
  p.n = 0;
  if (p.xi < -p.eps) {
    p.l = -1;
  }
  if (p.xi > p.eps) {
    p.l = 1;
  }
  if (p.eta < -p.eps) {
    p.m = -1;
  }
  if (p.eta > p.eps) {
    p.m = 1;
  }
  if (p.zeta < -p.eps) {
    p.n = -1;
  }
  if (p.zeta > p.eps) {
    p.n = 1;
  }
}

function setTmat(p: NiggliParams, t: number[]): void {
  for (let i = 0; i < 9; i++) {
    p.tmat[i] = t[i];
  }
}

/** step1 */
function step1(p: NiggliParams): number {
  if (p.A > p.B + p.eps || (!(Math.abs(p.A - p.B) > p.eps) && Math.abs(p.xi) > Math.abs(p.eta) + p.eps)) {
    setTmat(p, [0, -1, 0, -1, 0, 0, 0, 0, -1]);
    return 1;
  }
  return 0;
}

/** step2 */
function step2(p: NiggliParams): number {
  if (p.B > p.C + p.eps || (!(Math.abs(p.B - p.C) > p.eps) && Math.abs(p.eta) > Math.abs(p.zeta) + p.eps)) {
    setTmat(p, [-1, 0, 0, 0, 0, -1, 0, -1, 0]);
    return 1;
  }
  return 0;
}

/** step3 */
function step3(p: NiggliParams): number {
  if (p.l * p.m * p.n === 1) {
    const i = p.l === -1 ? -1 : 1;
    const j = p.m === -1 ? -1 : 1;
    const k = p.n === -1 ? -1 : 1;
    setTmat(p, [i, 0, 0, 0, j, 0, 0, 0, k]);
    return 1;
  }
  return 0;
}

/** step4 */
function step4(p: NiggliParams): number {
  if (p.l === -1 && p.m === -1 && p.n === -1) {
    return 0;
  }

  if (p.l * p.m * p.n === 0 || p.l * p.m * p.n === -1) {
    let i = 1;
    let j = 1;
    let k = 1;
    let r = -1; /* 0: i, 1: j, 2: k */
    if (p.l === 1) {
      i = -1;
    }
    if (p.l === 0) {
      r = 0;
    }
    if (p.m === 1) {
      j = -1;
    }
    if (p.m === 0) {
      r = 1;
    }
    if (p.n === 1) {
      k = -1;
    }
    if (p.n === 0) {
      r = 2;
    }

    if (i * j * k === -1) {
      if (r === 0) {
        i = -1;
      }
      if (r === 1) {
        j = -1;
      }
      if (r === 2) {
        k = -1;
      }
    }

    setTmat(p, [i, 0, 0, 0, j, 0, 0, 0, k]);
    return 1;
  }
  return 0;
}

/** step5 */
function step5(p: NiggliParams): number {
  if (
    Math.abs(p.xi) > p.B + p.eps ||
    (!(Math.abs(p.B - p.xi) > p.eps) && 2 * p.eta < p.zeta - p.eps) ||
    (!(Math.abs(p.B + p.xi) > p.eps) && p.zeta < -p.eps)
  ) {
    setTmat(p, [1, 0, 0, 0, 1, 0, 0, 0, 1]);
    if (p.xi > 0) {
      p.tmat[5] = -1;
    }
    if (p.xi < 0) {
      p.tmat[5] = 1;
    }
    return 1;
  }
  return 0;
}

/** step6 */
function step6(p: NiggliParams): number {
  if (
    Math.abs(p.eta) > p.A + p.eps ||
    (!(Math.abs(p.A - p.eta) > p.eps) && 2 * p.xi < p.zeta - p.eps) ||
    (!(Math.abs(p.A + p.eta) > p.eps) && p.zeta < -p.eps)
  ) {
    setTmat(p, [1, 0, 0, 0, 1, 0, 0, 0, 1]);
    if (p.eta > 0) {
      p.tmat[2] = -1;
    }
    if (p.eta < 0) {
      p.tmat[2] = 1;
    }
    return 1;
  }
  return 0;
}

/** step7 */
function step7(p: NiggliParams): number {
  if (
    Math.abs(p.zeta) > p.A + p.eps ||
    (!(Math.abs(p.A - p.zeta) > p.eps) && 2 * p.xi < p.eta - p.eps) ||
    (!(Math.abs(p.A + p.zeta) > p.eps) && p.eta < -p.eps)
  ) {
    setTmat(p, [1, 0, 0, 0, 1, 0, 0, 0, 1]);
    if (p.zeta > 0) {
      p.tmat[1] = -1;
    }
    if (p.zeta < 0) {
      p.tmat[1] = 1;
    }
    return 1;
  }
  return 0;
}

/** step8 */
function step8(p: NiggliParams): number {
  if (
    p.xi + p.eta + p.zeta + p.A + p.B < -p.eps ||
    (!(Math.abs(p.xi + p.eta + p.zeta + p.A + p.B) > p.eps) && 2 * (p.A + p.eta) + p.zeta > p.eps)
  ) {
    setTmat(p, [1, 0, 1, 0, 1, 1, 0, 0, 1]);
    return 1;
  }
  return 0;
}

/** get_transpose */
function getTranspose(M: number[]): number[] {
  const M_T = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      M_T[i * 3 + j] = M[j * 3 + i];
    }
  }
  return M_T;
}

/** get_metric: Mᵀ·M */
function getMetric(M: number[]): number[] {
  const M_T = getTranspose(M);
  return multiplyMatrices(M_T, M);
}

/** multiply_matrices (3×3, flattened row by row) */
function multiplyMatrices(L: number[], R: number[]): number[] {
  const M = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      M[i * 3 + j] = 0;
      for (let k = 0; k < 3; k++) {
        M[i * 3 + j] += L[i * 3 + k] * R[k * 3 + j];
      }
    }
  }
  return M;
}
