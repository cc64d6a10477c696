/**
 * Port of spglib v2.0.2 src/hall_symbol.c (github.com/spglib/spglib, BSD-3-Clause): matching a conventional
 * symmetry against a Hall symbol of the database and finding the origin shift (Grosse-Kunstleve, Acta Cryst.
 * (1999). A55, 383-395). The static tables (M_*, *_VSpU, *_generators) are read from tables/hall_symbol.json,
 * extracted verbatim from hall_symbol.c by scripts/make-spglib-tables.py. Left out: debug prints and the
 * layer-group branches (Hall numbers < 0, `cel_layer_is_overlap`), so the third component of dw and of the
 * shift is always reduced by mat_Dmod1.
 */
import { celIsOverlap } from './cell.ts';
import {
  matCastMatrix3iTo3d,
  matCheckIdentityMatrixI3,
  matCopyMatrixD3,
  matCopyVectorD3,
  matDmod1,
  matGetDeterminantI3,
  matGetSimilarMatrixD3,
  matMultiplyMatrixD3,
  matMultiplyMatrixVectorD3,
  matMultiplyMatrixVectorId3,
  zeroMat3,
} from './mathfunc.ts';
import { spgdbGetOperation, spgdbGetOperationIndex, RHOMBOHEDRAL_HALL_NUMBERS, RHOMBOHEDRAL_HEXAGONAL_AXES } from './spg-database.ts';
import tables from './tables/hall_symbol.json';
import { Centering, type Mat3, type Symmetry, type Vec3 } from './types.ts';

/** One generator set: three rotations, each flattened to 9 ints (row major); a zero matrix means "none". */
type Generators = number[][];
/** One V·S⁺·U matrix: 3 rows × 9 columns. */
type VSpUTable = number[][];

const M_bcc: Mat3 = tables.M_bcc;
const M_fcc: Mat3 = tables.M_fcc;
const M_ac: Mat3 = tables.M_ac;
const M_bc: Mat3 = tables.M_bc;
const M_cc: Mat3 = tables.M_cc;
const M_rc: Mat3 = tables.M_rc;

const M_bcc_inv: Mat3 = tables.M_bcc_inv;
const M_fcc_inv: Mat3 = tables.M_fcc_inv;
const M_ac_inv: Mat3 = tables.M_ac_inv;
const M_bc_inv: Mat3 = tables.M_bc_inv;
const M_cc_inv: Mat3 = tables.M_cc_inv;
const M_rc_inv: Mat3 = tables.M_rc_inv;

const tricli_VSpU: VSpUTable[] = tables.tricli_VSpU;
const tricli_generators: Generators[] = tables.tricli_generators;
const monocli_VSpU: VSpUTable[] = tables.monocli_VSpU;
const monocli_A_VSpU: VSpUTable[] = tables.monocli_A_VSpU;
const monocli_B_VSpU: VSpUTable[] = tables.monocli_B_VSpU;
const monocli_C_VSpU: VSpUTable[] = tables.monocli_C_VSpU;
const monocli_I_VSpU: VSpUTable[] = tables.monocli_I_VSpU;
const monocli_generators: Generators[] = tables.monocli_generators;
const ortho_VSpU: VSpUTable[] = tables.ortho_VSpU;
const ortho_F_VSpU: VSpUTable[] = tables.ortho_F_VSpU;
const ortho_I_VSpU: VSpUTable[] = tables.ortho_I_VSpU;
const ortho_A_VSpU: VSpUTable[] = tables.ortho_A_VSpU;
const ortho_B_VSpU: VSpUTable[] = tables.ortho_B_VSpU;
const ortho_C_VSpU: VSpUTable[] = tables.ortho_C_VSpU;
const ortho_generators: Generators[] = tables.ortho_generators;
const tetra_VSpU: VSpUTable[] = tables.tetra_VSpU;
const tetra_I_VSpU: VSpUTable[] = tables.tetra_I_VSpU;
const tetra_generators: Generators[] = tables.tetra_generators;
const trigo_VSpU: VSpUTable[] = tables.trigo_VSpU;
const trigo_generators: Generators[] = tables.trigo_generators;
const rhombo_h_VSpU: VSpUTable[] = tables.rhombo_h_VSpU;
const rhombo_h_generators: Generators[] = tables.rhombo_h_generators;
const rhombo_p_VSpU: VSpUTable[] = tables.rhombo_p_VSpU;
const rhombo_p_generators: Generators[] = tables.rhombo_p_generators;
const hexa_VSpU: VSpUTable[] = tables.hexa_VSpU;
const hexa_generators: Generators[] = tables.hexa_generators;
const cubic_VSpU: VSpUTable[] = tables.cubic_VSpU;
const cubic_F_VSpU: VSpUTable[] = tables.cubic_F_VSpU;
const cubic_I_VSpU: VSpUTable[] = tables.cubic_I_VSpU;
const cubic_generators: Generators[] = tables.cubic_generators;

/** get_translations' `static const int zero[3][3]`. */
const zero: Mat3 = [
  [0, 0, 0],
  [0, 0, 0],
  [0, 0, 0],
];

/** Returns 1 and writes origin_shift when `symmetry` (conventional basis) matches `hall_number`, else 0. */
export function halMatchHallSymbolDb(
  originShift: Vec3,
  bravaisLattice: Mat3,
  hallNumber: number,
  centering: Centering,
  symmetry: Symmetry,
  symprec: number,
): number {
  return findHallSymbol(originShift, bravaisLattice, hallNumber, centering, symmetry, symprec);
}

/** find_hall_symbol */
function findHallSymbol(
  originShift: Vec3,
  bravaisLattice: Mat3,
  hallNumber: number,
  centering: Centering,
  symmetry: Symmetry,
  symprec: number,
): number {
  // C leaves primitive_lattice uninitialised for an unknown centring; zeros here.
  const primitiveLattice = zeroMat3();

  switch (centering) {
    case Centering.PRIMITIVE:
      matCopyMatrixD3(primitiveLattice, bravaisLattice);
      break;
    case Centering.BODY:
      matMultiplyMatrixD3(primitiveLattice, bravaisLattice, M_bcc_inv);
      break;
    case Centering.FACE:
      matMultiplyMatrixD3(primitiveLattice, bravaisLattice, M_fcc_inv);
      break;
    case Centering.A_FACE:
      matMultiplyMatrixD3(primitiveLattice, bravaisLattice, M_ac_inv);
      break;
    case Centering.B_FACE:
      matMultiplyMatrixD3(primitiveLattice, bravaisLattice, M_bc_inv);
      break;
    case Centering.C_FACE:
      matMultiplyMatrixD3(primitiveLattice, bravaisLattice, M_cc_inv);
      break;
    case Centering.R_CENTER:
      matMultiplyMatrixD3(primitiveLattice, bravaisLattice, M_rc_inv);
      break;
    default:
      break;
  }

  let found = false;
  if (489 <= hallNumber && hallNumber <= 530) {
    /* CUBIC IT: 195-230, Hall: 489-530 */
    if (!isHallSymbolCubic(originShift, hallNumber, primitiveLattice, symmetry, centering, symprec)) {
      return 0;
    }
    found = true;
  } else if (462 <= hallNumber && hallNumber <= 488) {
    /* HEXA, ITA: 168-194, Hall: 462-488 */
    if (!isHallSymbolHexa(originShift, hallNumber, primitiveLattice, symmetry, symprec)) {
      return 0;
    }
    found = true;
  } else if (430 <= hallNumber && hallNumber <= 461) {
    /* TRIGO, ITA: 143-167, Hall: 430-461 */
    if (RHOMBOHEDRAL_HALL_NUMBERS.has(hallNumber)) {
      if (isHallSymbolRhombo(originShift, hallNumber, primitiveLattice, symmetry, symprec)) {
        found = true;
      }
    } else {
      if (isHallSymbolTrigonal(originShift, hallNumber, primitiveLattice, symmetry, symprec)) {
        found = true;
      }
    }
    if (!found) {
      return 0;
    }
  } else if (349 <= hallNumber && hallNumber <= 429) {
    /* TETRA, ITA: 75-142, Hall: 349-429 */
    if (!isHallSymbolTetra(originShift, hallNumber, primitiveLattice, symmetry, centering, symprec)) {
      return 0;
    }
    found = true;
  } else if (108 <= hallNumber && hallNumber <= 348) {
    /* ORTHO, ITA: 16-74, Hall: 108-348 */
    if (!isHallSymbolOrtho(originShift, hallNumber, primitiveLattice, symmetry, centering, symprec)) {
      return 0;
    }
    found = true;
  } else if (3 <= hallNumber && hallNumber <= 107) {
    /* MONOCLI, ITA: 3-15, Hall: 3-107 */
    if (!isHallSymbolMonocli(originShift, hallNumber, primitiveLattice, symmetry, centering, symprec)) {
      return 0;
    }
    found = true;
  } else if (1 <= hallNumber && hallNumber <= 2) {
    /* TRICLI, ITA: 1-2, Hall: 1-2 */
    if (!isHallSymbolTricli(originShift, hallNumber, primitiveLattice, symmetry, symprec)) {
      return 0;
    }
    found = true;
  }

  if (!found) {
    return 0;
  }

  /* found: */
  switch (centering) {
    case Centering.PRIMITIVE:
      break;
    case Centering.BODY:
      matMultiplyMatrixVectorD3(originShift, M_bcc_inv, originShift);
      break;
    case Centering.FACE:
      matMultiplyMatrixVectorD3(originShift, M_fcc_inv, originShift);
      break;
    case Centering.A_FACE:
      matMultiplyMatrixVectorD3(originShift, M_ac_inv, originShift);
      break;
    case Centering.B_FACE:
      matMultiplyMatrixVectorD3(originShift, M_bc_inv, originShift);
      break;
    case Centering.C_FACE:
      matMultiplyMatrixVectorD3(originShift, M_cc_inv, originShift);
      break;
    case Centering.R_CENTER:
      matMultiplyMatrixVectorD3(originShift, M_rc_inv, originShift);
      break;
    default:
      break;
  }
  return 1;
}

/** is_hall_symbol_cubic */
function isHallSymbolCubic(
  shift: Vec3,
  hallNumber: number,
  primitiveLattice: Mat3,
  symmetry: Symmetry,
  centering: Centering,
  symprec: number,
): number {
  for (let i = 0; i < 10; i++) {
    if (centering === Centering.PRIMITIVE) {
      if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, centering, cubic_generators[i], cubic_VSpU[i], symprec)) {
        return 1;
      }
    }
    if (centering === Centering.BODY) {
      if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, centering, cubic_generators[i], cubic_I_VSpU[i], symprec)) {
        return 1;
      }
    }
    if (centering === Centering.FACE) {
      if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, centering, cubic_generators[i], cubic_F_VSpU[i], symprec)) {
        return 1;
      }
    }
  }
  return 0;
}

/** is_hall_symbol_hexa */
function isHallSymbolHexa(shift: Vec3, hallNumber: number, primitiveLattice: Mat3, symmetry: Symmetry, symprec: number): number {
  for (let i = 0; i < 8; i++) {
    if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, Centering.PRIMITIVE, hexa_generators[i], hexa_VSpU[i], symprec)) {
      return 1;
    }
  }
  return 0;
}

/** is_hall_symbol_trigonal */
function isHallSymbolTrigonal(shift: Vec3, hallNumber: number, primitiveLattice: Mat3, symmetry: Symmetry, symprec: number): number {
  for (let i = 0; i < 13; i++) {
    if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, Centering.PRIMITIVE, trigo_generators[i], trigo_VSpU[i], symprec)) {
      return 1;
    }
  }
  return 0;
}

/** is_hall_symbol_rhombo */
function isHallSymbolRhombo(shift: Vec3, hallNumber: number, primitiveLattice: Mat3, symmetry: Symmetry, symprec: number): number {
  if (RHOMBOHEDRAL_HEXAGONAL_AXES.has(hallNumber)) {
    /* hP */
    for (let i = 0; i < 8; i++) {
      if (
        isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, Centering.R_CENTER, rhombo_h_generators[i], rhombo_h_VSpU[i], symprec)
      ) {
        return 1;
      }
    }
  } else {
    /* hR */
    for (let i = 0; i < 8; i++) {
      if (
        isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, Centering.PRIMITIVE, rhombo_p_generators[i], rhombo_p_VSpU[i], symprec)
      ) {
        return 1;
      }
    }
  }
  return 0;
}

/** is_hall_symbol_tetra */
function isHallSymbolTetra(
  shift: Vec3,
  hallNumber: number,
  primitiveLattice: Mat3,
  symmetry: Symmetry,
  centering: Centering,
  symprec: number,
): number {
  for (let i = 0; i < 8; i++) {
    if (centering === Centering.PRIMITIVE) {
      if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, centering, tetra_generators[i], tetra_VSpU[i], symprec)) {
        return 1;
      }
    }
    if (centering === Centering.BODY) {
      if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, centering, tetra_generators[i], tetra_I_VSpU[i], symprec)) {
        return 1;
      }
    }
  }
  return 0;
}

/** is_hall_symbol_ortho */
function isHallSymbolOrtho(
  shift: Vec3,
  hallNumber: number,
  primitiveLattice: Mat3,
  symmetry: Symmetry,
  centering: Centering,
  symprec: number,
): number {
  for (let i = 0; i < 5; i++) {
    if (centering === Centering.PRIMITIVE) {
      if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, centering, ortho_generators[i], ortho_VSpU[i], symprec)) {
        return 1;
      }
    }
    if (centering === Centering.BODY) {
      if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, centering, ortho_generators[i], ortho_I_VSpU[i], symprec)) {
        return 1;
      }
    }
    if (centering === Centering.FACE) {
      if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, centering, ortho_generators[i], ortho_F_VSpU[i], symprec)) {
        return 1;
      }
    }
    if (centering === Centering.A_FACE) {
      if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, centering, ortho_generators[i], ortho_A_VSpU[i], symprec)) {
        return 1;
      }
    }
    if (centering === Centering.B_FACE) {
      if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, centering, ortho_generators[i], ortho_B_VSpU[i], symprec)) {
        return 1;
      }
    }
    if (centering === Centering.C_FACE) {
      if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, centering, ortho_generators[i], ortho_C_VSpU[i], symprec)) {
        return 1;
      }
    }
  }
  return 0;
}

/** is_hall_symbol_monocli */
function isHallSymbolMonocli(
  shift: Vec3,
  hallNumber: number,
  primitiveLattice: Mat3,
  symmetry: Symmetry,
  centering: Centering,
  symprec: number,
): number {
  for (let i = 0; i < 9; i++) {
    if (centering === Centering.PRIMITIVE) {
      if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, centering, monocli_generators[i], monocli_VSpU[i], symprec)) {
        return 1;
      }
    }
    if (centering === Centering.A_FACE) {
      if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, centering, monocli_generators[i], monocli_A_VSpU[i], symprec)) {
        return 1;
      }
    }
    if (centering === Centering.B_FACE) {
      if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, centering, monocli_generators[i], monocli_B_VSpU[i], symprec)) {
        return 1;
      }
    }
    if (centering === Centering.C_FACE) {
      if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, centering, monocli_generators[i], monocli_C_VSpU[i], symprec)) {
        return 1;
      }
    }
    if (centering === Centering.BODY) {
      if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, centering, monocli_generators[i], monocli_I_VSpU[i], symprec)) {
        return 1;
      }
    }
  }
  return 0;
}

/** is_hall_symbol_tricli */
function isHallSymbolTricli(shift: Vec3, hallNumber: number, primitiveLattice: Mat3, symmetry: Symmetry, symprec: number): number {
  for (let i = 0; i < 2; i++) {
    if (isHallSymbol(shift, hallNumber, primitiveLattice, symmetry, Centering.PRIMITIVE, tricli_generators[i], tricli_VSpU[i], symprec)) {
      return 1;
    }
  }
  return 0;
}

/** unpack_generators: rot[i][j][k] = generators[i][j * 3 + k]. */
function unpackGenerators(rot: Mat3[], generators: Generators): void {
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      for (let k = 0; k < 3; k++) {
        rot[i][j][k] = generators[i][j * 3 + k];
      }
    }
  }
}

/** is_hall_symbol */
function isHallSymbol(
  shift: Vec3,
  hallNumber: number,
  primitiveLattice: Mat3,
  symmetry: Symmetry,
  centering: Centering,
  generators: Generators,
  VSpU: VSpUTable,
  symprec: number,
): number {
  const operationIndex = [0, 0];
  const rot: Mat3[] = [zeroMat3(), zeroMat3(), zeroMat3()];
  const trans: Vec3[] = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];

  spgdbGetOperationIndex(operationIndex, hallNumber);

  if (!(operationIndex[0] === symmetry.size)) {
    return 0;
  }

  unpackGenerators(rot, generators);
  if (getTranslations(trans, symmetry, rot)) {
    const isOriginShift = getOriginShift(shift, hallNumber, rot, trans, centering, VSpU);
    if (isOriginShift) {
      if (isMatchDatabase(hallNumber, shift, primitiveLattice, centering, symmetry, symprec)) {
        return 1;
      }
    }
  }
  return 0;
}

/** get_translations: the translation of the symmetry operation with each (non-zero) generator rotation. */
function getTranslations(trans: Vec3[], symmetry: Symmetry, rot: Mat3[]): number {
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      trans[i][j] = 0;
    }
  }

  for (let i = 0; i < 3; i++) {
    if (matCheckIdentityMatrixI3(rot[i], zero)) {
      continue;
    }
    let isFound = 0;
    for (let j = 0; j < symmetry.size; j++) {
      if (matCheckIdentityMatrixI3(symmetry.rot[j], rot[i])) {
        matCopyVectorD3(trans[i], symmetry.trans[j]);
        isFound = 1;
        break;
      }
    }
    if (!isFound) {
      return 0;
    }
  }
  return 1;
}

/** transform_translation: translation in the centred basis → primitive basis (no mod 1, as in C). */
function transformTranslation(transReduced: Vec3, centering: Centering, trans: Vec3): void {
  switch (centering) {
    case Centering.PRIMITIVE:
      matCopyVectorD3(transReduced, trans);
      break;
    case Centering.BODY:
      matMultiplyMatrixVectorId3(transReduced, M_bcc, trans);
      break;
    case Centering.FACE:
      matMultiplyMatrixVectorId3(transReduced, M_fcc, trans);
      break;
    case Centering.A_FACE:
      matMultiplyMatrixVectorId3(transReduced, M_ac, trans);
      break;
    case Centering.B_FACE:
      matMultiplyMatrixVectorId3(transReduced, M_bc, trans);
      break;
    case Centering.C_FACE:
      matMultiplyMatrixVectorId3(transReduced, M_cc, trans);
      break;
    case Centering.R_CENTER:
      matMultiplyMatrixVectorId3(transReduced, M_rc, trans);
      break;
    default:
      break;
  }
}

/** transform_rotation */
function transformRotation(rotReduced: Mat3, centering: Centering, rot: Mat3): void {
  matCastMatrix3iTo3d(rotReduced, rot);
  if (centering !== Centering.PRIMITIVE) {
    switch (centering) {
      case Centering.BODY:
        matGetSimilarMatrixD3(rotReduced, rotReduced, M_bcc_inv, 0);
        break;
      case Centering.FACE:
        matGetSimilarMatrixD3(rotReduced, rotReduced, M_fcc_inv, 0);
        break;
      case Centering.A_FACE:
        matGetSimilarMatrixD3(rotReduced, rotReduced, M_ac_inv, 0);
        break;
      case Centering.B_FACE:
        matGetSimilarMatrixD3(rotReduced, rotReduced, M_bc_inv, 0);
        break;
      case Centering.C_FACE:
        matGetSimilarMatrixD3(rotReduced, rotReduced, M_cc_inv, 0);
        break;
      case Centering.R_CENTER:
        matGetSimilarMatrixD3(rotReduced, rotReduced, M_rc_inv, 0);
        break;
      default:
        break;
    }
  }
}

/** get_origin_shift: shift = (V·S⁺·U)·dw, each component reduced by mat_Dmod1. */
function getOriginShift(shift: Vec3, hallNumber: number, rot: Mat3[], trans: Vec3[], centering: Centering, VSpU: VSpUTable): number {
  const operationIndex = [0, 0];
  const dw = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  const tmpDw = [0, 0, 0];

  spgdbGetOperationIndex(operationIndex, hallNumber);

  /* The obtained dw is reduced to that of primitive cell by centerings. */
  for (let i = 0; i < 3; i++) {
    /* Zero matrix is the sign to set dw 0 */
    if (matGetDeterminantI3(rot[i]) === 0) {
      for (let j = 0; j < 3; j++) {
        dw[i * 3 + j] = 0;
      }
    } else {
      if (setDw(tmpDw, operationIndex, rot[i], trans[i], centering)) {
        dw[i * 3] = matDmod1(tmpDw[0]);
        dw[i * 3 + 1] = matDmod1(tmpDw[1]);
        dw[i * 3 + 2] = matDmod1(tmpDw[2]); /* hall_number > 0 */
      } else {
        return 0;
      }
    }
  }

  /* VSpU*dw is given for the primitive cell if there is centering. */
  for (let i = 0; i < 3; i++) {
    shift[i] = 0;
    for (let j = 0; j < 9; j++) {
      shift[i] += VSpU[i][j] * dw[j];
    }
  }

  shift[0] = matDmod1(shift[0]);
  shift[1] = matDmod1(shift[1]);
  shift[2] = matDmod1(shift[2]); /* hall_number > 0 */

  return 1;
}

/** set_dw: difference between the found translation and the database one of the same rotation (primitive basis). */
function setDw(dw: Vec3, operationIndex: number[], rot: Mat3, trans: Vec3, centering: Centering): number {
  const rotDb = zeroMat3();
  const transDb = [0, 0, 0];
  const transPrim = [0, 0, 0];
  const transDbPrim = [0, 0, 0];

  transformTranslation(transPrim, centering, trans);
  for (let i = 0; i < operationIndex[0]; i++) {
    spgdbGetOperation(rotDb, transDb, operationIndex[1] + i);
    transformTranslation(transDbPrim, centering, transDb);
    if (matCheckIdentityMatrixI3(rotDb, rot)) {
      for (let j = 0; j < 3; j++) {
        dw[j] = transPrim[j] - transDbPrim[j];
      }
      return 1;
    }
  }
  /* Not found */
  return 0;
}

/** is_match_database: every operation maps one-to-one onto a database operation after the origin shift. */
function isMatchDatabase(
  hallNumber: number,
  originShift: Vec3,
  primitiveLattice: Mat3,
  centering: Centering,
  symmetry: Symmetry,
  symprec: number,
): number {
  const operationIndex = [0, 0];
  const rotDb = zeroMat3();
  const foundList: number[] = new Array<number>(192).fill(0);
  const transDb = [0, 0, 0];
  const transDbPrim = [0, 0, 0];
  const transPrim = [0, 0, 0];
  const diff = [0, 0, 0];
  const shiftRot = [0, 0, 0];
  const rotPrim = zeroMat3();

  spgdbGetOperationIndex(operationIndex, hallNumber);

  for (let i = 0; i < symmetry.size; i++) {
    foundList[i] = 0;
  }
  for (let i = 0; i < symmetry.size; i++) {
    let isFound = 0;
    for (let j = 0; j < operationIndex[0]; j++) {
      spgdbGetOperation(rotDb, transDb, operationIndex[1] + j);
      if (matCheckIdentityMatrixI3(symmetry.rot[i], rotDb)) {
        transformTranslation(transDbPrim, centering, transDb);
        transformTranslation(transPrim, centering, symmetry.trans[i]);
        transformRotation(rotPrim, centering, rotDb);
        for (let k = 0; k < 3; k++) {
          diff[k] = transPrim[k] - transDbPrim[k] + originShift[k];
        }
        matMultiplyMatrixVectorD3(shiftRot, rotPrim, originShift);
        if (celIsOverlap(diff, shiftRot, primitiveLattice, symprec)) {
          if (!foundList[j]) {
            foundList[j] = 1;
            isFound = 1;
            break;
          }
        }
      }
    }
    if (!isFound) {
      return 0;
    }
  }
  return 1;
}
