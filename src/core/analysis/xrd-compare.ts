/**
 * Similarity of two powder patterns on a common 2θ grid (docs/crystallography.md §4): Gaussian-broadened
 * profiles compared by cosine, Pearson and the weighted cross-correlation of de Gelder, Wehrens & Hageman
 * (J. Comput. Chem. 22, 273, 2001) with a triangular weight of half-width ℓ, which tolerates peak shifts up to ℓ.
 */
import { exp } from '../math/libm.ts';
import { checkLimit } from '../limits.ts';
import { XRD_WAVELENGTHS, type XrdPeak, xrdPattern } from './xrd.ts';
import type { Structure } from '../structure/structure.ts';

export interface ProfileOptions {
  fwhm: number;
  step: number;
  range: [number, number];
}

export interface XrdSimilarity {
  nPoints: number;
  cosine: number;
  pearson: number;
  wcc: number;
}

/** Peaks farther than this many σ from a grid point add less than e⁻⁷² of their height there: left out. */
const CUT_SIGMAS = 12;

/** y(x_m) = Σ I_p exp(−(x_m − 2θ_p)² / 2σ²) on x_m = lo + m·step, m = 0 … round((hi − lo)/step). */
export function broadenedProfile(peaks: readonly XrdPeak[], o: ProfileOptions): Float64Array {
  const [lo, hi] = o.range;
  const n = Math.round((hi - lo) / o.step) + 1;
  checkLimit('latticePoints', 'the 2θ grid', n, 'points');
  const sigma = o.fwhm / (2 * Math.sqrt(2 * Math.LN2));
  const y = new Float64Array(n);
  for (const p of peaks) {
    const first = Math.max(0, Math.floor((p.twoTheta - CUT_SIGMAS * sigma - lo) / o.step));
    const last = Math.min(n - 1, Math.ceil((p.twoTheta + CUT_SIGMAS * sigma - lo) / o.step));
    for (let m = first; m <= last; m++) {
      const d = lo + m * o.step - p.twoTheta;
      y[m] += p.intensity * exp(-(d * d) / (2 * sigma * sigma));
    }
  }
  return y;
}

function crossCorrelation(f: Float64Array, g: Float64Array, k: number): number {
  let sum = 0;
  const n = f.length;
  for (let m = Math.max(0, -k); m < n && m + k < n; m++) sum += f[m] * g[m + k];
  return sum;
}

/** cosine, Pearson and WCC (half-width `wccWidth` degrees) of two profiles on the same grid. */
export function profileSimilarity(y1: Float64Array, y2: Float64Array, step: number, wccWidth: number): XrdSimilarity {
  const n = y1.length;
  let s12 = 0,
    s11 = 0,
    s22 = 0,
    m1 = 0,
    m2 = 0;
  for (let i = 0; i < n; i++) {
    s12 += y1[i] * y2[i];
    s11 += y1[i] * y1[i];
    s22 += y2[i] * y2[i];
    m1 += y1[i];
    m2 += y2[i];
  }
  m1 /= n;
  m2 /= n;
  let c12 = 0,
    c11 = 0,
    c22 = 0;
  for (let i = 0; i < n; i++) {
    c12 += (y1[i] - m1) * (y2[i] - m2);
    c11 += (y1[i] - m1) * (y1[i] - m1);
    c22 += (y2[i] - m2) * (y2[i] - m2);
  }
  const K = Math.round(wccWidth / step);
  let w12 = 0,
    w11 = 0,
    w22 = 0;
  for (let k = -K + 1; k <= K - 1; k++) {
    const w = 1 - Math.abs(k) / K;
    w12 += w * crossCorrelation(y1, y2, k);
    w11 += w * crossCorrelation(y1, y1, k);
    w22 += w * crossCorrelation(y2, y2, k);
  }
  return {
    nPoints: n,
    cosine: s12 / Math.sqrt(s11 * s22),
    pearson: c12 / Math.sqrt(c11 * c22),
    wcc: w12 / Math.sqrt(w11 * w22),
  };
}

/** `structlab xrd-compare`'s options: wavelength (Å), Gaussian FWHM, grid step and range (2θ, °), WCC half-width (°). */
export interface CompareOptions extends ProfileOptions {
  lambda: number;
  wccWidth: number;
}

/** `structlab xrd-compare`'s defaults (docs/crystallography.md §4): Cu Kα, FWHM 0.1°, step 0.02°, 5–90°, WCC ℓ = 1°. */
export const XRD_COMPARE_DEFAULTS: CompareOptions = {
  lambda: XRD_WAVELENGTHS.get('CuKa')!,
  fwhm: 0.1,
  step: 0.02,
  range: [5, 90],
  wccWidth: 1,
};

/** Two structures' broadened powder patterns on one grid (each as pymatgen's, peaks computed over 0–90°) and their similarity. */
export interface PatternComparison {
  /** 2θ of each grid point. */
  twoTheta: Float64Array;
  profiles: [Float64Array, Float64Array];
  similarity: XrdSimilarity;
}

/** The comparison `structlab xrd-compare` prints, with the profiles it compared (the lab draws them). */
export function comparePatterns(a: Structure, b: Structure, o: CompareOptions): PatternComparison {
  const profile = (s: Structure) => broadenedProfile(xrdPattern(s, o.lambda, [0, 90]).peaks, o);
  const profiles: [Float64Array, Float64Array] = [profile(a), profile(b)];
  const twoTheta = Float64Array.from(profiles[0], (_, m) => o.range[0] + m * o.step);
  return { twoTheta, profiles, similarity: profileSimilarity(profiles[0], profiles[1], o.step, o.wccWidth) };
}

/** The buffers of a comparison, for transfer out of a worker. */
export const comparisonTransferables = (c: PatternComparison): ArrayBuffer[] =>
  [c.twoTheta, ...c.profiles].map((a) => a.buffer as ArrayBuffer);
