/**
 * The upstream results layout (src/core/tasks/onng/README.md). Fixtures are generated here from the fixture
 * per_problem_outcomes.csv (tests/reference/onng/, written for this project): a results/<model>/<level>/ tree whose
 * statistics.json holds the CSV's verdicts, result_<run>.jsonl proofs of the CSV's lengths and time_<run>.json its
 * times. The run the CSV leaves unverified is left out of statistics.json, as upstream does with aborted runs. The
 * folder must then give exactly the CSV's rows, summary and ANOVA (exact equality), and SciPy's F to 1e-9.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeOutcomes, parseOutcomesCsv, type OutcomeRow } from '../../src/core/tasks/onng/analytics.ts';
import { levelLambda, readUpstreamResults, summarizePrechecks } from '../../src/core/tasks/onng/upstream.ts';
import { analyseOutcomesText, analyseUpstreamFiles } from '../../src/core/tasks/onng/lab/analysis.ts';
import { FIXTURE_OUTCOMES_CSV, ONNG_FIXTURES, upstreamTreeFromCsv } from '../onng-fixtures.ts';
import { structlabInProcess } from '../cli-runner.ts';

const DERIVED = join(ONNG_FIXTURES, 'derived');
const CSV_PATH = FIXTURE_OUTCOMES_CSV;
const csvText = readFileSync(CSV_PATH, 'utf8');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const golden: any = JSON.parse(readFileSync(join(DERIVED, 'summary_by_model_lambda.json'), 'utf8'));

const tree = upstreamTreeFromCsv(csvText);
const csvRows = parseOutcomesCsv(csvText);
const FIELDS = [
  'model',
  'lambda',
  'run',
  'problemId',
  'verified',
  'correct',
  'containsSorry',
  'usesSimp',
  'timeS',
  'module',
  'leanError',
  'draftChars',
  'codeChars',
] as const;
const comparable = (rows: OutcomeRow[]) =>
  rows
    .map((r) => FIELDS.map((f) => r[f]))
    .sort((a, b) =>
      String(a[0]) < String(b[0])
        ? -1
        : String(a[0]) > String(b[0])
          ? 1
          : (a[1] as number) - (b[1] as number) || (a[2] as number) - (b[2] as number) || (a[3] as number) - (b[3] as number),
    );
const byModel = <T extends { model: string }>(xs: T[]) => [...xs].sort((a, b) => (a.model < b.model ? -1 : 1));

describe('readUpstreamResults on a tree generated from the fixture outcomes', () => {
  const upstream = readUpstreamResults(tree);

  it('gives exactly the CSV rows (648, the aborted run unverified)', () => {
    expect(upstream.rows).toHaveLength(648);
    expect(comparable(upstream.rows)).toEqual(comparable(csvRows));
    expect(upstream.warnings).toEqual([]);
    expect(upstream.ignored).toEqual(['results/atlas-7b/original/avg_times.png']);
    const aborted = upstream.rows.filter((r) => r.verified === null);
    expect(aborted).toHaveLength(12);
    expect(new Set(aborted.map((r) => `${r.model} ${r.lambda} ${r.run}`))).toEqual(new Set(['cedar-prover 1 2']));
    expect(aborted.every((r) => r.timeS !== null && r.correct === null)).toBe(true);
  });

  it('gives the same summary and ANOVA as the CSV, and scipy’s F and p (golden, 1e-9 relative)', () => {
    const fromFolder = byModel(analyzeOutcomes(upstream.rows));
    expect(fromFolder).toEqual(byModel(analyzeOutcomes(csvRows)));
    for (const m of fromFolder) {
      const t = golden[m.model]._tests;
      expect(Math.abs(m.anova_accuracy.F / t.anova_acc_scipy.F - 1)).toBeLessThan(1e-9);
      expect(Math.abs(m.anova_accuracy.p / t.anova_acc_scipy.p - 1)).toBeLessThan(1e-9);
      expect(Math.abs(m.anova_time.F / t.anova_time_scipy.F - 1)).toBeLessThan(1e-9);
    }
  });

  it('the page analysis (draft lengths, heat map) matches the CSV import; pre-checks come apart from verification', () => {
    const a = analyseUpstreamFiles(tree, [], undefined, { excludeProblemIds: [1] });
    const b = analyseOutcomesText(csvText, undefined, { excludeProblemIds: [1] });
    expect(a.rows).toBe(b.rows);
    expect(byModel(a.models)).toEqual(byModel(b.models));
    expect(byModel(a.drafts)).toEqual(byModel(b.drafts));
    for (const model of Object.keys(b.heat.cells)) expect(a.heat.cells[model]).toEqual(b.heat.cells[model]);
    expect(b.prechecks).toBeUndefined();
    // Pre-checks: every raw proof, the aborted run included; sorry/simp counts equal the CSV's flags (fixture
    // proofs carry exactly those words), `rfl` and `simp`/`sorry` are outside the allowed tactic list.
    const p = a.prechecks!;
    expect(p.reduce((s, x) => s + x.proofs, 0)).toBe(648 - 3 * 6 * 3);
    const flagged = (name: 'containsSorry' | 'usesSimp') => csvRows.filter((r) => r.problemId !== 1 && r[name]).length;
    expect(p.reduce((s, x) => s + x.contains_sorry, 0)).toBe(flagged('containsSorry'));
    expect(p.reduce((s, x) => s + x.uses_simp, 0)).toBe(flagged('usesSimp'));
    expect(p.reduce((s, x) => s + x.sorry_disagreements, 0)).toBe(0);
    const prover1 = p.find((x) => x.model === 'cedar-prover' && x.lambda === 1)!;
    expect([prover1.proofs, prover1.verified]).toEqual([3 * 11, 2 * 11]);
    expect(p.every((x) => x.outside_allowed === x.proofs && x.outside_tactics.rfl === x.proofs)).toBe(true);
  });
});

describe('readUpstreamResults tolerance', () => {
  const run = (model: string, level: string, n: number, codes: string[] = []) => [
    {
      path: `${model}/${level}/result_1.jsonl`,
      text: Array.from({ length: n }, (_v, i) => JSON.stringify({ Draft: 'plan', Code: codes[i] ?? 'rfl' })).join('\n'),
    },
    { path: `${model}/${level}/time_1.json`, text: JSON.stringify(Array.from({ length: n }, (_v, i) => i + 1)) },
  ];

  it('maps level folders to λ as upstream names them', () => {
    expect([
      levelLambda('original'),
      levelLambda('obfuscated_3'),
      levelLambda('obfuscated_5'),
      levelLambda('lambda_0.6'),
      levelLambda('misc'),
    ]).toEqual([0, 0.6, 1, 0.6, null]);
  });

  it('runs without statistics are unverified; a verdict file fills them, banned usage in any accepted shape', () => {
    const files = run('m', 'obfuscated_2', 4, ['simp', 'sorry', 'rw [h]', 'omega']);
    const bare = readUpstreamResults(files);
    expect(bare.rows.map((r) => [r.verified, r.correct, r.timeS, r.draftChars])).toEqual([1, 2, 3, 4].map((t) => [null, null, t, 4]));
    expect(bare.prechecks.map((p) => [p.usesSimp, p.containsSorry, p.disallowedTactics, p.verifiedSorry])).toEqual([
      [true, false, ['simp'], null],
      [false, true, ['sorry'], null],
      [false, false, [], null],
      [false, false, ['omega'], null],
    ]);
    for (const usage of [{ simp: [1] }, [1], { 1: 'simp' }]) {
      const verdict = {
        path: 'verdicts.json',
        text: JSON.stringify({
          obfuscated_2: { runs: [{ run: 1, total: 4, error_ids: ['4'], sorry_ids: [2], banned_tactics_usage: usage }] },
        }),
      };
      const r = readUpstreamResults(files, { verdicts: [verdict] });
      expect(r.rows.map((x) => [x.verified, x.correct, x.leanError, x.containsSorry, x.usesSimp])).toEqual([
        [true, true, false, false, true],
        [true, false, false, true, false],
        [true, true, false, false, false],
        [true, false, true, false, false],
      ]);
      expect(r.prechecks.map((p) => p.verifiedSorry)).toEqual([false, true, false, false]);
    }
  });

  it('a folder of raw outputs awaiting verdicts still analyses: pre-checks, no test statistics (NaN), every run unverified', () => {
    const rawOnly = tree.filter((f) => !f.path.endsWith('statistics.json') && f.path.startsWith('results/birch-chat/'));
    const a = analyseUpstreamFiles(rawOnly, []);
    expect(a.models.map((m) => [m.model, m.levels.length, m.unverified_runs.length, m.anova_accuracy.F])).toEqual([
      ['birch-chat', 0, 18, NaN],
    ]);
    expect(a.prechecks!.map((p) => [p.proofs, p.verified])).toEqual(Array.from({ length: 6 }, () => [36, 0]));
    // The model's statistics.json given apart as a verdict file restores the CSV analysis.
    const stats = tree.find((f) => f.path === 'results/birch-chat/statistics.json')!;
    const filled = analyseUpstreamFiles(rawOnly, [{ path: 'verdicts.json', text: stats.text }]);
    expect(filled.models).toEqual(analyzeOutcomes(csvRows.filter((r) => r.model === 'birch-chat')));
  });

  it('places statistics by folder or "model", and refuses an ambiguous verdict file', () => {
    const files = [
      ...run('a', 'original', 2),
      ...run('b', 'original', 2),
      { path: 'b/original/statistics.json', text: JSON.stringify({ runs: [{ run: 1, error_ids: [1] }] }) },
    ];
    const r = readUpstreamResults(files);
    expect(r.rows.filter((x) => x.verified).map((x) => [x.model, x.problemId, x.correct])).toEqual([
      ['b', 1, false],
      ['b', 2, true],
    ]);
    const named = readUpstreamResults(files, {
      verdicts: [{ path: 'v.json', text: JSON.stringify({ model: 'a', datasets: { original: { runs: [{ run: 1, error_ids: [] }] } } }) }],
    });
    expect(named.rows.filter((x) => x.model === 'a').map((x) => x.correct)).toEqual([true, true]);
    expect(() => readUpstreamResults(files, { verdicts: [{ path: 'v.json', text: '{"original": {"runs": []}}' }] })).toThrow(
      /v\.json: say which model.*a, b/,
    );
  });

  it('names the file of a malformed piece, and warns about what it skips', () => {
    expect(() => readUpstreamResults([{ path: 'm/original/time_1.json', text: '{"a": 1}' }])).toThrow(
      /m\/original\/time_1\.json should be a list/,
    );
    expect(() => readUpstreamResults([{ path: 'm/statistics.json', text: '{oops' }])).toThrow(/m\/statistics\.json is not valid JSON/);
    expect(() =>
      readUpstreamResults([
        { path: 'm/statistics.json', text: JSON.stringify({ datasets: { original: { runs: [{ error_ids: ['x'] }] } } }) },
      ]),
    ).toThrow(/m\/statistics\.json, original, run 1: error_ids holds "x"/);
    expect(() => readUpstreamResults([{ path: 'notes.txt', text: '' }])).toThrow(/no result_<run>\.jsonl/);
    const r = readUpstreamResults([
      ...run('m', 'original', 2),
      { path: 'm/drafts/result_1.jsonl', text: '' },
      { path: 'm/original/result_2.jsonl', text: '{"draft":"x","code":"rfl"}\nnot json\n' },
    ]);
    expect(r.warnings.join('\n')).toMatch(/m\/drafts\/result_1\.jsonl: its folder "drafts" is not a level/);
    expect(r.warnings.join('\n')).toMatch(/m\/original\/result_2\.jsonl line 2 is not valid JSON/);
    expect(summarizePrechecks(r.prechecks).map((s) => s.proofs)).toEqual([3]);
  });
});

describe('structlab onng analyze RESULTS_DIR', () => {
  const dir = mkdtempSync(join(tmpdir(), 'structlab-onng-upstream-'));
  for (const f of tree) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), f.text);
  }

  it('prints the same models JSON as the CSV, plus pre-checks; warns about the unverified run', async () => {
    const folder = await structlabInProcess(['onng', 'analyze', join(dir, 'results')]);
    expect(folder.code, folder.stderr).toBe(0);
    const csv = await structlabInProcess(['onng', 'analyze', CSV_PATH]);
    expect(csv.code, csv.stderr).toBe(0);
    const a = JSON.parse(folder.stdout);
    expect(byModel(a.models)).toEqual(byModel(JSON.parse(csv.stdout).models));
    expect(a.prechecks).toHaveLength(18);
    expect(folder.stderr).toMatch(/cedar-prover λ=1 run 2 has no verified problem/);
  }, 60_000);

  it('exits 2 naming a malformed statistics file', async () => {
    const bad = join(dir, 'bad');
    mkdirSync(join(bad, 'm', 'original'), { recursive: true });
    writeFileSync(join(bad, 'm', 'original', 'time_1.json'), '[1, 2]');
    writeFileSync(join(bad, 'm', 'statistics.json'), '{"datasets": ');
    const r = await structlabInProcess(['onng', 'analyze', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/statistics\.json is not valid JSON/);
  }, 60_000);
});
