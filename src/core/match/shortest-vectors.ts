/**
 * pymatgen's `pbc_shortest_vectors(avg_lattice, s2, s1, mask, return_d2=True, lll_frac_tol=…)`
 * (pymatgen/util/coord.py, pymatgen/util/coord_cython.pyx) as `_cart_dists` calls it: for every allowed
 * (struct2 row, struct1 column) pair inside the per-axis LLL-fractional box, the shortest of the 27
 * images (-1, 0, 1)³ of the wrapped difference in the LLL-reduced average lattice; 1e20 (pymatgen's
 * sentinel) elsewhere.
 */
import { type Mat3, type Vec3, det } from '../math/mat3.ts';
import { cos, acos, cbrt } from '../math/libm.ts';

/** numpy's `fc - np.floor(fc)`: a fraction into [0, 1). */
export const wrap01 = (x: number): number => x - Math.floor(x);

/** |x − round(x)| bit for bit (both subtractions are exact), without a rounding branch. */
export const toNearestInteger = (x: number): number => {
  const y = x - Math.floor(x);
  return y > 0.5 ? 1 - y : y;
};

/** One side's sites in the LLL basis of the average lattice. */
export interface LllSites {
  /** LLL-fractional coordinates as computed (3 per site). */
  frac: Float64Array;
  /** The same wrapped into [0, 1). */
  wrapped: Float64Array;
  /** Cartesian positions of the wrapped coordinates. */
  cart: Float64Array;
}

/** The LLL reduction of one average lattice and what the shortest-vector search needs from it. */
export interface LllSearch {
  /** Rows of the LLL-reduced lattice, Å. */
  matrix: Mat3;
  /** Average-lattice fractions → LLL fractions (inverse of the LLL mapping). */
  toLll: Mat3;
  /** pymatgen's `lll_frac_tol`: the per-axis box half-width in LLL fractions. */
  fracTol: Vec3;
  images: ImageSearch;
  /** Struct1 columns bucketed by class and position (set once the lattice's struct1 sites are known). */
  grid: ColumnGrid | null;
}

/** The scratch arrays the search reads its sites from and writes its answers to (part of the matcher's workspace). */
export interface ShortestVectorScratch {
  /** Struct1 columns and struct2 rows. */
  n1: number;
  n2: number;
  lll1: LllSites;
  lll2: LllSites;
  /** Squared shortest distances, one row per struct2 site (1e20 outside the box): views of `d2Matrix` (row-major). */
  d2: Float64Array[];
  d2Matrix: Float64Array;
  /** Shortest vectors (3 per pair, row-major) of the pairs inside the box; inBox marks them (1). */
  vecs: Float64Array;
  inBox: Uint8Array;
  /**
   * The columns each row found inside the box (row i's in `boxColumns[i·n1 …]`, `boxCount[i]` of them): only those
   * are set back to 1e20 before the row is searched again, instead of all n1 (most pairs of a large cell lie outside).
   */
  boxColumns: Int32Array;
  boxCount: Int32Array;
  /** Which columns each row may pair with (set once per pair, `columnClasses`). */
  classes: ColumnClasses;
}

/**
 * Struct1 columns in classes of equal site key (the mask forbids or allows a whole class for a row), and for each
 * struct2 row the classes it may pair with: a row visits only those columns, not the forbidden half of a binary
 * compound's.
 */
export interface ColumnClasses {
  count: number;
  /** Class of each struct1 column. */
  of: Int32Array;
  /** Row i may pair with classes allowed[allowedStart[i] .. allowedStart[i + 1]). */
  allowedStart: Int32Array;
  allowed: Int32Array;
}

/** The classes of `keys1` and what each row's mask allows (mask: n2 rows × n1 columns, 1 = forbidden, a function of the keys). */
export function columnClasses(keys1: readonly string[], mask: Uint8Array, n2: number): ColumnClasses {
  const n1 = keys1.length;
  const index = new Map<string, number>();
  const first: number[] = [];
  const of = new Int32Array(n1);
  for (let j = 0; j < n1; j++) {
    let c = index.get(keys1[j]);
    if (c === undefined) {
      c = first.length;
      index.set(keys1[j], c);
      first.push(j);
    }
    of[j] = c;
  }
  const allowedStart = new Int32Array(n2 + 1);
  const allowed: number[] = [];
  for (let i = 0; i < n2; i++) {
    for (let c = 0; c < first.length; c++) if (mask[i * n1 + first[c]] === 0) allowed.push(c);
    allowedStart[i + 1] = allowed.length;
  }
  return { count: first.length, of, allowedStart, allowed: Int32Array.from(allowed) };
}

/** Writes `count` sites' average-lattice fractions `frac` into `out` in the LLL basis of `lll`. */
export function toLllSites(frac: Float64Array, count: number, lll: LllSearch, out: LllSites): void {
  const { toLll, matrix: L } = lll;
  const { frac: lllFrac, wrapped, cart } = out;
  for (let i = 0; i < count; i++) {
    const a = frac[3 * i],
      b = frac[3 * i + 1],
      c = frac[3 * i + 2];
    for (let k = 0; k < 3; k++) lllFrac[3 * i + k] = a * toLll[0][k] + b * toLll[1][k] + c * toLll[2][k];
    const w0 = wrap01(lllFrac[3 * i]),
      w1 = wrap01(lllFrac[3 * i + 1]),
      w2 = wrap01(lllFrac[3 * i + 2]);
    wrapped[3 * i] = w0;
    wrapped[3 * i + 1] = w1;
    wrapped[3 * i + 2] = w2;
    for (let k = 0; k < 3; k++) cart[3 * i + k] = w0 * L[0][k] + w1 * L[1][k] + w2 * L[2][k];
  }
}

/**
 * Struct1 columns bucketed by class and by their wrapped LLL-fractional coordinates, so that a struct2 row only
 * visits the columns of its classes that can lie inside its per-axis box (the others are 1e20 anyway). For large
 * cells the box covers a few percent of the pairs; the result is identical to scanning every pair.
 */
export interface ColumnGrid {
  /** Cells per axis; [1, 1, 1] for a small cell, whose rows visit every column of their classes. */
  cells: [number, number, number];
  /** Columns of class k in cell c are cols[start[k·total + c] .. start[k·total + c + 1]), total = cells' product. */
  start: Int32Array;
  cols: Int32Array;
  /** Scratch: the cells a row's window touches along x and y, and its one or two runs of cells along z (also the
   * runs windowCells expands for x and y first). */
  windows: [Int32Array, Int32Array, Int32Array];
  /** Scratch: the stretches of `cols` one row visits, as (from, to) pairs. */
  ranges: Int32Array;
}

/** Below this many struct1 sites no cells are made (the box covers most of the cell anyway). */
const GRID_MIN_SITES = 40;
/** Safety margin (fractional) around the box, far above the rounding of wrap01. */
const GRID_MARGIN = 1e-9;

export function columnGrid(lll1: LllSites, n1: number, lllFracTol: Vec3, classes: ColumnClasses): ColumnGrid {
  const frac = lll1.frac;
  const perAxis = Math.max(1, Math.round(cbrt(n1) * 1.5));
  const cellsOf = (tol: number) => Math.max(1, Math.min(perAxis, Math.floor(1 / Math.max(tol, 1e-6))));
  let cells: [number, number, number] = [cellsOf(lllFracTol[0]), cellsOf(lllFracTol[1]), cellsOf(lllFracTol[2])];
  if (n1 < GRID_MIN_SITES || cells[0] * cells[1] * cells[2] < 8) cells = [1, 1, 1];
  const cellOf = (j: number) => {
    let c = 0;
    for (let k = 0; k < 3; k++) c = c * cells[k] + Math.min(cells[k] - 1, Math.floor(wrap01(frac[3 * j + k]) * cells[k]));
    return c;
  };
  const total = cells[0] * cells[1] * cells[2];
  const start = new Int32Array(classes.count * total + 1);
  const bucketOfColumn = new Int32Array(n1);
  for (let j = 0; j < n1; j++) {
    bucketOfColumn[j] = classes.of[j] * total + (total === 1 ? 0 : cellOf(j));
    start[bucketOfColumn[j] + 1]++;
  }
  for (let b = 0; b + 1 < start.length; b++) start[b + 1] += start[b];
  const fill = start.slice(0, start.length - 1);
  const cols = new Int32Array(n1);
  for (let j = 0; j < n1; j++) cols[fill[bucketOfColumn[j]]++] = j;
  const windows: ColumnGrid['windows'] = [new Int32Array(cells[0]), new Int32Array(cells[1]), new Int32Array(4)];
  return { cells, start, cols, windows, ranges: new Int32Array(2 * (start.length - 1)) };
}

/**
 * The cells the periodic window [w − tol, w + tol] touches along one axis (all of them when it spans the axis), as
 * one or two runs of consecutive cells (first, last) in `out`; returns how many runs. Along the innermost axis
 * consecutive cells are consecutive buckets, so a run is one stretch of `cols`.
 */
function windowRuns(w: number, tol: number, cells: number, out: Int32Array): number {
  const lo = Math.floor((w - tol - GRID_MARGIN) * cells),
    hi = Math.floor((w + tol + GRID_MARGIN) * cells);
  if (hi - lo + 1 >= cells) {
    out[0] = 0;
    out[1] = cells - 1;
    return 1;
  }
  const first = ((lo % cells) + cells) % cells,
    last = first + (hi - lo);
  out[0] = first;
  if (last < cells) {
    out[1] = last;
    return 1;
  }
  out[1] = cells - 1;
  out[2] = 0;
  out[3] = last - cells;
  return 2;
}

/** The cells of `windowRuns` one by one into `out` (runs: its scratch); returns their count. */
function windowCells(w: number, tol: number, cells: number, runs: Int32Array, out: Int32Array): number {
  const n = windowRuns(w, tol, cells, runs);
  let count = 0;
  for (let r = 0; r < n; r++) for (let c = runs[2 * r]; c <= runs[2 * r + 1]; c++) out[count++] = c;
  return count;
}

/**
 * Fills `grid.ranges` with the stretches of `grid.cols` struct2 row `i` visits (the columns of its classes in the
 * cells its window touches; every column of its classes in a small cell); returns their count.
 */
function rowRanges(scratch: ShortestVectorScratch, i: number, search: LllSearch): number {
  const grid = search.grid!;
  const { start, ranges } = grid;
  const { allowedStart, allowed } = scratch.classes;
  let count = 0;
  const gx = grid.cells[0],
    gy = grid.cells[1],
    gz = grid.cells[2];
  const total = gx * gy * gz;
  if (total === 1) {
    for (let a = allowedStart[i]; a < allowedStart[i + 1]; a++) {
      ranges[count++] = start[allowed[a]];
      ranges[count++] = start[allowed[a] + 1];
    }
    return count / 2;
  }
  const { fracTol } = search;
  const w = scratch.lll2.wrapped;
  const wx = grid.windows[0],
    wy = grid.windows[1],
    wz = grid.windows[2];
  const nx = windowCells(w[3 * i], fracTol[0], gx, wz, wx),
    ny = windowCells(w[3 * i + 1], fracTol[1], gy, wz, wy),
    runs = windowRuns(w[3 * i + 2], fracTol[2], gz, wz);
  for (let a = allowedStart[i]; a < allowedStart[i + 1]; a++) {
    const base = allowed[a] * total;
    for (let x = 0; x < nx; x++)
      for (let y = 0; y < ny; y++) {
        const column = base + (wx[x] * gy + wy[y]) * gz;
        for (let r = 0; r < runs; r++) {
          const from = start[column + wz[2 * r]],
            to = start[column + wz[2 * r + 1] + 1];
          if (from === to) continue;
          ranges[count++] = from;
          ranges[count++] = to;
        }
      }
  }
  return count / 2;
}

const IMAGES: Vec3[] = [];
for (const a of [-1, 0, 1]) for (const b of [-1, 0, 1]) for (const c of [-1, 0, 1]) IMAGES.push([a, b, c]);

/** The 27 periodic images (-1, 0, 1)³ of the LLL lattice in Cartesian form, and a safe lower bound on |x·L|² / |x|². */
interface ImageSearch {
  cart: Float64Array;
  lambdaMin: number;
  boundSlack: number;
}

export function imageSearch(L: Mat3): ImageSearch {
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
 * `pbc_shortest_vectors` with `lll_frac_tol` into `scratch.d2`, `scratch.vecs` and `scratch.inBox`: pairs outside
 * the box or forbidden by the mask (outside the row's column classes, `scratch.classes`) keep 1e20 and no vector.
 */
export function shortestVectors(scratch: ShortestVectorScratch, search: LllSearch): void {
  for (let i = 0; i < scratch.n2; i++) rowShortestVectors(scratch, search, i);
}

/**
 * Struct2 row `i` of `shortestVectors`. For a pair inside the box, the image nearest in LLL-fractional terms
 * bounds the answer (U); an image whose fractional offset x has lambdaMin·|x|² > U cannot be shorter, so it is
 * skipped. The rest are visited in pymatgen's order with its exact arithmetic, so the chosen image (first
 * minimum) is the same. Inlined by hand: a helper per pair measured 10% slower.
 */
function rowShortestVectors(scratch: ShortestVectorScratch, search: LllSearch, i: number): void {
  const { n1, vecs, inBox, lll1, lll2, boxColumns } = scratch;
  const { cart: imageCart, lambdaMin, boundSlack } = search.images;
  const tol0 = search.fracTol[0],
    tol1 = search.fracTol[1],
    tol2 = search.fracTol[2];
  const row = scratch.d2[i];
  // The row's last answer back to "outside the box" (every other entry still is).
  const rowStart = i * n1;
  for (let q = 0; q < scratch.boxCount[i]; q++) {
    const j = boxColumns[rowStart + q];
    row[j] = 1e20;
    inBox[rowStart + j] = 0;
  }
  let inside = 0;
  const f0 = lll2.frac[3 * i],
    f1 = lll2.frac[3 * i + 1],
    f2 = lll2.frac[3 * i + 2];
  const c0 = lll2.cart[3 * i],
    c1 = lll2.cart[3 * i + 1],
    c2 = lll2.cart[3 * i + 2];
  const w0 = lll2.wrapped[3 * i],
    w1 = lll2.wrapped[3 * i + 1],
    w2 = lll2.wrapped[3 * i + 2];
  const { frac: frac1, cart: cart1, wrapped: wrapped1 } = lll1;
  const { cols, ranges } = search.grid!;
  const stretches = rowRanges(scratch, i, search);
  for (let r = 0; r < stretches; r++) {
    const to = ranges[2 * r + 1];
    for (let q = ranges[2 * r]; q < to; q++) {
      // Only the row's allowed classes are visited: the mask needs no second look.
      const j = cols[q];
      const a = frac1[3 * j] - f0,
        b = frac1[3 * j + 1] - f1,
        c = frac1[3 * j + 2] - f2;
      if (!(toNearestInteger(a) <= tol0 && toNearestInteger(b) <= tol1 && toNearestInteger(c) <= tol2)) continue;
      const p0 = cart1[3 * j] - c0,
        p1 = cart1[3 * j + 1] - c1,
        p2 = cart1[3 * j + 2] - c2;
      const q0 = wrapped1[3 * j] - w0,
        q1 = wrapped1[3 * j + 1] - w1,
        q2 = wrapped1[3 * j + 2] - w2;
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
      inBox[i * n1 + j] = 1;
      boxColumns[rowStart + inside++] = j;
      const v = 3 * (i * n1 + j);
      vecs[v] = p0 + imageCart[3 * bestK];
      vecs[v + 1] = p1 + imageCart[3 * bestK + 1];
      vecs[v + 2] = p2 + imageCart[3 * bestK + 2];
    }
  }
  scratch.boxCount[i] = inside;
}
