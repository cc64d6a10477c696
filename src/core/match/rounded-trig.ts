/**
 * Correctly rounded cos, sin, acos and x^(1/3) for the matcher's average lattice and normalisation (pymatgen's
 * `Lattice.parameters`, `Lattice.from_parameters`, `(n / V) ** (1 / 3)`; materialsproject/pymatgen
 * pymatgen/core/lattice.py, pymatgen/analysis/structure_matcher.py). numpy takes them from glibc (or its AVX-512
 * SVML loops), which return the correctly rounded value on all but a few per mille of arguments; fdlibm (libm.ts)
 * misses on a few per cent (cos just above π/2, which every right angle meets, is one), and one ulp of the average
 * lattice can decide which of several equally good assignments pymatgen keeps. Evaluated in double-double (about
 * 104 bits) and rounded once, with +, −, ×, ÷ and libm.ts only: the same bits in every engine.
 */
import { acos as acosApprox, cbrt, log, sin } from '../math/libm.ts';
import { boundedMemo } from '../memo.ts';

/** a + b exactly: [sum, error]. */
function twoSum(a: number, b: number, out: Float64Array): void {
  const s = a + b;
  const bb = s - a;
  out[0] = s;
  out[1] = a - (s - bb) + (b - bb);
}

const SPLIT = 134217729; // 2^27 + 1
/** a · b exactly: [product, error] (Dekker). */
function twoProd(a: number, b: number, out: Float64Array): void {
  const p = a * b;
  let t = SPLIT * a;
  const ah = t - (t - a),
    al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b),
    bl = b - bh;
  out[0] = p;
  out[1] = ah * bh - p + ah * bl + al * bh + al * bl;
}

const T = new Float64Array(2);
const U = new Float64Array(2);

/** (xh, xl) · (yh, yl) + (zh, zl) in double-double, into out. */
function mulAdd(xh: number, xl: number, yh: number, yl: number, zh: number, zl: number, out: Float64Array): void {
  twoProd(xh, yh, T);
  const ph = T[0],
    pl = T[1] + (xh * yl + xl * yh);
  twoSum(ph, zh, U);
  const lo = U[1] + pl + zl;
  const s = U[0] + lo;
  out[0] = s;
  out[1] = lo - (s - U[0]);
}

/** ±1/n! as double-doubles for the Taylor series (index n). */
const INV_FACT_HI = new Float64Array(32);
const INV_FACT_LO = new Float64Array(32);
{
  let h = 1,
    l = 0;
  INV_FACT_HI[0] = 1;
  for (let n = 1; n < 32; n++) {
    // (h, l) / n: q1 = h / n, remainder (h, l) − q1·n exactly, q2 = remainder / n.
    const q1 = h / n;
    twoProd(q1, n, T);
    const r = h - T[0] - T[1] + l;
    const q2 = r / n;
    h = q1 + q2;
    l = q2 - (h - q1);
    INV_FACT_HI[n] = h;
    INV_FACT_LO[n] = l;
  }
}

/** π/2 as three doubles (fdlibm's pio2_1, pio2_2, pio2_3 at full width). */
const PIO2_1 = 1.5707963267948966;
const PIO2_2 = 6.123233995736766e-17;
const PIO2_3 = -1.4973849048591698e-33;

const R = new Float64Array(2);
const ACC = new Float64Array(2);
const S2 = new Float64Array(2);

/** r = x − k·π/2 in double-double (|x| ≤ 8, k = nearest quadrant). Returns k mod 4. */
function reduce(x: number): number {
  const k = Math.round(x / PIO2_1);
  // k·PIO2_1 is exact for |k| ≤ 5 and x − k·PIO2_1 is exact (Sterbenz) near each multiple.
  const t = x - k * PIO2_1;
  twoSum(t, -k * PIO2_2, R);
  const lo = R[1] - k * PIO2_3;
  const h = R[0] + lo;
  R[1] = lo - (h - R[0]);
  R[0] = h;
  return ((k % 4) + 4) % 4;
}

/** Taylor coefficients (−1)^m / (2m + 1)! (sine) and (−1)^m / (2m)! (cosine) as double-doubles, m ≤ TOP. */
const TOP = 14;
const SIN_HI = new Float64Array(TOP + 1);
const SIN_LO = new Float64Array(TOP + 1);
const COS_HI = new Float64Array(TOP + 1);
const COS_LO = new Float64Array(TOP + 1);
for (let m = 0; m <= TOP; m++) {
  const sign = m % 2 === 0 ? 1 : -1;
  SIN_HI[m] = sign * INV_FACT_HI[2 * m + 1];
  SIN_LO[m] = sign * INV_FACT_LO[2 * m + 1];
  COS_HI[m] = sign * INV_FACT_HI[2 * m];
  COS_LO[m] = sign * INV_FACT_LO[2 * m];
}

/**
 * sin r (odd = 1) or cos r (odd = 0) of the reduced (R[0], R[1]), |r| ≤ π/4, into ACC: Horner in s = r² over the
 * terms down to 2^-110 of the leading one (all TOP + 1 of them at |r| = π/4).
 */
function kernel(odd: number): void {
  const rh = R[0],
    rl = R[1];
  twoProd(rh, rh, S2);
  const sl0 = S2[1] + 2 * rh * rl;
  const sh = S2[0] + sl0;
  const sl = sl0 - (sh - S2[0]);
  let top = 0;
  for (let t = 1; top < TOP && t > 7.7e-34;) {
    top++;
    t *= sh / ((2 * top + odd) * (2 * top - 1 + odd));
  }
  const hi = odd ? SIN_HI : COS_HI,
    lo = odd ? SIN_LO : COS_LO;
  let ah = hi[top],
    al = lo[top];
  for (let m = top - 1; m >= 0; m--) {
    mulAdd(ah, al, sh, sl, hi[m], lo[m], ACC);
    ah = ACC[0];
    al = ACC[1];
  }
  if (odd) mulAdd(ah, al, rh, rl, 0, 0, ACC);
  else {
    ACC[0] = ah;
    ACC[1] = al;
  }
}

/** cos(x) (sine = false) or sin(x) as a double-double in ACC, |x| ≤ 8. */
function evaluate(x: number, sine: boolean): void {
  const q = reduce(x);
  // x = q·π/2 + r: cos x = cos r, −sin r, −cos r, sin r; sin x = sin r, cos r, −sin r, −cos r.
  const useSin = sine ? q % 2 === 0 : q % 2 === 1;
  kernel(useSin ? 1 : 0);
  const negative = sine ? q >= 2 : q === 1 || q === 2;
  if (negative) {
    ACC[0] = -ACC[0];
    ACC[1] = -ACC[1];
  }
}

/** Results kept per function: the distinct arguments of a whole batch are a few hundred. */
const MEMO_KEPT = 1024;

/**
 * `f` with its results kept by argument: the matcher asks for the same few values thousands of times (cos and sin
 * of 90°, acos of the ±6e-17 a right angle's dot product gives, the angles of the pair's own cells: 97 distinct
 * arguments in 22,701 acos calls on the AtomWorld oracle batch). Zero is computed each time, since a Map does not
 * tell −0 from +0.
 */
function memoised(f: (x: number) => number): (x: number) => number {
  const kept = boundedMemo(f, MEMO_KEPT);
  return (x) => (x === 0 ? f(x) : kept(x));
}

/** cos(x), correctly rounded but for arguments within about 2^-100 of a rounding boundary; |x| ≤ 8. */
export const cosRounded = memoised((x) => {
  evaluate(x, false);
  return ACC[0] + ACC[1];
});

/** sin(x), as cosRounded. */
export const sinRounded = memoised((x) => {
  evaluate(x, true);
  return ACC[0] + ACC[1];
});

/**
 * acos(x), x in [−1, 1]: libm's acos (within an ulp) refined by one Newton step on cos y = x in
 * double-double, then rounded once. Correctly rounded away from |x| → 1 (angles of a few degrees and less).
 */
export const acosRounded = memoised(acosRefined);

function acosRefined(x: number): number {
  const y0 = acosApprox(x);
  if (!(x > -1 && x < 1)) return y0;
  evaluate(y0, false);
  twoSum(ACC[0], -x, T);
  const diff = T[0] + (T[1] + ACC[1]);
  return y0 + diff / sin(y0);
}

/** 1/3 − (the double nearest 1/3). */
const THIRD_GAP = 1.850371707708594e-17;

/**
 * Python's `x ** (1 / 3)` (glibc pow with the double nearest 1/3) for x > 0, correctly rounded: the cube root in
 * double-double (one Newton step from cbrt) times x^(−THIRD_GAP) ≈ 1 − THIRD_GAP·ln x.
 */
export const powThird = memoised(powThirdOnce);

function powThirdOnce(x: number): number {
  const y = cbrt(x);
  twoProd(y, y, T);
  // y³ = (T[0] + T[1])·y exactly enough: residual x − y³ in double-double.
  twoProd(T[0], y, U);
  const cubeLo = U[1] + T[1] * y;
  twoSum(x, -U[0], S2);
  const residual = S2[0] + (S2[1] - cubeLo);
  const corr = residual / (3 * y * y);
  // (y + corr)·(1 − THIRD_GAP·ln x)
  const lo = corr - y * THIRD_GAP * log(x);
  return y + lo;
}
