// The pair-distance histogram's inner loops, for src/core/analysis/rdf.ts (which prepares the columns and calls
// countPairs through src/core/math/kernels.ts). Each f64 operation is the one the TypeScript it replaced made, in
// the same order, so the counts agree pair for pair.

/** numpy's bin of x for uniform bins: scaled floor, then corrected against the edges (inlined by -O3). */
function numpyBin(x: f64, bins: i32, norm: f64, width: f64): i32 {
  let k = <i32>Math.floor(x * norm);
  if (k == bins) k--;
  if (x < <f64>k * width) k--;
  else if (x >= <f64>(k + 1) * width && k != bins - 1) k++;
  return k;
}

/**
 * Adds to `counts` the pairs within rMax between the atoms [a0, a1) of one column and the atoms [b0, b1) of
 * another (with `same`, the pairs a < b of one column), both in increasing z slab, looking only at the atoms of the
 * second column in the slabs within ±zr of each atom of the first (two pointers, as both run up in z).
 */
function countColumnPairs(
  xyz: usize,
  slab: usize,
  slabHeight: f64,
  a0: i32,
  a1: i32,
  b0: i32,
  b1: i32,
  same: bool,
  zr: f64,
  rMax: f64,
  counts: usize,
  bins: i32,
): f64 {
  const reach = <i32>Math.ceil(zr / slabHeight);
  const width = rMax / <f64>bins,
    norm = <f64>bins / rMax,
    // A hair above rMax²: a d² just beyond it can still have √d² round to rMax, and numpy counts that pair.
    r2 = rMax * rMax * (1 + 1e-15);
  let added: f64 = 0,
    lo = b0,
    hi = b0;
  for (let a = a0; a < a1; a++) {
    const pa = xyz + <usize>a * 24;
    const px = load<f64>(pa),
      py = load<f64>(pa, 8),
      pz = load<f64>(pa, 16);
    // From the atom's slab, not its z (z is not monotone within a slab, the slabs are), one slab wider each way
    // than ±zr needs so that rounding never loses an atom.
    const sa = load<i32>(slab + ((<usize>a) << 2));
    const first = sa - reach - 1,
      last = sa + reach + 1;
    let from: i32;
    if (same) {
      from = a + 1;
      if (hi < from) hi = from;
    } else {
      while (lo < b1 && load<i32>(slab + ((<usize>lo) << 2)) < first) lo++;
      from = lo;
      if (hi < lo) hi = lo;
    }
    while (hi < b1 && load<i32>(slab + ((<usize>hi) << 2)) <= last) hi++;
    for (let b = from; b < hi; b++) {
      // (x_i − x_j)² = (x_j − x_i)² exactly, so the pair's order (pdist uses i < j) does not matter.
      const pb = xyz + <usize>b * 24;
      const ex = px - load<f64>(pb),
        ey = py - load<f64>(pb, 8),
        ez = pz - load<f64>(pb, 16);
      const d2 = ex * ex + ey * ey + ez * ez;
      if (d2 > r2) continue;
      const d = Math.sqrt(d2);
      if (d > rMax) continue;
      const at = counts + ((<usize>numpyBin(d, bins, norm, width)) << 3);
      store<f64>(at, load<f64>(at) + 1);
      added++;
    }
  }
  return added;
}

/**
 * Adds every pair within rMax to `counts` (f64 × bins), column by column against the columns at `offsets` (f64
 * dx, dy, z-reach triples, nOffsets values): `xyz` (f64 triples) and `slab` (i32) hold the atoms column by column,
 * column c = x·ny + y being atoms start[c] .. start[c + 1] − 1 (i32). Returns the pairs added, or −1 as soon as the
 * pairs that would be looked at exceed `pairLimit` (before they are looked at).
 */
export function countPairs(
  xyz: usize,
  slab: usize,
  slabHeight: f64,
  start: usize,
  nx: i32,
  ny: i32,
  offsets: usize,
  nOffsets: i32,
  rMax: f64,
  counts: usize,
  bins: i32,
  pairLimit: f64,
): f64 {
  let looked: f64 = 0,
    inRange: f64 = 0;
  for (let x = 0; x < nx; x++)
    for (let y = 0; y < ny; y++) {
      const c = x * ny + y;
      const a0 = load<i32>(start + ((<usize>c) << 2)),
        a1 = load<i32>(start + ((<usize>(c + 1)) << 2));
      if (a0 == a1) continue;
      for (let k = 0; k < nOffsets; k += 3) {
        const X = x + <i32>load<f64>(offsets + ((<usize>k) << 3)),
          Y = y + <i32>load<f64>(offsets + ((<usize>(k + 1)) << 3));
        if (X >= nx || Y < 0 || Y >= ny) continue;
        const c2 = X * ny + Y;
        const b0 = load<i32>(start + ((<usize>c2) << 2)),
          b1 = load<i32>(start + ((<usize>(c2 + 1)) << 2));
        if (b0 == b1) continue;
        const same = c2 == c;
        const na = <f64>(a1 - a0);
        looked += same ? (na * (na - 1)) / 2 : na * <f64>(b1 - b0);
        if (looked > pairLimit) return -1;
        const zr = load<f64>(offsets + ((<usize>(k + 2)) << 3));
        inRange += countColumnPairs(xyz, slab, slabHeight, a0, a1, b0, b1, same, zr, rMax, counts, bins);
      }
    }
  return inRange;
}

/**
 * Lays the n atoms of `source` (f64 triples) out for countPairs: each atom's column (x, y squares of `side` from
 * (loX, loY), clamped to the nx × ny grid) and z slab (of `slabHeight` from loZ, clamped to nSlabs), then two stable
 * counting sorts (by slab, then by column), into `xyz` and `slab` with `start` (nx·ny + 1 i32, zeroed) holding where
 * each column begins. Scratch, as i32: columnOf, slabOf, bySlab, order (n each), slabStart (nSlabs + 1, zeroed) and
 * fill (max(nSlabs, nx·ny)).
 */
export function slabColumns(
  source: usize,
  n: i32,
  loX: f64,
  loY: f64,
  loZ: f64,
  side: f64,
  slabHeight: f64,
  nx: i32,
  ny: i32,
  nSlabs: i32,
  columnOf: usize,
  slabOf: usize,
  slabStart: usize,
  fill: usize,
  bySlab: usize,
  start: usize,
  order: usize,
  xyz: usize,
  slab: usize,
): void {
  for (let i = 0; i < n; i++) {
    const p = source + <usize>i * 24;
    const cx = Math.min(<f64>(nx - 1), Math.floor((load<f64>(p) - loX) / side)),
      cy = Math.min(<f64>(ny - 1), Math.floor((load<f64>(p, 8) - loY) / side));
    store<i32>(columnOf + ((<usize>i) << 2), (cx > 0 ? <i32>cx : 0) * ny + (cy > 0 ? <i32>cy : 0));
    const s = Math.min(<f64>(nSlabs - 1), Math.floor((load<f64>(p, 16) - loZ) / slabHeight));
    store<i32>(slabOf + ((<usize>i) << 2), s > 0 ? <i32>s : 0);
  }
  countingOrder(slabOf, n, nSlabs, 0, slabStart, fill, bySlab);
  countingOrder(columnOf, n, nx * ny, bySlab, start, fill, order);
  for (let m = 0; m < n; m++) {
    const i = load<i32>(order + ((<usize>m) << 2));
    const from = source + <usize>i * 24,
      to = xyz + <usize>m * 24;
    store<f64>(to, load<f64>(from));
    store<f64>(to, load<f64>(from, 8), 8);
    store<f64>(to, load<f64>(from, 16), 16);
    store<i32>(slab + ((<usize>m) << 2), load<i32>(slabOf + ((<usize>i) << 2)));
  }
}

/**
 * Into `order` (n i32): the indices 0 .. n − 1 (or those listed in `within`, when not 0) stably sorted by key[i] ∈
 * [0, keys), leaving in `start` (keys + 1 i32, zeroed) where each key's run begins; `fill` is scratch (keys i32).
 */
function countingOrder(key: usize, n: i32, keys: i32, within: usize, start: usize, fill: usize, order: usize): void {
  for (let i = 0; i < n; i++) {
    const at = start + ((<usize>(load<i32>(key + ((<usize>i) << 2)) + 1)) << 2);
    store<i32>(at, load<i32>(at) + 1);
  }
  for (let k = 1; k <= keys; k++) {
    const at = start + ((<usize>k) << 2);
    store<i32>(at, load<i32>(at) + load<i32>(at - 4));
  }
  memory.copy(fill, start, (<usize>keys) << 2);
  for (let m = 0; m < n; m++) {
    const i = within ? load<i32>(within + ((<usize>m) << 2)) : m;
    const at = fill + ((<usize>load<i32>(key + ((<usize>i) << 2))) << 2);
    const to = load<i32>(at);
    store<i32>(at, to + 1);
    store<i32>(order + ((<usize>to) << 2), i);
  }
}
