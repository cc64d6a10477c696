/**
 * What the passes over one prepared pair (src/core/match/structure-matcher.ts) reuse: the scratch arrays of
 * `_strict_match`, laid out in the matcher's own instance of the WebAssembly kernels (kernels/match.ts,
 * kernels/assignment.ts run the inner loops on them in place), and the account of the work spent.
 */
import { LIMITS, LimitError, groupedNumber, limitSentence } from '../limits.ts';
import { type KernelExports, ownKernels } from '../math/kernels.ts';
import { cbrt } from '../math/libm.ts';

/** Where `_strict_match`'s arrays lie in the kernels' memory (byte offsets). */
export interface WorkspaceOffsets {
  /** `_get_supercells`' s1fc and s2fc (3 f64 per site), t (3 f64) and t_s2fc. */
  frac1: number;
  frac2: number;
  shift: number;
  translated2: number;
  /** Both sides in the LLL basis of the average lattice: fractions, the same wrapped, Cartesian (3 f64 per site each). */
  lll1Frac: number;
  lll1Wrapped: number;
  lll1Cart: number;
  lll2Frac: number;
  lll2Wrapped: number;
  lll2Cart: number;
  /** Squared shortest distances, n1 × n1 row-major: the n2 rows of struct2, then zero rows (pymatgen pads the assignment so). */
  d2: number;
  /** Shortest vectors (3 f64 per pair), which pairs are inside the box (u8), each row's in-box columns (i32) and their count. */
  vecs: number;
  inBox: number;
  boxColumns: number;
  boxCount: number;
  /** The assignment's scratch (kernels/assignment.ts), whose x is the mapping. */
  assignment: number;
  mapping: number;
  /** `_get_mask` (u8 per pair, 1 = forbidden); the column classes (ColumnClasses, shortest-vectors.ts). */
  mask: number;
  classOf: number;
  allowedStart: number;
  allowed: number;
  /** The column grid of the current lattice: bucket starts, columns, a bucket per column, a row's cells and stretches. */
  gridStart: number;
  gridCols: number;
  bucketOf: number;
  windows: number;
  ranges: number;
  /** The mean vector (3 f64) and the normalised distances (f64 per row) of the last assignment. */
  mean: number;
  dist: number;
  /** The current lattice's numbers (`params`, PARAM offsets). */
  params: number;
}

/** Offsets (in f64) in `params` of what one average lattice gives the search. */
export const PARAM = {
  /** `frac_tol` in the average lattice's fractions (3), and `lll_frac_tol` in the LLL basis (3). */
  fracTol: 0,
  lllFracTol: 3,
  /** Average fractions → LLL fractions, and the LLL-reduced matrix (9 each, row-major). */
  toLll: 6,
  lllMatrix: 15,
  /** The 27 images (−1, 0, 1)³ of the LLL lattice, Cartesian (81). */
  images: 24,
  length: 105,
} as const;

/**
 * Scratch of `_strict_match` for n1 struct1 columns and n2 struct2 rows, reused for every candidate lattice and
 * translation; nothing a pass returns points into it. The views are of the kernels' memory.
 */
export interface MatcherWorkspace {
  n1: number;
  n2: number;
  /** Column classes (and so grid buckets per cell) and allowed (row, class) entries the layout has room for. */
  classCapacity: number;
  allowedCapacity: number;
  k: KernelExports;
  at: WorkspaceOffsets;
  /** The most grid cells along an axis (`gridPerAxis(n1)`). */
  gridPerAxis: number;
  /** Column classes of the pair using it now (`useColumnClasses`, shortest-vectors.ts). */
  classCount: number;
  frac1: Float64Array;
  frac2: Float64Array;
  shift: Float64Array;
  mean: Float64Array;
  dist: Float64Array;
  mapping: Int32Array;
  mask: Uint8Array;
  classOf: Int32Array;
  allowedStart: Int32Array;
  allowed: Int32Array;
  params: Float64Array;
}

/**
 * The column grid (shortest-vectors.ts): struct1 columns bucketed by class and by the cell of their wrapped LLL
 * fractions, so that a struct2 row only visits the columns of its classes that can lie inside its per-axis box (the
 * others are 1e20 anyway). For large cells the box covers a few percent of the pairs; the result is identical to
 * scanning every pair. Below GRID_MIN_SITES columns it has one cell (the box covers most of the cell anyway), else at
 * most gridPerAxis(n1) along each axis.
 */
export const GRID_MIN_SITES = 40;
const gridPerAxis = (n1: number): number => Math.max(1, Math.round(cbrt(n1) * 1.5));

/** The matcher's instance of the kernels, and the workspace laid out in it now (one at a time). */
let matcherKernels: KernelExports | null = null;
let current: MatcherWorkspace | null = null;
/** A memory grown past this for one large pair is given back (a fresh instance) before a smaller pair is laid out. */
const KEPT_MEMORY_BYTES = 64 << 20;
const WASM_MEMORY_BYTES = 65536 * 65536;

/**
 * The workspace for n1 × n2 with room for `classes` column classes and `allowed` allowed (row, class) entries: the one
 * laid out now when it fits (a batch's next pair of the same size takes over the last one's, whose search keeps its own
 * invariant: only what a row lists is inside the box), else a new layout.
 */
export function matcherWorkspace(n1: number, n2: number, classes: number, allowed: number): MatcherWorkspace {
  const w = current;
  if (w && w.n1 === n1 && w.n2 === n2 && classes <= w.classCapacity && allowed <= w.allowedCapacity) return w;
  current = layOut(n1, n2, classes, allowed);
  return current;
}

function layOut(n1: number, n2: number, classes: number, allowedCount: number): MatcherWorkspace {
  if (!matcherKernels || matcherKernels.memory.buffer.byteLength > KEPT_MEMORY_BYTES) matcherKernels = ownKernels();
  const k = matcherKernels;
  let top = k.heapBase();
  const take = (bytes: number): number => {
    const at = Math.ceil(top / 8) * 8;
    top = at + bytes;
    return at;
  };
  const f64 = (n: number) => take(8 * n),
    i32 = (n: number) => take(4 * n),
    u8 = (n: number) => take(n);
  const perAxis = gridPerAxis(n1);
  const buckets = Math.max(1, classes) * (n1 < GRID_MIN_SITES ? 1 : perAxis * perAxis * perAxis);
  const assignment = take(k.assignmentScratchBytes(n1));
  const at: WorkspaceOffsets = {
    frac1: f64(3 * n1),
    frac2: f64(3 * n2),
    shift: f64(3),
    translated2: f64(3 * n2),
    lll1Frac: f64(3 * n1),
    lll1Wrapped: f64(3 * n1),
    lll1Cart: f64(3 * n1),
    lll2Frac: f64(3 * n2),
    lll2Wrapped: f64(3 * n2),
    lll2Cart: f64(3 * n2),
    d2: f64(n1 * n1),
    vecs: f64(3 * n2 * n1),
    inBox: u8(n2 * n1),
    boxColumns: i32(n2 * n1),
    boxCount: i32(n2),
    assignment,
    mapping: k.assignmentSolution(assignment, n1),
    mask: u8(n2 * n1),
    classOf: i32(n1),
    allowedStart: i32(n2 + 1),
    allowed: i32(allowedCount),
    gridStart: i32(buckets + 1),
    gridCols: i32(n1),
    bucketOf: i32(n1),
    windows: i32(2 * perAxis + 4),
    ranges: i32(2 * buckets),
    mean: f64(3),
    dist: f64(n2),
    params: f64(PARAM.length),
  };
  // WebAssembly memory ends at 4 GiB (65,536 pages), and the machine may give less: only a raised matchSites gets near.
  const have = k.memory.buffer.byteLength;
  try {
    if (top > WASM_MEMORY_BYTES) throw new RangeError('past 4 GiB');
    if (top > have) k.memory.grow(Math.ceil((top - have) / 65536));
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new LimitError(
      'matchSites',
      `matching ${groupedNumber(n1)} against ${groupedNumber(n2)} sites needs ${(top / 2 ** 30).toFixed(1)} GiB of scratch memory, ` +
        'more than WebAssembly memory (at most 4 GiB) could be given here; match smaller cells, or keep the matchSites limit lower',
    );
  }
  const buffer = k.memory.buffer;
  // Every pair starts outside the box (1e20) and no row lists any; the rows below n2 are the assignment's zero padding.
  new Float64Array(buffer, at.d2, n1 * n1).fill(1e20, 0, n2 * n1).fill(0, n2 * n1);
  new Uint8Array(buffer, at.inBox, n2 * n1).fill(0);
  new Int32Array(buffer, at.boxCount, n2).fill(0);
  return {
    n1,
    n2,
    classCapacity: classes,
    allowedCapacity: allowedCount,
    k,
    at,
    gridPerAxis: perAxis,
    classCount: 0,
    frac1: new Float64Array(buffer, at.frac1, 3 * n1),
    frac2: new Float64Array(buffer, at.frac2, 3 * n2),
    shift: new Float64Array(buffer, at.shift, 3),
    mean: new Float64Array(buffer, at.mean, 3),
    dist: new Float64Array(buffer, at.dist, n2),
    mapping: new Int32Array(buffer, at.mapping, n2),
    mask: new Uint8Array(buffer, at.mask, n2 * n1),
    classOf: new Int32Array(buffer, at.classOf, n1),
    allowedStart: new Int32Array(buffer, at.allowedStart, n2 + 1),
    allowed: new Int32Array(buffer, at.allowed, allowedCount),
    params: new Float64Array(buffer, at.params, PARAM.length),
  };
}

/** Site-pair evaluations (prefilter comparisons, shortest vectors, assignment rows) spent on one pair, held to LIMITS.matchWork. */
export interface WorkAccount {
  spent: number;
}

/**
 * Adds `units` site-pair evaluations to the pair's account; past LIMITS.matchWork the match is refused.
 * The count, not the clock, decides, so a verdict never depends on the machine's load. Large cells of high
 * symmetry are what reach it: get_rms_dist tries every lattice mapping × every translation (48 × 256 for a
 * cubic 256-site cell: 1.6e9 evaluations, 18 s), as pymatgen does.
 */
export function spendMatchWork(account: WorkAccount, units: number): void {
  account.spent += units;
  if (account.spent > LIMITS.matchWork) {
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
