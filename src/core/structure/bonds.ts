/**
 * Bonds from covalent radii, coordination numbers and coordination polyhedra.
 *
 * Rule: atoms i, j are bonded when `minDistance <= d < (r_i + r_j) * tolerance`, with Cordero 2008
 * covalent radii (ASE's table, see elements.ts) and `tolerance` 1.15 by default: a 15 % margin over
 * the radii sum, between ASE's `get_bondpairs` (1.1) and RDKit's `DetermineConnectivity` (1.3); it
 * keeps Pb–I and Si–Si bonds (which need ≈ 1.11 and 1.06) while H2 and O–O contacts stay unbonded.
 * A per-pair override `{ "Mg-H": 2.1 }` (order-insensitive, Å) replaces the rule for that pair;
 * an override of 0 removes the pair. A site's element is its majority species; `D`/`T` count as H.
 * In a structure that holds any non-metal, metal–metal contacts are not bonds by default (Cs–Ca in
 * CsCaH3 is 4.0 Å, inside 1.15 × (2.44 + 1.76) Å, yet no chemist draws it; VESTA and matterviz drop
 * such pairs too); pure intermetallics keep them. `metalMetal` forces either behaviour.
 */
import { type Vec3, cross, dot, sub, unit } from '../math/mat3.ts';
import { elementBySymbol } from './elements.ts';
import { findNeighborsRaw, sitePositions } from './neighbors.ts';
import { majorSpecies, type Structure } from './structure.ts';
import { printable } from '../limits.ts';

export interface BondOptions {
  /** Multiplier on the sum of covalent radii (default 1.15). */
  tolerance?: number;
  /** Maximum bond length in Å per element pair, e.g. `{ "Mg-H": 2.1 }`; 0 disables the pair. */
  overrides?: Record<string, number>;
  /** Shorter contacts are not bonds (default 0.1 Å; overlapping atoms). */
  minDistance?: number;
  /** Bond metal–metal pairs; default: only when the structure holds no non-metal at all. */
  metalMetal?: boolean;
}

export interface BondList {
  i: Uint32Array;
  j: Uint32Array;
  /** 3 integers per bond: j's lattice image; the bond runs from xyz[i] to xyz[j] + image · lattice. */
  image: Int32Array;
  length: Float64Array;
}

export const DEFAULT_BOND_TOLERANCE = 1.15;
const DEFAULT_MIN_BOND_DISTANCE = 0.1;

/** Non-metals and metalloids: the elements that form covalent bonds in ionic and molecular solids. */
const NON_METALS = new Set([
  'H',
  'He',
  'B',
  'C',
  'N',
  'O',
  'F',
  'Ne',
  'Si',
  'P',
  'S',
  'Cl',
  'Ar',
  'Ge',
  'As',
  'Se',
  'Br',
  'Kr',
  'Sb',
  'Te',
  'I',
  'Xe',
  'At',
  'Rn',
]);
export const isMetal = (symbol: string): boolean => !NON_METALS.has(symbol);

const pairKey = (a: string, b: string) => (a < b ? `${a}-${b}` : `${b}-${a}`);

/** Normalises override keys (`"h-MG"`, `"Mg-H"`, `"H-Mg"` are one pair) to canonical symbols. */
function parseOverrides(overrides: Record<string, number> | undefined): Map<string, number> {
  const map = new Map<string, number>();
  for (const [key, value] of Object.entries(overrides ?? {})) {
    const parts = key.split('-').map((p) => p.trim());
    const a = parts.length === 2 ? elementBySymbol(parts[0]) : undefined;
    const b = parts.length === 2 ? elementBySymbol(parts[1]) : undefined;
    if (!a || !b) throw new Error(`bond override "${key}" must name two elements like "Mg-H"`);
    if (!(value >= 0) || !Number.isFinite(value)) throw new Error(`bond override "${key}" must be a length ≥ 0 Å, got ${value}`);
    map.set(pairKey(a.symbol, b.symbol), value);
  }
  return map;
}

/**
 * Per-pair cutoffs written as text, e.g. `"Mg-H 2.1, Cs-Ca 0"` or `"Mg-H=2.1; Cs-Ca=0"` (Å; 0 removes
 * the pair) → the `overrides` of BondOptions. Throws one clear sentence for a malformed entry.
 */
export function parseBondCutoffs(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const entry of text
    .split(/[,;\n]+/)
    .map((e) => e.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z]{1,3})\s*-\s*([A-Za-z]{1,3})(?:\s*[=:]\s*|\s+)(\d+(?:\.\d+)?|\.\d+)\s*(?:Å|A)?$/.exec(entry);
    if (!m) throw new Error(`bond cutoff "${printable(entry)}" should look like "Mg-H 2.1" (two elements and a length in Å)`);
    out[`${m[1]}-${m[2]}`] = Number(m[3]);
  }
  parseOverrides(out); // validates the element symbols and lengths
  return out;
}

export function computeBonds(s: Structure, options: BondOptions = {}): BondList {
  const tolerance = options.tolerance ?? DEFAULT_BOND_TOLERANCE;
  const minDistance = options.minDistance ?? DEFAULT_MIN_BOND_DISTANCE;
  if (!(tolerance > 0) || !Number.isFinite(tolerance)) throw new Error(`bond tolerance must be a positive number, got ${tolerance}`);
  const overrides = parseOverrides(options.overrides);
  const n = s.sites.length;

  // Element kinds present, with their radii; unknown species (dummy atoms) get no bonds.
  const kindOf = new Int32Array(n);
  const kinds: { symbol: string; radius: number }[] = [];
  const kindIndex = new Map<string, number>();
  for (let a = 0; a < n; a++) {
    const el = elementBySymbol(majorSpecies(s.sites[a]));
    if (!el) {
      kindOf[a] = -1;
      continue;
    }
    let k = kindIndex.get(el.symbol);
    if (k === undefined) {
      k = kinds.length;
      kinds.push({ symbol: el.symbol, radius: el.covalentRadius });
      kindIndex.set(el.symbol, k);
    }
    kindOf[a] = k;
  }
  // Maximum bond length for every pair of kinds.
  const nk = kinds.length;
  const metalMetal = options.metalMetal ?? kinds.every((k) => isMetal(k.symbol));
  const maxLength = new Float64Array(nk * nk);
  let cutoff = 0;
  for (let p = 0; p < nk; p++)
    for (let q = 0; q < nk; q++) {
      const o = overrides.get(pairKey(kinds[p].symbol, kinds[q].symbol));
      const bothMetals = isMetal(kinds[p].symbol) && isMetal(kinds[q].symbol);
      const len = o ?? (bothMetals && !metalMetal ? 0 : (kinds[p].radius + kinds[q].radius) * tolerance);
      maxLength[p * nk + q] = len;
      if (len > cutoff) cutoff = len;
    }
  const empty: BondList = { i: new Uint32Array(0), j: new Uint32Array(0), image: new Int32Array(0), length: new Float64Array(0) };
  if (cutoff <= 0 || n === 0) return empty;

  const pairs = findNeighborsRaw(sitePositions(s), s.lattice ? s.lattice.matrix : null, cutoff);
  const keep = new Uint8Array(pairs.i.length);
  let count = 0;
  for (let m = 0; m < pairs.i.length; m++) {
    const ki = kindOf[pairs.i[m]],
      kj = kindOf[pairs.j[m]];
    if (ki < 0 || kj < 0) continue;
    const d = pairs.distance[m];
    if (d >= minDistance && d < maxLength[ki * nk + kj]) {
      keep[m] = 1;
      count++;
    }
  }
  const out: BondList = {
    i: new Uint32Array(count),
    j: new Uint32Array(count),
    image: new Int32Array(3 * count),
    length: new Float64Array(count),
  };
  let c = 0;
  for (let m = 0; m < pairs.i.length; m++) {
    if (!keep[m]) continue;
    out.i[c] = pairs.i[m];
    out.j[c] = pairs.j[m];
    out.image[3 * c] = pairs.image[3 * m];
    out.image[3 * c + 1] = pairs.image[3 * m + 1];
    out.image[3 * c + 2] = pairs.image[3 * m + 2];
    out.length[c] = pairs.distance[m];
    c++;
  }
  return out;
}

/** Number of bonds of every site (a bond to one's own periodic image counts at both ends). */
export function coordinationNumbers(nSites: number, bonds: BondList): Uint32Array {
  const cn = new Uint32Array(nSites);
  for (let m = 0; m < bonds.i.length; m++) {
    cn[bonds.i[m]]++;
    cn[bonds.j[m]]++;
  }
  return cn;
}

/** Coordination number of site `index` under the bond rule. */
export function coordination(s: Structure, index: number, options: BondOptions = {}): number {
  if (!Number.isInteger(index) || index < 0 || index >= s.sites.length)
    throw new Error(`site index ${index} is out of range (0..${s.sites.length - 1})`);
  return coordinationNumbers(s.sites.length, computeBonds(s, options))[index];
}

export interface Polyhedron {
  center: number;
  /** Neighbour positions (periodic images included), xyz triples, Å. */
  vertices: Float64Array;
  /** Triangles as vertex-index triples, counter-clockwise seen from outside (outward normals). */
  faces: Uint32Array;
}

/**
 * Coordination polyhedra: one per site with at least `minVertices` (default 4) bonded neighbours and
 * a hull with faces; `includeCenter` optionally limits which sites are centres (e.g. cations only).
 * Coplanar neighbour sets (square-planar) give a flat polygon triangulated on both sides.
 */
export function coordinationPolyhedra(
  s: Structure,
  bonds: BondList,
  minVertices = 4,
  includeCenter?: (siteIndex: number) => boolean,
): Polyhedron[] {
  const n = s.sites.length;
  const neighbors: number[][] = Array.from({ length: n }, () => []);
  const L = s.lattice?.matrix;
  const imagePos = (site: number, f: number, a: number, b: number, c: number): [number, number, number] => {
    const p = s.sites[site].xyz;
    if (!L || (a === 0 && b === 0 && c === 0)) return [p[0], p[1], p[2]];
    const x = f * a,
      y = f * b,
      z = f * c;
    return [
      p[0] + x * L[0][0] + y * L[1][0] + z * L[2][0],
      p[1] + x * L[0][1] + y * L[1][1] + z * L[2][1],
      p[2] + x * L[0][2] + y * L[1][2] + z * L[2][2],
    ];
  };
  for (let m = 0; m < bonds.i.length; m++) {
    const i = bonds.i[m],
      j = bonds.j[m];
    const [a, b, c] = [bonds.image[3 * m], bonds.image[3 * m + 1], bonds.image[3 * m + 2]];
    neighbors[i].push(...imagePos(j, 1, a, b, c));
    neighbors[j].push(...imagePos(i, -1, a, b, c));
  }
  const out: Polyhedron[] = [];
  for (let center = 0; center < n; center++) {
    const pts = neighbors[center];
    if (pts.length / 3 < Math.max(minVertices, 3)) continue;
    if (includeCenter && !includeCenter(center)) continue;
    const vertices = new Float64Array(pts);
    const faces = convexHullFaces(vertices);
    if (faces.length === 0) continue;
    out.push({ center, vertices, faces });
  }
  return out;
}

/**
 * Triangulated convex hull of a small point set (meant for ≤ ~30 points; O(n⁴) but robust).
 * Every plane through three points with no point outside it (within a relative tolerance) is a face
 * plane; all points on it are collected, their 2D hull ordered and fan-triangulated, so coplanar
 * faces (octahedra, cubes) are split exactly once. Points strictly inside the hull or inside a face
 * are not used. All points coplanar: the flat polygon, triangulated on both sides. Collinear or
 * fewer than 3 points: no faces.
 */
export function convexHullFaces(points: Float64Array): Uint32Array {
  const n = points.length / 3;
  if (n < 3) return new Uint32Array(0);
  const P = (k: number): Vec3 => [points[3 * k], points[3 * k + 1], points[3 * k + 2]];
  const cen = [0, 0, 0];
  for (let k = 0; k < n; k++) for (let d = 0; d < 3; d++) cen[d] += points[3 * k + d] / n;
  let scale = 0;
  for (let k = 0; k < n; k++)
    scale = Math.max(scale, Math.hypot(points[3 * k] - cen[0], points[3 * k + 1] - cen[1], points[3 * k + 2] - cen[2]));
  if (scale === 0) return new Uint32Array(0);
  const eps = 1e-7 * scale;

  const faces: number[] = [];
  /** Appends the fan triangulation of the points `onPlane`, counter-clockwise around `normal`. */
  const addPolygon = (onPlane: number[], normal: Vec3) => {
    const ref: Vec3 = Math.abs(normal[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
    const u = unit(cross(normal, ref));
    const v = cross(normal, u);
    const pts2 = onPlane.map((k) => ({ k, x: dot(P(k), u), y: dot(P(k), v) }));
    pts2.sort((p, q) => p.x - q.x || p.y - q.y);
    // Andrew's monotone chain, counter-clockwise in (u, v), which is counter-clockwise about `normal`.
    const turn = (o: { x: number; y: number }, a: { x: number; y: number }, b: { x: number; y: number }) =>
      (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
    const hull: typeof pts2 = [];
    for (const p of pts2) {
      while (hull.length >= 2 && turn(hull[hull.length - 2], hull[hull.length - 1], p) <= eps * scale) hull.pop();
      hull.push(p);
    }
    const lowerLen = hull.length + 1;
    for (let t = pts2.length - 2; t >= 0; t--) {
      const p = pts2[t];
      while (hull.length >= lowerLen && turn(hull[hull.length - 2], hull[hull.length - 1], p) <= eps * scale) hull.pop();
      hull.push(p);
    }
    hull.pop();
    for (let t = 1; t + 1 < hull.length; t++) faces.push(hull[0].k, hull[t].k, hull[t + 1].k);
  };

  const seen = new Set<string>();
  let anyPlane = false;
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      for (let c = b + 1; c < n; c++) {
        const raw = cross(sub(P(b), P(a)), sub(P(c), P(a)));
        const len = Math.hypot(raw[0], raw[1], raw[2]);
        if (len <= eps * scale) continue; // (nearly) collinear triple
        anyPlane = true;
        let normal: Vec3 = [raw[0] / len, raw[1] / len, raw[2] / len];
        const off = dot(normal, P(a));
        let above = 0,
          below = 0;
        const onPlane: number[] = [];
        for (let k = 0; k < n; k++) {
          const h = dot(normal, P(k)) - off;
          if (h > eps) above++;
          else if (h < -eps) below++;
          else onPlane.push(k);
        }
        if (above > 0 && below > 0) continue;
        if (above === 0 && below === 0) continue; // everything coplanar: handled below
        if (above > 0) normal = [-normal[0], -normal[1], -normal[2]]; // make it point away from the rest
        const key = onPlane.join(',');
        if (seen.has(key)) continue;
        seen.add(key);
        addPolygon(onPlane, normal);
      }
  if (faces.length === 0 && anyPlane) {
    // All points coplanar: one flat polygon, seen from both sides.
    let best: Vec3 = [0, 0, 0],
      bestLen = 0;
    for (let b = 1; b < n; b++)
      for (let c = b + 1; c < n; c++) {
        const raw = cross(sub(P(b), P(0)), sub(P(c), P(0)));
        const len = Math.hypot(raw[0], raw[1], raw[2]);
        if (len > bestLen) {
          bestLen = len;
          best = raw;
        }
      }
    const normal = unit(best);
    const all = Array.from({ length: n }, (_, k) => k);
    addPolygon(all, normal);
    const m = faces.length;
    for (let t = 0; t < m; t += 3) faces.push(faces[t], faces[t + 2], faces[t + 1]);
  }
  return new Uint32Array(faces);
}
