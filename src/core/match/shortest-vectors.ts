/**
 * pymatgen's `pbc_shortest_vectors(avg_lattice, s2, s1, mask, return_d2=True, lll_frac_tol=…)`
 * (pymatgen/util/coord.py, pymatgen/util/coord_cython.pyx) as `_cart_dists` calls it: for every allowed
 * (struct2 row, struct1 column) pair inside the per-axis LLL-fractional box, the shortest of the 27
 * images (-1, 0, 1)³ of the wrapped difference in the LLL-reduced average lattice; 1e20 (pymatgen's
 * sentinel) elsewhere. The loops are WebAssembly kernels (kernels/match.ts) over the matcher's workspace
 * (matcher-workspace.ts); here is what they are given.
 */
import { type Mat3, det } from '../math/mat3.ts';
import { cos, acos } from '../math/libm.ts';
import { GRID_MIN_SITES, type MatcherWorkspace, PARAM } from './matcher-workspace.ts';

/** numpy's `fc - np.floor(fc)`: a fraction into [0, 1). */
export const wrap01 = (x: number): number => x - Math.floor(x);

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

/** The grid's cells per axis for the workspace's n1 columns and the box's half-widths (PARAM.lllFracTol). */
function gridCells(ws: MatcherWorkspace): [number, number, number] {
  const { params, gridPerAxis } = ws;
  const cellsOf = (tol: number) => Math.max(1, Math.min(gridPerAxis, Math.floor(1 / Math.max(tol, 1e-6))));
  const at = PARAM.lllFracTol;
  const cells: [number, number, number] = [cellsOf(params[at]), cellsOf(params[at + 1]), cellsOf(params[at + 2])];
  return ws.n1 < GRID_MIN_SITES || cells[0] * cells[1] * cells[2] < 8 ? [1, 1, 1] : cells;
}

const IMAGES: [number, number, number][] = [];
for (const a of [-1, 0, 1]) for (const b of [-1, 0, 1]) for (const c of [-1, 0, 1]) IMAGES.push([a, b, c]);

/** The 27 periodic images (-1, 0, 1)³ of the LLL lattice in Cartesian form, and a safe lower bound on |x·L|² / |x|². */
export interface ImageSearch {
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

/** One average lattice's search: the grid's cells per axis and the images' bound (its other numbers are in `ws.params`). */
export interface VectorSearch {
  cells: [number, number, number];
  lambdaMin: number;
  boundSlack: number;
}

/**
 * Sets up the search in the lattice whose numbers `ws.params` holds (PARAM: the LLL basis, its images, lll_frac_tol):
 * struct1 (`ws.frac1`) in the LLL basis, and its columns in the grid of their classes (set by `useColumnClasses`).
 */
export function prepareVectorSearch(ws: MatcherWorkspace, images: ImageSearch): VectorSearch {
  const { k, at, n1 } = ws;
  const toLll = at.params + 8 * PARAM.toLll,
    lll = at.params + 8 * PARAM.lllMatrix;
  k.lllSites(at.frac1, n1, toLll, lll, at.lll1Frac, at.lll1Wrapped, at.lll1Cart);
  const cells = gridCells(ws);
  const classes = ws.classCount;
  k.gridColumns(
    at.lll1Wrapped,
    n1,
    cells[0],
    cells[1],
    cells[2],
    at.classOf,
    classes * cells[0] * cells[1] * cells[2],
    at.gridStart,
    at.gridCols,
    at.bucketOf,
  );
  return { cells, lambdaMin: images.lambdaMin, boundSlack: images.boundSlack };
}

/** The column classes of `_get_mask`'s answer into the workspace (`mask` is copied too, for the prefilter). */
export function useColumnClasses(ws: MatcherWorkspace, classes: ColumnClasses, mask: Uint8Array): void {
  ws.classCount = classes.count;
  ws.classOf.set(classes.of);
  ws.allowedStart.set(classes.allowedStart);
  ws.allowed.set(classes.allowed);
  ws.mask.set(mask);
}

/**
 * `pbc_shortest_vectors` with `lll_frac_tol` for the translated struct2 (`at.translated2`): squared distances into
 * the workspace's d2, vectors into its vecs, inBox set for the pairs inside the box; pairs outside it or forbidden by
 * the mask keep 1e20 and no vector.
 */
export function shortestVectors(ws: MatcherWorkspace, search: VectorSearch): void {
  const { k, at, n1, n2 } = ws;
  k.lllSites(at.translated2, n2, at.params + 8 * PARAM.toLll, at.params + 8 * PARAM.lllMatrix, at.lll2Frac, at.lll2Wrapped, at.lll2Cart);
  // Indexed, not destructured: once per translation tried, mostly before V8 optimises it.
  const cells = search.cells,
    cx = cells[0],
    cy = cells[1],
    cz = cells[2];
  k.shortestVectors(
    n1,
    n2,
    at.lll1Frac,
    at.lll1Wrapped,
    at.lll1Cart,
    at.lll2Frac,
    at.lll2Wrapped,
    at.lll2Cart,
    at.d2,
    at.vecs,
    at.inBox,
    at.boxColumns,
    at.boxCount,
    at.allowedStart,
    at.allowed,
    at.gridStart,
    at.gridCols,
    cx,
    cy,
    cz,
    at.windows,
    at.ranges,
    at.params + 8 * PARAM.lllFracTol,
    at.params + 8 * PARAM.images,
    search.lambdaMin,
    search.boundSlack,
  );
}
