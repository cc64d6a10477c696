import { exp, log, log1p } from './libm.ts';
// Small exact statistics: mean/SE, one-way ANOVA with the F distribution's tail from the regularized
// incomplete beta function (continued fraction, modified Lentz), and an OLS linear-trend test.

export function mean(values: readonly number[]): number {
  if (values.length === 0) throw new Error('the mean of an empty list is undefined');
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Sample standard deviation (ddof = 1). */
export function sampleStdDev(values: readonly number[]): number {
  if (values.length < 2) return NaN;
  const m = mean(values);
  let ss = 0;
  for (const v of values) ss += (v - m) ** 2;
  return Math.sqrt(ss / (values.length - 1));
}

/** Standard error of the mean, sd(ddof = 1)/√n. */
export function standardError(values: readonly number[]): number {
  return sampleStdDev(values) / Math.sqrt(values.length);
}

const HALF_LOG_TWO_PI = 0.5 * log(2 * Math.PI);

/** ln Γ(x) for x > 0: shift up to x ≥ 15, then Stirling's series (error below 1e-16 relative there). */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new Error(`logGamma needs a positive argument, got ${x}`);
  let shift = 0;
  let product = 1;
  let z = x;
  while (z < 15) {
    product *= z;
    z += 1;
    // Keep the product finite for tiny arguments.
    if (product > 1e280) {
      shift += log(product);
      product = 1;
    }
  }
  shift += log(product);
  const inv = 1 / z;
  const inv2 = inv * inv;
  const series =
    inv *
    (1 / 12 + inv2 * (-1 / 360 + inv2 * (1 / 1260 + inv2 * (-1 / 1680 + inv2 * (1 / 1188 + inv2 * (-691 / 360360 + inv2 * (1 / 156)))))));
  return (z - 0.5) * log(z) - z + HALF_LOG_TWO_PI + series - shift;
}

export function logBeta(a: number, b: number): number {
  return logGamma(a) + logGamma(b) - logGamma(a + b);
}

const TINY = 1e-300;
const CF_EPS = 1e-16;
const CF_MAX_ITER = 10000;

/** Continued fraction for I_x(a, b) (modified Lentz); converges fast for x < (a + 1)/(a + b + 2). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= CF_MAX_ITER; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < CF_EPS) return h;
  }
  throw new Error(`the incomplete beta continued fraction did not converge (a=${a}, b=${b}, x=${x})`);
}

/**
 * The regularized incomplete beta I_x(a, b) and its complement 1 − I_x(a, b), each computed directly on its
 * well-conditioned side so that small tail probabilities keep full relative precision.
 */
export function regularizedBeta(a: number, b: number, x: number): { lower: number; upper: number } {
  if (!(a > 0) || !(b > 0)) throw new Error(`incomplete beta needs positive parameters, got a=${a}, b=${b}`);
  if (!(x >= 0 && x <= 1)) throw new Error(`incomplete beta needs 0 ≤ x ≤ 1, got ${x}`);
  if (x === 0) return { lower: 0, upper: 1 };
  if (x === 1) return { lower: 1, upper: 0 };
  const logFront = a * log(x) + b * log1p(-x) - logBeta(a, b);
  if (x < (a + 1) / (a + b + 2)) {
    const lower = (exp(logFront) * betaContinuedFraction(a, b, x)) / a;
    return { lower, upper: 1 - lower };
  }
  const upper = (exp(logFront) * betaContinuedFraction(b, a, 1 - x)) / b;
  return { lower: 1 - upper, upper };
}

/** P(F ≤ f) and P(F > f) for the F(d1, d2) distribution. */
export function fDistribution(f: number, d1: number, d2: number): { cdf: number; sf: number } {
  if (!(f > 0)) return { cdf: 0, sf: 1 };
  // P(F > f) = I_{d2/(d2 + d1 f)}(d2/2, d1/2); evaluate it on that variable for precision in the tail.
  const y = d2 / (d2 + d1 * f);
  const { lower, upper } = regularizedBeta(d2 / 2, d1 / 2, y);
  return { cdf: upper, sf: lower };
}

/** Two-sided p-value of Student's t with df degrees of freedom. */
export function studentTTwoSided(t: number, df: number): number {
  if (!Number.isFinite(t)) return 0;
  return regularizedBeta(df / 2, 0.5, df / (df + t * t)).lower;
}

export interface AnovaResult {
  F: number;
  p: number;
  df_between: number;
  df_within: number;
}

/** One-way ANOVA across groups (the semantics of scipy.stats.f_oneway). */
export function oneWayAnova(groups: readonly (readonly number[])[]): AnovaResult {
  const used = groups.filter((g) => g.length > 0);
  if (used.length < 2) throw new Error('one-way ANOVA needs at least two non-empty groups');
  const all = used.flat();
  const n = all.length;
  const k = used.length;
  if (n <= k) throw new Error('one-way ANOVA needs more observations than groups');
  // Centre on the grand mean first (as scipy does) to limit cancellation.
  const grand = mean(all);
  let ssBetween = 0;
  let ssWithin = 0;
  for (const g of used) {
    const gm = mean(g.map((v) => v - grand));
    ssBetween += g.length * gm * gm;
    for (const v of g) ssWithin += (v - grand - gm) ** 2;
  }
  const dfBetween = k - 1;
  const dfWithin = n - k;
  const F = ssBetween / dfBetween / (ssWithin / dfWithin);
  const p = ssWithin === 0 ? (ssBetween === 0 ? NaN : 0) : fDistribution(F, dfBetween, dfWithin).sf;
  return { F, p, df_between: dfBetween, df_within: dfWithin };
}

export interface LinearTrend {
  slope: number;
  intercept: number;
  slope_se: number;
  t: number;
  p: number;
  r: number;
  n: number;
}

/** OLS y = intercept + slope·x with the two-sided t-test of slope = 0 (scipy.stats.linregress semantics). */
export function linearTrend(x: readonly number[], y: readonly number[]): LinearTrend {
  const n = x.length;
  if (n !== y.length) throw new Error('the trend test needs as many x as y values');
  if (n < 3) throw new Error('the trend test needs at least three points');
  const mx = mean(x);
  const my = mean(y);
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (x[i] - mx) ** 2;
    sxy += (x[i] - mx) * (y[i] - my);
    syy += (y[i] - my) ** 2;
  }
  if (sxx === 0) throw new Error('the trend test needs at least two distinct x values');
  const slope = sxy / sxx;
  const intercept = my - slope * mx;
  const r = syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
  const df = n - 2;
  const residual = Math.max(0, syy - slope * sxy);
  const slopeSe = Math.sqrt(residual / df / sxx);
  const t = slopeSe === 0 ? (slope === 0 ? 0 : Infinity) : slope / slopeSe;
  return { slope, intercept, slope_se: slopeSe, t, p: studentTTwoSided(t, df), r, n };
}

/**
 * NumPy's `sum` of a float64 array (numpy/core/src/umath/loops_utils.h.src `pairwise_sum`): blocks of 8 partial sums
 * up to 128 elements, halves above; `a[start]` to `a[start + n − 1]`. Results equal numpy's to the last bit.
 */
export function pairwiseSum(a: ArrayLike<number>, start = 0, n = a.length - start): number {
  if (n < 8) {
    let res = 0;
    for (let i = 0; i < n; i++) res += a[start + i];
    return res;
  }
  if (n <= 128) {
    const r = Array.from({ length: 8 }, (_, j) => a[start + j]);
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j] += a[start + i + j];
    let res = r[0] + r[1] + (r[2] + r[3]) + (r[4] + r[5] + (r[6] + r[7]));
    for (; i < n; i++) res += a[start + i];
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwiseSum(a, start, n2) + pairwiseSum(a, start + n2, n - n2);
}
