/**
 * Magpie composition features (src/core/analysis/magpie) against matminer v0.7.3's ElementProperty.from_preset('magpie'),
 * and CDVAE's coverage / diversity metrics (src/core/tasks/generations/coverage.ts) against CDVAE's own compute_cov and
 * get_fp_pdist (txie-93/cdvae scripts/eval_utils.py) run on the same fingerprints: golden/generations/coverage.json,
 * made by scripts/make-coverage-goldens.py with Debian's numpy 1.24 / scipy 1.10.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { magpieFeatureLabels, magpieFeatures } from '../../src/core/analysis/magpie/magpie.ts';
import {
  COVERAGE_CUTOFFS,
  type CoverageCutoffs,
  coverageMetrics,
  meanPairwiseDistance,
  scaleCompositionFingerprint,
} from '../../src/core/tasks/generations/coverage.ts';

type Vec = (number | null)[];
interface MagpieCase {
  name: string;
  composition: [string, number][];
  features: Vec;
}
interface Result {
  cutoffs: string;
  struc_cutoff: number;
  comp_cutoff: number;
  metrics: Record<string, number | null>;
  distances: Record<string, Vec>;
}
interface SyntheticCase {
  name: string;
  pred_struct: (Vec | null)[];
  pred_comp: (Vec | null)[];
  truth_struct: Vec[];
  truth_comp: Vec[];
  results: Result[];
  struct_div: number | null;
  comp_div: number | null;
}
interface RealRow {
  id: string;
  composition: [string, number][];
  comp_fp: Vec;
  struct_fp: Vec | null;
  error?: string;
  valid?: boolean;
}
const golden = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'generations', 'coverage.json'), 'utf8')) as {
  labels: string[];
  magpie: MagpieCase[];
  synthetic: SyntheticCase[];
  real: {
    n_pred: number;
    n_truth: number;
    n_valid: number;
    coverage: Record<string, Omit<Result, 'cutoffs'>>;
    comp_div: number;
    struct_div: number;
    pred: RealRow[];
    truth: RealRow[];
  };
};

/** JSON null is NaN (the golden writes NaN as null). */
const vec = (v: Vec): number[] => v.map((x) => x ?? NaN);
const num = (x: number | null): number => x ?? NaN;

/** |a − e| ≤ tol · max(1, |e|) (relative above 1, absolute below); NaN only equals NaN. */
function within(actual: number, expected: number, tol: number): boolean {
  if (Number.isNaN(expected) || Number.isNaN(actual)) return Number.isNaN(expected) && Number.isNaN(actual);
  return Math.abs(actual - expected) <= tol * Math.max(1, Math.abs(expected));
}

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tol: number, what: string): void {
  expect(actual.length, what).toBe(expected.length);
  for (let k = 0; k < expected.length; k++) {
    if (!within(actual[k], expected[k], tol)) expect.fail(`${what}[${k}]: ${actual[k]} vs ${expected[k]} (tolerance ${tol})`);
  }
}

// Magpie: 1e-9, relative or absolute. The arithmetic is numpy's (amount weights, pairwise sums, the same order), so
// the numbers agree to the last bit or within an ulp or two; 1e-9 leaves room for that and nothing more.
const MAGPIE_TOL = 1e-9;
// Coverage and diversity: 1e-12 relative or absolute from the golden fingerprints (sums in scipy's order, numpy's
// blocked pairwise means).
const COVERAGE_TOL = 1e-12;

describe('Magpie features as matminer v0.7.3', () => {
  it('labels in matminer order', () => {
    expect(magpieFeatureLabels()).toEqual(golden.labels);
    expect(golden.labels).toHaveLength(132);
  });

  it(`${golden.magpie.length} compositions: MP-20 formulas and edge cases`, () => {
    expect(golden.magpie.length).toBeGreaterThan(300);
    for (const c of golden.magpie) expectClose(magpieFeatures(new Map(c.composition)), vec(c.features), MAGPIE_TOL, c.name);
  });

  it('the compositions of the 479 de novo structures (predictions and truths)', () => {
    const rows = [...golden.real.pred, ...golden.real.truth];
    expect(rows).toHaveLength(479);
    for (const r of rows) expectClose(magpieFeatures(new Map(r.composition)), vec(r.comp_fp), MAGPIE_TOL, r.id);
  });

  it('NaN where a property is missing; ties of the mode as np.isclose', () => {
    const he = magpieFeatures(new Map([['He', 1]]));
    const label = (l: string) => golden.labels.indexOf(l);
    expect(he[label('MagpieData mean MeltingT')]).toBeNaN();
    expect(he[label('MagpieData mean Number')]).toBe(2);
    // 100000 O and 99999 Li are "equally frequent" (|Δ| ≤ 1e-8 + 1e-5 · 100000): the smaller Z wins; 10000 / 9999 not.
    expect(
      magpieFeatures(
        new Map([
          ['O', 100000],
          ['Li', 99999],
        ]),
      )[label('MagpieData mode Number')],
    ).toBe(3);
    expect(
      magpieFeatures(
        new Map([
          ['O', 10000],
          ['Li', 9999],
        ]),
      )[label('MagpieData mode Number')],
    ).toBe(8);
  });

  it('refuses unknown elements, bad amounts and empty compositions in one sentence', () => {
    expect(() => magpieFeatures(new Map([['Xx', 1]]))).toThrow(/unknown element "Xx"/);
    expect(() => magpieFeatures(new Map([['constructor', 1]]))).toThrow(/unknown element/);
    expect(() => magpieFeatures(new Map([['O', -1]]))).toThrow(/amount of O/);
    expect(() => magpieFeatures(new Map([['O', NaN]]))).toThrow(/amount of O/);
    expect(() => magpieFeatures(new Map())).toThrow(/no atoms/);
    expect(() => magpieFeatures(new Map([['O', 0]]))).toThrow(/no atoms/);
  });
});

function checkResult(got: ReturnType<typeof coverageMetrics>, want: Omit<Result, 'cutoffs'>, what: string, kept?: number[]): void {
  const m = got.metrics as unknown as Record<string, number>;
  for (const key of ['cov_recall', 'cov_precision', 'amsd_recall', 'amsd_precision', 'amcd_recall', 'amcd_precision']) {
    if (!within(m[key], num(want.metrics[key]), COVERAGE_TOL)) expect.fail(`${what} ${key}: ${m[key]} vs ${want.metrics[key]}`);
  }
  expect(got.metrics.struc_cutoff).toBe(want.struc_cutoff);
  expect(got.metrics.comp_cutoff).toBe(want.comp_cutoff);
  if (kept) expect(got.distances.kept, what).toEqual(kept);
  if (want.distances) {
    for (const key of ['struc_recall_dist', 'struc_precision_dist', 'comp_recall_dist', 'comp_precision_dist'] as const) {
      expectClose(got.distances[key], vec(want.distances[key]), COVERAGE_TOL, `${what} ${key}`);
    }
  }
}

describe("CDVAE's coverage and diversity metrics", () => {
  it('cutoffs as COV_Cutoffs', () => {
    const real = golden.real.coverage;
    for (const [key, c] of Object.entries(COVERAGE_CUTOFFS) as [string, CoverageCutoffs][]) {
      expect({ struc: real[key].struc_cutoff, comp: real[key].comp_cutoff }, key).toEqual(c);
    }
    expect(Object.keys(COVERAGE_CUTOFFS).sort()).toEqual(Object.keys(real).sort());
  });

  for (const c of golden.synthetic) {
    it(`synthetic: ${c.name}`, () => {
      const predStruct = c.pred_struct.map((v) => (v ? vec(v) : null)),
        predComp = c.pred_comp.map((v) => (v ? vec(v) : null));
      const truthStruct = c.truth_struct.map(vec),
        truthComp = c.truth_comp.map(vec);
      const kept = predStruct.flatMap((s, i) => (s && predComp[i] ? [i] : []));
      for (const r of c.results) {
        const got = coverageMetrics(predStruct, predComp, truthStruct, truthComp, { struc: r.struc_cutoff, comp: r.comp_cutoff });
        checkResult(got, r, `${c.name} ${r.cutoffs}`, kept);
      }
      const structDiv = meanPairwiseDistance(kept.map((i) => predStruct[i]!));
      const compDiv = meanPairwiseDistance(kept.map((i) => scaleCompositionFingerprint(predComp[i]!)));
      expect(within(structDiv, num(c.struct_div), COVERAGE_TOL), `struct_div ${structDiv} vs ${c.struct_div}`).toBe(true);
      expect(within(compDiv, num(c.comp_div), COVERAGE_TOL), `comp_div ${compDiv} vs ${c.comp_div}`).toBe(true);
    });
  }

  it('the de novo set (329 predictions, 150 truths) from the golden fingerprints, every cutoff', () => {
    const { pred, truth } = golden.real;
    expect([pred.length, truth.length]).toEqual([golden.real.n_pred, golden.real.n_truth]);
    // CDVAE sets both fingerprints to None when the structure fingerprint raises.
    const predStruct = pred.map((p) => (p.struct_fp ? vec(p.struct_fp) : null)),
      predComp = pred.map((p) => (p.struct_fp ? vec(p.comp_fp) : null));
    const truthStruct = truth.map((t) => vec(t.struct_fp!)),
      truthComp = truth.map((t) => vec(t.comp_fp));
    for (const [key, want] of Object.entries(golden.real.coverage)) {
      const got = coverageMetrics(predStruct, predComp, truthStruct, truthComp, COVERAGE_CUTOFFS[key as keyof typeof COVERAGE_CUTOFFS]);
      checkResult(got, want, key);
    }
    const valid = pred.filter((p) => p.valid);
    expect(valid).toHaveLength(golden.real.n_valid);
    const compDiv = meanPairwiseDistance(valid.map((p) => scaleCompositionFingerprint(vec(p.comp_fp))));
    const structDiv = meanPairwiseDistance(valid.map((p) => vec(p.struct_fp!)));
    expect(within(compDiv, golden.real.comp_div, COVERAGE_TOL), `comp_div ${compDiv} vs ${golden.real.comp_div}`).toBe(true);
    expect(within(structDiv, golden.real.struct_div, COVERAGE_TOL), `struct_div ${structDiv} vs ${golden.real.struct_div}`).toBe(true);
  });

  it('scales with NaN → 0 and refuses what upstream cannot compute', () => {
    const fp = new Array<number>(132).fill(NaN);
    expect(Array.from(scaleCompositionFingerprint(fp)).every((x) => x === 0)).toBe(true);
    expect(() => scaleCompositionFingerprint([1, 2])).toThrow(/132/);
    const s = [[0, 1]],
      c = [new Array<number>(132).fill(1)];
    expect(() => coverageMetrics([null], [c[0]], s, c, COVERAGE_CUTOFFS.mp20)).toThrow(/no prediction/);
    expect(() => coverageMetrics(s, [], s, c, COVERAGE_CUTOFFS.mp20)).toThrow(/1 structure but 0/);
    expect(() => coverageMetrics(s, c, [], [], COVERAGE_CUTOFFS.mp20)).toThrow(/no truth/);
    expect(() => coverageMetrics(s, c, [[0, 1, 2]], c, COVERAGE_CUTOFFS.mp20)).toThrow(/different lengths/);
    expect(meanPairwiseDistance([[1, 2]])).toBeNaN();
    expect(
      meanPairwiseDistance([
        [0, 0],
        [3, 4],
      ]),
    ).toBe(5);
  });
});
