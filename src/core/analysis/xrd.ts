/**
 * Powder X-ray diffraction exactly as pymatgen's XRDCalculator (pymatgen/analysis/diffraction/xrd.py and
 * core.py, materialsproject/pymatgen v2022.11.7; after De Graef & McHenry, Structure of Materials, ch. 11–12):
 * every reciprocal point in the sphere, Mott–Bethe scattering factors, Lorentz-polarisation, merging within
 * 1e-5° of 2θ, permutation families of hkl, scaled to 100. docs/crystallography.md §3 states each step.
 */
import { type Mat3, type Vec3, inverse, norm } from '../math/mat3.ts';
import { atan2, cos, exp, sin } from '../math/libm.ts';
import type { Lattice } from '../structure/lattice.ts';
import { type Structure, fracOf } from '../structure/structure.ts';
import { elementBySymbol } from '../structure/elements.ts';
import { ATOMIC_SCATTERING_PARAMS } from './xrd-scattering-params.ts';
import { checkLimit } from '../limits.ts';

/** An element's X-ray scattering: its Z and pymatgen's (a, b) coefficient pairs (atomic_scattering_params.json). */
export interface ScatteringKind {
  z: number;
  coeffs: readonly (readonly [number, number])[];
}

export function scatteringKind(symbol: string): ScatteringKind {
  const el = elementBySymbol(symbol);
  const coeffs = ATOMIC_SCATTERING_PARAMS.get(symbol);
  if (!el || !coeffs) throw new Error(`no X-ray scattering factor for the species "${symbol}"`);
  return { z: el.Z, coeffs };
}

/** pymatgen's atomic scattering factor at s² = (sin θ / λ)²: Z − 41.78214 s² Σ a exp(−b s²). */
export function scatteringFactor({ z, coeffs }: ScatteringKind, s2: number): number {
  let sum = 0;
  for (const [a, b] of coeffs) sum += a * exp(-b * s2);
  return z - 41.78214 * s2 * sum;
}

/** pymatgen's WAVELENGTHS table (xrd.py), Å. */
export const XRD_WAVELENGTHS: ReadonlyMap<string, number> = new Map([
  ['CuKa', 1.54184],
  ['CuKa2', 1.54439],
  ['CuKa1', 1.54056],
  ['CuKb1', 1.39222],
  ['MoKa', 0.71073],
  ['MoKa2', 0.71359],
  ['MoKa1', 0.7093],
  ['MoKb1', 0.63229],
  ['CrKa', 2.291],
  ['CrKa2', 2.29361],
  ['CrKa1', 2.2897],
  ['CrKb1', 2.08487],
  ['FeKa', 1.93735],
  ['FeKa2', 1.93998],
  ['FeKa1', 1.93604],
  ['FeKb1', 1.75661],
  ['CoKa', 1.79026],
  ['CoKa2', 1.79285],
  ['CoKa1', 1.78896],
  ['CoKb1', 1.63079],
  ['AgKa', 0.560885],
  ['AgKa2', 0.563813],
  ['AgKa1', 0.559421],
  ['AgKb1', 0.497082],
]);

export interface XrdFamily {
  hkl: number[];
  multiplicity: number;
}

export interface XrdPeak {
  twoTheta: number;
  intensity: number;
  dHkl: number;
  hkls: XrdFamily[];
}

export interface XrdPattern {
  lambda: number;
  twoThetaRange: [number, number];
  millerBravais: boolean;
  peaks: XrdPeak[];
}

const DEG = 180 / Math.PI;
const TWO_THETA_TOL = 1e-5;
const SCALED_INTENSITY_TOL = 1e-3;

/** pymatgen `Lattice.is_hexagonal(hex_angle_tol=5, hex_length_tol=0.01)`. */
export function isHexagonalLattice(lattice: Lattice): boolean {
  const lengths = lattice.lengths;
  const angles = lattice.angles;
  const right = [0, 1, 2].filter((i) => Math.abs(angles[i] - 90) < 5);
  const hex = [0, 1, 2].filter((i) => Math.abs(angles[i] - 60) < 5 || Math.abs(angles[i] - 120) < 5);
  return right.length === 2 && hex.length === 1 && Math.abs(lengths[right[0]] - lengths[right[1]]) < 0.01;
}

/** pymatgen `get_unique_families`: groups by sorted |indices|, each reported as its largest member (tuple order). */
function uniqueFamilies(hkls: number[][]): XrdFamily[] {
  const groups = new Map<string, number[][]>();
  for (const hkl of hkls) {
    const key = hkl
      .map((x) => Math.abs(x))
      .sort((a, b) => a - b)
      .join(',');
    const g = groups.get(key);
    if (g) g.push(hkl);
    else groups.set(key, [hkl]);
  }
  const tupleCompare = (a: number[], b: number[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return 0;
  };
  return [...groups.values()].map((members) => ({
    hkl: [...members].sort(tupleCompare)[members.length - 1],
    multiplicity: members.length,
  }));
}

/** The pattern of `s` (periodic) at wavelength `lambda` Å over 2θ ∈ [lo, hi] degrees. */
export function xrdPattern(s: Structure, lambda: number, twoThetaRange: [number, number] = [0, 90]): XrdPattern {
  const lattice = s.lattice;
  if (!lattice) throw new Error('powder diffraction needs a periodic structure');
  const [lo, hi] = twoThetaRange;
  const gOf = (t: number) => (2 * sin(t / 2 / DEG)) / lambda;
  const gMin = lo > 0 ? gOf(lo) : 0;
  const gMax = gOf(hi);

  // Reciprocal basis without 2π: rows of inv(L)ᵀ.
  const inv = inverse(lattice.matrix);
  const recip: Mat3 = [0, 1, 2].map((i) => [inv[0][i], inv[1][i], inv[2][i]]) as Mat3;
  // |h| ≤ g_max · |a| (h = G · a); pymatgen's sphere search adds 0.01 to the bound and keeps |G| ≤ r + 1e-8.
  const bound = lattice.lengths.map((len) => Math.ceil(gMax * len + 0.01)) as Vec3;
  const points: { h: number; k: number; l: number; g: number }[] = [];
  const estimate = (2 * bound[0] + 1) * (2 * bound[1] + 1) * (2 * bound[2] + 1);
  checkLimit('xrdTerms', 'the powder pattern', estimate * s.sites.length, 'site-reflection terms');
  for (let h = -bound[0]; h <= bound[0]; h++)
    for (let k = -bound[1]; k <= bound[1]; k++)
      for (let l = -bound[2]; l <= bound[2]; l++) {
        if (h === 0 && k === 0 && l === 0) continue;
        const gv: Vec3 = [0, 1, 2].map((x) => h * recip[0][x] + k * recip[1][x] + l * recip[2][x]) as Vec3;
        const g = norm(gv);
        if (g > gMax + 1e-8 || (gMin > 0 && g < gMin)) continue;
        points.push({ h, k, l, g });
      }
  points.sort((a, b) => a.g - b.g || b.h - a.h || b.k - a.k || b.l - a.l);

  // Per site: the occupancy-weighted (Z, coefficients) of its species; phase tables e^{2πi n x} per axis.
  const elementKinds: ScatteringKind[] = [];
  const kindOf = new Map<string, number>();
  const siteTerms: { kind: number; occupancy: number }[][] = s.sites.map((site) =>
    Object.entries(site.species).map(([symbol, occupancy]) => {
      let kind = kindOf.get(symbol);
      if (kind === undefined) {
        kind = elementKinds.length;
        elementKinds.push(scatteringKind(symbol));
        kindOf.set(symbol, kind);
      }
      return { kind, occupancy };
    }),
  );
  const n = s.sites.length;
  const tables = [0, 1, 2].map((axis) => {
    const width = 2 * bound[axis] + 1;
    const re = new Float64Array(n * width),
      im = new Float64Array(n * width);
    s.sites.forEach((site, i) => {
      const x = fracOf(site, lattice)[axis];
      for (let m = -bound[axis]; m <= bound[axis]; m++) {
        const phase = 2 * Math.PI * m * x;
        re[i * width + m + bound[axis]] = cos(phase);
        im[i * width + m + bound[axis]] = sin(phase);
      }
    });
    return { re, im, width, offset: bound[axis] };
  });

  const f = new Float64Array(elementKinds.length);
  const hex = isHexagonalLattice(lattice);
  const recorded: { twoTheta: number; sum: number; hkls: number[][]; d: number }[] = [];
  for (const { h, k, l, g } of points) {
    const sinTheta = (lambda * g) / 2;
    const cosTheta = Math.sqrt(1 - sinTheta * sinTheta);
    const theta = atan2(sinTheta, cosTheta);
    const s2 = (g / 2) * (g / 2);
    elementKinds.forEach((kind, e) => {
      f[e] = scatteringFactor(kind, s2);
    });
    let re = 0,
      im = 0;
    const [tx, ty, tz] = tables;
    for (let i = 0; i < n; i++) {
      let w = 0;
      for (const t of siteTerms[i]) w += f[t.kind] * t.occupancy;
      const ix = i * tx.width + h + tx.offset,
        iy = i * ty.width + k + ty.offset,
        iz = i * tz.width + l + tz.offset;
      const xyRe = tx.re[ix] * ty.re[iy] - tx.im[ix] * ty.im[iy];
      const xyIm = tx.re[ix] * ty.im[iy] + tx.im[ix] * ty.re[iy];
      re += w * (xyRe * tz.re[iz] - xyIm * tz.im[iz]);
      im += w * (xyRe * tz.im[iz] + xyIm * tz.re[iz]);
    }
    const cos2Theta = 1 - 2 * sinTheta * sinTheta;
    const lorentz = (1 + cos2Theta * cos2Theta) / (sinTheta * sinTheta * cosTheta);
    const intensity = (re * re + im * im) * lorentz;
    const twoTheta = 2 * theta * DEG;
    const hkl = hex ? [h, k, -h - k, l] : [h, k, l];
    // Reflections come in ascending 2θ, so only the last few recorded peaks can be within the tolerance;
    // the first of them in recording order takes the reflection, as in pymatgen.
    let hit: (typeof recorded)[number] | undefined;
    for (let j = recorded.length - 1; j >= 0 && recorded[j].twoTheta > twoTheta - 2 * TWO_THETA_TOL; j--) {
      if (Math.abs(recorded[j].twoTheta - twoTheta) < TWO_THETA_TOL) hit = recorded[j];
    }
    if (hit) {
      hit.sum += intensity;
      hit.hkls.push(hkl);
    } else recorded.push({ twoTheta, sum: intensity, hkls: [hkl], d: 1 / g });
  }
  let max = 0;
  for (const p of recorded) max = Math.max(max, p.sum);
  const kept = recorded.filter((p) => max > 0 && (p.sum / max) * 100 > SCALED_INTENSITY_TOL).sort((a, b) => a.twoTheta - b.twoTheta);
  return {
    lambda,
    twoThetaRange,
    millerBravais: hex,
    peaks: kept.map((p) => ({ twoTheta: p.twoTheta, intensity: (p.sum / max) * 100, dHkl: p.d, hkls: uniqueFamilies(p.hkls) })),
  };
}
