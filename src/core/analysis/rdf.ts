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
    const layout = columnLayout(source, rMax);
    const side = layout.side;
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
    inRange = countAllPairs(source, layout, offsets, rMax, counts);
  }
  const density = new Float64Array(bins);
  for (let k = 0; k < bins; k++) density[k] = counts[k] / width / inRange;
  return { counts, inRange, density };
}

/**
 * Adds every pair within rMax to counts, column by column against the columns at `offsets` (dx, dy, z reach
 * triples); returns the pairs added. The atoms are laid out in columns and the pairs counted by WebAssembly kernels
 * (kernels/pair-histogram.ts): in a fresh process the same loops in TypeScript took 50–60 ms for an 8,729-atom
 * particle, interpreted until V8 had compiled them.
 */
function countAllPairs(source: Float64Array, layout: ColumnLayout, offsets: number[], rMax: number, counts: Float64Array): number {
  const n = source.length / 3;
  const { lo, side, slabHeight, nx, ny, nSlabs } = layout;
  const arena = kernelArena();
  const sourceAt = arena.put(source),
    columnOf = arena.zerosI32(n),
    slabOf = arena.zerosI32(n),
    slabStart = arena.zerosI32(nSlabs + 1),
    fill = arena.zerosI32(Math.max(nSlabs, nx * ny)),
    bySlab = arena.zerosI32(n),
    start = arena.zerosI32(nx * ny + 1),
    order = arena.zerosI32(n),
    xyz = arena.zerosF64(3 * n),
    slab = arena.zerosI32(n);
  const k = kernels();
  k.slabColumns(
    sourceAt,
    n,
    lo[0],
    lo[1],
    lo[2],
    side,
    slabHeight,
    nx,
    ny,
    nSlabs,
    columnOf,
    slabOf,
    slabStart,
    fill,
    bySlab,
    start,
    order,
    xyz,
    slab,
  );
  const offsetsAt = arena.put(Float64Array.from(offsets)),
    countsAt = arena.zerosF64(counts.length);
  // Pairs that may be looked at are held to the policy before they are (the kernel returns −1 past it): atoms
  // piled into a few columns (a collapsed prediction) would make the histogram quadratic in the particle's size.
  const inRange = k.countPairs(
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

/**
 * The grid the atoms are laid out on (the kernel slabColumns does it): square (x, y) columns of side ≥ rMax/3 from
 * `lo` and, within each column, the atoms in order of z slab of a quarter of that.
 */
interface ColumnLayout {
  lo: Float64Array;
  side: number;
  slabHeight: number;
  nx: number;
  ny: number;
  nSlabs: number;
}

function columnLayout(source: Float64Array, rMax: number): ColumnLayout {
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
  return { lo, side, slabHeight, nx, ny, nSlabs };
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
