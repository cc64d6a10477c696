/**
 * Port of spglib v2.0.2 src/refinement.c (github.com/spglib/spglib, BSD-3-Clause).
 * Left out: layer groups (set_layer_monocli, search_layer_equivalent_atom and the branches on
 * aperiodic_axis >= 0; `aperiodic_axis` is always -1), site tensors (tensor_rank), frees and debug/warning prints.
 */

import { acos, cos, sin } from '../../math/libm.ts';
import { celAllocCell, celIsOverlap, celIsOverlapWithSameType } from './cell.ts';
import {
  matAllocMatINT,
  matAllocVecDBL,
  matCastMatrix3dTo3i,
  matCastMatrix3iTo3d,
  matCheckIdentityMatrixD3,
  matCheckIdentityMatrixI3,
  matCopyMatrixD3,
  matCopyMatrixI3,
  matCopyVectorD3,
  matCrossProductD3,
  matDmod1,
  matGetDeterminantI3,
  matGetMetric,
  matInverseMatrixD3,
  matMultiplyMatrixD3,
  matMultiplyMatrixDi3,
  matMultiplyMatrixVectorD3,
  matMultiplyMatrixVectorId3,
  matNint,
  matNormSquaredD3,
  matTransposeMatrixD3,
  zeroMat3,
} from './mathfunc.ts';
import { ptgGetPointgroup } from './pointgroup.ts';
import { ssmGetExactPositions } from './site-symmetry.ts';
import { spgdbGetOperationIndex, spgdbGetSpacegroupOperations } from './spg-database.ts';
import { symAllocSymmetry } from './symmetry.ts';
import { Holohedry } from './types.ts';
import type { Cell, ExactStructure, Mat3, Spacegroup, Symmetry, VecDBL, Vec3 } from './types.ts';

const identity: Mat3 = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

/**
 * spgdb_get_spacegroup_operations returns a freshly allocated Symmetry in C that refinement.c then mutates
 * (set_translation_with_origin_shift); a deep copy keeps that safe whatever the database port caches.
 */
function getSpacegroupOperations(hallNumber: number): Symmetry | null {
  const sym = spgdbGetSpacegroupOperations(hallNumber);
  if (sym === null) {
    return null;
  }
  return { size: sym.size, rot: sym.rot.map((r) => r.map((row) => row.slice())), trans: sym.trans.map((t) => t.slice()) };
}

/**
 * ref_get_exact_structure_and_symmetry: returns null if failed. spacegroup.bravais_lattice and
 * spacegroup.origin_shift are overwritten by refined ones.
 */
export function refGetExactStructureAndSymmetry(
  spacegroup: Spacegroup,
  primitive: Cell,
  cell: Cell,
  mappingTable: number[],
  symprec: number,
): ExactStructure | null {
  const rotation = zeroMat3();

  if (!refFindSimilarBravaisLattice(spacegroup, symprec)) {
    return null;
  }

  const symmetry = getRefinedSymmetryOperations(cell, primitive, spacegroup, symprec);
  if (symmetry === null) {
    return null;
  }

  const wyckoffs: number[] = new Array<number>(cell.size).fill(0);
  const siteSymmetrySymbols: string[] = new Array<string>(cell.size).fill('');
  const equivalentAtoms: number[] = new Array<number>(cell.size).fill(0);
  const crystallographicOrbits: number[] = new Array<number>(cell.size).fill(0);
  const stdMappingToPrimitive: number[] = new Array<number>(primitive.size * 4).fill(0);

  const bravais = getWyckoffPositions(
    wyckoffs,
    siteSymmetrySymbols,
    equivalentAtoms,
    crystallographicOrbits,
    stdMappingToPrimitive,
    primitive,
    cell,
    spacegroup,
    symmetry,
    mappingTable,
    symprec,
  );
  if (bravais === null) {
    return null;
  }
  /* C allocates primitive->size * 4 entries; only the first bravais->size are meaningful. */
  stdMappingToPrimitive.length = bravais.size;

  refMeasureRigidRotation(rotation, spacegroup.bravais_lattice, bravais.lattice);

  return {
    bravais,
    symmetry,
    wyckoffs,
    site_symmetry_symbols: siteSymmetrySymbols,
    equivalent_atoms: equivalentAtoms,
    crystallographic_orbits: crystallographicOrbits,
    std_mapping_to_primitive: stdMappingToPrimitive,
    rotation,
  };
}

/* get_Wyckoff_positions: returns null if failed. */
function getWyckoffPositions(
  wyckoffs: number[],
  siteSymmetrySymbols: string[],
  equivAtoms: number[],
  crystallographicOrbits: number[],
  stdMappingToPrimitive: number[],
  primitive: Cell,
  cell: Cell,
  spacegroup: Spacegroup,
  symmetry: Symmetry,
  mappingTable: number[],
  symprec: number,
): Cell | null {
  const operationIndex = [0, 0];

  const wyckoffsBravais: number[] = new Array<number>(primitive.size * 4).fill(0);
  const siteSymmetrySymbolsBravais: string[] = new Array<string>(primitive.size * 4).fill('');
  const equivAtomsBravais: number[] = new Array<number>(primitive.size * 4).fill(0);

  const bravais = getBravaisExactPositionsAndLattice(
    wyckoffsBravais,
    siteSymmetrySymbolsBravais,
    equivAtomsBravais,
    stdMappingToPrimitive,
    spacegroup,
    primitive,
    symprec,
  );
  if (bravais === null) {
    return null;
  }

  for (let i = 0; i < cell.size; i++) {
    wyckoffs[i] = wyckoffsBravais[mappingTable[i]];
    siteSymmetrySymbols[i] = siteSymmetrySymbolsBravais[mappingTable[i]];
  }

  /* crystallographic orbits defined here is almost equivalent to symmetrically equivalent atoms. */
  /* Only when broken symmetry due to non-primitive cell (so-called supercell) is found, they can be different. */
  if (setCrystallographicOrbits(crystallographicOrbits, primitive, cell, equivAtomsBravais, mappingTable) === 0) {
    return null;
  }

  /* Check symmetry breaking by unusual multiplicity of primitive cell. */
  spgdbGetOperationIndex(operationIndex, spacegroup.hall_number);
  const numPrimSym = Math.trunc(operationIndex[0] / Math.trunc(bravais.size / primitive.size));
  if (cell.size * numPrimSym !== symmetry.size * primitive.size) {
    setEquivalentAtomsBrokenSymmetry(equivAtoms, cell, symmetry, mappingTable, symprec);
  } else {
    for (let i = 0; i < cell.size; i++) {
      equivAtoms[i] = crystallographicOrbits[i];
    }
  }

  return bravais;
}

/**
 * get_bravais_exact_positions_and_lattice: only the atoms corresponding to those in primitive are returned.
 * Returns null if failed.
 */
function getBravaisExactPositionsAndLattice(
  wyckoffs: number[],
  siteSymmetrySymbols: string[],
  equivAtoms: number[],
  stdMappingToPrimitive: number[],
  spacegroup: Spacegroup,
  primitive: Cell,
  symprec: number,
): Cell | null {
  /* Symmetrize atomic positions of conventional unit cell */
  const wyckoffsPrim: number[] = new Array<number>(primitive.size).fill(-1);
  const equivAtomsPrim: number[] = new Array<number>(primitive.size).fill(-1);
  const siteSymmetrySymbolsPrim: string[] = new Array<string>(primitive.size).fill('');

  /* Positions of primitive atoms are represented wrt Bravais lattice */
  const convPrim = getConventionalPrimitive(spacegroup, primitive);
  if (convPrim === null) {
    return null;
  }

  /* Symmetries in database (wrt Bravais lattice) */
  const convSym = getSpacegroupOperations(spacegroup.hall_number);
  if (convSym === null) {
    return null;
  }
  const numPureTrans = getNumberOfPureTranslation(convSym);

  /* Lattice vectors are set. */
  refGetConventionalLattice(convPrim.lattice, spacegroup);

  /* Aperiodic axis is set (3D only). */
  convPrim.aperiodic_axis = -1;

  const exactPositions = ssmGetExactPositions(
    wyckoffsPrim,
    equivAtomsPrim,
    siteSymmetrySymbolsPrim,
    convPrim,
    convSym,
    numPureTrans,
    spacegroup.hall_number,
    symprec,
  );
  if (exactPositions === null) {
    return null;
  }

  for (let i = 0; i < convPrim.size; i++) {
    matCopyVectorD3(convPrim.position[i], exactPositions.vec[i]);
  }

  /* The order of atoms in bravais is: [atoms in primitive cell] * number of pure translations. */
  return expandPositionsInBravais(
    wyckoffs,
    siteSymmetrySymbols,
    equivAtoms,
    stdMappingToPrimitive,
    convPrim,
    convSym,
    numPureTrans,
    wyckoffsPrim,
    siteSymmetrySymbolsPrim,
    equivAtomsPrim,
  );
}

/* expand_positions_in_bravais */
function expandPositionsInBravais(
  wyckoffs: number[],
  siteSymmetrySymbols: string[],
  equivAtoms: number[],
  stdMappingToPrimitive: number[],
  convPrim: Cell,
  convSym: Symmetry,
  numPureTrans: number,
  wyckoffsPrim: number[],
  siteSymmetrySymbolsPrim: string[],
  equivAtomsPrim: number[],
): Cell | null {
  const bravais = celAllocCell(convPrim.size * numPureTrans);
  if (bravais === null) {
    return null;
  }

  let numAtom = 0;
  for (let i = 0; i < convSym.size; i++) {
    /* Referred atoms in Bravais lattice */
    if (matCheckIdentityMatrixI3(identity, convSym.rot[i])) {
      /* The order of atoms in conv_prim is same as that in primitive. */
      for (let j = 0; j < convPrim.size; j++) {
        bravais.types[numAtom] = convPrim.types[j];
        matCopyVectorD3(bravais.position[numAtom], convPrim.position[j]);
        for (let k = 0; k < 3; k++) {
          bravais.position[numAtom][k] += convSym.trans[i][k];
        }
        wyckoffs[numAtom] = wyckoffsPrim[j];
        siteSymmetrySymbols[numAtom] = siteSymmetrySymbolsPrim[j];
        equivAtoms[numAtom] = equivAtomsPrim[j];
        stdMappingToPrimitive[numAtom] = j;
        numAtom++;
      }
    }
  }

  const latticeRank = convPrim.aperiodic_axis === -1 ? 3 : 2;
  for (let i = 0; i < numAtom; i++) {
    for (let k = 0; k < latticeRank; k++) {
      bravais.position[i][k] = matDmod1(bravais.position[i][k]);
    }
  }

  matCopyMatrixD3(bravais.lattice, convPrim.lattice);
  bravais.aperiodic_axis = convPrim.aperiodic_axis;

  return bravais;
}

/* get_number_of_pure_translation */
function getNumberOfPureTranslation(convSym: Symmetry): number {
  let numPureTrans = 0;

  for (let i = 0; i < convSym.size; i++) {
    if (matCheckIdentityMatrixI3(identity, convSym.rot[i])) {
      numPureTrans++;
    }
  }

  return numPureTrans;
}

/* get_conventional_primitive */
function getConventionalPrimitive(spacegroup: Spacegroup, primitive: Cell): Cell | null {
  const invBrv = zeroMat3();
  const transMat = zeroMat3();

  const convPrim = celAllocCell(primitive.size);
  if (convPrim === null) {
    return null;
  }

  matInverseMatrixD3(invBrv, spacegroup.bravais_lattice, 0);
  matMultiplyMatrixD3(transMat, invBrv, primitive.lattice);

  for (let i = 0; i < primitive.size; i++) {
    convPrim.types[i] = primitive.types[i];
    matMultiplyMatrixVectorD3(convPrim.position[i], transMat, primitive.position[i]);
    for (let j = 0; j < 3; j++) {
      convPrim.position[i][j] += spacegroup.origin_shift[j];
      if (primitive.aperiodic_axis === -1 || j !== 2) {
        convPrim.position[i][j] = matDmod1(convPrim.position[i][j]);
      }
    }
  }

  return convPrim;
}

/** ref_get_conventional_lattice: the standardized (idealized) lattice for the space-group type; mutates `lattice`. */
export function refGetConventionalLattice(lattice: Mat3, spacegroup: Spacegroup): void {
  const metric = zeroMat3();

  const pointgroup = ptgGetPointgroup(spacegroup.pointgroup_number);

  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      lattice[i][j] = 0;
    }
  }

  matGetMetric(metric, spacegroup.bravais_lattice);

  switch (pointgroup.holohedry) {
    case Holohedry.TRICLI:
      setTricli(lattice, metric);
      break;
    case Holohedry.MONOCLI /* b-axis is the unique axis (hall_number > 0 only). */:
      setMonocli(lattice, metric, spacegroup.choice);
      break;
    case Holohedry.ORTHO:
      setOrtho(lattice, metric);
      break;
    case Holohedry.TETRA:
      setTetra(lattice, metric);
      break;
    case Holohedry.TRIGO:
      if (spacegroup.choice.charAt(0) === 'R') {
        setRhomb(lattice, metric);
      } else {
        setTrigo(lattice, metric);
      }
      break;
    case Holohedry.HEXA:
      setTrigo(lattice, metric);
      break;
    case Holohedry.CUBIC:
      setCubic(lattice, metric);
      break;
    case Holohedry.HOLOHEDRY_NONE:
      break;
  }
}

/* set_tricli: the conversion refers the wikipedia, http://en.wikipedia.org/wiki/Fractional_coordinates */
function setTricli(lattice: Mat3, metric: Mat3): void {
  const a = Math.sqrt(metric[0][0]);
  const b = Math.sqrt(metric[1][1]);
  const c = Math.sqrt(metric[2][2]);
  const alpha = acos(metric[1][2] / b / c);
  const beta = acos(metric[0][2] / a / c);
  const gamma = acos(metric[0][1] / a / b);

  const cg = cos(gamma);
  const cb = cos(beta);
  const ca = cos(alpha);
  const sg = sin(gamma);

  lattice[0][0] = a;
  lattice[0][1] = b * cg;
  lattice[0][2] = c * cb;
  lattice[1][1] = b * sg;
  lattice[1][2] = (c * (ca - cb * cg)) / sg;
  lattice[2][2] = (c * Math.sqrt(1 - ca * ca - cb * cb - cg * cg + 2 * ca * cb * cg)) / sg;
}

/* set_monocli */
function setMonocli(lattice: Mat3, metric: Mat3, choice: string): void {
  let angle: number;

  const posChar = choice.charAt(0) === '-' ? 1 : 0;

  const a = Math.sqrt(metric[0][0]);
  const b = Math.sqrt(metric[1][1]);
  const c = Math.sqrt(metric[2][2]);

  switch (choice.charAt(posChar)) {
    case 'a':
      angle = acos(metric[1][2] / b / c);
      lattice[0][2] = c;
      lattice[1][0] = a;
      lattice[0][1] = b * cos(angle);
      lattice[2][1] = b * sin(angle);
      break;
    case 'b':
      angle = acos(metric[0][2] / a / c);
      lattice[0][0] = a;
      lattice[1][1] = b;
      lattice[0][2] = c * cos(angle);
      lattice[2][2] = c * sin(angle);
      break;
    case 'c':
      angle = acos(metric[0][1] / a / b);
      lattice[0][1] = b;
      lattice[1][2] = c;
      lattice[0][0] = a * cos(angle);
      lattice[2][0] = a * sin(angle);
      break;
    default:
    /* spglib: Monoclinic unique axis could not be found. */
  }
}

/* set_ortho */
function setOrtho(lattice: Mat3, metric: Mat3): void {
  const a = Math.sqrt(metric[0][0]);
  const b = Math.sqrt(metric[1][1]);
  const c = Math.sqrt(metric[2][2]);
  lattice[0][0] = a;
  lattice[1][1] = b;
  lattice[2][2] = c;
}

/* set_tetra */
function setTetra(lattice: Mat3, metric: Mat3): void {
  const a = Math.sqrt(metric[0][0]);
  const b = Math.sqrt(metric[1][1]);
  const c = Math.sqrt(metric[2][2]);
  lattice[0][0] = (a + b) / 2;
  lattice[1][1] = (a + b) / 2;
  lattice[2][2] = c;
}

/* set_rhomb */
function setRhomb(lattice: Mat3, metric: Mat3): void {
  const a = Math.sqrt(metric[0][0]);
  const b = Math.sqrt(metric[1][1]);
  const c = Math.sqrt(metric[2][2]);
  const angle = acos((metric[0][1] / a / b + metric[0][2] / a / c + metric[1][2] / b / c) / 3);

  /* Reference, http://cst-www.nrl.navy.mil/lattice/struk/rgr.html */
  const ahex = ((2 * (a + b + c)) / 3) * sin(angle / 2);
  const chex = ((a + b + c) / 3) * Math.sqrt(3 * (1 + 2 * cos(angle)));
  lattice[0][0] = ahex / 2;
  lattice[1][0] = ahex / (2 * Math.sqrt(3));
  lattice[2][0] = chex / 3;
  lattice[0][1] = -ahex / 2;
  lattice[1][1] = ahex / (2 * Math.sqrt(3));
  lattice[2][1] = chex / 3;
  lattice[0][2] = 0;
  lattice[1][2] = -ahex / Math.sqrt(3);
  lattice[2][2] = chex / 3;
}

/* set_trigo */
function setTrigo(lattice: Mat3, metric: Mat3): void {
  const a = Math.sqrt(metric[0][0]);
  const b = Math.sqrt(metric[1][1]);
  const c = Math.sqrt(metric[2][2]);
  lattice[0][0] = (a + b) / 2;
  lattice[0][1] = -(a + b) / 4;
  lattice[1][1] = ((a + b) / 4) * Math.sqrt(3);
  lattice[2][2] = c;
}

/* set_cubic */
function setCubic(lattice: Mat3, metric: Mat3): void {
  const a = Math.sqrt(metric[0][0]);
  const b = Math.sqrt(metric[1][1]);
  const c = Math.sqrt(metric[2][2]);
  lattice[0][0] = (a + b + c) / 3;
  lattice[1][1] = (a + b + c) / 3;
  lattice[2][2] = (a + b + c) / 3;
}

/* get_refined_symmetry_operations: returns null if failed. */
function getRefinedSymmetryOperations(cell: Cell, primitive: Cell, spacegroup: Spacegroup, symprec: number): Symmetry | null {
  const tMatInt = zeroMat3();
  const invPrimLat = zeroMat3();
  const tMat = zeroMat3();

  /* Primitive symmetry from database */
  const convSym = getSpacegroupOperations(spacegroup.hall_number);
  if (convSym === null) {
    return null;
  }

  matInverseMatrixD3(invPrimLat, primitive.lattice, 0);
  matMultiplyMatrixD3(tMat, invPrimLat, spacegroup.bravais_lattice);

  setTranslationWithOriginShift(convSym, spacegroup.origin_shift);

  const primSym = getPrimitiveDbSymmetry(tMat, convSym);
  if (primSym === null) {
    return null;
  }

  /* Input cell symmetry from primitive symmetry */
  matMultiplyMatrixD3(tMat, invPrimLat, cell.lattice);
  matCastMatrix3dTo3i(tMatInt, tMat);

  return recoverSymmetryInOriginalCell(
    primSym,
    tMatInt,
    cell.lattice,
    Math.trunc(cell.size / primitive.size),
    cell.aperiodic_axis,
    symprec,
  );
}

/* set_crystallographic_orbits */
function setCrystallographicOrbits(
  equivAtomsCell: number[],
  primitive: Cell,
  cell: Cell,
  equivAtomsPrim: number[],
  mappingTable: number[],
): number {
  const equivAtoms: number[] = new Array<number>(primitive.size).fill(0);

  for (let i = 0; i < primitive.size; i++) {
    for (let j = 0; j < cell.size; j++) {
      if (mappingTable[j] === equivAtomsPrim[i]) {
        equivAtoms[i] = j;
        break;
      }
    }
  }
  for (let i = 0; i < cell.size; i++) {
    equivAtomsCell[i] = equivAtoms[mappingTable[i]];
  }

  return 1;
}

/* set_equivalent_atoms_broken_symmetry (aperiodic_axis == -1 branch) */
function setEquivalentAtomsBrokenSymmetry(
  equivAtomsCell: number[],
  cell: Cell,
  symmetry: Symmetry,
  mappingTable: number[],
  symprec: number,
): void {
  for (let i = 0; i < cell.size; i++) {
    equivAtomsCell[i] = i;
    for (let j = 0; j < cell.size; j++) {
      if (mappingTable[i] === mappingTable[j]) {
        if (i === j) {
          equivAtomsCell[i] = equivAtomsCell[searchEquivalentAtom(i, cell, symmetry, symprec)];
        } else {
          equivAtomsCell[i] = equivAtomsCell[j];
        }
        break;
      }
    }
  }
}

/* search_equivalent_atom */
function searchEquivalentAtom(atomIndex: number, cell: Cell, symmetry: Symmetry, symprec: number): number {
  const posRot = [0, 0, 0];

  for (let i = 0; i < symmetry.size; i++) {
    matMultiplyMatrixVectorId3(posRot, symmetry.rot[i], cell.position[atomIndex]);
    for (let j = 0; j < 3; j++) {
      posRot[j] += symmetry.trans[i][j];
    }
    for (let j = 0; j < atomIndex; j++) {
      if (celIsOverlapWithSameType(cell.position[j], posRot, cell.types[j], cell.types[atomIndex], cell.lattice, symprec)) {
        return j;
      }
    }
  }
  return atomIndex;
}

/* set_translation_with_origin_shift: t' = t + (R-E)w, w is the origin shift */
function setTranslationWithOriginShift(convSym: Symmetry, originShift: Vec3): void {
  const tmpVec = [0, 0, 0];
  const tmpMat = zeroMat3();

  for (let i = 0; i < convSym.size; i++) {
    matCopyMatrixI3(tmpMat, convSym.rot[i]);
    tmpMat[0][0]--;
    tmpMat[1][1]--;
    tmpMat[2][2]--;
    matMultiplyMatrixVectorId3(tmpVec, tmpMat, originShift);
    for (let j = 0; j < 3; j++) {
      convSym.trans[i][j] += tmpVec[j];
    }
  }
}

/* get_primitive_db_symmetry */
function getPrimitiveDbSymmetry(tMat: Mat3, convSym: Symmetry): Symmetry | null {
  const invMat = zeroMat3();
  const tmpMat = zeroMat3();

  const rPrim = matAllocMatINT(convSym.size);
  const tPrim = matAllocVecDBL(convSym.size);

  matInverseMatrixD3(invMat, tMat, 0);

  let numOp = 0;
  for (let i = 0; i < convSym.size; i++) {
    let pass = false;
    for (let j = 0; j < i; j++) {
      if (matCheckIdentityMatrixI3(convSym.rot[i], convSym.rot[j])) {
        pass = true;
        break;
      }
    }
    if (pass) {
      continue;
    }

    /* R' = T*R*T^-1 */
    matMultiplyMatrixDi3(tmpMat, tMat, convSym.rot[i]);
    matMultiplyMatrixD3(tmpMat, tmpMat, invMat);
    matCastMatrix3dTo3i(rPrim.mat[numOp], tmpMat);
    /* t' = T*t */
    matMultiplyMatrixVectorD3(tPrim.vec[numOp], tMat, convSym.trans[i]);
    numOp++;
  }

  const primSym = symAllocSymmetry(numOp);

  for (let i = 0; i < numOp; i++) {
    matCopyMatrixI3(primSym.rot[i], rPrim.mat[i]);
    for (let j = 0; j < 3; j++) {
      primSym.trans[i][j] = tPrim.vec[i][j]; /* This is done in copy_symmetry_upon_lattice_points */
    }
  }

  return primSym;
}

/* get_surrounding_frame */
function getSurroundingFrame(frame: number[], tMat: Mat3): void {
  const corners = [
    [0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0],
  ];

  getCorners(corners, tMat);

  for (let i = 0; i < 3; i++) {
    let max = corners[i][0];
    let min = corners[i][0];
    for (let j = 1; j < 8; j++) {
      if (max < corners[i][j]) {
        max = corners[i][j];
      }
      if (min > corners[i][j]) {
        min = corners[i][j];
      }
    }
    frame[i] = max - min;
  }
}

/* get_corners */
function getCorners(corners: number[][], tMat: Mat3): void {
  /* O */
  for (let i = 0; i < 3; i++) {
    corners[i][0] = 0;
  }

  /* a,b,c */
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      corners[j][i + 1] = tMat[j][i];
    }
  }

  /* b+c, c+a, a+b */
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      corners[j][i + 4] = tMat[j][(i + 1) % 3] + tMat[j][(i + 2) % 3];
    }
  }

  /* a+b+c */
  for (let i = 0; i < 3; i++) {
    corners[i][7] = tMat[i][0] + tMat[i][1] + tMat[i][2];
  }
}

/* recover_symmetry_in_original_cell */
function recoverSymmetryInOriginalCell(
  primSym: Symmetry,
  tMat: Mat3,
  lattice: Mat3,
  multiplicity: number,
  aperiodicAxis: number,
  symprec: number,
): Symmetry | null {
  const frame = [0, 0, 0];
  const invTmat = zeroMat3();
  const tmpMat = zeroMat3();

  getSurroundingFrame(frame, tMat);
  matCastMatrix3iTo3d(tmpMat, tMat);
  matInverseMatrixD3(invTmat, tmpMat, 0);

  const latticeTrans = getLatticeTranslations(frame, invTmat);
  const pureTrans = removeOverlappingLatticePoints(lattice, latticeTrans, symprec);
  const tSym = getSymmetryInOriginalCell(tMat, invTmat, lattice, primSym, symprec);

  if (pureTrans.size === multiplicity) {
    return copySymmetryUponLatticePoints(pureTrans, tSym, aperiodicAxis);
  }

  return null;
}

/* get_lattice_translations */
function getLatticeTranslations(frame: number[], invTmat: Mat3): VecDBL {
  const latticeTrans = matAllocVecDBL(frame[0] * frame[1] * frame[2]);

  let numTrans = 0;
  for (let i = 0; i < frame[0]; i++) {
    for (let j = 0; j < frame[1]; j++) {
      for (let k = 0; k < frame[2]; k++) {
        latticeTrans.vec[numTrans][0] = i;
        latticeTrans.vec[numTrans][1] = j;
        latticeTrans.vec[numTrans][2] = k;

        /* t' = T^-1*t */
        matMultiplyMatrixVectorD3(latticeTrans.vec[numTrans], invTmat, latticeTrans.vec[numTrans]);
        for (let l = 0; l < 3; l++) {
          latticeTrans.vec[numTrans][l] = matDmod1(latticeTrans.vec[numTrans][l]);
        }
        numTrans++;
      }
    }
  }

  return latticeTrans;
}

/* remove_overlapping_lattice_points */
function removeOverlappingLatticePoints(lattice: Mat3, latticeTrans: VecDBL, symprec: number): VecDBL {
  let numPureTrans = 0;

  const t = matAllocVecDBL(latticeTrans.size);

  for (let i = 0; i < latticeTrans.size; i++) {
    let isFound = false;
    for (let j = 0; j < numPureTrans; j++) {
      if (celIsOverlap(latticeTrans.vec[i], t.vec[j], lattice, symprec)) {
        isFound = true;
        break;
      }
    }
    if (!isFound) {
      matCopyVectorD3(t.vec[numPureTrans], latticeTrans.vec[i]);
      numPureTrans++;
    }
  }

  const pureTrans = matAllocVecDBL(numPureTrans);

  for (let i = 0; i < numPureTrans; i++) {
    matCopyVectorD3(pureTrans.vec[i], t.vec[i]);
  }

  return pureTrans;
}

/* get_symmetry_in_original_cell */
function getSymmetryInOriginalCell(tMat: Mat3, invTmat: Mat3, lattice: Mat3, primSym: Symmetry, symprec: number): Symmetry {
  const tmpRotD = zeroMat3();
  const tmpLatD = zeroMat3();
  const tmpLatI = zeroMat3();
  const tmpMat = zeroMat3();
  const tmpRotI = zeroMat3();

  let tSym = symAllocSymmetry(primSym.size);

  /* transform symmetry operations of primitive cell to those of original */
  let sizeSymOrig = 0;
  for (let i = 0; i < primSym.size; i++) {
    /* R' = T^-1*R*T */
    matMultiplyMatrixDi3(tmpMat, invTmat, primSym.rot[i]);
    matMultiplyMatrixDi3(tmpRotD, tmpMat, tMat);

    /* In spglib, symmetry of supercell is defined by the set of symmetry operations that are searched among */
    /* supercell lattice point group operations. The supercell lattice may be made by breaking the unit cell */
    /* lattice symmetry. In this case, a part of symmetry operations is discarded. */
    matCastMatrix3dTo3i(tmpRotI, tmpRotD);
    matMultiplyMatrixDi3(tmpLatI, lattice, tmpRotI);
    matMultiplyMatrixD3(tmpLatD, lattice, tmpRotD);
    if (matCheckIdentityMatrixD3(tmpLatI, tmpLatD, symprec)) {
      matCopyMatrixI3(tSym.rot[sizeSymOrig], tmpRotI);
      /* t' = T^-1*t */
      matMultiplyMatrixVectorD3(tSym.trans[sizeSymOrig], invTmat, primSym.trans[i]);
      sizeSymOrig++;
    }
  }

  /* Broken symmetry due to supercell multiplicity */
  if (sizeSymOrig !== primSym.size) {
    const tRedSym = symAllocSymmetry(sizeSymOrig);

    for (let i = 0; i < sizeSymOrig; i++) {
      matCopyMatrixI3(tRedSym.rot[i], tSym.rot[i]);
      matCopyVectorD3(tRedSym.trans[i], tSym.trans[i]);
    }

    tSym = tRedSym;
  }

  return tSym;
}

/* copy_symmetry_upon_lattice_points */
function copySymmetryUponLatticePoints(pureTrans: VecDBL, tSym: Symmetry, aperiodicAxis: number): Symmetry {
  const sizeSymOrig = tSym.size;

  const symmetry = symAllocSymmetry(pureTrans.size * sizeSymOrig);

  for (let i = 0; i < pureTrans.size; i++) {
    for (let j = 0; j < sizeSymOrig; j++) {
      matCopyMatrixI3(symmetry.rot[sizeSymOrig * i + j], tSym.rot[j]);
      matCopyVectorD3(symmetry.trans[sizeSymOrig * i + j], tSym.trans[j]);
      for (let k = 0; k < 3; k++) {
        symmetry.trans[sizeSymOrig * i + j][k] += pureTrans.vec[i][k];
        if (k !== aperiodicAxis) {
          symmetry.trans[sizeSymOrig * i + j][k] = matDmod1(symmetry.trans[sizeSymOrig * i + j][k]);
        }
      }
    }
  }

  return symmetry;
}

/**
 * ref_find_similar_bravais_lattice: spacegroup.bravais_lattice and spacegroup.origin_shift are overwritten by
 * refined ones. Returns 0 if failed.
 */
export function refFindSimilarBravaisLattice(spacegroup: Spacegroup, symprec: number): number {
  const tmpMat = zeroMat3();
  const stdLattice = zeroMat3();
  const rotLat = zeroMat3();
  const p = [0, 0, 0];
  const shortestP = [0, 0, 0];
  const tmpVec = [0, 0, 0];

  const convSym = getSpacegroupOperations(spacegroup.hall_number);
  if (convSym === null) {
    return 0;
  }

  refGetConventionalLattice(stdLattice, spacegroup);

  let minLength2 = 0;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      minLength2 += spacegroup.bravais_lattice[i][j] * spacegroup.bravais_lattice[i][j];
    }
  }
  let minLength = Math.sqrt(minLength2);

  /* For no best match */
  let rotI = -1;

  for (let i = 0; i < convSym.size; i++) {
    if (matGetDeterminantI3(convSym.rot[i]) < 0) {
      continue;
    }

    /* (a_s', b_s', c_s') = (a_s,b_s,c_s) Rs */
    matMultiplyMatrixDi3(tmpMat, spacegroup.bravais_lattice, convSym.rot[i]);
    let length2 = 0;
    for (let j = 0; j < 3; j++) {
      for (let k = 0; k < 3; k++) {
        const diff = tmpMat[j][k] - stdLattice[j][k];
        length2 += diff * diff;
      }
    }
    const length = Math.sqrt(length2);
    if (length < minLength - symprec) {
      matCopyMatrixD3(rotLat, tmpMat);
      rotI = i;
      minLength = length;
    }
  }

  /* (W^-1, -W^-1 w)(P, p) x = W^-1Px+W^-1p-W^-1w = (W^-1P, W^-1p-W^-1w): see refinement.c for the derivation. */
  minLength = 2;
  const latticeRank = spacegroup.hall_number > 0 ? 3 : 2;
  if (rotI > -1) {
    for (let i = 0; i < convSym.size; i++) {
      if (!matCheckIdentityMatrixI3(convSym.rot[i], convSym.rot[rotI])) {
        continue;
      }
      matCastMatrix3iTo3d(tmpMat, convSym.rot[i]);
      matInverseMatrixD3(tmpMat, tmpMat, 0);
      matMultiplyMatrixVectorD3(p, tmpMat, spacegroup.origin_shift);
      matMultiplyMatrixVectorD3(tmpVec, tmpMat, convSym.trans[i]);
      for (let j = 0; j < latticeRank; j++) {
        p[j] -= tmpVec[j];
        p[j] -= matNint(p[j]);
      }
      for (let j = latticeRank; j < 3; j++) {
        p[j] -= tmpVec[j];
      }
      const length = Math.sqrt(matNormSquaredD3(p));
      if (length < minLength - symprec) {
        minLength = length;
        for (let j = 0; j < latticeRank; j++) {
          p[j] = matDmod1(p[j]);
        }
        matCopyVectorD3(shortestP, p);
      }
    }
    matCopyVectorD3(spacegroup.origin_shift, shortestP);
    matCopyMatrixD3(spacegroup.bravais_lattice, rotLat);
  }

  return 1;
}

/** ref_measure_rigid_rotation: `rotation` (mutated) such that std_lattice = rotation @ bravais_lattice. */
export function refMeasureRigidRotation(rotation: Mat3, bravaisLattice: Mat3, stdLattice: Mat3): void {
  /* (a_s^ideal, b_s^ideal, c_s^ideal) = R(a_s, b_s, c_s) */
  const brvBasis = zeroMat3();
  const stdBasis = zeroMat3();
  const invBrvBasis = zeroMat3();

  getOrthonormalBasis(brvBasis, bravaisLattice);
  getOrthonormalBasis(stdBasis, stdLattice);
  matInverseMatrixD3(invBrvBasis, brvBasis, 0);
  matMultiplyMatrixD3(rotation, stdBasis, invBrvBasis);
}

/* get_orthonormal_basis */
function getOrthonormalBasis(basis: Mat3, lattice: Mat3): void {
  const basisT = zeroMat3();
  const latticeT = zeroMat3();

  matTransposeMatrixD3(latticeT, lattice);
  matCopyVectorD3(basisT[0], latticeT[0]);
  /* c' = axb */
  matCrossProductD3(basisT[2], latticeT[0], latticeT[1]);
  /* b' = (axb)xa = c'xa */
  matCrossProductD3(basisT[1], basisT[2], latticeT[0]);

  for (let i = 0; i < 3; i++) {
    const length = Math.sqrt(matNormSquaredD3(basisT[i]));
    for (let j = 0; j < 3; j++) {
      basisT[i][j] /= length;
    }
  }

  matTransposeMatrixD3(basis, basisT);
}
