/**
 * Mackay icosahedra as ASE 3.22.1 builds them (ase/cluster/icosahedron.py `Icosahedron`, gitlab.com/ase/ase,
 * LGPL-2.1+; read, not copied): shell n > 0 has the 12 vertices scaled by n, the points of the 6 vertex-pair edges,
 * then (n > 1) the face points spanned from each vertex, then (n > 2) the points of the 8 remaining faces.
 */
import { type ClusterResult, centerAboutOrigin, checkParticleAtoms, checkWhole, clusterResult, latticeConstantOf } from './common.ts';

const T = 0.5 + Math.sqrt(5) / 2;

/** The 12 vertices (±t, 0, ±1), (±1, ±t, 0), (0, ±1, ±t) in ASE's order. */
const VERTICES: readonly (readonly number[])[] = [
  [T, 0, 1],
  [T, 0, -1],
  [-T, 0, 1],
  [-T, 0, -1],
  [1, T, 0],
  [-1, T, 0],
  [1, -T, 0],
  [-1, -T, 0],
  [0, 1, T],
  [0, -1, T],
  [0, 1, -T],
  [0, -1, -T],
];

/** For each vertex, the two vertices whose edges span the face points it adds (shells of 3 and more). */
const FACE_SPAN: readonly (readonly [number, number])[] = [
  [8, 9],
  [10, 11],
  [8, 9],
  [10, 11],
  [0, 1],
  [2, 3],
  [0, 1],
  [2, 3],
  [4, 5],
  [6, 7],
  [4, 5],
  [6, 7],
];

/** The four vertices with two more faces each to fill (shells of 4 and more): two spanning pairs per vertex. */
const FILL_SPAN: readonly (readonly [number, number, number, number])[] = [
  [9, 6, 8, 4],
  [11, 6, 10, 4],
  [9, 7, 8, 5],
  [11, 7, 10, 5],
];

/** Atoms of an icosahedron of `shells` shells: 1, 13, 55, 147, 309, 561, … = (10s³ − 15s² + 11s − 3) / 3. */
export const icosahedronAtoms = (shells: number): number => (10 * shells * shells * shells - 15 * shells * shells + 11 * shells - 3) / 3;

/** ASE's `Icosahedron(symbol, noshells, latticeconstant)`: the element's reference fcc, bcc or sc `a` by default. */
export function icosahedron(symbol: string, shells: number, latticeConstant?: number): ClusterResult {
  const a = latticeConstantOf(symbol, latticeConstant, ['fcc', 'bcc', 'sc'], 'Icosahedron');
  checkWhole(shells, 'the number of shells', 1);
  const count = icosahedronAtoms(shells);
  checkParticleAtoms(`an icosahedron of ${shells} shells`, count);

  const positions = new Float64Array(3 * count);
  let at = 3; // the centre atom stays at the origin
  const push = (x: number, y: number, z: number) => {
    positions[at++] = x;
    positions[at++] = y;
    positions[at++] = z;
  };
  const diff = (p: number, q: number) => VERTICES[p].map((x, c) => x - VERTICES[q][c]);
  for (let n = 1; n < shells; n++) {
    for (let k = 0; k < 12; k += 2) {
      const v1 = VERTICES[k];
      const v2 = VERTICES[k + 1];
      for (let i = 0; i <= n; i++) push(i * v1[0] + (n - i) * v2[0], i * v1[1] + (n - i) * v2[1], i * v1[2] + (n - i) * v2[2]);
    }
    if (n > 1) {
      for (let k = 0; k < 12; k++) {
        const v0 = VERTICES[k].map((x) => n * x);
        const v1 = diff(FACE_SPAN[k][0], k);
        const v2 = diff(FACE_SPAN[k][1], k);
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n - i; j++) {
            if (i === 0 && j === 0) continue;
            push(v0[0] + i * v1[0] + j * v2[0], v0[1] + i * v1[1] + j * v2[1], v0[2] + i * v1[2] + j * v2[2]);
          }
      }
    }
    if (n > 2) {
      for (let k = 0; k < 4; k++) {
        const v0 = VERTICES[k].map((x) => n * x);
        const [v1, v2, v3, v4] = FILL_SPAN[k].map((m) => diff(m, k));
        for (let i = 1; i < n; i++)
          for (let j = 1; j < n - i; j++) {
            push(v0[0] + i * v1[0] + j * v2[0], v0[1] + i * v1[1] + j * v2[1], v0[2] + i * v1[2] + j * v2[2]);
            push(v0[0] + i * v3[0] + j * v4[0], v0[1] + i * v3[1] + j * v4[1], v0[2] + i * v3[2] + j * v4[2]);
          }
      }
    }
  }
  if (at !== positions.length) throw new Error(`icosahedron: built ${at / 3} atoms, expected ${count}`);
  const scale = a / Math.sqrt(2 * (1 + T ** 2));
  for (let i = 0; i < positions.length; i++) positions[i] *= scale;
  centerAboutOrigin(positions);
  return clusterResult(symbol, positions, a, `${symbol} icosahedron, ${shells} shells (ASE 3.22.1 Icosahedron)`);
}
