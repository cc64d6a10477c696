/**
 * debyePattern (src/core/analysis/debye.ts) against an independent evaluation of the Debye equation (every pair's
 * exact distance, Math.sin, no histogram, no recurrence) on a small two-element cluster; the particle's strongest
 * peak sits at the bulk pattern's strongest peak (pymatgen's XRDCalculator, xrd.ts) and narrows as the particle
 * grows (Scherrer: width ∝ 1/size).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { debyePattern, particleVersusBulk, strongestPeakWidth } from '../../src/core/analysis/debye.ts';
import { scatteringFactor, scatteringKind, xrdPattern } from '../../src/core/analysis/xrd.ts';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { mulberry32 } from '../../src/core/math/random.ts';
import { carveParticle } from '../../src/core/tasks/c2np/carve.ts';

describe('debyePattern', () => {
  it('equals the Debye equation summed pair by pair on a 40-atom Sr/O cluster (5e-4 of the maximum)', () => {
    const rand = mulberry32(11);
    const symbols = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? 'Sr' : 'O'));
    const xyz = new Float64Array(120).map(() => 8 * rand());
    const lambda = 1.54184;
    const pattern = debyePattern(symbols, xyz, { lambda, twoTheta: [10, 80], step: 0.5, binWidth: 0.0002 });
    const direct = Array.from(pattern.twoTheta, (tt) => {
      const theta = ((tt / 2) * Math.PI) / 180;
      const s = Math.sin(theta) / lambda;
      const q = 4 * Math.PI * s;
      const f = symbols.map((el) => scatteringFactor(scatteringKind(el), s * s));
      let sum = 0;
      for (let i = 0; i < 40; i++)
        for (let j = 0; j < 40; j++) {
          const r = Math.hypot(xyz[3 * i] - xyz[3 * j], xyz[3 * i + 1] - xyz[3 * j + 1], xyz[3 * i + 2] - xyz[3 * j + 2]);
          sum += f[i] * f[j] * (r === 0 ? 1 : Math.sin(q * r) / (q * r));
        }
      const c2 = Math.cos(2 * theta);
      return (sum * (1 + c2 * c2)) / (Math.sin(theta) ** 2 * Math.cos(theta));
    });
    const max = Math.max(...direct);
    pattern.intensity.forEach((v, p) => expect(Math.abs(v - (direct[p] / max) * 100), `2θ ${pattern.twoTheta[p]}`).toBeLessThan(0.05));
  });

  it('SrTiO3 particles: the strongest peak near the bulk one, narrower for R = 16 Å than for R = 8 Å (about 1/R)', () => {
    const name = 'SrTiO3.cif';
    const r = parseStructureFile(readFileSync(join(import.meta.dirname, '..', '..', 'datasets', name), 'utf8'), name);
    if (!r.ok) throw new Error(r.error);
    const crystal = r.structures[0];
    const bulk = xrdPattern(crystal, 1.54184, [20, 60]);
    const bulkTop = bulk.peaks.reduce((a, b) => (b.intensity > a.intensity ? b : a));
    const widths = [8, 16].map((radius) => {
      const p = carveParticle(crystal, { radius });
      const xyz = Float64Array.from(p.positions.flat());
      return strongestPeakWidth(debyePattern(p.symbols, xyz, { lambda: 1.54184, twoTheta: [20, 60], step: 0.02 }));
    });
    // Broad peaks of a small particle sit a little low (the Lorentz factor and f(q) fall across them): the shift
    // shrinks as the particle grows.
    const shift = widths.map((w) => Math.abs(w.twoTheta - bulkTop.twoTheta));
    expect(shift[0]).toBeLessThan(1.5);
    expect(shift[1]).toBeLessThan(0.5);
    expect(shift[1]).toBeLessThan(shift[0]);
    const ratio = widths[0].fwhm / widths[1].fwhm;
    expect(ratio).toBeGreaterThan(1.6);
    expect(ratio).toBeLessThan(2.5);
  });

  it('particleVersusBulk over 10–80°: the particle’s peak nearest the bulk’s strongest, measured past the small-angle tail', () => {
    const name = 'SrTiO3.cif';
    const r = parseStructureFile(readFileSync(join(import.meta.dirname, '..', '..', 'datasets', name), 'utf8'), name);
    if (!r.ok) throw new Error(r.error);
    const [small, large] = [8, 16].map((radius) => {
      const p = carveParticle(r.structures[0], { radius });
      return particleVersusBulk(p.symbols, Float64Array.from(p.positions.flat()), r.structures[0], {
        lambda: 1.54184,
        twoTheta: [10, 80],
        step: 0.05,
      });
    });
    // At R = 8 Å the small-angle tail is the highest point of the range; the width is the bulk peak's in the particle.
    expect(Math.abs(small.particlePeak.twoTheta - small.bulkPeak.twoTheta)).toBeLessThan(1.5);
    expect(small.particlePeak.fwhm / large.particlePeak.fwhm).toBeGreaterThan(1.6);
    expect(small.particlePeak.fwhm / large.particlePeak.fwhm).toBeLessThan(2.5);
    // The bulk's 0.1° Gaussian, sampled every 0.05°: its measured width within a grid step.
    expect(Math.abs(small.bulkPeak.fwhm - 0.1)).toBeLessThan(0.05);
  });

  it('refuses a bad range or wavelength with a sentence', () => {
    expect(() => debyePattern(['Sr'], new Float64Array(3), { lambda: 0, twoTheta: [10, 80], step: 0.1 })).toThrow(/λ > 0/);
    expect(() => debyePattern(['Sr'], new Float64Array(3), { lambda: 1.5, twoTheta: [80, 10], step: 0.1 })).toThrow(/2θ/);
  });
});
