/**
 * Port of spglib v2.0.2 src/delaunay.c (github.com/spglib/spglib, BSD-3-Clause), 3D only: no
 * `del_layer_delaunay_reduce*`, so the aperiodic axis is always -1, `lattice_rank` is 3 (2 in the 2D
 * reduction) and the layer branches are gone. Lattices hold the basis vectors as columns.
 */
import {
  matCastMatrix3dTo3i,
  matCopyMatrixD3,
  matCopyVectorD3,
  matDabs,
  matGetDeterminantD3,
  matGetDeterminantI3,
  matInverseMatrixD3,
  matMultiplyMatrixD3,
  matNormSquaredD3,
} from './mathfunc.ts';
import type { Mat3, Vec3 } from './types.ts';

const NUM_ATTEMPT = 100;
const ZERO_PREC = 1e-10;

function zeroRows(n: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < n; i++) out.push([0, 0, 0]);
  return out;
}

/** Delaunay reduction of `lattice` into `minLattice` (may be the same array). Returns 0 if failed, else 1. */
export function delDelaunayReduce(minLattice: Mat3, lattice: Mat3, symprec: number): number {
  return delaunayReduce(minLattice, lattice, symprec);
}

/** 2D Delaunay reduction of the two axes other than `uniqueAxis`. Returns 0 if failed, else 1. */
export function delDelaunayReduce2D(minLattice: Mat3, lattice: Mat3, uniqueAxis: number, symprec: number): number {
  return delaunayReduce2D(minLattice, lattice, uniqueAxis, symprec);
}

/* Delaunay reduction */
/* Reference can be found in International table A. */
/* Return 0 if failed */
function delaunayReduce(redLattice: Mat3, lattice: Mat3, symprec: number): number {
  const tmpMatInt = zeroRows(3);
  const origLattice = zeroRows(3);
  const tmpMat = zeroRows(3);
  const basis = zeroRows(4);

  matCopyMatrixD3(origLattice, lattice);

  getExtendedBasis(basis, lattice);

  let succeeded = 0;
  for (let attempt = 0; attempt < NUM_ATTEMPT; attempt++) {
    succeeded = delaunayReduceBasis(basis, symprec);
    if (succeeded) {
      break;
    }
  }

  if (!succeeded) {
    return 0;
  }

  getDelaunayShortestVectors(basis, symprec);

  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      redLattice[i][j] = basis[j][i];
    }
  }

  const volume = matGetDeterminantD3(redLattice);
  if (matDabs(volume) < symprec) {
    /* Minimum lattice has no volume */
    return 0;
  }

  if (volume < 0) {
    /* Flip axes */
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        redLattice[i][j] = -redLattice[i][j];
      }
    }
  }

  matInverseMatrixD3(tmpMat, redLattice, symprec);
  matMultiplyMatrixD3(tmpMat, tmpMat, origLattice);
  matCastMatrix3dTo3i(tmpMatInt, tmpMat);
  if (Math.abs(matGetDeterminantI3(tmpMatInt)) !== 1) {
    /* Determinant of Delaunay change of basis matrix has to be 1 or -1 */
    return 0;
  }

  return 1;
}

function bubbleSwap(b: number[][], j: number, tmpvec: Vec3): void {
  if (matNormSquaredD3(b[j]) > matNormSquaredD3(b[j + 1]) + ZERO_PREC) {
    matCopyVectorD3(tmpvec, b[j]);
    matCopyVectorD3(b[j], b[j + 1]);
    matCopyVectorD3(b[j + 1], tmpvec);
  }
}

function getDelaunayShortestVectors(basis: number[][], symprec: number): void {
  const tmpmat = zeroRows(3);
  const b = zeroRows(7);
  const tmpvec = [0, 0, 0];

  /* Search in the set {b1, b2, b1+b2, b3, b4, b2+b3, b3+b1} */
  for (let i = 0; i < 2; i++) {
    for (let j = 0; j < 3; j++) {
      b[i][j] = basis[i][j];
    }
  }

  for (let i = 0; i < 3; i++) {
    b[2][i] = basis[0][i] + basis[1][i];
  }

  for (let i = 2; i < 4; i++) {
    for (let j = 0; j < 3; j++) {
      b[i + 1][j] = basis[i][j];
    }
  }

  for (let i = 0; i < 3; i++) {
    b[5][i] = basis[1][i] + basis[2][i];
  }
  for (let i = 0; i < 3; i++) {
    b[6][i] = basis[2][i] + basis[0][i];
  }

  /* Bubble sort */
  for (let i = 0; i < 6; i++) {
    for (let j = 0; j < 6; j++) {
      bubbleSwap(b, j, tmpvec);
    }
  }

  for (let i = 2; i < 7; i++) {
    for (let j = 0; j < 3; j++) {
      tmpmat[j][0] = b[0][j];
      tmpmat[j][1] = b[1][j];
      tmpmat[j][2] = b[i][j];
    }
    if (matDabs(matGetDeterminantD3(tmpmat)) > symprec) {
      for (let j = 0; j < 3; j++) {
        basis[0][j] = b[0][j];
        basis[1][j] = b[1][j];
        basis[2][j] = b[i][j];
      }
      break;
    }
  }
}

function delaunayReduceBasis(basis: number[][], symprec: number): number {
  for (let i = 0; i < 3; i++) {
    for (let j = i + 1; j < 4; j++) {
      let dotProduct = 0.0;
      for (let k = 0; k < 3; k++) {
        dotProduct += basis[i][k] * basis[j][k];
      }
      if (dotProduct > symprec) {
        for (let k = 0; k < 4; k++) {
          if (!(k === i || k === j)) {
            for (let l = 0; l < 3; l++) {
              basis[k][l] += basis[i][l];
            }
          }
        }
        for (let k = 0; k < 3; k++) {
          basis[i][k] = -basis[i][k];
        }
        return 0;
      }
    }
  }

  return 1;
}

function getExtendedBasis(basis: number[][], lattice: Mat3): void {
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      basis[i][j] = lattice[j][i];
    }
  }

  for (let i = 0; i < 3; i++) {
    basis[3][i] = -lattice[i][0] - lattice[i][1] - lattice[i][2];
  }
}

/* For Monocli/Oblique, unique axis is aperiodic axis, j and k are periodic */
/* j and k are delaunay reduced */
function delaunayReduce2D(redLattice: Mat3, lattice: Mat3, uniqueAxis: number, symprec: number): number {
  const basis = zeroRows(3);
  const lattice2D = [
    [0, 0],
    [0, 0],
    [0, 0],
  ];
  const uniqueVec = [0, 0, 0];

  let j = -1;
  let k = -1;
  for (let i = 0; i < 3; i++) {
    if (i !== uniqueAxis) {
      if (j === -1) {
        j = i;
      } else {
        k = i;
      }
    }
  }

  for (let i = 0; i < 3; i++) {
    uniqueVec[i] = lattice[i][uniqueAxis];
    lattice2D[i][0] = lattice[i][j];
    lattice2D[i][1] = lattice[i][k];
  }

  getExtendedBasis2D(basis, lattice2D);

  let succeeded = 0;
  for (let attempt = 0; attempt < NUM_ATTEMPT; attempt++) {
    succeeded = delaunayReduceBasis2D(basis, symprec);
    if (succeeded) {
      break;
    }
  }

  if (!succeeded) {
    return 0;
  }

  getDelaunayShortestVectors2D(basis, uniqueVec, symprec);

  for (let i = 0; i < 3; i++) {
    redLattice[i][uniqueAxis] = lattice[i][uniqueAxis];
    redLattice[i][j] = basis[0][i];
    redLattice[i][k] = basis[1][i];
  }

  const volume = matGetDeterminantD3(redLattice);
  if (matDabs(volume) < symprec) {
    /* Minimum lattice has no volume */
    return 0;
  }

  if (volume < 0) {
    for (let i = 0; i < 3; i++) {
      redLattice[i][uniqueAxis] = -redLattice[i][uniqueAxis];
    }
  }

  return 1;
}

function delaunayReduceBasis2D(basis: number[][], symprec: number): number {
  for (let i = 0; i < 2; i++) {
    for (let j = i + 1; j < 3; j++) {
      let dotProduct = 0.0;
      for (let k = 0; k < 3; k++) {
        dotProduct += basis[i][k] * basis[j][k];
      }
      if (dotProduct > symprec) {
        for (let k = 0; k < 3; k++) {
          if (!(k === i || k === j)) {
            for (let l = 0; l < 3; l++) {
              basis[k][l] += 2 * basis[i][l];
            }
            break;
          }
        }
        for (let k = 0; k < 3; k++) {
          basis[i][k] = -basis[i][k];
        }
        return 0;
      }
    }
  }

  return 1;
}

function getDelaunayShortestVectors2D(basis: number[][], uniqueVec: Vec3, symprec: number): void {
  const b = zeroRows(4);
  const tmpmat = zeroRows(3);
  const tmpvec = [0, 0, 0];

  /* Search in the set {b1, b2, b3, b1+b2} */
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      b[i][j] = basis[i][j];
    }
  }

  for (let i = 0; i < 3; i++) {
    b[3][i] = basis[0][i] + basis[1][i];
  }

  /* Bubble sort (from lattice_rank % 2 = 0) */
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      bubbleSwap(b, j, tmpvec);
    }
  }

  for (let i = 0; i < 3; i++) {
    tmpmat[i][0] = b[0][i];
    tmpmat[i][1] = uniqueVec[i];
  }

  for (let i = 1; i < 4; i++) {
    for (let j = 0; j < 3; j++) {
      tmpmat[j][2] = b[i][j];
    }
    if (matDabs(matGetDeterminantD3(tmpmat)) > symprec) {
      for (let j = 0; j < 3; j++) {
        basis[0][j] = b[0][j];
        basis[1][j] = b[i][j];
      }
      break;
    }
  }
}

function getExtendedBasis2D(basis: number[][], lattice: number[][]): void {
  for (let i = 0; i < 2; i++) {
    for (let j = 0; j < 3; j++) {
      basis[i][j] = lattice[j][i];
    }
  }

  for (let i = 0; i < 3; i++) {
    basis[2][i] = -lattice[i][0] - lattice[i][1];
  }
}
