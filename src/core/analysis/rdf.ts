/**
 * The C2NP "RDF": a density-normalised histogram of all pair distances (github.com/KurbanIntelligenceLab/C2NP metrics). It is numpy's
 * histogram(pdist(X), bins, range=(0, rMax), density=True), reproduced bin for bin — not a true g(r)
 * (no 4πr² shell or number-density factor).
 */
import { LIMITS, LimitError, limitSentence } from '../limits.ts';
import { flatCoordinates, type PointCloud } from './hull.ts';
import { PointGrid } from './hausdorff.ts';

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

/** Bin index exactly as numpy assigns it for uniform bins: scaled floor, then corrected against the edges. */
function numpyBin(x: number, bins: number, rMax: number, norm: number, width: number): number {
  let k = Math.floor(x * norm);
  if (k === bins) k--;
  if (x < k * width) k--;
  else if (x >= (k + 1) * width && k !== bins - 1) k++;
  return k;
}

/** Histogram of the N(N−1)/2 pair distances of one point set (cell list, only pairs ≤ rMax visited). */
export function pairDistanceHistogram(points: PointCloud, bins = C2NP_RDF_BINS, rMax = C2NP_RDF_MAX): PairHistogram {
  const xyz = flatCoordinates(points);
  const n = xyz.length / 3;
  const counts = new Float64Array(bins);
  // Edges k·(rMax/bins) as numpy's linspace gives them (exact for the C2NP 10/128).
  const width = rMax / bins,
    norm = bins / rMax;
  let inRange = 0;
  let looked = 0;
  if (n > 1) {
    // Cells of rMax/2: each cell pairs with the 62 "forward" cells within two steps (and itself). That visits
    // about 40 % fewer pairs beyond rMax than cells of rMax with 13 forward neighbours.
    const grid = new PointGrid(xyz, Math.max(rMax / 2, 1e-9));
    const [nx, ny, nz] = grid.dims;
    const { cellStart: start, order } = grid;
    const r2 = rMax * rMax;
    const offsets: [number, number, number][] = [];
    for (let dx = 0; dx <= 2; dx++)
      for (let dy = -2; dy <= 2; dy++)
        for (let dz = -2; dz <= 2; dz++) {
          if (dx > 0 || dy > 0 || (dy === 0 && dz >= 0)) offsets.push([dx, dy, dz]);
        }
    for (let x = 0; x < nx; x++)
      for (let y = 0; y < ny; y++)
        for (let z = 0; z < nz; z++) {
          const c = (x * ny + y) * nz + z;
          if (start[c] === start[c + 1]) continue;
          for (const [dx, dy, dz] of offsets) {
            const X = x + dx,
              Y = y + dy,
              Z = z + dz;
            if (X >= nx || Y < 0 || Y >= ny || Z < 0 || Z >= nz) continue;
            const same = dx === 0 && dy === 0 && dz === 0;
            const c2 = (X * ny + Y) * nz + Z;
            if (start[c2] === start[c2 + 1]) continue;
            // Pairs looked at, held to the policy before they are looked at: atoms piled into a few cells (a collapsed
            // prediction) would make the histogram quadratic in the particle's size.
            const inCell = start[c + 1] - start[c];
            looked += same ? (inCell * (inCell - 1)) / 2 : inCell * (start[c2 + 1] - start[c2]);
            if (looked > LIMITS.rdfPairs) {
              throw new LimitError(
                'rdfPairs',
                limitSentence(
                  `the pair-distance histogram of ${n.toLocaleString('en')} atoms (many of them within ${rMax} Å of each other)`,
                  null,
                  LIMITS.rdfPairs,
                  'atom pairs',
                  'rdfPairs',
                ),
              );
            }
            for (let m = start[c]; m < start[c + 1]; m++) {
              const a = 3 * order[m];
              const px = xyz[a],
                py = xyz[a + 1],
                pz = xyz[a + 2];
              for (let q = same ? m + 1 : start[c2]; q < start[c2 + 1]; q++) {
                // (x_i − x_j)² = (x_j − x_i)² exactly, so the pair's order (pdist uses i < j) does not matter.
                const b = 3 * order[q];
                const ex = px - xyz[b],
                  ey = py - xyz[b + 1],
                  ez = pz - xyz[b + 2];
                const d2 = ex * ex + ey * ey + ez * ez;
                if (d2 > r2) continue;
                const d = Math.sqrt(d2);
                if (d > rMax) continue;
                counts[numpyBin(d, bins, rMax, norm, width)]++;
                inRange++;
              }
            }
          }
        }
  }
  const density = new Float64Array(bins);
  for (let k = 0; k < bins; k++) density[k] = counts[k] / width / inRange;
  return { counts, inRange, density };
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
