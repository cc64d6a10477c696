/**
 * pymatgen 2022.11 `StructureMatcher` (`fit`, `get_rms_dist`) ported step by step (pymatgen/analysis/structure_matcher.py):
 * Niggli reduction, optional primitive reduction, volume scaling, candidate lattices of the larger
 * structure, average lattice, per-axis fractional prefilter, shortest periodic vectors in the
 * LLL-reduced average lattice, assignment on squared distances, mean-translation removal.
 * Distances are normalised by (V/N)^(1/3), exactly as pymatgen reports them.
 */
import { type Mat3, type Vec3, det, inverse, vec3 } from '../math/mat3.ts';
import { Lattice } from '../structure/lattice.ts';
import { type Structure, fracOf } from '../structure/structure.ts';
import { speciesString } from '../structure/composition.ts';
import { minimumCostAssignment } from './assignment.ts';
import { lllReduce, roundHalfEven } from '../structure/lll.ts';
import { type LatticeMapping, findAllMappings, niggliReducedLattice } from '../structure/niggli.ts';
import { type PrimitiveOutput, pymatgenPrimitive } from './primitive.ts';
import { checkLimit, LIMITS, LimitError, limitSentence } from '../limits.ts';
import { MATCHER_DEFAULTS, type MatcherOptions } from './defaults.ts';
import { cos, acos, cbrt, pow } from '../math/libm.ts';

export { MATCHER_DEFAULTS, type MatcherOptions };

type Resolved = Required<MatcherOptions>;

/** A structure as the matcher sees it: lattice rows, fractional coordinates, one comparator key per site. */
interface MatchStructure {
  matrix: Mat3;
  frac: Float64Array;
  keys: string[];
  /** pymatgen's species string per site (the primitive search sorts and groups by it). */
  labels: string[];
  /** Index of each site in the caller's structure (the first merged site after a primitive reduction). */
  origin: Int32Array;
}

const volumeOf = (m: Mat3): number => Math.abs(det(m));
const occKey = (x: number): string => (Math.round(x * 1e8) / 1e8).toString();

/**
 * Site identity under the comparator: species with oxidation states and occupancies, elements with
 * occupancies, or (orderDisorder) the sorted element set alone.
 */
function siteKey(site: Structure['sites'][number], comparator: Resolved['comparator']): string {
  if (comparator === 'orderDisorder') return Object.keys(site.species).sort().join(',');
  return Object.entries(site.species)
    .map(([el, occ]) => {
      const ox = comparator === 'species' ? site.oxidation?.[el] : undefined;
      return `${el}${ox === undefined || ox === 0 ? '' : `(${ox})`}:${occKey(occ)}`;
    })
    .sort()
    .join(',');
}

/**
 * Fractional composition under the comparator (pymatgen's `get_hash`; by element for 'element' and 'orderDisorder'),
 * compared within 1e-8.
 */
function compositionHash(s: Structure, comparator: Resolved['comparator']): Map<string, number> {
  const amounts = new Map<string, number>();
  let total = 0;
  for (const site of s.sites) {
    for (const [el, occ] of Object.entries(site.species)) {
      const ox = comparator === 'species' ? site.oxidation?.[el] : undefined;
      const k = `${el}${ox === undefined || ox === 0 ? '' : `(${ox})`}`;
      amounts.set(k, (amounts.get(k) ?? 0) + occ);
      total += occ;
    }
  }
  for (const [k, v] of amounts) amounts.set(k, v / total);
  return amounts;
}

function sameHash(a: Map<string, number>, b: Map<string, number>): boolean {
  for (const [k, v] of a) if (Math.abs(v - (b.get(k) ?? 0)) > 1e-8) return false;
  for (const [k, v] of b) if (Math.abs(v - (a.get(k) ?? 0)) > 1e-8) return false;
  return true;
}

function toMatchStructure(s: Structure, comparator: Resolved['comparator']): MatchStructure {
  if (!s.lattice) throw new Error(`structure '${s.name}' has no lattice; the matcher compares periodic crystals`);
  const n = s.sites.length;
  const frac = new Float64Array(3 * n);
  s.sites.forEach((site, i) => {
    const f = fracOf(site, s.lattice!);
    frac[3 * i] = f[0];
    frac[3 * i + 1] = f[1];
    frac[3 * i + 2] = f[2];
  });
  return {
    matrix: s.lattice.matrix,
    frac,
    keys: s.sites.map((x) => siteKey(x, comparator)),
    labels: s.sites.map((x) => speciesString(x)),
    origin: Int32Array.from({ length: n }, (_, i) => i),
  };
}

/** numpy.allclose(a, b) on two matrices. */
const allClose = (a: Mat3, b: Mat3): boolean =>
  a.every((r, i) => r.every((x, j) => Math.abs(x - b[i][j]) <= 1e-8 + 1e-5 * Math.abs(b[i][j])));

const wrap01 = (x: number): number => x - Math.floor(x);

/**
 * `Structure.get_reduced_structure('niggli')`: same Cartesian positions in the Niggli cell, wrapped; unchanged when
 * the cell already is (np.allclose).
 */
function niggliReduce(s: MatchStructure): MatchStructure {
  const reduced = niggliReducedLattice(new Lattice(s.matrix));
  if (allClose(reduced.matrix, s.matrix)) return s;
  const n = s.frac.length / 3;
  const m = s.matrix,
    inv = reduced.inverseMatrix;
  const frac = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const f0 = s.frac[3 * i],
      f1 = s.frac[3 * i + 1],
      f2 = s.frac[3 * i + 2];
    const x = f0 * m[0][0] + f1 * m[1][0] + f2 * m[2][0];
    const y = f0 * m[0][1] + f1 * m[1][1] + f2 * m[2][1];
    const z = f0 * m[0][2] + f1 * m[1][2] + f2 * m[2][2];
    for (let k = 0; k < 3; k++) frac[3 * i + k] = wrap01(x * inv[0][k] + y * inv[1][k] + z * inv[2][k]);
  }
  return { ...s, matrix: reduced.matrix, frac };
}

/** pymatgen's `get_primitive_structure(tolerance=0.25)` followed by Niggli reduction; unchanged when already primitive. */
function primitiveReduce(s: MatchStructure, cache: MappingCache): MatchStructure {
  const niggli = (x: PrimitiveOutput): PrimitiveOutput => {
    const r = niggliReduce({ matrix: x.matrix, frac: x.frac, keys: [], labels: [], origin: new Int32Array(0) });
    return { ...x, matrix: r.matrix, frac: r.frac };
  };
  const prim = pymatgenPrimitive({ matrix: s.matrix, frac: s.frac, labels: s.labels }, 0.25, niggli, (units) =>
    spendMatchWork(cache, units),
  );
  if (!prim) return s;
  const source = Array.from(prim.source);
  return {
    matrix: prim.matrix,
    frac: prim.frac,
    labels: prim.labels,
    keys: source.map((i) => s.keys[i]),
    origin: Int32Array.from(source, (i) => s.origin[i]),
  };
}

function scaled(s: MatchStructure, factor: number): MatchStructure {
  const m = s.matrix;
  return {
    ...s,
    matrix: [
      vec3(m[0][0] * factor, m[0][1] * factor, m[0][2] * factor),
      vec3(m[1][0] * factor, m[1][1] * factor, m[1][2] * factor),
      vec3(m[2][0] * factor, m[2][1] * factor, m[2][2] * factor),
    ],
  };
}

/** `lattice_points_in_supercell`: fractional (in the supercell) lattice points of the original cell. */
function latticePointsInSupercell(sc: Mat3): Vec3[] {
  const corners: Vec3[] = [];
  for (let c = 0; c < 8; c++) {
    const d = [(c >> 2) & 1, (c >> 1) & 1, c & 1];
    corners.push([0, 1, 2].map((k) => d[0] * sc[0][k] + d[1] * sc[1][k] + d[2] * sc[2][k]) as Vec3);
  }
  const mins = [0, 1, 2].map((k) => Math.min(...corners.map((p) => p[k])));
  const maxs = [0, 1, 2].map((k) => Math.max(...corners.map((p) => p[k])) + 1);
  const inv = inverse(sc);
  const out: Vec3[] = [];
  for (let a = mins[0]; a < maxs[0]; a++)
    for (let b = mins[1]; b < maxs[1]; b++)
      for (let c = mins[2]; c < maxs[2]; c++) {
        const f = vec3(
          a * inv[0][0] + b * inv[1][0] + c * inv[2][0],
          a * inv[0][1] + b * inv[1][1] + c * inv[2][1],
          a * inv[0][2] + b * inv[1][2] + c * inv[2][2],
        );
        if (f.every((x) => x < 1 - 1e-10 && x >= -1e-10)) out.push(f);
      }
  return out;
}

function averageLattice(l1: Lattice, l2: Lattice): Lattice {
  const p1 = l1.parameters,
    p2 = l2.parameters;
  return Lattice.fromParameters(
    (p1.a + p2.a) / 2,
    (p1.b + p2.b) / 2,
    (p1.c + p2.c) / 2,
    (p1.alpha + p2.alpha) / 2,
    (p1.beta + p2.beta) / 2,
    (p1.gamma + p2.gamma) / 2,
  );
}

/** Lengths of the reciprocal vectors without 2π (columns of the inverse matrix). */
const reciprocalLengths = (m: Mat3): Vec3 => {
  const inv = inverse(m);
  return vec3(
    Math.hypot(inv[0][0], inv[1][0], inv[2][0]),
    Math.hypot(inv[0][1], inv[1][1], inv[2][1]),
    Math.hypot(inv[0][2], inv[1][2], inv[2][2]),
  );
};

/** |x − round(x)| bit for bit (both subtractions are exact), without a rounding branch. */
const toNearestInteger = (x: number): number => {
  const y = x - Math.floor(x);
  return y > 0.5 ? 1 - y : y;
};

const IMAGES: Vec3[] = [];
for (const a of [-1, 0, 1]) for (const b of [-1, 0, 1]) for (const c of [-1, 0, 1]) IMAGES.push([a, b, c]);

/**
 * Struct1 columns bucketed by their wrapped LLL-fractional coordinates, so that a struct2 row only
 * visits the columns that can lie inside its per-axis box (the others are 1e20 anyway). For large
 * cells the box covers a few percent of the pairs; the result is identical to scanning every pair.
 */
interface ColumnGrid {
  cells: [number, number, number];
  /** Columns of cell c are cols[start[c] .. start[c + 1]). */
  start: Int32Array;
  cols: Int32Array;
}

/** Below this many struct1 sites every pair is scanned (the box covers most of the cell anyway). */
const GRID_MIN_SITES = 40;
/** Safety margin (fractional) around the box, far above the rounding of wrap01. */
const GRID_MARGIN = 1e-9;

function columnGrid(lllF1: Float64Array, n1: number, lllFracTol: number[]): ColumnGrid | null {
  if (n1 < GRID_MIN_SITES) return null;
  const perAxis = Math.max(1, Math.round(cbrt(n1) * 1.5));
  const cellsOf = (tol: number) => Math.max(1, Math.min(perAxis, Math.floor(1 / Math.max(tol, 1e-6))));
  const cells: [number, number, number] = [cellsOf(lllFracTol[0]), cellsOf(lllFracTol[1]), cellsOf(lllFracTol[2])];
  if (cells[0] * cells[1] * cells[2] < 8) return null;
  const cellOf = (j: number) => {
    let c = 0;
    for (let k = 0; k < 3; k++) c = c * cells[k] + Math.min(cells[k] - 1, Math.floor(wrap01(lllF1[3 * j + k]) * cells[k]));
    return c;
  };
  const total = cells[0] * cells[1] * cells[2];
  const start = new Int32Array(total + 1);
  const cellOfColumn = new Int32Array(n1);
  for (let j = 0; j < n1; j++) {
    cellOfColumn[j] = cellOf(j);
    start[cellOfColumn[j] + 1]++;
  }
  for (let c = 0; c < total; c++) start[c + 1] += start[c];
  const fill = start.slice(0, total);
  const cols = new Int32Array(n1);
  for (let j = 0; j < n1; j++) cols[fill[cellOfColumn[j]]++] = j;
  return { cells, start, cols };
}

/** The cells (per axis) that the periodic window [w − tol, w + tol] touches, or all of them. */
function windowCells(w: number, tol: number, cells: number, out: Int32Array): number {
  const lo = Math.floor((w - tol - GRID_MARGIN) * cells),
    hi = Math.floor((w + tol + GRID_MARGIN) * cells);
  if (hi - lo + 1 >= cells) {
    for (let c = 0; c < cells; c++) out[c] = c;
    return cells;
  }
  let count = 0;
  for (let c = lo; c <= hi; c++) out[count++] = ((c % cells) + cells) % cells;
  return count;
}

/** The 27 periodic images (-1, 0, 1)³ of the LLL lattice in Cartesian form, and a safe lower bound on |x·L|² / |x|². */
interface ImageSearch {
  cart: Float64Array;
  lambdaMin: number;
  boundSlack: number;
}

function imageSearch(L: Mat3): ImageSearch {
  const cart = new Float64Array(81);
  IMAGES.forEach((im, x) => {
    for (let k = 0; k < 3; k++) cart[3 * x + k] = im[0] * L[0][k] + im[1] * L[1][k] + im[2] * L[2][k];
  });
  const g = (i: number, j: number) => L[i][0] * L[j][0] + L[i][1] * L[j][1] + L[i][2] * L[j][2];
  const trace = g(0, 0) + g(1, 1) + g(2, 2);
  // Smallest eigenvalue of the Gram matrix, shrunk so that rounding can never make it an overestimate.
  const lambda = smallestEigenvalueSym3([
    [g(0, 0), g(0, 1), g(0, 2)],
    [g(0, 1), g(1, 1), g(1, 2)],
    [g(0, 2), g(1, 2), g(2, 2)],
  ]);
  const lambdaMin = Math.max(0, lambda * (1 - 1e-6) - 1e-9 * trace);
  return { cart, lambdaMin, boundSlack: 1e-9 * trace };
}

/** Smallest eigenvalue of a symmetric 3×3 matrix (trigonometric closed form). */
function smallestEigenvalueSym3(m: Mat3): number {
  const p1 = m[0][1] ** 2 + m[0][2] ** 2 + m[1][2] ** 2;
  const q = (m[0][0] + m[1][1] + m[2][2]) / 3;
  const p2 = (m[0][0] - q) ** 2 + (m[1][1] - q) ** 2 + (m[2][2] - q) ** 2 + 2 * p1;
  const p = Math.sqrt(p2 / 6);
  if (p === 0) return q;
  const b = m.map((row, i) => row.map((x, j) => (x - (i === j ? q : 0)) / p)) as Mat3;
  const r = Math.max(-1, Math.min(1, det(b) / 2));
  return q + 2 * p * cos(acos(r) / 3 + (2 * Math.PI) / 3);
}

/**
 * pymatgen's `pbc_shortest_vectors` with `lll_frac_tol`: for allowed pairs inside the per-axis
 * LLL-fractional box, the shortest of the 27 images (-1, 0, 1)³ of the wrapped difference;
 * 1e20 (pymatgen's sentinel) for the rest, whose vectors are not stored (inBox = 0).
 * Rows are struct2 sites, columns struct1 sites.
 */
function shortestVectors(
  n1: number,
  n2: number,
  mask: Uint8Array,
  lllF1: Float64Array,
  lllF2: Float64Array,
  cart1: Float64Array,
  cart2: Float64Array,
  lllFracTol: number[],
  images: ImageSearch,
  d2: Float64Array[],
  vecs: Float64Array,
  inBox: Uint8Array,
  grid: ColumnGrid | null,
  wF1: Float64Array,
  wF2: Float64Array,
): void {
  const imageCart = images.cart;
  const tol0 = lllFracTol[0],
    tol1 = lllFracTol[1],
    tol2 = lllFracTol[2];
  inBox.fill(0);
  const { lambdaMin, boundSlack } = images;
  const wx = new Int32Array(grid ? grid.cells[0] : 0),
    wy = new Int32Array(grid ? grid.cells[1] : 0),
    wz = new Int32Array(grid ? grid.cells[2] : 0);
  const candidates = new Int32Array(n1);
  for (let i = 0; i < n2; i++) {
    const row = d2[i];
    row.fill(1e20);
    const f0 = lllF2[3 * i],
      f1 = lllF2[3 * i + 1],
      f2 = lllF2[3 * i + 2];
    const c0 = cart2[3 * i],
      c1 = cart2[3 * i + 1],
      c2 = cart2[3 * i + 2];
    const w0 = wF2[3 * i],
      w1 = wF2[3 * i + 1],
      w2 = wF2[3 * i + 2];
    let count = 0;
    if (!grid) {
      for (let j = 0; j < n1; j++) candidates[count++] = j;
    } else {
      const gx = grid.cells[0],
        gy = grid.cells[1],
        gz = grid.cells[2];
      const nx = windowCells(w0, tol0, gx, wx),
        ny = windowCells(w1, tol1, gy, wy),
        nz = windowCells(w2, tol2, gz, wz);
      for (let x = 0; x < nx; x++)
        for (let y = 0; y < ny; y++)
          for (let z = 0; z < nz; z++) {
            const cell = (wx[x] * gy + wy[y]) * gz + wz[z];
            for (let q = grid.start[cell]; q < grid.start[cell + 1]; q++) candidates[count++] = grid.cols[q];
          }
    }
    for (let q = 0; q < count; q++) {
      const j = candidates[q];
      if (mask[i * n1 + j] !== 0) continue;
      const a = lllF1[3 * j] - f0,
        b = lllF1[3 * j + 1] - f1,
        c = lllF1[3 * j + 2] - f2;
      if (!(toNearestInteger(a) <= tol0 && toNearestInteger(b) <= tol1 && toNearestInteger(c) <= tol2)) continue;
      const p0 = cart1[3 * j] - c0,
        p1 = cart1[3 * j + 1] - c1,
        p2 = cart1[3 * j + 2] - c2;
      // The image nearest in LLL-fractional terms bounds the answer (U); an image whose fractional offset
      // x has lambdaMin·|x|² > U cannot be shorter, so it is skipped. The rest are visited in pymatgen's
      // order with its exact arithmetic, so the chosen image (first minimum) is the same.
      const q0 = wF1[3 * j] - w0,
        q1 = wF1[3 * j + 1] - w1,
        q2 = wF1[3 * j + 2] - w2;
      const kU = (1 - Math.round(q0)) * 9 + (1 - Math.round(q1)) * 3 + (1 - Math.round(q2));
      const ua = p0 + imageCart[3 * kU],
        ub = p1 + imageCart[3 * kU + 1],
        uc = p2 + imageCart[3 * kU + 2];
      const bound = (ua * ua + ub * ub + uc * uc) * (1 + 1e-6) + boundSlack;
      let bestD = 1e100,
        bestK = 0;
      for (let ia = -1; ia <= 1; ia++) {
        const sa = (q0 + ia) * (q0 + ia) * lambdaMin;
        if (sa > bound) continue;
        for (let ib = -1; ib <= 1; ib++) {
          const sab = sa + (q1 + ib) * (q1 + ib) * lambdaMin;
          if (sab > bound) continue;
          for (let ic = -1; ic <= 1; ic++) {
            if (sab + (q2 + ic) * (q2 + ic) * lambdaMin > bound) continue;
            const k = (ia + 1) * 9 + (ib + 1) * 3 + (ic + 1);
            const da = p0 + imageCart[3 * k],
              db = p1 + imageCart[3 * k + 1],
              dc = p2 + imageCart[3 * k + 2];
            const d = da * da + db * db + dc * dc;
            if (d < bestD) {
              bestD = d;
              bestK = k;
            }
          }
        }
      }
      row[j] = bestD;
      const v = 3 * (i * n1 + j);
      inBox[i * n1 + j] = 1;
      vecs[v] = p0 + imageCart[3 * bestK];
      vecs[v + 1] = p1 + imageCart[3 * bestK + 1];
      vecs[v + 2] = p2 + imageCart[3 * bestK + 2];
    }
  }
}

/**
 * `are_equal` of the comparator on two site keys. OrderDisorderElementComparator: one element set is a
 * subset of the other (so {Cu} equals {Au, Cu}, and {Au, Cu} equals {Au, Cu, Ag}, but {Au} differs from {Cu}).
 */
function keysEqual(comparator: Resolved['comparator']): (a: string, b: string) => boolean {
  if (comparator !== 'orderDisorder') return (a, b) => a === b;
  const memo = new Map<string, boolean>();
  return (a, b) => {
    if (a === b) return true;
    const key = `${a}|${b}`;
    let r = memo.get(key);
    if (r === undefined) {
      const x = a.split(','),
        y = b.split(',');
      const sub = (p: string[], q: string[]) => p.every((e) => q.includes(e));
      r = sub(x, y) || sub(y, x);
      memo.set(key, r);
    }
    return r;
  };
}

/** Whether every row gets its own allowed column (mask 0): a maximum bipartite matching (augmenting paths) of size `rows`. */
function allRowsAssignable(mask: Uint8Array, rows: number, cols: number): boolean {
  const colOwner = new Int32Array(cols).fill(-1);
  const seen = new Int32Array(cols).fill(-1);
  const augment = (row: number, stamp: number): boolean => {
    for (let j = 0; j < cols; j++) {
      if (mask[row * cols + j] || seen[j] === stamp) continue;
      seen[j] = stamp;
      if (colOwner[j] < 0 || augment(colOwner[j], stamp)) {
        colOwner[j] = row;
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < rows; i++) if (!augment(i, i)) return false;
  return true;
}

/**
 * `_get_mask` and `_strict_match`'s two refusals before any lattice is searched: different site counts
 * (without allow_subset) and no species-consistent assignment of every struct2 site.
 */
function speciesMask(
  struct1: MatchStructure,
  struct2: MatchStructure,
  fu: number,
  s1Supercell: boolean,
  o: Resolved,
): { mask: Uint8Array; n1: number; n2: number; refused: 'siteCount' | 'species' | null } {
  // Sizes after the supercell: rows are struct2 (×fu when it is the supercell), columns struct1 (×fu).
  const n1 = struct1.keys.length * (s1Supercell ? fu : 1);
  const n2 = struct2.keys.length * (s1Supercell ? 1 : fu);
  if (n2 > n1) throw new Error('after supercell creation, struct1 must have at least as many sites as struct2');
  const keys1 = s1Supercell ? struct1.keys.flatMap((k) => Array(fu).fill(k)) : struct1.keys;
  const keys2 = s1Supercell ? struct2.keys : struct2.keys.flatMap((k) => Array(fu).fill(k));
  // Species mask (1 = forbidden), struct2 rows × struct1 columns.
  const mask = new Uint8Array(n2 * n1);
  const equal = keysEqual(o.comparator);
  for (let i = 0; i < n2; i++) for (let j = 0; j < n1; j++) mask[i * n1 + j] = equal(keys2[i], keys1[j]) ? 0 : 1;
  if (!o.allowSubset && n1 !== n2) return { mask, n1, n2, refused: 'siteCount' };
  // pymatgen: `LinearAssignment(mask).min_cost > 0` → no species-consistent assignment of every struct2 row.
  if (o.comparator === 'orderDisorder') {
    if (!allRowsAssignable(mask, n2, n1)) return { mask, n1, n2, refused: 'species' };
  } else {
    // The comparator is an equivalence: an assignment exists iff every struct2 species fits into struct1's.
    const count1 = new Map<string, number>();
    for (const k of keys1) count1.set(k, (count1.get(k) ?? 0) + 1);
    const count2 = new Map<string, number>();
    for (const k of keys2) count2.set(k, (count2.get(k) ?? 0) + 1);
    for (const [k, c] of count2) if ((count1.get(k) ?? 0) < c) return { mask, n1, n2, refused: 'species' };
  }
  return { mask, n1, n2, refused: null };
}

/** The best match found: normalised per-site distances of struct2 rows mapped onto struct1 columns. */
interface StrictMatch {
  value: number;
  dist: Float64Array;
  /** mapping[i2] = index of the struct1 (supercell) site matched to struct2 site i2. */
  mapping: Int32Array;
  /** Fractional translation (in the average lattice) applied to struct2. */
  translation: Vec3;
  scaleMatrix: Mat3;
}

/**
 * `_strict_match(struct1, struct2, fu, s1_supercell)`: struct1 (after its supercell, if any) has at
 * least as many sites as struct2.
 */
function strictMatch(
  struct1: MatchStructure,
  struct2: MatchStructure,
  fu: number,
  s1Supercell: boolean,
  o: Resolved,
  useRms: boolean,
  breakOnMatch: boolean,
  cache: MappingCache,
  candidates?: Iterable<LatticeMapping>,
): StrictMatch | null {
  const { mask, n1, n2, refused } = speciesMask(struct1, struct2, fu, s1Supercell, o);
  if (refused) return null;
  // Anchor: the first struct2 row with the most forbidden entries; translations to its allowed struct1 sites.
  let anchor = 0,
    most = -1;
  for (let i = 0; i < n2; i++) {
    let c = 0;
    for (let j = 0; j < n1; j++) c += mask[i * n1 + j];
    if (c > most) {
      most = c;
      anchor = i;
    }
  }
  let s1Targets: number[] = [];
  for (let j = 0; j < n1; j++) if (!mask[anchor * n1 + j]) s1Targets.push(j);
  if (s1Supercell) s1Targets = s1Targets.filter((_, x) => x % fu === 0);

  // "big" is the side tiled into the supercell (pymatgen's sc_generator s1); its lattice is searched
  // for vectors matching the other ("small") side's lattice.
  const big = s1Supercell ? struct1 : struct2;
  const small = s1Supercell ? struct2 : struct1;
  const smallLattice = new Lattice(small.matrix);
  const bigLattice = new Lattice(big.matrix);
  const nb = big.keys.length;
  const bigCart = new Float64Array(3 * nb);
  for (let i = 0; i < nb; i++)
    for (let k = 0; k < 3; k++) {
      bigCart[3 * i + k] =
        big.frac[3 * i] * big.matrix[0][k] + big.frac[3 * i + 1] * big.matrix[1][k] + big.frac[3 * i + 2] * big.matrix[2][k];
    }
  const fc1 = new Float64Array(3 * n1),
    fc2 = new Float64Array(3 * n2);
  const tS2 = new Float64Array(3 * n2);
  const d2 = Array.from({ length: n2 }, () => new Float64Array(n1));
  const vecs = new Float64Array(3 * n2 * n1);
  const inBox = new Uint8Array(n2 * n1);
  const cart1 = new Float64Array(3 * n1),
    cart2 = new Float64Array(3 * n2);
  const lllF1 = new Float64Array(3 * n1),
    lllF2 = new Float64Array(3 * n2);
  const wF1 = new Float64Array(3 * n1),
    wF2 = new Float64Array(3 * n2);
  let best: StrictMatch | null = null;

  const lattices = candidates ?? (cache.mappings ??= new Replay(findAllMappings(bigLattice, smallLattice, o.ltol, o.angleTol)));
  for (const cand of lattices) {
    if (Math.abs(Math.abs(det(cand.scale)) - fu) >= 0.5) continue;
    const candLattice = new Lattice(cand.aligned);
    // The supercell side's sites in the candidate basis; the other side keeps its fractions.
    const bigFrac = new Float64Array(fu === 1 ? 3 * nb : 3 * nb * fu);
    if (fu === 1) {
      const inv = candLattice.inverseMatrix;
      for (let i = 0; i < nb; i++)
        for (let k = 0; k < 3; k++) {
          bigFrac[3 * i + k] = wrap01(bigCart[3 * i] * inv[0][k] + bigCart[3 * i + 1] * inv[1][k] + bigCart[3 * i + 2] * inv[2][k]);
        }
    } else {
      const inv = inverse(cand.scale);
      const lp = latticePointsInSupercell(cand.scale);
      for (let i = 0; i < nb; i++) {
        const fk = (k: number) => big.frac[3 * i] * inv[0][k] + big.frac[3 * i + 1] * inv[1][k] + big.frac[3 * i + 2] * inv[2][k];
        const f = vec3(fk(0), fk(1), fk(2));
        lp.forEach((p, x) => {
          for (let k = 0; k < 3; k++) bigFrac[3 * (i * fu + x) + k] = wrap01(f[k] + p[k]);
        });
      }
    }
    if (s1Supercell) {
      fc1.set(bigFrac);
      fc2.set(small.frac);
    } else {
      fc2.set(bigFrac);
      fc1.set(small.frac);
    }
    const avg = averageLattice(candLattice, smallLattice);
    const avgM = avg.matrix;
    const normalization = cbrt(n1 / avg.volume);
    const recip = reciprocalLengths(avgM);
    const fracTol = vec3(
      (2 * recip[0] * o.stol) / normalization,
      (2 * recip[1] * o.stol) / normalization,
      (2 * recip[2] * o.stol) / normalization,
    );
    const lll = lllReduce(avgM);
    const lllRecip = reciprocalLengths(lll.matrix);
    const lllFracTol = vec3(
      (2 * lllRecip[0] * o.stol) / normalization,
      (2 * lllRecip[1] * o.stol) / normalization,
      (2 * lllRecip[2] * o.stol) / normalization,
    );
    const toLll = inverse(lll.mapping);
    const L = lll.matrix;
    const images = imageSearch(L);
    const toLllFrac = (src: Float64Array, dst: Float64Array, cart: Float64Array, n: number, wrapped: Float64Array) => {
      for (let i = 0; i < n; i++) {
        const a = src[3 * i],
          b = src[3 * i + 1],
          c = src[3 * i + 2];
        for (let k = 0; k < 3; k++) dst[3 * i + k] = a * toLll[0][k] + b * toLll[1][k] + c * toLll[2][k];
        const w0 = wrap01(dst[3 * i]),
          w1 = wrap01(dst[3 * i + 1]),
          w2 = wrap01(dst[3 * i + 2]);
        wrapped[3 * i] = w0;
        wrapped[3 * i + 1] = w1;
        wrapped[3 * i + 2] = w2;
        for (let k = 0; k < 3; k++) cart[3 * i + k] = w0 * L[0][k] + w1 * L[1][k] + w2 * L[2][k];
      }
    };
    toLllFrac(fc1, lllF1, cart1, n1, wF1);
    const grid = columnGrid(lllF1, n1, lllFracTol);

    for (const s1i of s1Targets) {
      const t = vec3(fc1[3 * s1i] - fc2[3 * anchor], fc1[3 * s1i + 1] - fc2[3 * anchor + 1], fc1[3 * s1i + 2] - fc2[3 * anchor + 2]);
      for (let i = 0; i < n2; i++) for (let k = 0; k < 3; k++) tS2[3 * i + k] = fc2[3 * i + k] + t[k];
      // Prefilter (is_coord_subset_pbc): every struct2 site has an allowed struct1 site inside the per-axis box.
      let subset = true;
      let compared = 0;
      for (let i = 0; i < n2 && subset; i++) {
        let ok = false;
        let j = 0;
        for (; j < n1 && !ok; j++) {
          if (mask[i * n1 + j]) continue;
          ok = true;
          for (let k = 0; k < 3; k++) {
            const d = tS2[3 * i + k] - fc1[3 * j + k];
            if (toNearestInteger(d) > fracTol[k]) {
              ok = false;
              break;
            }
          }
        }
        compared += j;
        subset = ok;
      }
      // The translated copy costs about 4·n2; the shortest vectors and the assignment each about n1·n2 more.
      spendMatchWork(cache, 4 * n2 + (subset ? compared + 2 * n1 * n2 : compared));
      if (!subset) continue;
      // Shortest vectors (pbc_shortest_vectors) from struct2 rows to struct1 columns, 1e20 outside the box.
      toLllFrac(tS2, lllF2, cart2, n2, wF2);
      shortestVectors(n1, n2, mask, lllF1, lllF2, cart1, cart2, lllFracTol, images, d2, vecs, inBox, grid, wF1, wF2);
      const mapping = minimumCostAssignment(d2);
      // A pair outside the box has pymatgen's 1e20 vector.
      for (let i = 0; i < n2; i++) {
        const ij = i * n1 + mapping[i];
        if (!inBox[ij]) {
          vecs[3 * ij] = 1e20;
          vecs[3 * ij + 1] = 1e20;
          vecs[3 * ij + 2] = 1e20;
        }
      }
      // Remove the mean displacement (the best rigid translation), then normalise.
      const mean = vec3(0, 0, 0);
      for (let i = 0; i < n2; i++) for (let k = 0; k < 3; k++) mean[k] += vecs[3 * (i * n1 + mapping[i]) + k];
      for (let k = 0; k < 3; k++) mean[k] /= n2;
      const dist = new Float64Array(n2);
      let sumSq = 0,
        maxD = 0;
      for (let i = 0; i < n2; i++) {
        const v = 3 * (i * n1 + mapping[i]);
        const dx = vecs[v] - mean[0],
          dy = vecs[v + 1] - mean[1],
          dz = vecs[v + 2] - mean[2];
        dist[i] = Math.sqrt(dx * dx + dy * dy + dz * dz) * normalization;
        sumSq += dist[i] * dist[i];
        if (dist[i] > maxD) maxD = dist[i];
      }
      const value = useRms ? Math.sqrt(sumSq) / Math.sqrt(n2) : maxD;
      if (best === null || value < best.value) {
        const invAvg = avg.inverseMatrix;
        const wrapped = (k: number) => {
          const x = t[k] + (mean[0] * invAvg[0][k] + mean[1] * invAvg[1][k] + mean[2] * invAvg[2][k]);
          return x - roundHalfEven(x);
        };
        const total = vec3(wrapped(0), wrapped(1), wrapped(2));
        best = { value, dist, mapping, translation: total, scaleMatrix: cand.scale };
        if ((breakOnMatch || value < 1e-5) && value < o.stol) return best;
      }
    }
  }
  return best && best.value < o.stol ? best : null;
}

/**
 * A generator's values replayed to later loops, pulled from it only when first needed: the lattice
 * mappings of one prepared pair serve both the fit pass and the rms pass.
 */
class Replay<T> implements Iterable<T> {
  private readonly seen: T[] = [];
  constructor(private readonly source: Iterator<T>) {}
  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; ; i++) {
      if (i === this.seen.length) {
        const next = this.source.next();
        if (next.done) return;
        this.seen.push(next.value);
      }
      yield this.seen[i];
    }
  }
}

/**
 * What one prepared pair shares between its passes: the lattice mappings, and the site-pair evaluations
 * spent so far (prefilter comparisons, shortest vectors, assignment rows), held to LIMITS.matchWork.
 */
interface MappingCache {
  mappings?: Replay<LatticeMapping>;
  work?: number;
}

/**
 * Adds `units` site-pair evaluations to the pair's account; past LIMITS.matchWork the match is refused.
 * The count, not the clock, decides, so a verdict never depends on the machine's load. Large cells of high
 * symmetry are what reach it: get_rms_dist tries every lattice mapping × every translation (48 × 256 for a
 * cubic 256-site cell: 1.6e9 evaluations, 18 s), as pymatgen does.
 */
function spendMatchWork(cache: MappingCache, units: number): void {
  cache.work = (cache.work ?? 0) + units;
  if (cache.work > LIMITS.matchWork) {
    throw new LimitError(
      'matchWork',
      limitSentence(
        'matching these structures (every lattice mapping × translation of a large, highly symmetric cell)',
        null,
        LIMITS.matchWork,
        'site-pair evaluations',
        'matchWork',
      ),
    );
  }
}

interface Prepared {
  s1: MatchStructure;
  s2: MatchStructure;
  fu: number;
  s1Supercell: boolean;
  cache: MappingCache;
}

/**
 * Refuses what the matcher cannot search in bounded time and memory (programmatic callers too, not only
 * the file readers): more than LIMITS.matchSites sites, a lattice that is not finite, longer than
 * LIMITS.coordinateAbs or flatter than LIMITS.cellFlatness (its lattice-point enumeration is unbounded).
 */
export function checkMatchable(s: Structure, what: string): void {
  checkLimit('matchSites', what, s.sites.length, 'sites');
  const m = s.lattice?.matrix;
  if (!m) throw new Error(`${what} has no lattice; only periodic structures can be matched`);
  const lengths = m.map((r) => Math.hypot(r[0], r[1], r[2]));
  if (!lengths.every((l) => Number.isFinite(l) && l > 0 && l <= LIMITS.coordinateAbs)) {
    throw new LimitError(
      'coordinateAbs',
      `${what} has cell lengths ${lengths.join(', ')} Å; they must be positive and at most ${LIMITS.coordinateAbs.toLocaleString('en')} Å`,
    );
  }
  const flatness = Math.abs(det(m)) / (lengths[0] * lengths[1] * lengths[2]);
  if (!(flatness >= LIMITS.cellFlatness)) {
    throw new LimitError(
      'cellFlatness',
      `${what} has a flat cell (volume / (a·b·c) = ${flatness.toPrecision(3)}; the limit is ${LIMITS.cellFlatness}): it cannot be matched`,
    );
  }
  for (const site of s.sites) {
    if (!site.xyz.every((v) => Number.isFinite(v))) throw new Error(`${what} has a site with a non-finite position`);
  }
}

/** `_preprocess`: Niggli, primitive, supercell factor, volume scaling to the geometric mean. */
function preprocess(a: Structure, b: Structure, o: Resolved): Prepared {
  checkMatchable(a, 'the first structure');
  checkMatchable(b, 'the second structure');
  const cache: MappingCache = {};
  let s1 = niggliReduce(toMatchStructure(a, o.comparator));
  let s2 = niggliReduce(toMatchStructure(b, o.comparator));
  if (o.primitiveCell) {
    s1 = primitiveReduce(s1, cache);
    s2 = primitiveReduce(s2, cache);
  }
  let fu = 1,
    s1Supercell = true;
  if (o.attemptSupercell) {
    const ratio = s2.keys.length / s1.keys.length;
    if (ratio < 2 / 3) {
      fu = roundHalfEven(1 / ratio);
      s1Supercell = false;
    } else {
      fu = roundHalfEven(ratio);
    }
  }
  const mult = s1Supercell ? fu : 1 / fu;
  if (o.scale) {
    const ratio = pow(volumeOf(s2.matrix) / (volumeOf(s1.matrix) * mult), 1 / 6);
    s1 = scaled(s1, ratio);
    s2 = scaled(s2, 1 / ratio);
  }
  return { s1, s2, fu, s1Supercell, cache };
}

interface Oriented {
  match: StrictMatch | null;
  swapped: boolean;
  struct1: MatchStructure;
  struct2: MatchStructure;
  fu: number;
  s1Supercell: boolean;
}

/** `_match`: the structure with more sites (after the supercell factor) plays struct1. */
function orientedMatch(p: Prepared, o: Resolved, useRms: boolean, breakOnMatch: boolean, candidates?: Iterable<LatticeMapping>): Oriented {
  const ratio = p.s1Supercell ? p.fu : 1 / p.fu;
  if (p.s1.keys.length * ratio >= p.s2.keys.length) {
    return {
      match: strictMatch(p.s1, p.s2, p.fu, p.s1Supercell, o, useRms, breakOnMatch, p.cache, candidates),
      swapped: false,
      struct1: p.s1,
      struct2: p.s2,
      fu: p.fu,
      s1Supercell: p.s1Supercell,
    };
  }
  return {
    match: strictMatch(p.s2, p.s1, p.fu, !p.s1Supercell, o, useRms, breakOnMatch, p.cache, candidates),
    swapped: true,
    struct1: p.s2,
    struct2: p.s1,
    fu: p.fu,
    s1Supercell: !p.s1Supercell,
  };
}

const resolve = (o?: MatcherOptions): Resolved => {
  // allowSubset with attemptSupercell is accepted, as pymatgen 2022.11's fit accepts it (only group_structures refuses it).
  return { ...MATCHER_DEFAULTS, ...Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) } as Resolved;
};

/** pymatgen `StructureMatcher.fit(a, b)`: a match whose largest normalised site distance is ≤ stol. */
export function matcherFit(a: Structure, b: Structure, options?: MatcherOptions): boolean {
  const o = resolve(options);
  if (!o.allowSubset && !sameHash(compositionHash(a, o.comparator), compositionHash(b, o.comparator))) return false;
  const m = orientedMatch(preprocess(a, b, o), o, false, true).match;
  return m !== null && m.value <= o.stol;
}

/**
 * pymatgen `get_rms_dist(a, b)`: (rms, max) of the mapping with the smallest rms, normalised by (V/n)^(1/3); null
 * when none is within stol.
 */
export function matcherRmsDist(a: Structure, b: Structure, options?: MatcherOptions): { rms: number; maxDist: number } | null {
  const o = resolve(options);
  return rmsOf(orientedMatch(preprocess(a, b, o), o, true, false).match);
}

/**
 * `matcherFit(a, b)` and `matcherRmsDist(a, b)` with one reduction of both structures: the same two
 * answers (the rms pass runs even when the fit fails, as a separate call would), and each pass is held
 * to LIMITS.matchWork on its own, as it is when called separately.
 */
export function matcherFitAndRmsDist(
  a: Structure,
  b: Structure,
  options?: MatcherOptions,
): { fit: boolean; rms: { rms: number; maxDist: number } | null } {
  const o = resolve(options);
  const p = preprocess(a, b, o);
  const reductionWork = p.cache.work;
  let fit = false;
  if (o.allowSubset || sameHash(compositionHash(a, o.comparator), compositionHash(b, o.comparator))) {
    const m = orientedMatch(p, o, false, true).match;
    fit = m !== null && m.value <= o.stol;
    p.cache.work = reductionWork;
  }
  return { fit, rms: rmsOf(orientedMatch(p, o, true, false).match) };
}

function rmsOf(m: StrictMatch | null): { rms: number; maxDist: number } | null {
  if (!m) return null;
  let maxDist = -Infinity;
  for (const d of m.dist) if (d > maxDist) maxDist = d;
  return { rms: m.value, maxDist };
}

export interface SitePair {
  /** Site index in a (the caller's order) and the site of b it is matched to. */
  a: number;
  b: number;
  /** Normalised distance after the mean translation is removed (multiply by (V/n)^(1/3) for Å). */
  distance: number;
}

export interface BestMapping {
  rms: number;
  maxDist: number;
  /** One pair per site of the smaller structure (all sites when the counts are equal). */
  pairs: SitePair[];
  /** (V/n)^(1/3) of `a`, Å: the factor that turns the normalised distances into Å. */
  lengthScale: number;
  /** True when a primitive reduction merged sites, so indices name one representative per merged group. */
  approximateIndices: boolean;
}

/**
 * The mapping behind `matcherRmsDist` (smallest rms), expressed in the caller's site indices, for
 * overlays. With a supercell factor the b (or a) index is that of the original cell's site.
 */
export function matcherBestMapping(a: Structure, b: Structure, options?: MatcherOptions): BestMapping | null {
  const o = resolve(options);
  return bestMappingOf(a, preprocess(a, b, o), o);
}

/**
 * `fit(a, b)` and, only when it passes, the `get_rms_dist` mapping, with one reduction of both
 * structures (the AtomWorld evaluator's two calls).
 */
export function matcherFitAndBestMapping(
  a: Structure,
  b: Structure,
  options?: MatcherOptions,
): { fit: boolean; mapping: BestMapping | null } {
  const o = resolve(options);
  if (!o.allowSubset && !sameHash(compositionHash(a, o.comparator), compositionHash(b, o.comparator))) return { fit: false, mapping: null };
  const p = preprocess(a, b, o);
  const m = orientedMatch(p, o, false, true).match;
  if (!(m !== null && m.value <= o.stol)) return { fit: false, mapping: null };
  return { fit: true, mapping: bestMappingOf(a, p, o) };
}

function bestMappingOf(a: Structure, p: Prepared, o: Resolved): BestMapping | null {
  return mappingOf(a, orientedMatch(p, o, true, false), o);
}

function mappingOf(a: Structure, r: Oriented, o: Resolved): BestMapping | null {
  if (!r.match) return null;
  const { match, struct1, struct2, fu, s1Supercell } = r;
  const pairs: SitePair[] = [];
  let maxDist = -Infinity;
  match.mapping.forEach((j, i) => {
    // Supercell copies of a site are consecutive: index = site · fu + copy.
    const siteOf2 = struct2.origin[s1Supercell ? i : Math.floor(i / fu)];
    const siteOf1 = struct1.origin[s1Supercell ? Math.floor(j / fu) : j];
    const [ia, ib] = r.swapped ? [siteOf2, siteOf1] : [siteOf1, siteOf2];
    pairs.push({ a: ia, b: ib, distance: match.dist[i] });
    if (match.dist[i] > maxDist) maxDist = match.dist[i];
  });
  pairs.sort((x, y) => x.a - y.a || x.b - y.b);
  const n = a.sites.length;
  return { rms: match.value, maxDist, pairs, lengthScale: cbrt(a.lattice!.volume / n), approximateIndices: o.primitiveCell || fu > 1 };
}

/**
 * The stages of `get_rms_dist(a, b)` one at a time, to tell which one refuses a pair
 * (src/core/tasks/generations/explain.ts): the pair is reduced once, then `_strict_match` is re-run at
 * another stol or on chosen candidate lattices.
 */
export interface MatcherProbe {
  /** Sites of a and b after Niggli (and primitive) reduction. */
  reducedSites: [number, number];
  /** Sites of a and b as `_strict_match` compares them (the supercell side × fu). */
  comparedSites: [number, number];
  fu: number;
  /** The side whose lattice is searched for vectors matching the other's (pymatgen's supercell side). */
  searched: 'a' | 'b';
  /** Why `_strict_match` stops before any lattice: the site counts or the species differ; null when it searches. */
  refused: 'siteCount' | 'species' | null;
  /** Species (pymatgen's species string) and their counts in a and b as compared (after the supercell factor). */
  counts: [Map<string, number>, Map<string, number>];
  /** The searched and the target lattice after reduction and volume scaling. */
  searchedLattice: Lattice;
  targetLattice: Lattice;
  /** `find_all_mappings(searched, target, ltol, angleTol)` as `_get_lattices` keeps them (|det| within 0.5 of fu). */
  mappings(ltol: number, angleTol: number): LatticeMapping[];
  /**
   * `_strict_match` in rms mode at `stol` (Infinity: no per-axis box, every translation scored) on the
   * options' lattices or on `candidates`; `first` stops at the first mapping within stol. Null: none within stol.
   */
  run(stol: number, candidates?: readonly LatticeMapping[], first?: boolean): BestMapping | null;
  /** Restarts the LIMITS.matchWork account at what the reductions spent (each run adds to it). */
  resetWork(): void;
}

export function matcherProbe(a: Structure, b: Structure, options?: MatcherOptions): MatcherProbe {
  const o = resolve(options);
  const p = preprocess(a, b, o);
  const reductionWork = p.cache.work;
  const tiledA = p.s1Supercell;
  const big = tiledA ? p.s1 : p.s2,
    small = tiledA ? p.s2 : p.s1;
  const swapped = p.s1.keys.length * (p.s1Supercell ? p.fu : 1 / p.fu) < p.s2.keys.length;
  const [st1, st2] = swapped ? [p.s2, p.s1] : [p.s1, p.s2];
  const { refused } = speciesMask(st1, st2, p.fu, swapped ? !p.s1Supercell : p.s1Supercell, o);
  const countsOf = (s: MatchStructure, times: number) => {
    const m = new Map<string, number>();
    for (const l of s.labels) m.set(l, (m.get(l) ?? 0) + times);
    return m;
  };
  const searchedLattice = new Lattice(big.matrix),
    targetLattice = new Lattice(small.matrix);
  return {
    reducedSites: [p.s1.keys.length, p.s2.keys.length],
    comparedSites: [p.s1.keys.length * (tiledA ? p.fu : 1), p.s2.keys.length * (tiledA ? 1 : p.fu)],
    fu: p.fu,
    searched: tiledA ? 'a' : 'b',
    refused,
    counts: [countsOf(p.s1, tiledA ? p.fu : 1), countsOf(p.s2, tiledA ? 1 : p.fu)],
    searchedLattice,
    targetLattice,
    mappings: (ltol, angleTol) =>
      Array.from(findAllMappings(searchedLattice, targetLattice, ltol, angleTol)).filter(
        (m) => Math.abs(Math.abs(det(m.scale)) - p.fu) < 0.5,
      ),
    run: (stol, candidates, first) => mappingOf(a, orientedMatch(p, { ...o, stol }, true, first === true, candidates), o),
    resetWork: () => {
      p.cache.work = reductionWork;
    },
  };
}
