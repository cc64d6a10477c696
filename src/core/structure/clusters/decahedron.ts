/**
 * Ino/Marks decahedra as ASE 3.22.1 builds them (ase/cluster/decahedron.py `Decahedron`, gitlab.com/ase/ase,
 * LGPL-2.1+; read, not copied): h = p + q + 2r − 1 atoms on the five-fold axis, then pentagonal rings n = 1 … g − 1
 * (g = p + 2r) of columns of h − n atoms, the Marks re-entrance removing the columns with n − i ≥ g − r or i ≥ g − r.
 * No centring: the axis runs symmetrically about z = 0, as ASE leaves it.
 */
import { cos, sin } from '../../math/libm.ts';
import { type ClusterResult, checkParticleAtoms, checkWhole, clusterResult, latticeConstantOf } from './common.ts';

/** The atoms of Decahedron(p, q, r), counted without building it. */
export function decahedronAtoms(p: number, q: number, r: number): number {
  const h = p + q + 2 * r - 1;
  const g = p + 2 * r;
  let count = h;
  for (let n = 1; n < Math.min(h, g); n++) {
    // columns i in [0, n) with n − i < g − r and i < g − r
    const lo = Math.max(0, n - (g - r) + 1);
    const hi = Math.min(n - 1, g - r - 1);
    if (hi >= lo) count += 5 * (hi - lo + 1) * (h - n);
  }
  return count;
}

/** ASE's `Decahedron(symbol, p, q, r, latticeconstant)`: the element's reference fcc, bcc or sc `a` by default. */
export function decahedron(symbol: string, p: number, q: number, r: number, latticeConstant?: number): ClusterResult {
  const a = latticeConstantOf(symbol, latticeConstant, ['fcc', 'bcc', 'sc'], 'Decahedron');
  checkWhole(p, 'p', 1);
  checkWhole(q, 'q', 1);
  checkWhole(r, 'r', 0);
  const h = p + q + 2 * r - 1;
  // The axis alone holds h atoms: refuse a huge h before counting the rings.
  checkParticleAtoms(`a decahedron with p = ${p}, q = ${q}, r = ${r}`, h);
  const count = decahedronAtoms(p, q, r);
  checkParticleAtoms(`a decahedron with p = ${p}, q = ${q}, r = ${r}`, count);

  const g = h - q + 1;
  const t = (2 * Math.PI) / 5;
  const b = a / Math.sqrt(2);
  const side = (b * Math.sqrt(3)) / 2;
  const vertices = [0, 1, 2, 3, 4].map((k) => [side * cos(t * k + Math.PI / 2), side * sin(t * k + Math.PI / 2), 0]);

  const positions = new Float64Array(3 * count);
  let at = 0;
  for (let j = 0; j < h; j++) {
    positions[at + 2] = j * b - ((h - 1) * b) / 2;
    at += 3;
  }
  for (let n = 1; n < h; n++) {
    if (n >= g) continue;
    for (let m = 0; m < 5; m++) {
      const v1 = vertices[(m + 4) % 5];
      const v2 = vertices[m];
      for (let i = 0; i < n; i++) {
        if (!(n - i < g - r && i < g - r)) continue;
        const x = (n - i) * v1[0] + i * v2[0];
        const y = (n - i) * v1[1] + i * v2[1];
        const z = (n - i) * v1[2] + i * v2[2];
        for (let j = 0; j < h - n; j++) {
          positions[at++] = x;
          positions[at++] = y;
          positions[at++] = z + (j * b - ((h - n - 1) * b) / 2);
        }
      }
    }
  }
  if (at !== positions.length) throw new Error(`decahedron: built ${at / 3} atoms, expected ${count}`);
  return clusterResult(symbol, positions, a, `${symbol} decahedron, p = ${p}, q = ${q}, r = ${r} (ASE 3.22.1 Decahedron)`);
}
