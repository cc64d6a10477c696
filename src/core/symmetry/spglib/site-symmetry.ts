/**
 * Port of spglib v2.0.2 src/site_symmetry.c (github.com/spglib/spglib, BSD-3-Clause).
 * Left out: the layer-group variants (set_layer_exact_location, set_layer_equivalent_atom,
 * get_layer_Wyckoff_notation; `aperiodic_axis` is always -1) and debug/warning prints.
 */

import { celIsOverlap, celIsOverlapWithSameType } from './cell.ts';
import { matAllocVecDBL, matCopyVectorD3, matDmod1, matMultiplyMatrixVectorD3, matMultiplyMatrixVectorId3, matNint } from './mathfunc.ts';
import { ssmdbGetCoordinate, ssmdbGetSiteSymmetrySymbol, ssmdbGetWyckoffIndices } from './sitesym-database.ts';
import type { Cell, Mat3, Symmetry, VecDBL, Vec3 } from './types.ts';

const INCREASE_RATE = 1.05;
const NUM_ATTEMPT = 5;

/**
 * ssm_get_exact_positions: symmetrized positions of the atoms of `convPrim` (primitive atoms in the conventional
 * basis); fills `wyckoffs`, `equivAtoms` and `siteSymmetrySymbols` (indexed like convPrim). Null if failed.
 */
export function ssmGetExactPositions(
  wyckoffs: number[],
  equivAtoms: number[],
  siteSymmetrySymbols: string[],
  convPrim: Cell,
  convSym: Symmetry,
  numPureTrans: number,
  hallNumber: number,
  symprec: number,
): VecDBL | null {
  let positions: VecDBL | null = null;

  /* Attempt slightly loosen tolerance */
  let tolerance = symprec;
  for (let i = 0; i < NUM_ATTEMPT; i++) {
    if ((positions = getExactPositions(equivAtoms, convPrim, convSym, tolerance)) === null) {
      return null;
    }

    if (setWyckoffsLabels(wyckoffs, siteSymmetrySymbols, positions, equivAtoms, convPrim, convSym, numPureTrans, hallNumber, symprec)) {
      break;
    } else {
      positions = null;
      tolerance *= INCREASE_RATE;
    }
  }

  return positions;
}

/* get_exact_positions */
function getExactPositions(equivAtoms: number[], convPrim: Cell, convSym: Symmetry, symprec: number): VecDBL | null {
  const positions = matAllocVecDBL(convPrim.size);
  const indepAtoms: number[] = new Array<number>(convPrim.size).fill(0);

  let numIndepAtoms = 0;
  for (let i = 0; i < convPrim.size; i++) {
    /* Check if atom_i overlap to an atom already set at the exact position. */
    if (!setEquivalentAtom(positions, equivAtoms, i, numIndepAtoms, indepAtoms, convPrim, convSym, symprec)) {
      /* No equivalent atom was found. */
      equivAtoms[i] = i;
      indepAtoms[numIndepAtoms] = i;
      matCopyVectorD3(positions.vec[i], convPrim.position[i]);
      setExactLocation(positions.vec[i], convSym, convPrim.lattice, symprec);
      numIndepAtoms++;
    }
  }

  return positions;
}

/* set_equivalent_atom */
function setEquivalentAtom(
  positions: VecDBL,
  equivAtoms: number[],
  i: number,
  numIndepAtoms: number,
  indepAtoms: number[],
  convPrim: Cell,
  convSym: Symmetry,
  symprec: number,
): boolean {
  const pos = [0, 0, 0];

  for (let j = 0; j < numIndepAtoms; j++) {
    for (let k = 0; k < convSym.size; k++) {
      matMultiplyMatrixVectorId3(pos, convSym.rot[k], positions.vec[indepAtoms[j]]);
      for (let l = 0; l < 3; l++) {
        pos[l] += convSym.trans[k][l];
      }
      if (
        celIsOverlapWithSameType(pos, convPrim.position[i], convPrim.types[indepAtoms[j]], convPrim.types[i], convPrim.lattice, symprec)
      ) {
        for (let l = 0; l < 3; l++) {
          positions.vec[i][l] = matDmod1(pos[l]);
        }
        equivAtoms[i] = indepAtoms[j];
        return true;
      }
    }
  }

  return false;
}

/**
 * set_exact_location: site symmetry is used to determine the exact location of an atom
 * (R. W. Grosse-Kunstleve and P. D. Adams, Acta Cryst. (2002). A58, 60-65). Mutates `position`.
 */
function setExactLocation(position: Vec3, convSym: Symmetry, bravaisLattice: Mat3, symprec: number): void {
  const sumRot = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const pos = [0, 0, 0];
  const sumTrans = [0.0, 0.0, 0.0];

  let numSiteSym = 0;

  for (let i = 0; i < convSym.size; i++) {
    matMultiplyMatrixVectorId3(pos, convSym.rot[i], position);
    for (let j = 0; j < 3; j++) {
      pos[j] += convSym.trans[i][j];
    }

    if (celIsOverlap(pos, position, bravaisLattice, symprec)) {
      for (let j = 0; j < 3; j++) {
        for (let k = 0; k < 3; k++) {
          sumRot[j][k] += convSym.rot[i][j][k];
        }
        sumTrans[j] += convSym.trans[i][j] - matNint(pos[j] - position[j]);
      }
      numSiteSym++;
    }
  }

  for (let i = 0; i < 3; i++) {
    sumTrans[i] /= numSiteSym;
    for (let j = 0; j < 3; j++) {
      sumRot[i][j] /= numSiteSym;
    }
  }

  /* (sum_rot|sum_trans) is the special-position operator. */
  /* Elements of sum_rot can be fractional values. */
  matMultiplyMatrixVectorD3(position, sumRot, position);

  for (let i = 0; i < 3; i++) {
    position[i] += sumTrans[i];
  }
}

/* set_Wyckoffs_labels: returns false if a Wyckoff position could not be assigned. */
function setWyckoffsLabels(
  wyckoffs: number[],
  siteSymmetrySymbols: string[],
  positions: VecDBL,
  equivAtoms: number[],
  convPrim: Cell,
  convSym: Symmetry,
  numPureTrans: number,
  hallNumber: number,
  symprec: number,
): boolean {
  const numsEquivAtoms: number[] = new Array<number>(convPrim.size).fill(0);

  for (let i = 0; i < convPrim.size; i++) {
    numsEquivAtoms[equivAtoms[i]]++;
  }

  for (let i = 0; i < convPrim.size; i++) {
    if (i === equivAtoms[i]) {
      const { w, siteSymSymbol } = getWyckoffNotation(
        positions.vec[i],
        convSym,
        numsEquivAtoms[i] * numPureTrans,
        convPrim.lattice,
        hallNumber,
        symprec,
      );
      if (siteSymSymbol !== null) {
        siteSymmetrySymbols[i] = siteSymSymbol;
      }
      if (w < 0) {
        return false;
      } else {
        wyckoffs[i] = w;
      }
    }
  }

  for (let i = 0; i < convPrim.size; i++) {
    if (i !== equivAtoms[i]) {
      wyckoffs[i] = wyckoffs[equivAtoms[i]];
      siteSymmetrySymbols[i] = siteSymmetrySymbols[equivAtoms[i]];
    }
  }

  return true;
}

/**
 * get_Wyckoff_notation: w = 0-based Wyckoff letter (-1 if failed); siteSymSymbol is the symbol C writes into
 * site_sym_symbol, or null where C leaves it untouched.
 */
function getWyckoffNotation(
  position: Vec3,
  convSym: Symmetry,
  refMultiplicity: number,
  bravaisLattice: Mat3,
  hallNumber: number,
  symprec: number,
): { w: number; siteSymSymbol: string | null } {
  const indicesWyc = [0, 0];
  const rot = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const trans = [0, 0, 0];
  const orbit = [0, 0, 0];

  const posRot = matAllocVecDBL(convSym.size);

  for (let i = 0; i < convSym.size; i++) {
    matMultiplyMatrixVectorId3(posRot.vec[i], convSym.rot[i], position);
    for (let j = 0; j < 3; j++) {
      posRot.vec[i][j] += convSym.trans[i][j];
    }
  }

  // The C loop tests celIsOverlap(pos_rot[j], pos_rot[k]) for every Wyckoff row i and the fixed-point test of
  // pos_rot[k] for every j; both are pure, so they are computed once here (same counts, far fewer tests).
  const n = posRot.size;
  const overlapping: number[][] = [];
  for (let j = 0; j < n; j++) {
    const list: number[] = [];
    for (let k = 0; k < n; k++) if (celIsOverlap(posRot.vec[j], posRot.vec[k], bravaisLattice, symprec)) list.push(k);
    overlapping.push(list);
  }
  const fixed = new Uint8Array(n);

  ssmdbGetWyckoffIndices(indicesWyc, hallNumber);
  for (let i = 0; i < indicesWyc[1]; i++) {
    /* (rot, trans) gives the first element of each Wyckoff position of the 'Coordinates' in ITA */
    const multiplicity = ssmdbGetCoordinate(rot, trans, i + indicesWyc[0]);
    if (multiplicity !== refMultiplicity) continue; // the consistency check below fails for every j

    for (let k = 0; k < n; k++) {
      matMultiplyMatrixVectorId3(orbit, rot, posRot.vec[k]);
      for (let l = 0; l < 3; l++) {
        orbit[l] += trans[l];
      }
      fixed[k] = celIsOverlap(posRot.vec[k], orbit, bravaisLattice, symprec) ? 1 : 0;
    }

    /* Effectively this iteration runs over all 'Coordinates' of each Wyckoff position. */
    for (let j = 0; j < n; j++) {
      let numSitesym = 0;
      for (const k of overlapping[j]) numSitesym += fixed[k];

      /* Consistency check: 1) num_sym == num_sitesym * m, 2) num_equiv_atoms in conventional cell == m */
      if (numSitesym * multiplicity === convSym.size && multiplicity === refMultiplicity) {
        /* Database is made reversed order, e.g., gfedcba. */
        return { w: indicesWyc[1] - i - 1, siteSymSymbol: ssmdbGetSiteSymmetrySymbol(indicesWyc[0] + i) };
      }
    }
  }

  return { w: -1, siteSymSymbol: null };
}
