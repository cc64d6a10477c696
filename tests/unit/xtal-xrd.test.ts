/**
 * `structlab xrd` against pymatgen's XRDCalculator goldens with the rule of docs/crystallography.md §3: peaks of
 * both sides pooled and cut into clusters where consecutive 2θ differ by more than 1e-3°; in every cluster with
 * summed intensity ≥ 1 on either side, both sides have peaks, sums within 0.5 and the same (family, multiplicity)
 * multiset; λ within 1e-9.
 */
import { describe, expect, it } from 'vitest';
import { structlabInProcess } from '../cli-runner.ts';
import { type Json, corpusPath, readXtalGolden, xtalGoldenNames } from '../xtal-goldens.ts';

interface Peak {
  two_theta: number;
  intensity: number;
  hkls: { hkl: number[]; multiplicity: number }[];
}

/** Problems found by the cluster rule (empty when the patterns agree). */
function comparePatterns(ours: Peak[], golden: Peak[]): string[] {
  const pooled = [...ours.map((p) => ({ p, side: 0 })), ...golden.map((p) => ({ p, side: 1 }))].sort(
    (a, b) => a.p.two_theta - b.p.two_theta,
  );
  const problems: string[] = [];
  let start = 0;
  for (let i = 1; i <= pooled.length; i++) {
    if (i < pooled.length && pooled[i].p.two_theta - pooled[i - 1].p.two_theta <= 1e-3) continue;
    const cluster = pooled.slice(start, i);
    start = i;
    const sum = [0, 0];
    const fams: string[][] = [[], []];
    for (const { p, side } of cluster) {
      sum[side] += p.intensity;
      for (const f of p.hkls) fams[side].push(`${f.hkl.join(',')}x${f.multiplicity}`);
    }
    if (Math.max(sum[0], sum[1]) < 1) continue;
    const where = `cluster at ${cluster[0].p.two_theta.toFixed(4)}°`;
    if (!cluster.some((c) => c.side === 0) || !cluster.some((c) => c.side === 1)) problems.push(`${where}: one side has no peak`);
    else if (Math.abs(sum[0] - sum[1]) > 0.5) problems.push(`${where}: intensity ${sum[0]} vs ${sum[1]}`);
    else if (fams[0].sort().join(' ') !== fams[1].sort().join(' ')) problems.push(`${where}: families ${fams[0]} vs ${fams[1]}`);
  }
  return problems;
}

describe.each(xtalGoldenNames())('structlab xrd %s', (name) => {
  const golden = readXtalGolden(name);
  it('equals pymatgen XRDCalculator for every golden wavelength and range', async () => {
    expect(golden.xrd.length).toBeGreaterThan(0);
    for (const g of golden.xrd as Json[]) {
      const args = ['xrd', corpusPath(name), '--wavelength', g.wavelength ?? String(g.lambda), '--two-theta', g.two_theta_range.join(',')];
      const r = await structlabInProcess(args);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(Math.abs(out.lambda - g.lambda)).toBeLessThanOrEqual(1e-9);
      expect(out.wavelength).toBe(g.wavelength);
      expect(out.miller_bravais).toBe(g.miller_bravais);
      expect(comparePatterns(out.peaks, g.peaks), args.join(' ')).toEqual([]);
    }
  });
});

describe('structlab xrd refuses bad options', () => {
  it('exits 2 with one sentence', async () => {
    const file = corpusPath('pmg-LiFePO4.cif');
    for (const [args, message] of [
      [['--wavelength', 'XyKa'], /--wavelength must be one of/],
      [['--two-theta', '50,10'], /--two-theta must be two numbers/],
      [['--two-theta', '0,200'], /--two-theta must be two numbers/],
    ] as const) {
      const r = await structlabInProcess(['xrd', file, ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});
