/**
 * Powder diffraction of a finite particle by the Debye scattering equation, I(q) = Σᵢ Σⱼ fᵢ fⱼ sin(q rᵢⱼ)/(q rᵢⱼ)
 * (P. Debye, Ann. Phys. 351, 809 (1915)), so a particle's peaks carry its size: they broaden as it shrinks
 * (Scherrer). Same scattering factors and Lorentz-polarisation factor as the bulk pattern (xrd.ts, pymatgen's
 * XRDCalculator), q = 4π sin θ / λ, scaled to 100, so the two can be drawn together. Pair distances are
 * histogrammed per element pair (bins of `binWidth` Å), and sin(q r) over the bins comes from the angle-addition
 * recurrence, so a pattern costs one pass over the pairs and bins × points multiply-adds, no trigonometry per bin.
 */
import { cos, sin } from '../math/libm.ts';
import { checkLimit } from '../limits.ts';
import { type ScatteringKind, scatteringFactor, scatteringKind, xrdPattern } from './xrd.ts';
import { broadenedProfile } from './xrd-compare.ts';
import type { Structure } from '../structure/structure.ts';

export interface DebyeOptions {
  /** Wavelength, Å. */
  lambda: number;
  /** 2θ range, degrees. */
  twoTheta: [number, number];
  /** 2θ step, degrees. */
  step: number;
  /** Width of the pair-distance bins, Å (default 0.005). */
  binWidth?: number;
}

export interface DebyePattern {
  twoTheta: Float64Array;
  /** Lorentz-polarised Debye intensity, scaled so that its largest value in the range is 100. */
  intensity: Float64Array;
}

const RAD = Math.PI / 180;

/** The Debye pattern of atoms `symbols` at Cartesian `positions` (xyz triples, Å). */
export function debyePattern(symbols: readonly string[], positions: Float64Array, o: DebyeOptions): DebyePattern {
  const n = symbols.length;
  const w = o.binWidth ?? 0.005;
  if (!(o.lambda > 0) || !(o.step > 0) || !(w > 0) || !(o.twoTheta[1] > o.twoTheta[0]) || o.twoTheta[0] < 0 || o.twoTheta[1] >= 180)
    throw new Error('the Debye pattern needs λ > 0, a step > 0, a bin width > 0 and 0 ≤ 2θ from < to < 180°');
  checkLimit('rdfPairs', 'the Debye pattern', (n * (n - 1)) / 2, 'atom pairs');
  const kinds: ScatteringKind[] = [];
  const kindOf = new Map<string, number>();
  const kind = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let k = kindOf.get(symbols[i]);
    if (k === undefined) {
      k = kinds.length;
      kinds.push(scatteringKind(symbols[i]));
      kindOf.set(symbols[i], k);
    }
    kind[i] = k;
  }
  const m = kinds.length;
  const count = new Float64Array(m);
  for (let i = 0; i < n; i++) count[kind[i]]++;
  // Largest distance → number of bins.
  let maxD2 = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const dx = positions[3 * i] - positions[3 * j],
        dy = positions[3 * i + 1] - positions[3 * j + 1],
        dz = positions[3 * i + 2] - positions[3 * j + 2];
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 > maxD2) maxD2 = d2;
    }
  const bins = Math.floor(Math.sqrt(maxD2) / w) + 2;
  checkLimit('latticePoints', 'the Debye pattern’s distance bins', bins * ((m * (m + 1)) / 2), 'bins');
  // hist[pair(a ≤ b)][bin]: unordered pairs at distance ≈ bin·w.
  const pairIndex = (a: number, b: number) => (a <= b ? a * m + b : b * m + a);
  const hist = new Float64Array(m * m * bins);
  for (let i = 0; i < n; i++) {
    const xi = positions[3 * i],
      yi = positions[3 * i + 1],
      zi = positions[3 * i + 2];
    for (let j = i + 1; j < n; j++) {
      const dx = xi - positions[3 * j],
        dy = yi - positions[3 * j + 1],
        dz = zi - positions[3 * j + 2];
      const bin = Math.round(Math.sqrt(dx * dx + dy * dy + dz * dz) / w);
      hist[pairIndex(kind[i], kind[j]) * bins + bin]++;
    }
  }
  const points = Math.round((o.twoTheta[1] - o.twoTheta[0]) / o.step) + 1;
  checkLimit('latticePoints', 'the Debye pattern’s 2θ grid', points, 'points');
  const twoTheta = new Float64Array(points);
  const intensity = new Float64Array(points);
  const f = new Float64Array(m);
  const sums = new Float64Array(m * m);
  for (let p = 0; p < points; p++) {
    const tt = o.twoTheta[0] + p * o.step;
    twoTheta[p] = tt;
    const theta = (tt / 2) * RAD;
    const sinTheta = sin(theta),
      cosTheta = cos(theta);
    const s = sinTheta / o.lambda;
    const q = 4 * Math.PI * s;
    for (let a = 0; a < m; a++) f[a] = scatteringFactor(kinds[a], s * s);
    // Σ_bins h · sin(q r)/(q r) per element pair, sin(q·b·w) by the angle-addition recurrence from b = 1.
    sums.fill(0);
    const c1 = cos(q * w),
      s1 = sin(q * w);
    let sb = s1,
      cb = c1;
    for (let b = 1; b < bins; b++) {
      const sinc = q > 0 ? sb / (q * b * w) : 1;
      for (let a = 0; a < m; a++) for (let c = a; c < m; c++) sums[a * m + c] += hist[(a * m + c) * bins + b] * sinc;
      const next = sb * c1 + cb * s1;
      cb = cb * c1 - sb * s1;
      sb = next;
    }
    let value = 0;
    for (let a = 0; a < m; a++) {
      value += count[a] * f[a] * f[a] + 2 * f[a] * f[a] * (hist[(a * m + a) * bins] + sums[a * m + a]);
      for (let c = a + 1; c < m; c++) value += 2 * f[a] * f[c] * (hist[(a * m + c) * bins] + sums[a * m + c]);
    }
    const cos2Theta = 1 - 2 * sinTheta * sinTheta;
    const lorentz = sinTheta > 0 && cosTheta > 0 ? (1 + cos2Theta * cos2Theta) / (sinTheta * sinTheta * cosTheta) : 0;
    intensity[p] = value * lorentz;
  }
  let max = 0;
  for (const v of intensity) max = Math.max(max, v);
  if (max > 0) for (let p = 0; p < points; p++) intensity[p] = (intensity[p] / max) * 100;
  return { twoTheta, intensity };
}

/** Full width at half maximum (degrees) of the highest point's peak, by linear interpolation on each side. */
export function strongestPeakWidth(pattern: DebyePattern): { twoTheta: number; fwhm: number } {
  const { twoTheta, intensity } = pattern;
  let top = 0;
  for (let p = 1; p < intensity.length; p++) if (intensity[p] > intensity[top]) top = p;
  const half = intensity[top] / 2;
  const cross = (dir: 1 | -1): number => {
    let p = top;
    while (p + dir >= 0 && p + dir < intensity.length && intensity[p + dir] > half) p += dir;
    const q = p + dir;
    if (q < 0 || q >= intensity.length) return twoTheta[p];
    const t = (intensity[p] - half) / (intensity[p] - intensity[q]);
    return twoTheta[p] + t * (twoTheta[q] - twoTheta[p]);
  };
  return { twoTheta: twoTheta[top], fwhm: Math.abs(cross(1) - cross(-1)) };
}

/**
 * The peak (local maximum) of `pattern` nearest `target` degrees and its full width at half maximum, taken as twice
 * the high-angle half width: on the low side a small particle's peak sits on the small-angle tail of its pattern.
 */
export function peakWidthNear(pattern: DebyePattern, target: number): { twoTheta: number; fwhm: number } {
  const { twoTheta, intensity } = pattern;
  let at = -1;
  for (let p = 1; p + 1 < intensity.length; p++) {
    if (intensity[p] > intensity[p - 1] && intensity[p] >= intensity[p + 1]) {
      if (at < 0 || Math.abs(twoTheta[p] - target) < Math.abs(twoTheta[at] - target)) at = p;
    }
  }
  if (at < 0) return { twoTheta: NaN, fwhm: NaN };
  const half = intensity[at] / 2;
  let p = at;
  while (p + 1 < intensity.length && intensity[p + 1] > half) p++;
  if (p + 1 >= intensity.length) return { twoTheta: twoTheta[at], fwhm: NaN };
  const t = (intensity[p] - half) / (intensity[p] - intensity[p + 1]);
  return { twoTheta: twoTheta[at], fwhm: 2 * (twoTheta[p] + t * (twoTheta[p + 1] - twoTheta[p]) - twoTheta[at]) };
}

/** A particle's Debye pattern beside its crystal's powder pattern on one 2θ grid, each scaled to 100. */
export interface ParticleDiffraction {
  twoTheta: Float64Array;
  particle: Float64Array;
  bulk: Float64Array;
  /** The bulk's strongest peak and the particle's peak nearest it: position and full width at half maximum, degrees. */
  particlePeak: { twoTheta: number; fwhm: number };
  bulkPeak: { twoTheta: number; fwhm: number };
}

/** Width of the bulk pattern's peaks, degrees: a sharp instrument, so the particle's own width shows. */
export const BULK_FWHM = 0.1;

export function particleVersusBulk(
  symbols: readonly string[],
  positions: Float64Array,
  crystal: Structure,
  o: { lambda: number; twoTheta: [number, number]; step: number },
): ParticleDiffraction {
  const particle = debyePattern(symbols, positions, { ...o, binWidth: 0.01 });
  const bulk = broadenedProfile(xrdPattern(crystal, o.lambda, o.twoTheta).peaks, { range: o.twoTheta, step: o.step, fwhm: BULK_FWHM });
  let max = 0;
  for (const v of bulk) max = Math.max(max, v);
  if (max > 0) for (let p = 0; p < bulk.length; p++) bulk[p] = (bulk[p] / max) * 100;
  const bulkPeak = strongestPeakWidth({ twoTheta: particle.twoTheta, intensity: bulk });
  return {
    twoTheta: particle.twoTheta,
    particle: particle.intensity,
    bulk,
    particlePeak: peakWidthNear(particle, bulkPeak.twoTheta),
    bulkPeak,
  };
}
