/**
 * The O-NNG page's pure helpers, on the fixtures written for this project (tests/reference/onng/README.md): the
 * stored name_mapping.json of sets 1–5 (the exact sets read from a user's folder), and SciPy's f_oneway and means
 * in summary_by_model_lambda.json (the analysis the page shows); the heat map is checked by a direct count here.
 * The published O-NNG files are checked the same way by `npm run test:reference`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../scripts/support/paths.ts';
import { ONNG_FIXTURES, readFixtureExpected } from '../onng-fixtures.ts';
import { analyseOutcomesText, ALL_MODELS, holmAdjust, summaryCsv } from '../../src/core/tasks/onng/lab/analysis.ts';
import {
  deobfuscatedSegments,
  exactSetsFromFolder,
  groupByWorld,
  nng4Identifiers,
  nng4Mapping,
  renameSegments,
  type FolderFile,
  type Nng4Level,
} from '../../src/core/tasks/onng/lab/problems.ts';
import { makeSinglePassRenamer } from '../../src/core/tasks/onng/obfuscate.ts';

const ONNG = ONNG_FIXTURES;
const levels: Nng4Level[] = JSON.parse(readFileSync(join(REPO_ROOT, 'datasets', 'onng', 'nng4_levels.json'), 'utf8'));
const csvText = readFileSync(join(ONNG, 'derived', 'per_problem_outcomes.csv'), 'utf8');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const summary: any = JSON.parse(readFileSync(join(ONNG, 'derived', 'summary_by_model_lambda.json'), 'utf8'));

function folderFiles(sets: string[]): FolderFile[] {
  return sets.flatMap((set) =>
    readdirSync(join(ONNG, 'dataset', set)).map((name) => ({
      path: `dataset/${set}/${name}`,
      text: readFileSync(join(ONNG, 'dataset', set, name), 'utf8'),
    })),
  );
}

describe('shipped NNG4 metadata', () => {
  it('has 55 O-NNG problems in 8 worlds (the file is compared with the reference copy by test:reference)', () => {
    const groups = groupByWorld(levels, true);
    expect(groups.reduce((n, g) => n + g.levels.length, 0)).toBe(55);
    expect(groups.map((g) => g.world)).toEqual(
      [
        'Tutorial',
        'Addition',
        'Multiplication',
        'Power',
        'Implication',
        'AdvAddition',
        'LessOrEqual',
        'AdvMultiplication',
        'Algorithm',
      ].filter((w) => levels.some((l) => l.world === w && l.onng_id !== null)),
    );
  });

  it('renames statements consistently: the segments spell the one-pass renaming and keep each original', () => {
    const mapping = nng4Mapping(levels, 3);
    const rename = makeSinglePassRenamer(mapping);
    let renamedNames = 0;
    for (const level of levels.filter((l) => l.onng_id !== null)) {
      const segments = renameSegments(level.statement, mapping);
      expect(segments.map((s) => s.text).join('')).toBe(rename(level.statement));
      expect(segments.map((s) => s.original ?? s.text).join('')).toBe(level.statement);
      for (const s of segments)
        if (s.original !== undefined) {
          renamedNames++;
          expect(mapping.get(s.original)).toBe(s.text);
        }
    }
    expect(renamedNames).toBeGreaterThan(55); // every problem's own name at least (λ = 0.6 changes all long names)
    expect(nng4Mapping(levels, 0).size).toBe(0);
    expect(nng4Identifiers(levels)).toContain('zero_add');
  });
});

describe('exact sets from a user folder', () => {
  it('computes levels 1–5 from original/ equal to the stored name_mapping.json, and reads them when present', () => {
    const computed = exactSetsFromFolder(folderFiles(['original']));
    const read = exactSetsFromFolder(folderFiles(['original', 'obfuscated_1', 'obfuscated_2', 'obfuscated_3']));
    for (const k of [1, 2, 3, 4, 5]) {
      const golden = JSON.parse(readFileSync(join(ONNG, 'dataset', `obfuscated_${k}`, 'name_mapping.json'), 'utf8'));
      expect(computed.levels[k].source).toBe('computed');
      expect(Object.fromEntries(computed.levels[k].mapping)).toEqual(golden);
      expect(read.levels[k].source).toBe(k <= 3 ? 'file' : 'computed');
      const goldenTheorems = readFileSync(join(ONNG, 'dataset', `obfuscated_${k}`, 'theorems.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(computed.levels[k].dataset.problems.map((p) => p.statement)).toEqual(
        goldenTheorems.map((p: { statement: string }) => p.statement),
      );
    }
    expect(read.folder).toBe('dataset');
  });

  it('marks each renamed name of an obfuscated statement with its original (set 3, problem 1)', () => {
    const sets = exactSetsFromFolder(folderFiles(['original', 'obfuscated_3']));
    const golden = JSON.parse(readFileSync(join(ONNG, 'dataset', 'obfuscated_3', 'name_mapping.json'), 'utf8')) as Record<string, string>;
    const statement = sets.levels[3].dataset.problems[0].statement;
    const marked = deobfuscatedSegments(statement, sets.levels[3].inverse).filter((s) => s.original !== undefined);
    expect(marked.find((s) => s.original === 'nil_join')?.text).toBe(golden.nil_join);
    expect(marked.map((s) => s.original)).toEqual(['nil_join', 'Tally', 'join']); // `nil` keeps its name at level 3
    for (const s of marked) expect(golden[s.original!]).toBe(s.text);
  });

  it('refuses a folder without original/ with a sentence naming the files', () => {
    expect(() => exactSetsFromFolder([{ path: 'x/notes.txt', text: '' }])).toThrow(/original\/theorems\.jsonl/);
    expect(() =>
      exactSetsFromFolder([
        { path: 'd/original/theorems.jsonl', text: '{bad\n' },
        { path: 'd/original/header_definitions.jsonl', text: '' },
      ]),
    ).toThrow(/line 1/);
  });
});

describe('results analysis (fixture outcomes)', () => {
  const analysis = analyseOutcomesText(csvText);

  it('gives the stored analysis exactly', () => {
    expect(JSON.parse(JSON.stringify(analysis))).toEqual(readFixtureExpected('page_analysis.json'));
  });

  it('ANOVA F and p equal scipy f_oneway for every model (1e-9 relative), accuracy means match', () => {
    expect(analysis.rows).toBe(648);
    expect(analysis.models).toHaveLength(3);
    for (const m of analysis.models) {
      const g = summary[m.model];
      for (const [ours, theirs] of [
        [m.anova_accuracy, g._tests.anova_acc_scipy],
        [m.anova_time, g._tests.anova_time_scipy],
      ]) {
        expect(Math.abs(ours.F - theirs.F) / theirs.F).toBeLessThan(1e-9);
        expect(Math.abs(ours.p - theirs.p) / theirs.p).toBeLessThan(1e-9);
      }
      expect(100 * m.levels[0].accuracy_mean).toBeCloseTo(g.original.acc_mean, 9);
    }
  });

  it('heat map cells are the fraction correct of verified runs, counted directly', () => {
    const lines = csvText
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    // columns: model,dataset,lam,run,problem_id,problem,module,verified,correct,...
    const pick = (model: string | null, id: number, lam: number) => {
      const rows = lines.filter((f) => (model === null || f[0] === model) && Number(f[4]) === id && Number(f[2]) === lam && f[7] !== '');
      return rows.filter((f) => f[8] === '1').length / rows.length;
    };
    const { heat } = analysis;
    for (const model of ['atlas-7b', 'birch-chat', 'cedar-prover', null])
      for (const [p, problem] of heat.problems.entries())
        for (const [l, lam] of heat.lambdas.entries())
          expect(heat.cells[model ?? ALL_MODELS][p][l], `${model} ${problem.id} ${lam}`).toBeCloseTo(pick(model, problem.id, lam), 12);
    // The run cedar-prover never verified (λ = 1, run 2) counts in no cell: two runs of three are left.
    for (const row of heat.cells['cedar-prover']) expect(Number.isInteger(row[heat.lambdas.indexOf(1)]! * 2)).toBe(true);
    expect(heat.problems).toHaveLength(12);
    expect(heat.problems[4]).toEqual({ id: 5, name: "join_tick'", module: 'Addition' });
  });

  it('draft lengths average the draft_chars column per λ; the CSV export has one line per model and λ', () => {
    const atlas = analysis.drafts.find((d) => d.model === 'atlas-7b')!;
    const lines = csvText
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','))
      .filter((f) => f[0] === 'atlas-7b' && f[2] === '0.0');
    const direct = lines.reduce((s, f) => s + Number(f[13]), 0) / lines.length;
    expect(atlas.levels[0].mean).toBeCloseTo(direct, 9);
    expect(atlas.levels[0].n).toBe(36);
    expect(summaryCsv(analysis).trim().split(/\r?\n/)).toHaveLength(1 + 3 * 6);
  });

  it('names the bad line of a broken table', () => {
    expect(() => analyseOutcomesText('')).toThrow(/empty/);
    expect(() => analyseOutcomesText('model,lam\nx,1\n')).toThrow(/line 1/);
    expect(() =>
      analyseOutcomesText(csvText.split('\n').slice(0, 3).join('\n') + '\natlas-7b,original,abc,1,3,join_swap,Addition,1,0,1,0,0,1,1,1\n'),
    ).toThrow(/line 4/);
  });
});

describe('options', () => {
  it('Holm adjustment matches a hand computation', () => {
    // p = (0.01, 0.04, 0.03, 0.005), m = 4: sorted 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 → max(0.06, 0.04) = 0.06
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((v, i) => expect(adjusted[i]).toBeCloseTo(v, 15));
    expect(holmAdjust([0.6, 0.7])).toEqual([1, 1]);
  });

  it('leaving out problem 1 recomputes accuracy over 11 problems (direct count), as stored', () => {
    const analysis = analyseOutcomesText(csvText, undefined, { excludeProblemIds: [1] });
    expect(JSON.parse(JSON.stringify(analysis))).toEqual(readFixtureExpected('page_analysis_without_problem_1.json'));
    expect(analysis.rows).toBe(648 - 3 * 6 * 3);
    const lines = csvText
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','))
      .filter((f) => f[0] === 'birch-chat' && f[2] === '0.0' && f[3] === '2' && f[4] !== '1');
    const direct = lines.filter((f) => f[8] === '1').length / lines.length;
    const level = analysis.models.find((m) => m.model === 'birch-chat')!.levels[0];
    expect(level.accuracy_per_run[1]).toBeCloseTo(direct, 12);
    expect(analysis.heat.problems.some((p) => p.id === 1)).toBe(false);
  });
});
