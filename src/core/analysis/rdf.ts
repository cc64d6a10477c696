/**
 * The C2NP "RDF": a density-normalised histogram of all pair distances (github.com/KurbanIntelligenceLab/C2NP metrics). It is numpy's
 * histogram(pdist(X), bins, range=(0, rMax), density=True), reproduced bin for bin — not a true g(r)
 * (no 4πr² shell or number-density factor).
 */
import { LIMITS, LimitError, limitSentence, groupedNumber } from '../limits.ts';
import { finiteBounds, flatCoordinates, type PointCloud } from './hull.ts';
import { kernelArena, kernels } from '../math/kernels.ts';

export const C2NP_RDF_BINS = 128;
export const C2NP_RDF_MAX = 10;

export interface PairHistogram {
  /** Pair counts per bin. */
  counts: Float64Array;
  /** Pairs with distance in [0, rMax]. */
  inRange: number;
  /** counts / binWidth / inRange (numpy's order of operations); all NaN when inRange is 0. */
  density: Float64Array;
}

/** At most this many columns per axis and slabs in z, so memory stays bounded whatever the spread of the atoms. */
const MAX_COLUMNS_PER_AXIS = 160;
const MAX_SLABS = 1 << 16;

/**
 * Histogram of the N(N−1)/2 pair distances of one point set, visiting only pairs that can lie within rMax: the
 * atoms go into columns (x, y) of side rMax/3, in order of z slab, and each atom meets, in each column whose
 * nearest point is within rMax, only the atoms in the z range the remaining distance allows. That looks at about
 * 9 rMax³ of space per atom where cubic cells of rMax/2 look at 15.6 rMax³ (the sphere itself is 4.2 rMax³).
 */
export function pairDistanceHistogram(points: PointCloud, bins = C2NP_RDF_BINS, rMax = C2NP_RDF_MAX): PairHistogram {
  const source = flatCoordinates(points);
  const n = source.length / 3;
  const counts = new Float64Array(bins);
  // Edges k·(rMax/bins) as numpy's linspace gives them (exact for the C2NP 10/128).
  const width = rMax / bins;
  let inRange = 0;
  if (n > 1) {
    const columns = zSlabbedColumns(source, rMax);
    const side = columns.side;
    // Column offsets (forward half, so each pair of columns meets once) whose nearest points are within rMax,
    // with the z reach that leaves; a hair wider so rounding never loses a pair (the distance test is exact).
    const reach = Math.ceil(rMax / side);
    const offsets: number[] = [];
    for (let dx = 0; dx <= reach; dx++)
      for (let dy = -reach; dy <= reach; dy++) {
        if (dx === 0 && dy < 0) continue;
        // An atom on a column's edge may have been rounded into it: the gaps are taken a hair short.
        const gx = Math.max(0, (dx - 1 - 1e-9) * side),
          gy = Math.max(0, (Math.abs(dy) - 1 - 1e-9) * side);
        const left = rMax * rMax - gx * gx - gy * gy;
        if (left < 0) continue;
        offsets.push(dx, dy, Math.sqrt(left) * (1 + 1e-12) + 1e-12 * rMax);
      }
    inRange = countAllPairs(columns, offsets, n, rMax, counts);
  }
  const density = new Float64Array(bins);
  for (let k = 0; k < bins; k++) density[k] = counts[k] / width / inRange;
  return { counts, inRange, density };
}

/**
 * Adds every pair within rMax to counts, column by column against the columns at `offsets` (dx, dy, z reach
 * triples); returns the pairs added. The loops are a WebAssembly kernel (kernels/pair-histogram.ts): in a fresh
 * process they took 40–50 ms an 8,729-atom particle as TypeScript, 18–25 ms there.
 */
function countAllPairs(columns: ZSlabbedColumns, offsets: number[], n: number, rMax: number, counts: Float64Array): number {
  const arena = kernelArena();
  const xyz = arena.put(columns.xyz),
    slab = arena.put(columns.slab),
    start = arena.put(columns.start),
    offsetsAt = arena.put(Float64Array.from(offsets)),
    countsAt = arena.zeros(counts.length);
  // Pairs that may be looked at are held to the policy before they are (the kernel returns −1 past it): atoms
  // piled into a few columns (a collapsed prediction) would make the histogram quadratic in the particle's size.
  const { nx, ny, slabHeight } = columns;
  const inRange = kernels().countPairs(
    xyz,
    slab,
    slabHeight,
    start,
    nx,
    ny,
    offsetsAt,
    offsets.length,
    rMax,
    countsAt,
    counts.length,
    LIMITS.rdfPairs,
  );
  if (inRange < 0) throw pairLimitError(n, rMax);
  counts.set(arena.readF64(countsAt, counts.length));
  return inRange;
}

function pairLimitError(n: number, rMax: number): LimitError {
  return new LimitError(
    'rdfPairs',
    limitSentence(
      `the pair-distance histogram of ${groupedNumber(n)} atoms (many of them within ${rMax} Å of each other)`,
      null,
      LIMITS.rdfPairs,
      'atom pairs',
      'rdfPairs',
    ),
  );
}

interface ZSlabbedColumns {
  /** The coordinates column by column, each column in increasing z slab. */
  xyz: Float64Array;
  /** The z slab of each atom of xyz: floor((z − z_min) / slabHeight). */
  slab: Int32Array;
  slabHeight: number;
  /** Column c (= x·ny + y) holds atoms start[c] .. start[c + 1] − 1 of xyz. */
  start: Int32Array;
  nx: number;
  ny: number;
  side: number;
}

/**
 * The atoms bucketed into square (x, y) columns of side ≥ rMax/3 and, within each column, ordered by z slab of a
 * quarter of that: two stable counting sorts (slab, then column), linear time and no comparisons.
 */
function zSlabbedColumns(source: Float64Array, rMax: number): ZSlabbedColumns {
  const n = source.length / 3;
  const lo = new Float64Array([Infinity, Infinity, Infinity]),
    hi = new Float64Array([-Infinity, -Infinity, -Infinity]);
  finiteBounds(source, lo, hi);
  const extent = Math.max(hi[0] - lo[0], hi[1] - lo[1]);
  const side = Math.max(rMax / 3, extent / (MAX_COLUMNS_PER_AXIS - 1), 1e-9);
  const slabHeight = Math.max(side / 4, (hi[2] - lo[2]) / (MAX_SLABS - 1), 1e-9);
  // An extent that overflows gives NaN here: one column or slab then, never a NaN-sized array.
  const nx = Math.min(MAX_COLUMNS_PER_AXIS, Math.floor((hi[0] - lo[0]) / side) + 1) || 1,
    ny = Math.min(MAX_COLUMNS_PER_AXIS, Math.floor((hi[1] - lo[1]) / side) + 1) || 1,
    nSlabs = Math.min(MAX_SLABS, Math.floor((hi[2] - lo[2]) / slabHeight) + 1) || 1;
  const columnOf = new Int32Array(n),
    slabOf = new Int32Array(n);
  columnsAndSlabs(source, lo, side, slabHeight, nx, ny, nSlabs, columnOf, slabOf);
  const bySlab = countingOrder(slabOf, nSlabs, null);
  const start = new Int32Array(nx * ny + 1);
  const order = countingOrder(columnOf, nx * ny, bySlab, start);
  const xyz = new Float64Array(3 * n),
    slab = new Int32Array(n);
  gather(source, slabOf, order, xyz, slab);
  return { xyz, slab, slabHeight, start, nx, ny, side };
}

// zSlabbedColumns' and countingOrder's loops are small functions of their own: a function that loops several
// times is compiled on the fly (OSR) at its first long loop and dropped back to the interpreter after it.

/** Each point's (clamped) column x·ny + y and z slab. */
function columnsAndSlabs(
  source: Float64Array,
  lo: Float64Array,
  side: number,
  slabHeight: number,
  nx: number,
  ny: number,
  nSlabs: number,
  columnOf: Int32Array,
  slabOf: Int32Array,
): void {
  for (let i = 0; i < columnOf.length; i++) {
    const cx = Math.min(nx - 1, Math.floor((source[3 * i] - lo[0]) / side)),
      cy = Math.min(ny - 1, Math.floor((source[3 * i + 1] - lo[1]) / side));
    columnOf[i] = (cx > 0 ? cx : 0) * ny + (cy > 0 ? cy : 0);
    const s = Math.min(nSlabs - 1, Math.floor((source[3 * i + 2] - lo[2]) / slabHeight));
    slabOf[i] = s > 0 ? s : 0;
  }
}

/** The points and their slabs in `order`. */
function gather(source: Float64Array, slabOf: Int32Array, order: Int32Array, xyz: Float64Array, slab: Int32Array): void {
  for (let m = 0; m < order.length; m++) {
    const i = order[m];
    xyz[3 * m] = source[3 * i];
    xyz[3 * m + 1] = source[3 * i + 1];
    xyz[3 * m + 2] = source[3 * i + 2];
    slab[m] = slabOf[i];
  }
}

/**
 * The indices of `within` (all of 0..n−1 when null) stably sorted by key[i] ∈ [0, keys): a counting sort. With
 * `start` (keys + 1 long), it is left holding where each key's run begins.
 */
function countingOrder(key: Int32Array, keys: number, within: Int32Array | null, start = new Int32Array(keys + 1)): Int32Array {
  countKeys(key, start);
  prefixSums(start, keys);
  const fill = start.slice(0, keys);
  const order = new Int32Array(key.length);
  if (within === null) placeAll(key, fill, order);
  else placeWithin(key, within, fill, order);
  return order;
}

function countKeys(key: Int32Array, start: Int32Array): void {
  for (let i = 0; i < key.length; i++) start[key[i] + 1]++;
}

function prefixSums(start: Int32Array, keys: number): void {
  for (let k = 1; k <= keys; k++) start[k] += start[k - 1];
}

function placeAll(key: Int32Array, fill: Int32Array, order: Int32Array): void {
  for (let i = 0; i < key.length; i++) order[fill[key[i]]++] = i;
}

function placeWithin(key: Int32Array, within: Int32Array, fill: Int32Array, order: Int32Array): void {
  for (let m = 0; m < within.length; m++) {
    const i = within[m];
    order[fill[key[i]]++] = i;
  }
}

/** numpy's pairwise sum for ≤ 128 values (eight running partial sums), so the totals match to the last bit. */
export function numpySum(values: ArrayLike<number>): number {
  const n = values.length;
  if (n < 8) {
    let s = 0;
    for (let i = 0; i < n; i++) s += values[i];
    return s;
  }
  if (n > 128) {
    const half = Math.floor(n / 2 / 8) * 8;
    return numpySum(Array.prototype.slice.call(values, 0, half)) + numpySum(Array.prototype.slice.call(values, half));
  }
  const r = [values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7]];
  let i = 8;
  for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j] += values[i + j];
  let s = r[0] + r[1] + (r[2] + r[3]) + (r[4] + r[5] + (r[6] + r[7]));
  for (; i < n; i++) s += values[i];
  return s;
}

/** C2NP rdfE: Σ_k (h_k(P) − h_k(G))² over the density histograms; NaN when either has no pair ≤ rMax. */
export function rdfError(pred: PointCloud, truth: PointCloud, bins = C2NP_RDF_BINS, rMax = C2NP_RDF_MAX): number {
  const hp = pairDistanceHistogram(pred, bins, rMax).density,
    hg = pairDistanceHistogram(truth, bins, rMax).density;
  const sq = new Float64Array(bins);
  for (let k = 0; k < bins; k++) {
    const d = hp[k] - hg[k];
    sq[k] = d * d;
  }
  return numpySum(sq);
}
