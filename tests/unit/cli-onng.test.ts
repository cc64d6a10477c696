/** `structlab onng` end to end: real processes, exit codes, JSON on stdout, files byte for byte. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { ONNG_FIXTURES } from '../onng-fixtures.ts';
import { structlab, structlabInProcess } from '../cli-runner.ts';

// The O-NNG fixtures written for this project (tests/reference/onng/README.md): obfuscated_K holds the port's stored
// outputs, derived/summary_by_model_lambda.json SciPy's statistics. The published files: `npm run test:reference`.
const ONNG = ONNG_FIXTURES;
const ORIGINAL = join(ONNG, 'dataset', 'original');

describe('structlab onng', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'structlab-onng-'));

  it('obfuscate --level 2 --out DIR prints the stored mapping and writes the four files byte for byte', async () => {
    const out = join(tmp, 'set2');
    const r = await structlabInProcess(['onng', 'obfuscate', '--level', '2', '--source', ORIGINAL, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect([json.level, json.lambda, json.seed]).toEqual([2, 0.4, 2]);
    expect(json.mapping).toEqual(JSON.parse(readFileSync(join(ONNG, 'dataset', 'obfuscated_2', 'name_mapping.json'), 'utf8')));
    for (const file of ['header_definitions.jsonl', 'theorems.jsonl', 'queries.jsonl', 'name_mapping.json']) {
      expect(readFileSync(join(out, file)).equals(readFileSync(join(ONNG, 'dataset', 'obfuscated_2', file))), file).toBe(true);
    }
  });

  it('obfuscate exits 2 with a sentence on a bad level or a missing source', async () => {
    const bad = await structlabInProcess(['onng', 'obfuscate', '--level', '7', '--source', ORIGINAL]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--level must be an integer from 1 to 5/);
    // No --source and no $STRUCTLAB_ONNG_DATASET: nothing else is searched, whatever lies beside the checkout.
    const noSource = structlab(['onng', 'obfuscate', '--level', '1'], { env: { STRUCTLAB_ONNG_DATASET: '' } });
    expect(noSource.code).toBe(2);
    expect(noSource.stderr).toMatch(/not bundled.*--source DIR.*STRUCTLAB_ONNG_DATASET/);
    const help = await structlabInProcess(['onng', '--help']);
    expect(help.stdout).toMatch(/--source DIR,\s+or else \$STRUCTLAB_ONNG_DATASET/);
  });

  it('obfuscate without --source reads $STRUCTLAB_ONNG_DATASET and gives the stored mapping', () => {
    const r = structlab(['onng', 'obfuscate', '--level', '2'], { env: { STRUCTLAB_ONNG_DATASET: ORIGINAL } });
    expect(r.code, r.stderr).toBe(0);
    const golden = JSON.parse(readFileSync(join(ONNG, 'dataset', 'obfuscated_2', 'name_mapping.json'), 'utf8'));
    expect(JSON.parse(r.stdout).mapping).toEqual(golden);
  });

  it('analyze gives scipy-equal ANOVA per model (summary_by_model_lambda.json _tests.anova_*_scipy, 1e-9 relative)', async () => {
    const r = await structlabInProcess(['onng', 'analyze', join(ONNG, 'derived', 'per_problem_outcomes.csv')]);
    expect(r.code, r.stderr).toBe(0);
    const golden = JSON.parse(readFileSync(join(ONNG, 'derived', 'summary_by_model_lambda.json'), 'utf8'));
    const { models } = JSON.parse(r.stdout);
    expect(models).toHaveLength(3);
    for (const m of models) {
      const t = golden[m.model]._tests;
      expect(Math.abs(m.anova_accuracy.F / t.anova_acc_scipy.F - 1)).toBeLessThan(1e-9);
      expect(Math.abs(m.anova_time.p / t.anova_time_scipy.p - 1)).toBeLessThan(1e-9);
      expect(m.levels).toHaveLength(6);
      expect(Object.keys(m.levels[0])).toEqual(expect.arrayContaining(['lambda', 'runs', 'accuracy_mean', 'accuracy_se', 'time_mean']));
    }
    expect(r.stderr).toMatch(/cedar-prover λ=1 run 2 has no verified problem/);
  });

  it('analyze exits 2 naming the line of a malformed table', async () => {
    const file = join(tmp, 'bad.csv');
    writeFileSync(file, 'model,lam,run,problem_id,verified,correct,time_s\ngpt,0.0,1,1,1,1,oops\n');
    const r = await structlabInProcess(['onng', 'analyze', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 2/);
  });

  it('verify exits 2 with a clear sentence when Lean is not on PATH', () => {
    const r = structlab(['onng', 'verify', join(tmp, 'x.lean')], { env: { PATH: '/nonexistent' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Lean 4 with Mathlib is unavailable/);
  });
});

describe('structlab onng variants / deobfuscate', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'structlab-onng-variants-'));
  const FEM = join(REFERENCE, 'golden', 'fembench');
  const CASES = join(REFERENCE, 'golden', 'atomworld', 'generated_cases.jsonl');

  it('variants fem writes tasks.jsonl + mapping.json, and deobfuscate restores a renamed answer exactly', async () => {
    const out = join(tmp, 'fem');
    const r = await structlabInProcess(['onng', 'variants', 'fem', FEM, '--level', '3', '--out', out, '--python-safe']);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect([json.benchmark, json.level, json.lambda, json.python_safe, json.count]).toEqual(['fem-bench', 3, 0.6, true, 33]);
    const rows = readFileSync(join(out, 'tasks.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(33);
    const mapping = JSON.parse(readFileSync(join(out, 'mapping.json'), 'utf8'));
    expect(mapping.forward).toEqual(json.mapping);
    for (const name of Object.values(mapping.forward) as string[]) expect(name).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
    const mesh = rows.find((row) => row.signature.name === mapping.forward.FEM_1D_uniform_mesh_CC0_H0_T0);
    expect(mesh.signature.params.map((p: { name: string }) => p.name)).toEqual(
      ['x_min', 'x_max', 'num_elements'].map((n) => mapping.forward[n]),
    );
    const answer = join(tmp, 'answer.py');
    const original =
      'def FEM_1D_uniform_mesh_CC0_H0_T0(x_min, x_max, num_elements):\n    return np.linspace(x_min, x_max, num_elements + 1)\n';
    const renamed = original.replace(/\b(FEM_1D_uniform_mesh_CC0_H0_T0|x_min|x_max|num_elements)\b/g, (m) => mapping.forward[m]);
    expect(renamed).not.toContain('num_elements');
    writeFileSync(answer, renamed);
    const d = await structlabInProcess(['onng', 'deobfuscate', '--mapping', join(out, 'mapping.json'), answer]);
    expect(d.code, d.stderr).toBe(0);
    expect(d.stdout).toBe(original);
  });

  it('variants atomworld renames the prompts, keeps the CIFs and adds an obfuscation field', async () => {
    const out = join(tmp, 'aw');
    const r = await structlabInProcess(['onng', 'variants', 'atomworld', CASES, '--level', '4', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const originals = readFileSync(CASES, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const rows = readFileSync(join(out, 'cases.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(originals.length);
    const { forward } = JSON.parse(readFileSync(join(out, 'mapping.json'), 'utf8'));
    rows.forEach((row, i) => {
      expect(row.before_cif).toBe(originals[i].before_cif);
      expect(row.obfuscation.level).toBe(4);
      expect(row.prompt).not.toBe(originals[i].prompt);
    });
    expect(rows[0].prompt.startsWith(forward.Change)).toBe(true);
  });

  it('exits 2 with a sentence on a bad benchmark, input, level or mapping', async () => {
    const bench = await structlabInProcess(['onng', 'variants', 'gaussian', CASES, '--level', '1', '--out', tmp]);
    expect(bench.code).toBe(2);
    expect(bench.stderr).toMatch(/unknown benchmark "gaussian"/);
    const bad = join(tmp, 'bad.jsonl');
    writeFileSync(bad, '{"prompt": "Move the atom"}\n{"action": "move"}\n');
    const line = await structlabInProcess(['onng', 'variants', 'atomworld', bad, '--level', '1', '--out', join(tmp, 'x')]);
    expect(line.code).toBe(2);
    expect(line.stderr).toMatch(/bad\.jsonl: line 2 is not an AtomWorld case/);
    const level = await structlabInProcess(['onng', 'variants', 'fem', FEM, '--level', '0', '--out', join(tmp, 'y')]);
    expect(level.code).toBe(2);
    expect(level.stderr).toMatch(/--level must be an integer from 1 to 5/);
    const notTask = await structlabInProcess(['onng', 'variants', 'fem', bad, '--level', '1', '--out', join(tmp, 'z')]);
    expect(notTask.code).toBe(2);
    expect(notTask.stderr).toMatch(/bad\.jsonl/);
    const mapping = await structlabInProcess(['onng', 'deobfuscate', '--mapping', bad, bad]);
    expect(mapping.code).toBe(2);
    expect(mapping.stderr).toMatch(/not valid JSON|no "inverse"/);
  });
});
