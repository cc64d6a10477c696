/**
 * Supercells and the periodic images a viewer draws.
 *
 * `makeSupercell` follows pymatgen's `Structure.make_supercell` / `__mul__`: new lattice = M · L
 * (rows), sites in order "each original site, then each lattice point", lattice points enumerated
 * with the old-cell integer coordinates a-major, then b, then c (pymatgen's
 * `lattice_points_in_supercell`), positions not wrapped (original position + translation).
 */
import { type Mat3, type Vec3, det, inverse, matMul } from '../math/mat3.ts';
import { Lattice } from './lattice.ts';
import { type Site, type Structure, fracOf } from './structure.ts';

function scalingMatrix(scaling: [number, number, number] | Mat3): Mat3 {
  const m: Mat3 = Array.isArray(scaling[0])
    ? ((scaling as Mat3).map((r) => [r[0], r[1], r[2]]) as Mat3)
    : [
        [scaling[0] as number, 0, 0],
        [0, scaling[1] as number, 0],
        [0, 0, scaling[2] as number],
      ];
  if (m.length !== 3 || m.some((r) => r.length !== 3 || r.some((v) => !Number.isInteger(v)))) {
    throw new Error('supercell scaling must be three integers or a 3x3 integer matrix');
  }
  if (det(m) === 0) throw new Error('supercell scaling matrix is singular (determinant 0)');
  return m;
}

/** Integer translations (old-cell units) that are distinct lattice points of the supercell `m`, in pymatgen's order. */
export function supercellTranslations(m: Mat3): Vec3[] {
  const lo = [0, 0, 0],
    hi = [0, 0, 0];
  for (let c = 0; c < 8; c++) {
    const d = [(c >> 2) & 1, (c >> 1) & 1, c & 1];
    for (let k = 0; k < 3; k++) {
      const v = d[0] * m[0][k] + d[1] * m[1][k] + d[2] * m[2][k];
      lo[k] = Math.min(lo[k], v);
      hi[k] = Math.max(hi[k], v);
    }
  }
  const inv = inverse(m);
  const out: Vec3[] = [];
  const eps = 1e-10;
  for (let a = lo[0]; a <= hi[0]; a++)
    for (let b = lo[1]; b <= hi[1]; b++)
      for (let c = lo[2]; c <= hi[2]; c++) {
        let inside = true;
        for (let k = 0; k < 3 && inside; k++) {
          const f = a * inv[0][k] + b * inv[1][k] + c * inv[2][k];
          inside = f >= -eps && f < 1 - eps;
        }
        if (inside) out.push([a, b, c]);
      }
  const expected = Math.round(Math.abs(det(m)));
  if (out.length !== expected) throw new Error(`found ${out.length} lattice points for a supercell of ${expected} cells`);
  return out;
}

/** Supercell from a diagonal `[n, m, k]` or a general 3×3 integer matrix (rows: new vectors in old units). */
export function makeSupercell(s: Structure, scaling: [number, number, number] | Mat3): Structure {
  if (!s.lattice) throw new Error('a supercell needs a periodic structure (this one has no lattice)');
  const m = scalingMatrix(scaling);
  const L = s.lattice.matrix;
  const lattice = new Lattice(matMul(m, L));
  const minv = inverse(m);
  const translations = supercellTranslations(m);
  const sites: Site[] = [];
  for (const site of s.sites) {
    const f0 = fracOf(site, s.lattice);
    for (const t of translations) {
      const xyz: Vec3 = [0, 1, 2].map((k) => site.xyz[k] + t[0] * L[0][k] + t[1] * L[1][k] + t[2] * L[2][k]) as Vec3;
      const g = [f0[0] + t[0], f0[1] + t[1], f0[2] + t[2]];
      const frac: Vec3 = [0, 1, 2].map((k) => g[0] * minv[0][k] + g[1] * minv[1][k] + g[2] * minv[2][k]) as Vec3;
      const copy: Site = { ...site, species: { ...site.species }, xyz, frac };
      if (site.oxidation) copy.oxidation = { ...site.oxidation };
      if (site.properties) copy.properties = { ...site.properties };
      sites.push(copy);
    }
  }
  return { name: s.name, lattice, sites, ...(s.properties ? { properties: { ...s.properties } } : {}) };
}

export interface PeriodicImages {
  /** Index of the original site for every drawn atom. */
  site: Uint32Array;
  /** 3 integers per drawn atom: it sits at xyz[site] + image · lattice. */
  image: Int32Array;
  /** Cartesian positions, xyz triples. */
  xyz: Float64Array;
}

/**
 * Atoms to draw for a block of `range` = [na, nb, nc] cells: every site wrapped into the cell and
 * repeated, plus the copies on the far faces of the block for sites whose fractional coordinate is
 * within `tolerance` of 0 (or of 1, which is the same point), as viewers do: a corner atom appears 8
 * times in one cell. Finite structures return their sites unchanged.
 */
export function periodicImages(s: Structure, range: [number, number, number] = [1, 1, 1], tolerance = 1e-4): PeriodicImages {
  const n = s.sites.length;
  if (!s.lattice) {
    const xyz = new Float64Array(3 * n);
    s.sites.forEach((site, k) => xyz.set(site.xyz, 3 * k));
    return { site: Uint32Array.from({ length: n }, (_, k) => k), image: new Int32Array(3 * n), xyz };
  }
  if (range.some((r) => !Number.isInteger(r) || r < 1)) throw new Error('periodic image range must be positive integers');
  const L = s.lattice.matrix;
  const lattice = s.lattice;
  const siteOut: number[] = [],
    imageOut: number[] = [],
    xyzOut: number[] = [];
  for (let idx = 0; idx < n; idx++) {
    const p = s.sites[idx].xyz;
    const f = fracOf(s.sites[idx], lattice);
    // Per axis: the integer shifts that land this site inside the block, boundary copies included.
    const shifts: number[][] = [0, 1, 2].map((k) => {
      let base = -Math.floor(f[k]);
      let w = f[k] + base;
      if (w > 1 - tolerance) {
        base -= 1;
        w -= 1;
      } // ≈ 1 is the same point as ≈ 0
      const list: number[] = [];
      for (let t = 0; t < range[k]; t++) list.push(base + t);
      if (Math.abs(w) < tolerance) list.push(base + range[k]);
      return list;
    });
    for (const a of shifts[0])
      for (const b of shifts[1])
        for (const c of shifts[2]) {
          siteOut.push(idx);
          imageOut.push(a, b, c);
          for (let k = 0; k < 3; k++) xyzOut.push(p[k] + a * L[0][k] + b * L[1][k] + c * L[2][k]);
        }
  }
  return { site: Uint32Array.from(siteOut), image: Int32Array.from(imageOut), xyz: Float64Array.from(xyzOut) };
}
