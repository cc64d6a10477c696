/** `structlab onng` end to end: real processes, exit codes, JSON on stdout, files byte for byte. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED, structlab } from '../shared.ts';

// Upstream O-NNG data (unlicensed) is read in place from the shared goldens, never copied into the project.
const ONNG = join(SHARED, 'golden', 'onng');
const ORIGINAL = join(ONNG, 'dataset', 'original');


describe('structlab onng', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'structlab-onng-'));

  it('obfuscate --level 2 --out DIR prints the upstream mapping and writes the four files byte for byte', () => {
    const out = join(tmp, 'set2');
    const r = structlab(['onng', 'obfuscate', '--level', '2', '--source', ORIGINAL, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect([json.level, json.lambda, json.seed]).toEqual([2, 0.4, 2]);
    expect(json.mapping).toEqual(JSON.parse(readFileSync(join(ONNG, 'dataset', 'obfuscated_2', 'name_mapping.json'), 'utf8')));
    for (const file of ['header_definitions.jsonl', 'theorems.jsonl', 'queries.jsonl', 'name_mapping.json']) {
      expect(readFileSync(join(out, file)).equals(readFileSync(join(ONNG, 'dataset', 'obfuscated_2', file))), file).toBe(true);
    }
  });

  it('obfuscate exits 2 with a sentence on a bad level or a missing source', () => {
    const bad = structlab(['onng', 'obfuscate', '--level', '7', '--source', ORIGINAL]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--level must be an integer from 1 to 5/);
    const noSource = structlab(['onng', 'obfuscate', '--level', '1'], { env: { STRUCTLAB_ONNG_DATASET: '', STRUCTLAB_SHARED: mkdtempSync(join(tmpdir(), 'no-shared-')) } });
    expect(noSource.code).toBe(2);
    expect(noSource.stderr).toMatch(/not bundled/);
  });

  it('obfuscate without --source reads the reference data in place (../shared) and gives the golden mapping', () => {
    const r = structlab(['onng', 'obfuscate', '--level', '2'], { env: { STRUCTLAB_ONNG_DATASET: '' } });
    expect(r.code, r.stderr).toBe(0);
    const golden = JSON.parse(readFileSync(join(ONNG, 'dataset', 'obfuscated_2', 'name_mapping.json'), 'utf8'));
    expect(JSON.parse(r.stdout).mapping).toEqual(golden);
  });

  it('analyze gives scipy-equal ANOVA per model (golden _tests.anova_*_scipy, 1e-9 relative)', () => {
    const r = structlab(['onng', 'analyze', join(ONNG, 'derived', 'per_problem_outcomes.csv')]);
    expect(r.code, r.stderr).toBe(0);
    const golden = JSON.parse(readFileSync(join(ONNG, 'derived', 'summary_by_model_lambda.json'), 'utf8'));
    const { models } = JSON.parse(r.stdout);
    expect(models).toHaveLength(5);
    for (const m of models) {
      const t = golden[m.model]._tests;
      expect(Math.abs(m.anova_accuracy.F / t.anova_acc_scipy.F - 1)).toBeLessThan(1e-9);
      expect(Math.abs(m.anova_time.p / t.anova_time_scipy.p - 1)).toBeLessThan(1e-9);
      expect(m.levels).toHaveLength(6);
      expect(Object.keys(m.levels[0])).toEqual(expect.arrayContaining(['lambda', 'runs', 'accuracy_mean', 'accuracy_se', 'time_mean']));
    }
    expect(r.stderr).toMatch(/deepseek-prover-v2 λ=1 run 1 has no verified problem/);
  });

  it('analyze exits 2 naming the line of a malformed table', () => {
    const file = join(tmp, 'bad.csv');
    writeFileSync(file, 'model,lam,run,problem_id,verified,correct,time_s\ngpt,0.0,1,1,1,1,oops\n');
    const r = structlab(['onng', 'analyze', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 2/);
  });

  it('verify exits 2 with a clear sentence when Lean is not on PATH', () => {
    const r = structlab(['onng', 'verify', join(tmp, 'x.lean')], { env: { PATH: '/nonexistent' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Lean 4 with Mathlib is unavailable/);
  });
});
