/**
 * Neighbour search with cell lists, for periodic (any skew) and finite structures.
 *
 * Periodic cells are binned in fractional space: along axis k the bins are `w_k / n_k` thick, where
 * `w_k` is the perpendicular width of the cell (volume / area of the opposite face), not the length
 * of the lattice vector, so the search stays exact for very skewed cells. A neighbour within the
 * cutoff moves the fractional coordinate k by at most `cutoff / w_k`, i.e. at most
 * `r_k = ceil(cutoff * n_k / w_k)` bins; visiting bin offsets in [-r_k, r_k] (wrapping indices and
 * recording the lattice image) finds every pair and every image exactly once, even when the cutoff is
 * larger than the cell.
 */
import { type Mat3, det, inverse, perpendicularWidths } from '../math/mat3.ts';
import type { Structure } from './structure.ts';
import { pow } from '../math/libm.ts';

/** Searches that would return more pairs than this (memory) or visit more candidate bins are refused. */
const MAX_NEIGHBOR_PAIRS = 5e7;
const MAX_BIN_VISITS = 5e8;

export interface NeighborList {
  i: Uint32Array;
  j: Uint32Array;
  /** Lattice image of j, 3 integers per pair: the neighbour sits at xyz[j] + image · lattice. */
  image: Int32Array;
  distance: Float64Array;
}

/** Growable output buffers (typed arrays doubled on demand). */
class PairBuffer {
  n = 0;
  i = new Uint32Array(1024);
  j = new Uint32Array(1024);
  image = new Int32Array(3 * 1024);
  distance = new Float64Array(1024);

  push(i: number, j: number, a: number, b: number, c: number, d: number): void {
    if (this.n === this.i.length) this.grow();
    const n = this.n++;
    this.i[n] = i;
    this.j[n] = j;
    this.image[3 * n] = a;
    this.image[3 * n + 1] = b;
    this.image[3 * n + 2] = c;
    this.distance[n] = d;
  }

  private grow(): void {
    const cap = this.i.length * 2;
    const ni = new Uint32Array(cap);
    ni.set(this.i);
    this.i = ni;
    const nj = new Uint32Array(cap);
    nj.set(this.j);
    this.j = nj;
    const nim = new Int32Array(3 * cap);
    nim.set(this.image);
    this.image = nim;
    const nd = new Float64Array(cap);
    nd.set(this.distance);
    this.distance = nd;
  }

  result(): NeighborList {
    return {
      i: this.i.slice(0, this.n),
      j: this.j.slice(0, this.n),
      image: this.image.slice(0, 3 * this.n),
      distance: this.distance.slice(0, this.n),
    };
  }
}

/**
 * All pairs closer than `cutoff` (strictly), from flat Cartesian `positions` (x,y,z per atom).
 * `lattice` rows are the cell vectors; `null` means a finite structure (no images).
 * Each unordered pair appears once: i < j with any image, and i == j only for non-zero images with
 * the first non-zero image component positive (the opposite image is the same bond seen from j).
 */
export function findNeighborsRaw(positions: Float64Array, lattice: Mat3 | null, cutoff: number): NeighborList {
  if (!(cutoff > 0) || !Number.isFinite(cutoff)) throw new Error(`neighbour cutoff must be a positive number, got ${cutoff}`);
  const n = positions.length / 3;
  if (!Number.isInteger(n)) throw new Error('positions must hold 3 numbers per atom');
  const out = new PairBuffer();
  if (n === 0) return out.result();

  const periodic = lattice !== null;
  let cell: Mat3;
  let origin = [0, 0, 0];
  if (lattice) {
    cell = lattice;
  } else {
    // A finite structure is binned in its bounding box, treated as a non-periodic orthogonal cell.
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (let a = 0; a < n; a++) {
      for (let k = 0; k < 3; k++) {
        const v = positions[3 * a + k];
        if (!Number.isFinite(v)) throw new Error(`atom ${a + 1} has a non-finite coordinate`);
        if (v < lo[k]) lo[k] = v;
        if (v > hi[k]) hi[k] = v;
      }
    }
    const ext = [0, 1, 2].map((k) => Math.max(hi[k] - lo[k], cutoff) * (1 + 1e-9) + 1e-9);
    origin = lo;
    cell = [
      [ext[0], 0, 0],
      [0, ext[1], 0],
      [0, 0, ext[2]],
    ];
  }
  const d = det(cell);
  if (!Number.isFinite(d) || Math.abs(d) < 1e-12) throw new Error('the lattice is singular (zero cell volume)');
  const inv = inverse(cell);
  const width = perpendicularWidths(cell);

  // Bins per axis: as many as keep each bin at least `cutoff` thick, capped to ~2 bins per atom.
  const nb = width.map((w) => Math.max(1, Math.floor(w / cutoff)));
  const maxBins = Math.max(1, 2 * n);
  while (nb[0] * nb[1] * nb[2] > maxBins) {
    const k = nb.indexOf(Math.max(...nb));
    nb[k] = Math.max(1, Math.floor(nb[k] / 2));
  }
  const reach = [0, 1, 2].map((k) => Math.ceil((cutoff * nb[k]) / width[k] - 1e-12));
  // Refuse hopeless inputs (a cell far thinner than the cutoff) instead of running for hours.
  const expectedPairs = periodic ? (n * n * (4 / 3) * Math.PI * pow(cutoff, 3)) / (2 * Math.abs(d)) : 0;
  const binVisits = nb[0] * nb[1] * nb[2] * (2 * reach[0] + 1) * (2 * reach[1] + 1) * (2 * reach[2] + 1);
  if (expectedPairs > MAX_NEIGHBOR_PAIRS || binVisits > MAX_BIN_VISITS) {
    throw new Error(
      `neighbour search refused: a cutoff of ${cutoff} Å in a cell of volume ${Math.abs(d).toPrecision(3)} Å³ ` +
        `(perpendicular widths ${width.map((w) => w.toPrecision(3)).join(', ')} Å) would need about ` +
        `${Math.max(expectedPairs, binVisits).toExponential(1)} pairs or bin visits`,
    );
  }

  // Wrapped Cartesian positions and the integer shift applied by wrapping (original = wrapped + shift·L).
  const wrapped = new Float64Array(3 * n);
  const shift = new Int32Array(3 * n);
  const binOf = new Uint32Array(n);
  for (let a = 0; a < n; a++) {
    const x = positions[3 * a] - origin[0];
    const y = positions[3 * a + 1] - origin[1];
    const z = positions[3 * a + 2] - origin[2];
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) throw new Error(`atom ${a + 1} has a non-finite coordinate`);
    let b = 0;
    let wx = x,
      wy = y,
      wz = z;
    for (let k = 0; k < 3; k++) {
      const f = x * inv[0][k] + y * inv[1][k] + z * inv[2][k];
      let s = periodic ? Math.floor(f) : 0;
      let g = f - s;
      if (periodic && g >= 1) {
        g -= 1;
        s += 1;
      } // rounding at the upper face
      shift[3 * a + k] = s;
      if (s !== 0) {
        wx -= s * cell[k][0];
        wy -= s * cell[k][1];
        wz -= s * cell[k][2];
      }
      const idx = Math.min(nb[k] - 1, Math.max(0, Math.floor(g * nb[k])));
      b = b * nb[k] + idx;
    }
    wrapped[3 * a] = wx;
    wrapped[3 * a + 1] = wy;
    wrapped[3 * a + 2] = wz;
    binOf[a] = b;
  }

  // Counting sort of atoms by bin.
  const nBins = nb[0] * nb[1] * nb[2];
  const start = new Uint32Array(nBins + 1);
  for (let a = 0; a < n; a++) start[binOf[a] + 1]++;
  for (let b = 0; b < nBins; b++) start[b + 1] += start[b];
  const order = new Uint32Array(n);
  const fill = start.slice(0, nBins);
  for (let a = 0; a < n; a++) order[fill[binOf[a]]++] = a;

  const cut2 = cutoff * cutoff;
  for (let b0 = 0; b0 < nb[0]; b0++)
    for (let b1 = 0; b1 < nb[1]; b1++)
      for (let b2 = 0; b2 < nb[2]; b2++) {
        const home = (b0 * nb[1] + b1) * nb[2] + b2;
        const hs = start[home],
          he = start[home + 1];
        if (hs === he) continue;
        for (let d0 = -reach[0]; d0 <= reach[0]; d0++) {
          const v0 = b0 + d0;
          if (!periodic && (v0 < 0 || v0 >= nb[0])) continue;
          const t0 = Math.floor(v0 / nb[0]);
          const c0 = v0 - t0 * nb[0];
          for (let d1 = -reach[1]; d1 <= reach[1]; d1++) {
            const v1 = b1 + d1;
            if (!periodic && (v1 < 0 || v1 >= nb[1])) continue;
            const t1 = Math.floor(v1 / nb[1]);
            const c1 = v1 - t1 * nb[1];
            for (let d2 = -reach[2]; d2 <= reach[2]; d2++) {
              const v2 = b2 + d2;
              if (!periodic && (v2 < 0 || v2 >= nb[2])) continue;
              const t2 = Math.floor(v2 / nb[2]);
              const c2 = v2 - t2 * nb[2];
              const target = (c0 * nb[1] + c1) * nb[2] + c2;
              const ts = start[target],
                te = start[target + 1];
              if (ts === te) continue;
              // Cartesian offset of the image of the target bin.
              const ox = t0 * cell[0][0] + t1 * cell[1][0] + t2 * cell[2][0];
              const oy = t0 * cell[0][1] + t1 * cell[1][1] + t2 * cell[2][1];
              const oz = t0 * cell[0][2] + t1 * cell[1][2] + t2 * cell[2][2];
              const zeroImage = t0 === 0 && t1 === 0 && t2 === 0;
              for (let p = hs; p < he; p++) {
                const a = order[p];
                const ax = wrapped[3 * a] - ox,
                  ay = wrapped[3 * a + 1] - oy,
                  az = wrapped[3 * a + 2] - oz;
                for (let q = ts; q < te; q++) {
                  const c = order[q];
                  if (c < a) continue;
                  const dx = wrapped[3 * c] - ax,
                    dy = wrapped[3 * c + 1] - ay,
                    dz = wrapped[3 * c + 2] - az;
                  const r2 = dx * dx + dy * dy + dz * dz;
                  if (r2 >= cut2) continue;
                  // Image of c relative to a in the caller's (unwrapped) coordinates.
                  const s0 = t0 - shift[3 * c] + shift[3 * a];
                  const s1 = t1 - shift[3 * c + 1] + shift[3 * a + 1];
                  const s2 = t2 - shift[3 * c + 2] + shift[3 * a + 2];
                  if (c === a) {
                    if (zeroImage) continue;
                    // Keep one of the two opposite self-images.
                    if (!(s0 > 0 || (s0 === 0 && (s1 > 0 || (s1 === 0 && s2 > 0))))) continue;
                  }
                  out.push(a, c, s0, s1, s2, Math.sqrt(r2));
                }
              }
            }
          }
        }
      }
  return out.result();
}

/** Flat Cartesian positions (x,y,z per site) of a structure. */
export function sitePositions(s: Structure): Float64Array {
  const pos = new Float64Array(3 * s.sites.length);
  s.sites.forEach((site, k) => {
    pos[3 * k] = site.xyz[0];
    pos[3 * k + 1] = site.xyz[1];
    pos[3 * k + 2] = site.xyz[2];
  });
  return pos;
}

/** Neighbour pairs of a structure closer than `cutoff` Å; see `findNeighborsRaw` for the pair convention. */
export function findNeighbors(s: Structure, cutoff: number): NeighborList {
  return findNeighborsRaw(sitePositions(s), s.lattice ? s.lattice.matrix : null, cutoff);
}
