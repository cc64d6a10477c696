/**
 * `structlab xrd-compare` against the 20 golden prediction/truth pairs: cosine, Pearson and WCC within 1e-5
 * (docs/crystallography.md §4).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { structlabInProcess } from '../cli-runner.ts';
import { type Json, XTAL_GOLDEN, corpusPath } from '../xtal-goldens.ts';

const golden = JSON.parse(readFileSync(join(XTAL_GOLDEN, 'xrd_pairs', 'pairs.json'), 'utf8'));

describe('structlab xrd-compare', () => {
  it('has the 20 golden pairs', () => {
    expect(golden.pairs.length).toBe(20);
  });

  const cases: [string, Json][] = golden.pairs.map((p: Json) => [p.truth, p]);
  it.each(cases)('scores %s against its perturbed copy as the golden', async (_name, pair) => {
    const pred = join(XTAL_GOLDEN, 'xrd_pairs', pair.pred);
    const r = await structlabInProcess(['xrd-compare', pred, corpusPath(pair.truth)]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    const g = pair.similarity;
    expect([out.wavelength, out.fwhm, out.step, out.range, out.wcc_width, out.n_points]).toEqual([
      g.wavelength,
      g.fwhm,
      g.step,
      g.range,
      g.wcc_width,
      g.n_points,
    ]);
    for (const key of ['cosine', 'pearson', 'wcc']) expect(Math.abs(out[key] - g[key]), key).toBeLessThanOrEqual(1e-5);
  });

  it('gives 1 for a pattern against itself and refuses a bad grid', async () => {
    const file = corpusPath('pmg-LiFePO4.cif');
    const same = JSON.parse((await structlabInProcess(['xrd-compare', file, file])).stdout);
    for (const key of ['cosine', 'pearson', 'wcc']) expect(same[key]).toBeCloseTo(1, 12);
    const bad = await structlabInProcess(['xrd-compare', file, file, '--range', '90,5']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--range must be two numbers/);
  });
});
