/**
 * The O-NNG page's results analysis (pure; runs in workers/onng.worker.ts): core's per-model summary
 * (mean ± SE, ANOVA, linear trend, pre-check counts) plus what the page adds from the same CSV — the
 * per-problem × λ heat map and the draft-length effect — and the summary export.
 */
import { formatCsv } from '../../../io/csv.ts';
import { mean, oneWayAnova, standardError, type AnovaResult } from '../../../math/statistics.ts';
import { analyzeOutcomes, parseOutcomesCsv, type ModelSummary, type OutcomeRow } from '../analytics.ts';
import { readUpstreamResults, summarizePrechecks, type PrecheckRow, type PrecheckSummary, type UpstreamFile } from '../upstream.ts';

export interface ProblemInfo {
  id: number;
  name: string;
  module: string;
}

export interface HeatMap {
  lambdas: number[];
  problems: ProblemInfo[];
  /** Per model (and '(all models)'): [problem index][λ index] = fraction correct of verified runs, null if none. */
  cells: Record<string, (number | null)[][]>;
}

export interface DraftLevel {
  lambda: number;
  n: number;
  mean: number;
  se: number;
}
export interface DraftEffect {
  model: string;
  levels: DraftLevel[];
  anova: AnovaResult | null;
}

export interface OnngAnalysis {
  rows: number;
  /** Problem ids left out of every statistic (e.g. problem 1, whose answer is in every prompt). */
  excludedProblems: number[];
  models: ModelSummary[];
  /** Holm-adjusted ANOVA p-values across the models, in the order of `models`. */
  holm: { accuracy: number[]; time: number[] };
  heat: HeatMap;
  drafts: DraftEffect[];
  /** Static pre-checks of the raw proofs (only when raw outputs were read: upstream folder layout). */
  prechecks?: PrecheckSummary[];
  /** Notes from the upstream reader (skipped files, mismatched counts). */
  warnings?: string[];
}

export const ALL_MODELS = '(all models)';

interface ExtraRow {
  model: string;
  lambda: number;
  problemId: number;
  problem: string;
  module: string;
  verified: boolean;
  correct: boolean;
  draftChars: number | null;
}

/** What the heat map and draft-length effect need from an outcome row (an empty verdict: the run was never verified). */
const extraOf = (r: OutcomeRow): ExtraRow => ({
  model: r.model,
  lambda: r.lambda,
  problemId: r.problemId,
  problem: r.problem ?? '',
  module: r.module ?? '',
  verified: r.verified !== null,
  correct: r.correct === true,
  draftChars: r.draftChars ?? null,
});

function heatMap(rows: ExtraRow[], models: string[]): HeatMap {
  const lambdas = [...new Set(rows.map((r) => r.lambda))].sort((a, b) => a - b);
  const byId = new Map<number, ProblemInfo>();
  for (const r of rows)
    if (!byId.has(r.problemId)) byId.set(r.problemId, { id: r.problemId, name: r.problem || `#${r.problemId}`, module: r.module });
  const problems = [...byId.values()].sort((a, b) => a.id - b.id);
  const problemIndex = new Map(problems.map((p, i) => [p.id, i]));
  const lambdaIndex = new Map(lambdas.map((l, i) => [l, i]));
  // Keyed by model names from the files: no prototype, so a model called "__proto__" is just a key.
  const cells: HeatMap['cells'] = Object.create(null);
  for (const model of [...models, ALL_MODELS]) {
    const correct = problems.map(() => lambdas.map(() => 0));
    const total = problems.map(() => lambdas.map(() => 0));
    for (const r of rows) {
      if ((model !== ALL_MODELS && r.model !== model) || !r.verified) continue;
      const p = problemIndex.get(r.problemId)!;
      const l = lambdaIndex.get(r.lambda)!;
      total[p][l]++;
      if (r.correct) correct[p][l]++;
    }
    cells[model] = correct.map((row, p) => row.map((n, l) => (total[p][l] > 0 ? n / total[p][l] : null)));
  }
  return { lambdas, problems, cells };
}

function draftEffects(rows: ExtraRow[], models: string[]): DraftEffect[] {
  return models.map((model) => {
    const groups = new Map<number, number[]>();
    for (const r of rows) {
      if (r.model !== model || r.draftChars === null) continue;
      if (!groups.has(r.lambda)) groups.set(r.lambda, []);
      groups.get(r.lambda)!.push(r.draftChars);
    }
    const lambdas = [...groups.keys()].sort((a, b) => a - b);
    const levels = lambdas.map((lambda) => {
      const v = groups.get(lambda)!;
      return { lambda, n: v.length, mean: mean(v), se: v.length > 1 ? standardError(v) : NaN };
    });
    const usable = lambdas.map((l) => groups.get(l)!).filter((g) => g.length > 0);
    let anova: AnovaResult | null = null;
    if (usable.length >= 2 && usable.reduce((s, g) => s + g.length, 0) > usable.length) {
      try {
        anova = oneWayAnova(usable);
      } catch {
        anova = null;
      }
    }
    return { model, levels, anova };
  });
}

/** Holm's step-down adjustment of a family of p-values (returned in the input order). */
export function holmAdjust(ps: number[]): number[] {
  const order = ps.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p);
  const out = new Array<number>(ps.length);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (ps.length - rank) * p));
    out[i] = Number.isFinite(p) ? running : NaN;
  });
  return out;
}

export interface AnalysisOptions {
  excludeProblemIds?: number[];
}

/** Analyses a per_problem_outcomes.csv text; `onProgress` hears each stage. Errors name the CSV line. */
export function analyseOutcomesText(text: string, onProgress?: (stage: string) => void, options: AnalysisOptions = {}): OnngAnalysis {
  if (text.trim() === '') throw new Error('The file is empty.');
  onProgress?.('reading rows');
  const allRows = parseOutcomesCsv(text);
  if (allRows.length === 0) throw new Error('The file has a header but no outcome rows.');
  return analyseOutcomeRows(allRows, onProgress, options);
}

/** Analyses outcome rows from either source; `prechecks` (raw proofs' static checks) get their own summary. */
export function analyseOutcomeRows(
  allRows: OutcomeRow[],
  onProgress?: (stage: string) => void,
  options: AnalysisOptions = {},
  prechecks?: PrecheckRow[],
): OnngAnalysis {
  const excluded = new Set(options.excludeProblemIds ?? []);
  const rows = allRows.filter((r) => !excluded.has(r.problemId));
  onProgress?.(`summarising ${rows.length} rows`);
  const models = analyzeOutcomes(rows);
  onProgress?.('heat map and draft lengths');
  const extras = rows.map(extraOf);
  const names = models.map((m) => m.model);
  return {
    rows: rows.length,
    excludedProblems: [...excluded].sort((a, b) => a - b),
    models,
    holm: { accuracy: holmAdjust(models.map((m) => m.anova_accuracy.p)), time: holmAdjust(models.map((m) => m.anova_time.p)) },
    heat: heatMap(extras, names),
    drafts: draftEffects(extras, names),
    ...(prechecks ? { prechecks: summarizePrechecks(prechecks.filter((p) => !excluded.has(p.problemId))) } : {}),
  };
}

/** Analyses a results folder in the upstream layout (plus verdict files given apart); see upstream.ts. */
export function analyseUpstreamFiles(
  files: UpstreamFile[],
  verdicts: UpstreamFile[],
  onProgress?: (stage: string) => void,
  options: AnalysisOptions = {},
  problemNames?: Record<number, string>,
): OnngAnalysis {
  onProgress?.(`reading ${files.length + verdicts.length} files`);
  const upstream = readUpstreamResults(files, { verdicts, ...(problemNames ? { problemNames } : {}) });
  return { ...analyseOutcomeRows(upstream.rows, onProgress, options, upstream.prechecks), warnings: upstream.warnings };
}

/** One line per model and λ: accuracy (%) and time, mean ± SE, with the model's ANOVA and trend repeated. */
export function summaryCsv(analysis: OnngAnalysis): string {
  const head = [
    'model',
    'lambda',
    'runs',
    'accuracy_pct_mean',
    'accuracy_pct_se',
    'time_s_mean',
    'time_s_se',
    'anova_accuracy_F',
    'anova_accuracy_p',
    'anova_time_F',
    'anova_time_p',
    'df_between',
    'df_within',
    'trend_accuracy_pct_per_lambda',
    'trend_accuracy_p',
    'trend_time_s_per_lambda',
    'trend_time_p',
    'draft_chars_mean',
    'draft_chars_se',
    'precheck_sorry',
    'precheck_simp',
    'holm_accuracy_p',
    'holm_time_p',
    'excluded_problems',
  ];
  const rows: (string | number | null)[][] = [];
  analysis.models.forEach((m, k) => {
    const drafts = analysis.drafts.find((d) => d.model === m.model);
    for (const l of m.levels) {
      const d = drafts?.levels.find((x) => x.lambda === l.lambda);
      rows.push([
        m.model,
        l.lambda,
        l.runs,
        100 * l.accuracy_mean,
        100 * l.accuracy_se,
        l.time_mean,
        l.time_se,
        m.anova_accuracy.F,
        m.anova_accuracy.p,
        m.anova_time.F,
        m.anova_time.p,
        m.anova_accuracy.df_between,
        m.anova_accuracy.df_within,
        100 * m.trend_accuracy.slope,
        m.trend_accuracy.p,
        m.trend_time.slope,
        m.trend_time.p,
        d ? d.mean : null,
        d ? d.se : null,
        m.prechecks.contains_sorry,
        m.prechecks.uses_simp,
        analysis.holm.accuracy[k],
        analysis.holm.time[k],
        analysis.excludedProblems.join(' '),
      ]);
    }
  });
  return formatCsv(head, rows);
}

/** The whole summary (no heat map) as JSON. */
export function summaryJson(analysis: OnngAnalysis): string {
  return JSON.stringify(
    {
      rows: analysis.rows,
      excluded_problems: analysis.excludedProblems,
      models: analysis.models,
      holm: analysis.holm,
      draft_length: analysis.drafts,
      ...(analysis.prechecks ? { prechecks: analysis.prechecks } : {}),
    },
    (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v),
    2,
  );
}
