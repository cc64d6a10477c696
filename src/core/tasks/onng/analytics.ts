// O-NNG result analytics (`structlab onng analyze`; upstream Obfuscated-NNG analyze_results.py): per model and noise level, run accuracy
// and time, mean ± SE, one-way ANOVA across levels and a linear trend on λ; plus static proof pre-checks.
import { parseCsv } from '../../io/csv.ts';
import { type AnovaResult, type LinearTrend, linearTrend, mean, oneWayAnova, standardError } from '../../math/statistics.ts';
import { quoted } from '../../limits.ts';

/** One row of per_problem_outcomes.csv; verified/correct are null when the run was never verified. */
export interface OutcomeRow {
  model: string;
  lambda: number;
  run: number;
  problemId: number;
  verified: boolean | null;
  correct: boolean | null;
  containsSorry: boolean | null;
  usesSimp: boolean | null;
  timeS: number | null;
  /** Optional columns (problem, module, lean_error, draft_chars, code_chars); absent when the source lacks them. */
  problem?: string;
  module?: string;
  leanError?: boolean | null;
  draftChars?: number | null;
  codeChars?: number | null;
}

const REQUIRED_COLUMNS = ['model', 'lam', 'run', 'problem_id', 'verified', 'correct', 'time_s'];

/** Parses the per_problem_outcomes.csv layout; errors name the 1-based line. */
export function parseOutcomesCsv(text: string): OutcomeRow[] {
  const records = parseCsv(text, 'the outcomes table');
  const header = records[0]?.fields ?? [];
  const col = new Map(header.map((h, i) => [h.trim(), i]));
  const missing = REQUIRED_COLUMNS.filter((c) => !col.has(c));
  if (missing.length > 0) throw new Error(`line ${records[0]?.line ?? 1}: the outcomes table lacks the column(s) ${missing.join(', ')}`);
  const rows: OutcomeRow[] = [];
  for (let r = 1; r < records.length; r++) {
    const { fields: f, line } = records[r];
    if (f.length === 1 && f[0].trim() === '') continue;
    const get = (name: string) => (col.has(name) ? (f[col.get(name)!] ?? '').trim() : '');
    const num = (name: string, required: boolean): number | null => {
      const raw = get(name);
      if (raw === '') {
        if (required) throw new Error(`line ${line}: the ${name} column is empty`);
        return null;
      }
      const v = Number(raw);
      if (!Number.isFinite(v)) throw new Error(`line ${line}: ${name} ${quoted(raw)} is not a number`);
      return v;
    };
    const flag = (name: string): boolean | null => {
      const v = num(name, false);
      return v === null ? null : v !== 0;
    };
    const row: OutcomeRow = {
      model: get('model'),
      lambda: num('lam', true)!,
      run: num('run', true)!,
      problemId: num('problem_id', true)!,
      verified: flag('verified'),
      correct: flag('correct'),
      containsSorry: flag('contains_sorry'),
      usesSimp: flag('uses_simp'),
      timeS: num('time_s', false),
    };
    if (col.has('problem')) row.problem = get('problem');
    if (col.has('module')) row.module = get('module');
    if (col.has('lean_error')) row.leanError = flag('lean_error');
    // Lengths are descriptive only: a cell that is not a number reads as missing rather than failing the table.
    const length = (name: string) => {
      const v = Number(get(name));
      return get(name) !== '' && Number.isFinite(v) ? v : null;
    };
    if (col.has('draft_chars')) row.draftChars = length('draft_chars');
    if (col.has('code_chars')) row.codeChars = length('code_chars');
    rows.push(row);
  }
  return rows;
}

export interface LevelSummary {
  lambda: number;
  runs: number;
  accuracy_mean: number;
  accuracy_se: number;
  time_mean: number;
  time_se: number;
  accuracy_per_run: number[];
  time_per_run: number[];
}

export interface ModelSummary {
  model: string;
  levels: LevelSummary[];
  anova_accuracy: AnovaResult;
  anova_time: AnovaResult;
  trend_accuracy: LinearTrend;
  trend_time: LinearTrend;
  /** Runs with no verified problem (missing from upstream statistics.json), left out of every statistic. */
  unverified_runs: { lambda: number; run: number }[];
  prechecks: { problems: number; contains_sorry: number; uses_simp: number };
}

// Too few verified runs for a test (e.g. raw outputs still awaiting verdicts): NaN values, not a failed analysis.
function anovaOrNaN(groups: number[][]): AnovaResult {
  try {
    return oneWayAnova(groups);
  } catch {
    return { F: NaN, p: NaN, df_between: NaN, df_within: NaN };
  }
}
function trendOrNaN(x: number[], y: number[]): LinearTrend {
  try {
    return linearTrend(x, y);
  } catch {
    return { slope: NaN, intercept: NaN, slope_se: NaN, t: NaN, p: NaN, r: NaN, n: x.length };
  }
}

/**
 * Per model: a run's accuracy is the fraction of its verified problems that are correct, its time the mean
 * time_s of its problems; the ANOVA groups are the runs at each λ (scipy.stats.f_oneway semantics).
 */
export function analyzeOutcomes(rows: OutcomeRow[]): ModelSummary[] {
  const models = [...new Set(rows.map((r) => r.model))];
  return models.map((model) => {
    const runs = new Map<string, OutcomeRow[]>();
    for (const r of rows) {
      if (r.model !== model) continue;
      const key = `${r.lambda}\u0000${r.run}`;
      if (!runs.has(key)) runs.set(key, []);
      runs.get(key)!.push(r);
    }
    const byLevel = new Map<number, { acc: number[]; time: number[] }>();
    const unverified: { lambda: number; run: number }[] = [];
    let sorry = 0;
    let simp = 0;
    let problems = 0;
    for (const runRows of runs.values()) {
      const { lambda, run } = runRows[0];
      const verified = runRows.filter((r) => r.verified !== null);
      if (verified.length === 0) {
        unverified.push({ lambda, run });
        continue;
      }
      for (const r of verified) {
        problems++;
        if (r.containsSorry) sorry++;
        if (r.usesSimp) simp++;
      }
      const times = runRows.map((r) => r.timeS).filter((t): t is number => t !== null);
      if (!byLevel.has(lambda)) byLevel.set(lambda, { acc: [], time: [] });
      const level = byLevel.get(lambda)!;
      level.acc.push(verified.filter((r) => r.correct).length / verified.length);
      level.time.push(times.length > 0 ? mean(times) : NaN);
    }
    const lambdas = [...byLevel.keys()].sort((a, b) => a - b);
    const levels: LevelSummary[] = lambdas.map((lambda) => {
      const { acc, time } = byLevel.get(lambda)!;
      return {
        lambda,
        runs: acc.length,
        accuracy_mean: mean(acc),
        accuracy_se: standardError(acc),
        time_mean: mean(time),
        time_se: standardError(time),
        accuracy_per_run: acc,
        time_per_run: time,
      };
    });
    const xs = levels.flatMap((l) => l.accuracy_per_run.map(() => l.lambda));
    return {
      model,
      levels,
      anova_accuracy: anovaOrNaN(levels.map((l) => l.accuracy_per_run)),
      anova_time: anovaOrNaN(levels.map((l) => l.time_per_run)),
      trend_accuracy: trendOrNaN(
        xs,
        levels.flatMap((l) => l.accuracy_per_run),
      ),
      trend_time: trendOrNaN(
        xs,
        levels.flatMap((l) => l.time_per_run),
      ),
      unverified_runs: unverified,
      prechecks: { problems, contains_sorry: sorry, uses_simp: simp },
    };
  });
}

/** The tactics the O-NNG prompt allows (listed there, never enforced upstream: Obfuscated-NNG reports only simp). */
export const ALLOWED_TACTICS: readonly string[] = [
  'rw',
  'repeat',
  'nth_rewrite',
  'symm',
  'intro',
  'exact',
  'apply',
  'use',
  'trivial',
  'contradiction',
  'cases',
  'induction',
  'tauto',
  'contrapose!',
  'revert',
  'split',
  'left',
  'right',
];

export interface ProofPrecheck {
  /** The word `sorry` (upstream marks such a proof incorrect). */
  containsSorry: boolean;
  /** `admit`, which upstream does not detect. */
  containsAdmit: boolean;
  /** `simp` or a variant: the only "banned" tactic, reported but not failing upstream. */
  usesSimp: boolean;
  /** Tactics outside the allowed list, in order of first use. */
  disallowedTactics: string[];
}

/** Static checks on a raw proof (tactic block), reported separately from Lean's verdict. */
export function precheckProof(code: string): ProofPrecheck {
  const withoutComments = code.replace(/--[^\n]*/g, '');
  const word = (w: string) => new RegExp(`(?<![\\p{L}\\p{N}_'.])${w}(?![\\p{L}\\p{N}_'])`, 'u').test(withoutComments);
  const allowed = new Set(ALLOWED_TACTICS);
  const disallowed: string[] = [];
  let depth = 0; // open brackets carried over from earlier lines: such a line continues a term, not a tactic
  for (const rawLine of withoutComments.split('\n')) {
    const startDepth = depth;
    for (const c of rawLine) {
      if (c === '[' || c === '(' || c === '{') depth++;
      else if ((c === ']' || c === ')' || c === '}') && depth > 0) depth--;
    }
    if (startDepth > 0) continue;
    // Induction/cases arms: the tactic, if any, follows `=>`.
    let line = rawLine.trim().replace(/^[·.]\s*/, '');
    if (line.startsWith('|')) {
      const arrow = line.indexOf('=>');
      line = arrow >= 0 ? line.slice(arrow + 2) : '';
    }
    for (const segment of line.split(/<;>|;/)) {
      const m = /^\s*\(?\s*([A-Za-z_][A-Za-z0-9_']*!?)/.exec(segment);
      if (!m) continue;
      const tactic = m[1];
      if (tactic === 'by' || tactic === 'with' || tactic === 'at') continue;
      if (!allowed.has(tactic) && !disallowed.includes(tactic)) disallowed.push(tactic);
    }
  }
  return {
    containsSorry: word('sorry'),
    containsAdmit: word('admit'),
    usesSimp: /(?<![\p{L}\p{N}_'.])simp(?:_all|_arith|a)?[?!]?(?![\p{L}\p{N}_'])/u.test(withoutComments),
    disallowedTactics: disallowed,
  };
}
