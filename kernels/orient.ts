// Shewchuk's exact orientation test ("Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric
// Predicates", 1997; predicates.c orient3dexact, with its expansion arithmetic: Two_Sum, Two_Product,
// fast_expansion_sum_zeroelim, scale_expansion_zeroelim). kernels/quickhull.ts calls it only where the rounded
// determinant is within its error bound of zero.

const SPLITTER: f64 = 134217729; // 2^27 + 1

// The expansions' scratch: 16 of 4 terms (the 2×2 minors and their negations), then room for the sums.
const scratch = memory.data(8 * 1024);
const AB = scratch,
  BC = scratch + 32,
  CD = scratch + 64,
  DA = scratch + 96,
  AC = scratch + 128,
  BD = scratch + 160,
  T8 = scratch + 192,
  CDA = scratch + 256,
  DAB = scratch + 352,
  ABC = scratch + 448,
  BCD = scratch + 544,
  ADET = scratch + 640,
  BDET = scratch + 832,
  CDET = scratch + 1024,
  DDET = scratch + 1216,
  ABDET = scratch + 1408,
  CDDET = scratch + 1792,
  DETER = scratch + 2176;

let hi: f64 = 0; // results of the error-free transformations below
let lo: f64 = 0;

function twoSum(a: f64, b: f64): void {
  const x = a + b;
  const bv = x - a;
  const av = x - bv;
  hi = x;
  lo = a - av + (b - bv);
}

function fastTwoSum(a: f64, b: f64): void {
  const x = a + b;
  hi = x;
  lo = b - (x - a);
}

function twoProduct(a: f64, b: f64): void {
  const x = a * b;
  let c = SPLITTER * a;
  const ahi = c - (c - a),
    alo = a - ahi;
  c = SPLITTER * b;
  const bhi = c - (c - b),
    blo = b - bhi;
  hi = x;
  lo = alo * blo - (x - ahi * bhi - alo * bhi - ahi * blo);
}

/** a·d − b·c, exactly, as a 4-term expansion at `out` (Two_Product twice, then Two_Two_Diff). */
function minor(a: f64, d: f64, b: f64, c: f64, out: usize): void {
  twoProduct(a, d);
  const a1 = hi,
    a0 = lo;
  twoProduct(b, c);
  const b1 = hi,
    b0 = lo;
  // Two_One_Diff(a1, a0, b0), then Two_One_Diff of its upper two terms and b1.
  twoSum(a0, -b0);
  const i = hi;
  store<f64>(out, lo);
  twoSum(a1, i);
  const j = hi,
    z = lo;
  twoSum(z, -b1);
  const k = hi;
  store<f64>(out, lo, 8);
  twoSum(j, k);
  store<f64>(out, lo, 16);
  store<f64>(out, hi, 24);
}

/** Puts v at h[n]; returns n + 1. */
function append(h: usize, n: i32, v: f64): i32 {
  store<f64>(h + ((<usize>n) << 3), v);
  return n + 1;
}

function get(e: usize, i: i32): f64 {
  return load<f64>(e + ((<usize>i) << 3));
}

/** h = e + f, for nonoverlapping expansions in increasing magnitude; zero terms dropped. Returns h's length. */
function sum(elen: i32, e: usize, flen: i32, f: usize, h: usize): i32 {
  let enow = get(e, 0),
    fnow = get(f, 0),
    ei = 0,
    fi = 0,
    hn = 0,
    q: f64;
  if (fnow > enow == fnow > -enow) {
    q = enow;
    enow = get(e, ++ei);
  } else {
    q = fnow;
    fnow = get(f, ++fi);
  }
  if (ei < elen && fi < flen) {
    if (fnow > enow == fnow > -enow) {
      fastTwoSum(enow, q);
      enow = get(e, ++ei);
    } else {
      fastTwoSum(fnow, q);
      fnow = get(f, ++fi);
    }
    q = hi;
    if (lo != 0) hn = append(h, hn, lo);
    while (ei < elen && fi < flen) {
      if (fnow > enow == fnow > -enow) {
        twoSum(q, enow);
        enow = get(e, ++ei);
      } else {
        twoSum(q, fnow);
        fnow = get(f, ++fi);
      }
      q = hi;
      if (lo != 0) hn = append(h, hn, lo);
    }
  }
  while (ei < elen) {
    twoSum(q, enow);
    enow = get(e, ++ei);
    q = hi;
    if (lo != 0) hn = append(h, hn, lo);
  }
  while (fi < flen) {
    twoSum(q, fnow);
    fnow = get(f, ++fi);
    q = hi;
    if (lo != 0) hn = append(h, hn, lo);
  }
  if (q != 0 || hn == 0) hn = append(h, hn, q);
  return hn;
}

/** h = e · b; zero terms dropped. Returns h's length. */
function scale(elen: i32, e: usize, b: f64, h: usize): i32 {
  let hn = 0;
  twoProduct(get(e, 0), b);
  let q = hi;
  if (lo != 0) hn = append(h, hn, lo);
  for (let i = 1; i < elen; i++) {
    twoProduct(get(e, i), b);
    const p1 = hi,
      p0 = lo;
    twoSum(q, p0);
    const s = hi;
    if (lo != 0) hn = append(h, hn, lo);
    fastTwoSum(p1, s);
    q = hi;
    if (lo != 0) hn = append(h, hn, lo);
  }
  if (q != 0 || hn == 0) hn = append(h, hn, q);
  return hn;
}

function negate(e: usize): void {
  for (let i = 0; i < 4; i++) store<f64>(e + ((<usize>i) << 3), -get(e, i));
}

/**
 * The sign of orient3d(a, b, c, d) exactly (as a value of that sign, or 0): positive when d lies below the plane
 * through a, b, c, which appear counter-clockwise seen from above it.
 */
export function orient3dExact(
  ax: f64,
  ay: f64,
  az: f64,
  bx: f64,
  by: f64,
  bz: f64,
  cx: f64,
  cy: f64,
  cz: f64,
  dx: f64,
  dy: f64,
  dz: f64,
): f64 {
  minor(ax, by, bx, ay, AB);
  minor(bx, cy, cx, by, BC);
  minor(cx, dy, dx, cy, CD);
  minor(dx, ay, ax, dy, DA);
  minor(ax, cy, cx, ay, AC);
  minor(bx, dy, dx, by, BD);
  let n = sum(4, CD, 4, DA, T8);
  const cdaLen = sum(n, T8, 4, AC, CDA);
  n = sum(4, DA, 4, AB, T8);
  const dabLen = sum(n, T8, 4, BD, DAB);
  negate(BD);
  negate(AC);
  n = sum(4, AB, 4, BC, T8);
  const abcLen = sum(n, T8, 4, AC, ABC);
  n = sum(4, BC, 4, CD, T8);
  const bcdLen = sum(n, T8, 4, BD, BCD);
  const aLen = scale(bcdLen, BCD, az, ADET);
  const bLen = scale(cdaLen, CDA, -bz, BDET);
  const cLen = scale(dabLen, DAB, cz, CDET);
  const dLen = scale(abcLen, ABC, -dz, DDET);
  const abLen = sum(aLen, ADET, bLen, BDET, ABDET);
  const cdLen = sum(cLen, CDET, dLen, DDET, CDDET);
  const len = sum(abLen, ABDET, cdLen, CDDET, DETER);
  return get(DETER, len - 1);
}
