import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeOutcomes, parseOutcomesCsv, precheckProof } from '../../src/core/tasks/onng/analytics.ts';
import { ONNG_FIXTURES, readFixtureExpected } from '../onng-fixtures.ts';

// The synthetic outcomes table written for this project (tests/reference/onng/README.md); its summary_by_model_lambda.json
// is SciPy's (scripts/onng-fixture-scipy.py). The published O-NNG outcomes are checked by `npm run test:reference`.
const DERIVED = join(ONNG_FIXTURES, 'derived');

interface GoldenTests {
  anova_acc_scipy: { F: number; p: number };
  anova_time_scipy: { F: number; p: number };
  linreg_acc_vs_lambda: { p: number };
}
type GoldenLevel = { lam: number; n_runs_verified: number; acc_mean: number; acc_se: number; time_mean_verified_runs: number };

describe('O-NNG analytics on the fixture outcomes', () => {
  const rows = parseOutcomesCsv(readFileSync(join(DERIVED, 'per_problem_outcomes.csv'), 'utf8'));
  const golden = JSON.parse(readFileSync(join(DERIVED, 'summary_by_model_lambda.json'), 'utf8')) as Record<
    string,
    Record<string, GoldenLevel> & { _tests: GoldenTests }
  >;
  const summaries = analyzeOutcomes(rows);

  it('reads 648 rows for 3 models, and gives the stored summary exactly', () => {
    expect(rows.length).toBe(3 * 6 * 3 * 12);
    expect(summaries.map((s) => s.model).sort()).toEqual(Object.keys(golden).sort());
    expect(JSON.parse(JSON.stringify(summaries))).toEqual(readFixtureExpected('outcomes_summary.json'));
  });

  // F and p are compared with scipy.stats.f_oneway values stored in the golden (_tests.*_scipy), 1e-9 relative.
  for (const model of ['atlas-7b', 'birch-chat', 'cedar-prover']) {
    it(`${model}: ANOVA F and p equal scipy's to 1e-9, per-level mean ± SE equal the golden`, () => {
      const s = summaries.find((m) => m.model === model)!;
      const t = golden[model]._tests;
      const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);
      expect(rel(s.anova_accuracy.F, t.anova_acc_scipy.F)).toBeLessThan(1e-9);
      expect(rel(s.anova_accuracy.p, t.anova_acc_scipy.p)).toBeLessThan(1e-9);
      expect(rel(s.anova_time.F, t.anova_time_scipy.F)).toBeLessThan(1e-9);
      expect(rel(s.anova_time.p, t.anova_time_scipy.p)).toBeLessThan(1e-9);
      expect(rel(s.trend_accuracy.p, t.linreg_acc_vs_lambda.p)).toBeLessThan(1e-9);
      const levels = Object.entries(golden[model])
        .filter(([k]) => k !== '_tests')
        .map(([, v]) => v as GoldenLevel);
      for (const g of levels) {
        const l = s.levels.find((x) => Math.abs(x.lambda - g.lam) < 1e-9)!;
        expect(l.runs).toBe(g.n_runs_verified);
        expect(l.accuracy_mean * 100).toBeCloseTo(g.acc_mean, 10);
        expect(l.accuracy_se * 100).toBeCloseTo(g.acc_se, 10);
        expect(l.time_mean).toBeCloseTo(g.time_mean_verified_runs, 10);
      }
    });
  }

  it('reports the unverified cedar-prover run at λ = 1 (run 2) and leaves it out', () => {
    const s = summaries.find((m) => m.model === 'cedar-prover')!;
    expect(s.unverified_runs).toEqual([{ lambda: 1, run: 2 }]);
    expect(s.anova_accuracy.df_within).toBe(6 * 3 - 1 - 6); // 17 verified runs in 6 groups
    expect(s.levels.at(-1)!.runs).toBe(2);
  });

  it('names the line of a malformed row', () => {
    expect(() => parseOutcomesCsv('model,lam,run,problem_id,verified,correct,time_s\ngpt,abc,1,1,1,1,2\n')).toThrow(/line 2/);
    expect(() => parseOutcomesCsv('model,run\n')).toThrow(/lam/);
  });
});

describe('static proof pre-checks', () => {
  it('flags sorry, admit, simp and tactics outside the allowed list; brackets spanning lines are terms', () => {
    const r = precheckProof(
      '  induction n with\n  | zero => simp\n  | succ d ih =>\n    rw [add_succ,\n      ih]\n    omega\n    admit -- sorry in a comment',
    );
    expect(r).toEqual({ containsSorry: false, containsAdmit: true, usesSimp: true, disallowedTactics: ['simp', 'omega', 'admit'] });
    expect(precheckProof('  rw [add_zero]\n  sorry')).toEqual({
      containsSorry: true,
      containsAdmit: false,
      usesSimp: false,
      disallowedTactics: ['sorry'],
    });
    expect(precheckProof('  intro h\n  exact h').disallowedTactics).toEqual([]);
  });
});
