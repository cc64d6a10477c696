/**
 * The O-NNG port against the real O-NNG data (lllx125/Obfuscated-NNG): its published obfuscated sets 1–3 and
 * name mappings byte for byte, the obfuscation-strength statistics of all five sets, and the summary derived from
 * its results (scipy f_oneway / linregress, recomputed means). That data has no licence, so it is not in this
 * repository: `npm run test:reference [-- DIR]` (scripts/test-reference.mjs) checks the folder and passes it here.
 * `npm test` runs the same checks on fixtures written for this project (tests/reference/onng/README.md).
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeOutcomes, parseOutcomesCsv, type OutcomeRow } from '../../src/core/tasks/onng/analytics.ts';
import { ALL_MODELS, analyseOutcomesText, analyseUpstreamFiles, summaryCsv } from '../../src/core/tasks/onng/lab/analysis.ts';
import { deobfuscatedSegments, exactSetsFromFolder, type FolderFile } from '../../src/core/tasks/onng/lab/problems.ts';
import { datasetFiles, deobfuscateText, obfuscateDataset, renamableNames } from '../../src/core/tasks/onng/obfuscate.ts';
import { readUpstreamResults } from '../../src/core/tasks/onng/upstream.ts';
import { structlab, structlabInProcess } from '../cli-runner.ts';
import { loadOnngSet, upstreamTreeFromCsv } from '../onng-fixtures.ts';
import { REPO_ROOT } from '../../scripts/support/paths.ts';

const DIR_VARIABLE = 'STRUCTLAB_ONNG_REFERENCE_DIR';
const ONNG = process.env[DIR_VARIABLE];
if (!ONNG)
  throw new Error(`run this suite with \`npm run test:reference [-- DIR]\`, which names the O-NNG data folder (${DIR_VARIABLE} is unset)`);

const DATASET = join(ONNG, 'dataset');
const DERIVED = join(ONNG, 'derived');
const CSV_PATH = join(DERIVED, 'per_problem_outcomes.csv');
const readSet = (set: string, file: string) => readFileSync(join(DATASET, set, file), 'utf8');
const publishedMapping = (k: number) => JSON.parse(readSet(`obfuscated_${k}`, 'name_mapping.json')) as Record<string, string>;
const csvText = readFileSync(CSV_PATH, 'utf8');
const csvRows = parseOutcomesCsv(csvText);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const summary: any = JSON.parse(readFileSync(join(DERIVED, 'summary_by_model_lambda.json'), 'utf8'));
const original = loadOnngSet(DATASET);
const MODELS = ['gpt-4o', 'claude-sonnet-4.5', 'deepseek-r1', 'gpt-5', 'deepseek-prover-v2'];
const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);
const byModel = <T extends { model: string }>(xs: T[]) => [...xs].sort((a, b) => (a.model < b.model ? -1 : 1));

describe('obfuscation: the published sets', () => {
  it('has the 99 renamable names of the spec', () => {
    expect(renamableNames(original).length).toBe(99);
    expect(renamableNames(original)[0]).toBe('MyNat');
  });

  for (const level of [1, 2, 3]) {
    it(`level ${level} reproduces name_mapping.json and every dataset file byte for byte`, () => {
      const result = obfuscateDataset(original, level);
      expect(Object.fromEntries(result.mapping)).toEqual(publishedMapping(level));
      const files = datasetFiles(result);
      for (const file of ['header_definitions.jsonl', 'theorems.jsonl', 'queries.jsonl', 'name_mapping.json'])
        expect(files[file] === readSet(`obfuscated_${level}`, file), `${file} differs`).toBe(true);
    });
  }

  it('de-obfuscates a renamed statement back to the original', () => {
    const result = obfuscateDataset(original, 3);
    expect(deobfuscateText(result.dataset.problems[27].statement, result.mapping)).toBe(original.problems[27].statement);
  });
});

describe('obfuscation: the published strength statistics of levels 1–5 (sets 4 and 5 are not published)', () => {
  // derived/obfuscation_strength_by_lambda.json was measured on all five sets. Its definitions are pinned by
  // levels 1–3, whose mappings are published: Levenshtein distance over the longer name's length (code points),
  // and the non-ASCII share of all obfuscated characters.
  const strength = JSON.parse(readFileSync(join(DERIVED, 'obfuscation_strength_by_lambda.json'), 'utf8'));
  const levenshtein = (a: string[], b: string[]) => {
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const cur = [i];
      for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
    return prev[b.length];
  };
  const statsOf = (mapping: Map<string, string>) => {
    const pairs = [...mapping];
    const edit = pairs.reduce((s, [o, n]) => s + levenshtein([...o], [...n]) / Math.max([...o].length, [...n].length), 0) / pairs.length;
    const chars = pairs.flatMap(([, n]) => [...n]);
    return {
      names: pairs.length,
      unchanged: pairs
        .filter(([o, n]) => o === n)
        .map(([o]) => o)
        .sort(),
      mean_norm_edit: Math.round(edit * 1000) / 1000,
      nonascii_char_frac: Math.round((chars.filter((c) => c.codePointAt(0)! > 127).length / chars.length) * 1000) / 1000,
    };
  };
  for (const level of [1, 2, 3, 4, 5]) {
    it(`level ${level} (λ = ${(0.2 * level).toFixed(1)}) has the published unchanged names, mean edit and non-ASCII share`, () => {
      const published = strength[(0.2 * level).toFixed(1)];
      expect(statsOf(obfuscateDataset(original, level).mapping)).toEqual({
        names: published.names,
        unchanged: [...published.unchanged_list].sort(),
        mean_norm_edit: published.mean_norm_edit,
        nonascii_char_frac: published.nonascii_char_frac,
      });
    });
  }
});

describe('analytics: the published outcomes and summary', () => {
  const summaries = analyzeOutcomes(csvRows);

  it('reads 10,200 rows for 5 models', () => {
    expect(csvRows.length).toBe(10200);
    expect(summaries.map((s) => s.model).sort()).toEqual(Object.keys(summary).sort());
  });

  for (const model of MODELS) {
    it(`${model}: ANOVA F and p equal scipy's to 1e-9, per-level mean ± SE equal the summary`, () => {
      const s = summaries.find((m) => m.model === model)!;
      const t = summary[model]._tests;
      expect(rel(s.anova_accuracy.F, t.anova_acc_scipy.F)).toBeLessThan(1e-9);
      expect(rel(s.anova_accuracy.p, t.anova_acc_scipy.p)).toBeLessThan(1e-9);
      expect(rel(s.anova_time.F, t.anova_time_scipy.F)).toBeLessThan(1e-9);
      expect(rel(s.anova_time.p, t.anova_time_scipy.p)).toBeLessThan(1e-9);
      expect(rel(s.trend_accuracy.p, t.linreg_acc_vs_lambda.p)).toBeLessThan(1e-9);
      for (const [key, g] of Object.entries(summary[model]) as [string, Record<string, number>][]) {
        if (key === '_tests') continue;
        const l = s.levels.find((x) => Math.abs(x.lambda - g.lam) < 1e-9)!;
        expect(l.runs).toBe(g.n_runs_verified);
        expect(l.accuracy_mean * 100).toBeCloseTo(g.acc_mean, 10);
        expect(l.accuracy_se * 100).toBeCloseTo(g.acc_se, 10);
        expect(l.time_mean).toBeCloseTo(g.time_mean_verified_runs, 10);
      }
    });
  }

  it('reports the unverified Prover-V2 run at λ = 1 (run 1) and leaves it out', () => {
    const s = summaries.find((m) => m.model === 'deepseek-prover-v2')!;
    expect(s.unverified_runs).toEqual([{ lambda: 1, run: 1 }]);
    expect(s.anova_accuracy.df_within).toBe(23);
  });

  it('the page analysis: scipy F and p, heat map cells by direct count, draft lengths, problem 1 left out', () => {
    const analysis = analyseOutcomesText(csvText);
    expect(analysis.rows).toBe(10200);
    for (const m of analysis.models) {
      const t = summary[m.model]._tests;
      expect(rel(m.anova_accuracy.F, t.anova_acc_scipy.F)).toBeLessThan(1e-9);
      expect(rel(m.anova_time.p, t.anova_time_scipy.p)).toBeLessThan(1e-9);
      expect(100 * m.levels[0].accuracy_mean).toBeCloseTo(summary[m.model].original.acc_mean, 9);
    }
    // columns: model,dataset,lam,run,problem_id,problem,module,verified,correct,...,draft_chars (13)
    const lines = csvText
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    const pick = (model: string, id: number, lam: number) => {
      const rows = lines.filter((f) => f[0] === model && Number(f[4]) === id && Number(f[2]) === lam && f[7] !== '');
      return rows.filter((f) => f[8] === '1').length / rows.length;
    };
    const { heat } = analysis;
    for (const [model, id, lam] of [
      ['gpt-5', 52, 0.6],
      ['claude-sonnet-4.5', 1, 0],
      ['deepseek-prover-v2', 30, 1],
    ] as const)
      expect(heat.cells[model][heat.problems.findIndex((p) => p.id === id)][heat.lambdas.indexOf(lam)]).toBeCloseTo(
        pick(model, id, lam),
        12,
      );
    expect(heat.cells[ALL_MODELS][heat.problems.findIndex((p) => p.name === 'le_total')].every((v) => v === 0)).toBe(true);
    expect(heat.problems).toHaveLength(68);
    const gpt4o = lines.filter((f) => f[0] === 'gpt-4o' && f[2] === '0.0');
    const drafts = analysis.drafts.find((d) => d.model === 'gpt-4o')!.levels[0];
    expect(drafts.mean).toBeCloseTo(gpt4o.reduce((s, f) => s + Number(f[13]), 0) / gpt4o.length, 9);
    expect(drafts.n).toBe(340);
    expect(summaryCsv(analysis).trim().split(/\r?\n/)).toHaveLength(1 + 5 * 6);
    expect(analyseOutcomesText(csvText, undefined, { excludeProblemIds: [1] }).rows).toBe(10200 - 150);
  });
});

describe('the upstream results layout generated from the published outcomes', () => {
  const tree = upstreamTreeFromCsv(csvText);
  const upstream = readUpstreamResults(tree);
  const FIELDS = ['model', 'lambda', 'run', 'problemId', 'verified', 'correct', 'containsSorry', 'usesSimp', 'timeS', 'module'] as const;
  const comparable = (rows: OutcomeRow[]) => rows.map((r) => FIELDS.map((f) => r[f]).join('|')).sort();

  it('gives exactly the CSV rows (10,200, the aborted run unverified) and the same summary', () => {
    expect(upstream.rows).toHaveLength(10_200);
    expect(comparable(upstream.rows)).toEqual(comparable(csvRows));
    expect(upstream.warnings).toEqual([]);
    const aborted = upstream.rows.filter((r) => r.verified === null);
    expect(aborted).toHaveLength(68);
    expect(new Set(aborted.map((r) => `${r.model} ${r.lambda} ${r.run}`))).toEqual(new Set(['deepseek-prover-v2 1 1']));
    expect(byModel(analyzeOutcomes(upstream.rows))).toEqual(byModel(analyzeOutcomes(csvRows)));
  });

  it('the page analysis of the folder equals the CSV import; pre-checks agree with the CSV flags', () => {
    const a = analyseUpstreamFiles(tree, [], undefined, { excludeProblemIds: [1] });
    const b = analyseOutcomesText(csvText, undefined, { excludeProblemIds: [1] });
    expect(a.rows).toBe(b.rows);
    expect(byModel(a.models)).toEqual(byModel(b.models));
    const p = a.prechecks!;
    expect(p.reduce((s, x) => s + x.proofs, 0)).toBe(10_200 - 150);
    expect(p.reduce((s, x) => s + x.sorry_disagreements, 0)).toBe(0);
    const prover1 = p.find((x) => x.model === 'deepseek-prover-v2' && x.lambda === 1)!;
    expect([prover1.proofs, prover1.verified]).toEqual([5 * 67, 4 * 67]);
  });

  it('structlab onng analyze gives the same models for the folder as for the CSV, scipy-equal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'structlab-onng-reference-'));
    for (const f of tree) {
      mkdirSync(dirname(join(dir, f.path)), { recursive: true });
      writeFileSync(join(dir, f.path), f.text);
    }
    const folder = await structlabInProcess(['onng', 'analyze', join(dir, 'results')]);
    const csv = await structlabInProcess(['onng', 'analyze', CSV_PATH]);
    expect(folder.code, folder.stderr).toBe(0);
    expect(csv.code, csv.stderr).toBe(0);
    const models = JSON.parse(csv.stdout).models;
    expect(byModel(JSON.parse(folder.stdout).models)).toEqual(byModel(models));
    expect(models).toHaveLength(5);
    for (const m of models) expect(rel(m.anova_accuracy.F, summary[m.model]._tests.anova_acc_scipy.F)).toBeLessThan(1e-9);
    expect(csv.stderr).toMatch(/deepseek-prover-v2 λ=1 run 1 has no verified problem/);
  }, 120_000);
});

describe('the O-NNG page and the CLI on the published dataset folder', () => {
  const folderFiles = (sets: string[]): FolderFile[] =>
    sets.flatMap((set) => readdirSync(join(DATASET, set)).map((name) => ({ path: `dataset/${set}/${name}`, text: readSet(set, name) })));

  it('the shipped NNG4 metadata (datasets/onng/nng4_levels.json) is the O-NNG copy unchanged', () => {
    expect(readFileSync(join(REPO_ROOT, 'datasets', 'onng', 'nng4_levels.json'), 'utf8')).toBe(
      readFileSync(join(DERIVED, 'nng4_levels.json'), 'utf8'),
    );
  });

  it('computes levels 1–3 from original/ equal to the published sets, and reads them when present', () => {
    const computed = exactSetsFromFolder(folderFiles(['original']));
    const read = exactSetsFromFolder(folderFiles(['original', 'obfuscated_1', 'obfuscated_2', 'obfuscated_3']));
    for (const k of [1, 2, 3]) {
      expect(computed.levels[k].source).toBe('computed');
      expect(Object.fromEntries(computed.levels[k].mapping)).toEqual(publishedMapping(k));
      expect(read.levels[k].source).toBe('file');
      const published = readSet(`obfuscated_${k}`, 'theorems.jsonl')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { statement: string }).statement);
      expect(computed.levels[k].dataset.problems.map((p) => p.statement)).toEqual(published);
    }
    const statement = read.levels[3].dataset.problems[0].statement;
    const marked = deobfuscatedSegments(statement, read.levels[3].inverse).filter((s) => s.original !== undefined);
    expect(marked.find((s) => s.original === 'zero_add')?.text).toBe(publishedMapping(3).zero_add);
  });

  it('structlab onng obfuscate --level 2 (--source, or $STRUCTLAB_ONNG_DATASET) writes the published set byte for byte', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'structlab-onng-reference-')), 'set2');
    const r = await structlabInProcess(['onng', 'obfuscate', '--level', '2', '--source', join(DATASET, 'original'), '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).mapping).toEqual(publishedMapping(2));
    for (const file of ['header_definitions.jsonl', 'theorems.jsonl', 'queries.jsonl', 'name_mapping.json'])
      expect(readFileSync(join(out, file)).equals(readFileSync(join(DATASET, 'obfuscated_2', file))), file).toBe(true);
    const env = structlab(['onng', 'obfuscate', '--level', '2'], { env: { STRUCTLAB_ONNG_DATASET: join(DATASET, 'original') } });
    expect(env.code, env.stderr).toBe(0);
    expect(JSON.parse(env.stdout).mapping).toEqual(publishedMapping(2));
  }, 120_000);
});
