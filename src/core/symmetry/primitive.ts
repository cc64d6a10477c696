/**
 * Reduction of a cell to its primitive cell by its pure translations, before the space-group search.
 *
 * moyo's own primitive search grows steeply with the number of sites (a 2560-site perovskite
 * supercell took 96 s, a 1080-site one 2.9 s), while the translations of a supercell are found here
 * in O(n · k) lookups (k = atoms of the rarest species). The space group, the orbits and the Wyckoff
 * letters are properties of the crystal, so they are computed on the primitive cell and mapped back.
 */
import { type Mat3, type Vec3, cross, det, inverse, norm, perpendicularWidths, vecMat, wrapFrac } from '../math/mat3.ts';
import { PeriodicGrid } from '../math/periodic-grid.ts';

export interface PrimitiveReduction {
  /** Primitive lattice vectors as rows, Å. */
  matrix: Mat3;
  /** Fractional positions of the primitive sites (wrapped to [0, 1)). */
  frac: Vec3[];
  /** Type of each primitive site. */
  types: number[];
  /** Primitive site of every input site. */
  siteMap: Int32Array;
  /** Number of pure translations of the input cell (its volume over the primitive volume). */
  translations: number;
}

const wrap3 = (f: Vec3): Vec3 => [wrapFrac(f[0]), wrapFrac(f[1]), wrapFrac(f[2])];

/** Per-type spatial hashes of wrapped fractional positions. */
function typeGrids(frac: Vec3[], types: number[], tol: number): Map<number, PeriodicGrid> {
  const counts = new Map<number, number>();
  for (const t of types) counts.set(t, (counts.get(t) ?? 0) + 1);
  const grids = new Map<number, PeriodicGrid>();
  for (const [t, count] of counts) grids.set(t, new PeriodicGrid(tol, count));
  frac.forEach((f, k) => grids.get(types[k])!.add(f));
  return grids;
}

/**
 * The primitive cell of (matrix, frac, types) at tolerance `symprec` (Å), or null when the cell is
 * already primitive or the translations found do not form a consistent lattice (the caller then
 * analyses the cell as it is).
 */
export function findPrimitive(matrix: Mat3, frac: Vec3[], types: number[], symprec: number): PrimitiveReduction | null {
  const n = frac.length;
  if (n < 2) return null;
  const tol = symprec / Math.min(...perpendicularWidths(matrix));
  if (!(tol > 0) || tol >= 0.25) return null;
  const wrapped = frac.map(wrap3);
  const grids = typeGrids(wrapped, types, tol);

  // Candidate translations: from one atom of the rarest type to every other atom of that type.
  const counts = new Map<number, number>();
  for (const t of types) counts.set(t, (counts.get(t) ?? 0) + 1);
  let rarest = types[0];
  for (const [t, c] of counts) if (c < counts.get(rarest)!) rarest = t;
  const anchor = types.indexOf(rarest);
  const translations: Vec3[] = [[0, 0, 0]];
  for (let j = 0; j < n; j++) {
    if (j === anchor || types[j] !== rarest) continue;
    const t = wrap3([wrapped[j][0] - wrapped[anchor][0], wrapped[j][1] - wrapped[anchor][1], wrapped[j][2] - wrapped[anchor][2]]);
    let maps = true;
    for (let k = 0; k < n && maps; k++) {
      const p = wrap3([wrapped[k][0] + t[0], wrapped[k][1] + t[1], wrapped[k][2] + t[2]]);
      maps = grids.get(types[k])!.find(p) >= 0;
    }
    if (maps) translations.push(t);
  }
  const m = translations.length;
  if (m === 1 || n % m !== 0) return null;
  for (const c of counts.values()) if (c % m !== 0) return null;

  // Shortest independent lattice vectors among the translations (and the cell vectors); in 3D the
  // successive minima form a basis, checked below by the volume.
  const candidates: { v: Vec3; length: number }[] = [];
  const push = (v: Vec3) => candidates.push({ v, length: norm(vecMat(v, matrix)) });
  push([1, 0, 0]);
  push([0, 1, 0]);
  push([0, 0, 1]);
  for (const t of translations.slice(1)) {
    for (let s = 0; s < 8; s++) push([t[0] - (s & 1), t[1] - ((s >> 1) & 1), t[2] - ((s >> 2) & 1)]);
  }
  candidates.sort((a, b) => a.length - b.length);
  const basis: Vec3[] = [];
  for (const { v } of candidates) {
    if (basis.length === 0) basis.push(v);
    else if (basis.length === 1) {
      if (norm(cross(basis[0], v)) > 1e-6) basis.push(v);
    } else if (Math.abs(det([basis[0], basis[1], v])) > 1e-6) {
      basis.push(v);
      break;
    }
  }
  if (basis.length < 3) return null;
  const volumeRatio = det(basis as Mat3);
  if (Math.abs(Math.abs(volumeRatio) * m - 1) > 1e-6) return null;
  if (volumeRatio < 0) basis[2] = [-basis[2][0], -basis[2][1], -basis[2][2]];
  const primMatrix: Mat3 = [vecMat(basis[0], matrix), vecMat(basis[1], matrix), vecMat(basis[2], matrix)];

  // Input fractional f maps to primitive fractional f · B⁻¹ (B = basis rows in input fractions).
  const toPrim = inverse(basis as Mat3);
  const primTol = symprec / Math.min(...perpendicularWidths(primMatrix));
  if (!(primTol < 0.25)) return null;
  const primGrids = new Map<number, { grid: PeriodicGrid; ids: number[] }>();
  const primFrac: Vec3[] = [];
  const primTypes: number[] = [];
  const siteMap = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const p = wrap3(vecMat(wrapped[k], toPrim));
    let g = primGrids.get(types[k]);
    if (!g) {
      g = { grid: new PeriodicGrid(primTol, n / m), ids: [] };
      primGrids.set(types[k], g);
    }
    const hit = g.grid.find(p);
    if (hit >= 0) {
      siteMap[k] = g.ids[hit];
      continue;
    }
    g.grid.add(p);
    g.ids.push(primFrac.length);
    siteMap[k] = primFrac.length;
    primFrac.push(p);
    primTypes.push(types[k]);
  }
  if (primFrac.length * m !== n) return null;
  return { matrix: primMatrix, frac: primFrac, types: primTypes, siteMap, translations: m };
}
