// Reads O-NNG results in the upstream folder layout (Obfuscated-NNG results/; see README.md here) into the same outcome rows the
// per-problem CSV gives, plus a static pre-check of every raw proof kept apart from Lean's verdict.
// Accepted layout and assumptions: see README.md next to this file.
import { type OutcomeRow, type ProofPrecheck, precheckProof } from './analytics.ts';
import { quoted } from '../../limits.ts';

export interface UpstreamFile {
  path: string;
  text: string;
}

/** One raw proof's static pre-check, next to what the verifier said about sorry (null: run not verified). */
export interface PrecheckRow extends ProofPrecheck {
  model: string;
  lambda: number;
  run: number;
  problemId: number;
  verifiedSorry: boolean | null;
}

export interface UpstreamResults {
  rows: OutcomeRow[];
  prechecks: PrecheckRow[];
  /** Human sentences about what was skipped or guessed (never fatal). */
  warnings: string[];
  /** Files the reader does not use (plots, generated_proofs_*.jsonl, …). */
  ignored: string[];
}

export interface UpstreamOptions {
  /** statistics.json-like verdict files given apart from the folder; they override the folder's verdicts. */
  verdicts?: UpstreamFile[];
  /** Problem names by id (e.g. from the dataset's theorems.jsonl); the folder itself does not carry them. */
  problemNames?: Record<number, string>;
}

/** Used when a result file sits directly in a level folder with no model folder above it. */
export const UNNAMED_MODEL = '(unnamed model)';

/** The O-NNG modules (NNG4 worlds) by problem id, in the order the 68 problems are posed: [name, first id, last id]. */
export const ONNG_MODULES: readonly (readonly [string, number, number])[] = [
  ['Addition', 1, 7],
  ['Implication', 8, 17],
  ['Algorithm', 18, 20],
  ['Multiplication', 21, 29],
  ['Power', 30, 38],
  ['AdvAddition', 39, 44],
  ['LessOrEqual', 45, 58],
  ['AdvMultiplication', 59, 68],
];
export const onngModuleOf = (id: number): string => ONNG_MODULES.find(([, a, b]) => id >= a && id <= b)?.[0] ?? 'Other';

/** Longest level name read: `obfuscated_5`, `lambda_0.6`; a longer folder or key is no level. */
const LEVEL_NAME_CHARS = 32;

/** The digits `D+` or `D+.D+` that make up all of `text`, as a number; null for anything else. */
function plainDecimal(text: string): number | null {
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46 && i > 0 && i < text.length - 1 && dots++ === 0) continue;
    if (c < 48 || c > 57) return null;
  }
  return text === '' ? null : Number(text);
}

/**
 * λ of a level folder: `original` → 0, `obfuscated_K` → 0.2·K (as upstream), `lambda_0.6` / `lam0.6` → 0.6.
 * Read by hand in one pass over at most LEVEL_NAME_CHARS characters, no regular expression, so no folder name or
 * statistics.json key costs more than its length.
 */
export function levelLambda(name: string): number | null {
  if (name === 'original') return 0;
  if (name.length > LEVEL_NAME_CHARS) return null;
  if (name.startsWith('obfuscated_')) {
    const k = plainDecimal(name.slice('obfuscated_'.length));
    return k !== null && Number.isInteger(k) && !name.includes('.') ? Math.round(k * 2) / 10 : null;
  }
  const lower = name.toLowerCase();
  const prefix = ['lambda', 'lam', 'λ'].find(
    (p) => lower.startsWith(p) && plainDecimal(lower.slice(p.length).replace(/^[_=-]/, '')) !== null,
  );
  return prefix === undefined ? null : plainDecimal(lower.slice(prefix.length).replace(/^[_=-]/, ''));
}

interface RunVerdict {
  errorIds: Set<number>;
  sorryIds: Set<number>;
  simpIds: Set<number>;
  total: number;
}
interface RawOutput {
  draft: string;
  code: string;
}

const runKey = (model: string, lambda: number, run: number) => `${model}\u0000${lambda}\u0000${run}`;
/** Python's len(): code points, not UTF-16 units (obfuscated names may leave the BMP). */
const codePoints = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

function toId(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
}

function idSet(v: unknown, what: string, where: string): Set<number> {
  if (v === undefined || v === null) return new Set();
  if (!Array.isArray(v)) throw new Error(`${where}: ${what} should be a list of problem ids`);
  const out = new Set<number>();
  for (const x of v) {
    const id = toId(x);
    if (id === null) throw new Error(`${where}: ${what} holds ${quoted(String(x))}, which is not a problem id`);
    out.add(id);
  }
  return out;
}

/**
 * banned_tactics_usage: upstream bans only simp, so any entry for a problem means simp. Accepted:
 * {"12": "simp" | ["simp"] | 1}, {"simp": [12, 30]}, [12, 30] or [{"id": 12, …}].
 */
function simpIds(v: unknown): Set<number> {
  const out = new Set<number>();
  if (v === undefined || v === null) return out;
  if (Array.isArray(v)) {
    for (const x of v) {
      const id =
        toId(x) ??
        (x && typeof x === 'object' ? toId((x as Record<string, unknown>).id ?? (x as Record<string, unknown>).problem_id) : null);
      if (id !== null) out.add(id);
    }
    return out;
  }
  if (typeof v === 'object') {
    for (const [key, value] of Object.entries(v as Record<string, unknown>)) {
      const id = toId(key);
      if (id !== null) {
        if (value !== 0 && value !== false && !(Array.isArray(value) && value.length === 0)) out.add(id);
        continue;
      }
      if (Array.isArray(value))
        for (const x of value) {
          const i = toId(x);
          if (i !== null) out.add(i);
        }
      else if (value && typeof value === 'object')
        for (const k of Object.keys(value)) {
          const i = toId(k);
          if (i !== null) out.add(i);
        }
    }
  }
  return out;
}

function readRun(run: unknown, index: number, where: string): { run: number; verdict: RunVerdict } {
  if (!run || typeof run !== 'object') throw new Error(`${where}: run ${index + 1} is not an object`);
  const r = run as Record<string, unknown>;
  const number = toId(r.run) ?? index + 1;
  const at = `${where}, run ${number}`;
  const errorIds = idSet(r.error_ids, 'error_ids', at);
  const sorryIds = idSet(r.sorry_ids, 'sorry_ids', at);
  const total = typeof r.total === 'number' && Number.isInteger(r.total) ? r.total : 0;
  return { run: number, verdict: { errorIds, sorryIds, simpIds: simpIds(r.banned_tactics_usage), total } };
}

/** The levels of a statistics.json-like object: {datasets: {level: {runs}}}, {level: {runs}} or {runs} (level from the path). */
function statisticsLevels(json: unknown, pathLevel: string | null, where: string): [string, unknown[]][] {
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new Error(`${where}: a verdict file should be a JSON object like upstream statistics.json`);
  const o = json as Record<string, unknown>;
  if (Array.isArray(o.runs)) {
    const level = typeof o.dataset === 'string' ? o.dataset : typeof o.level === 'string' ? o.level : pathLevel;
    if (level === null)
      throw new Error(`${where}: a file with "runs" needs a "dataset" name (original, obfuscated_K) or to sit in a level folder`);
    return [[level, o.runs]];
  }
  const datasets = o.datasets && typeof o.datasets === 'object' ? (o.datasets as Record<string, unknown>) : o;
  const out: [string, unknown[]][] = [];
  for (const [level, value] of Object.entries(datasets)) {
    if (value && typeof value === 'object' && Array.isArray((value as Record<string, unknown>).runs))
      out.push([level, (value as Record<string, unknown>).runs as unknown[]]);
  }
  if (out.length === 0)
    throw new Error(`${where}: no level with a "runs" list (expected {"datasets": {"original": {"runs": [...]}, ...}})`);
  return out;
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${where} is not valid JSON (${(e as Error).message})`, { cause: e });
  }
}

/** One result_<run>.jsonl: a {draft, code} per line in id order (an "id" key, when present, wins). */
function readOutputs(text: string, where: string, warnings: string[]): Map<number, RawOutput> {
  const out = new Map<number, RawOutput>();
  const lines = text.split(/\r?\n/);
  let id = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    id++;
    let value: unknown;
    try {
      value = JSON.parse(lines[i]);
    } catch {
      warnings.push(`${where} line ${i + 1} is not valid JSON; problem ${id} has no raw output`);
      continue;
    }
    if (!value || typeof value !== 'object') {
      warnings.push(`${where} line ${i + 1} is not a {"draft", "code"} object`);
      continue;
    }
    const o = value as Record<string, unknown>;
    const own = toId(o.id ?? o.problem_id);
    if (own !== null) id = own;
    const text = (k: string) => {
      const v = o[k] ?? o[k[0].toUpperCase() + k.slice(1)];
      return typeof v === 'string' ? v : '';
    };
    out.set(id, { draft: text('draft'), code: text('code') });
  }
  return out;
}

function readTimes(text: string, where: string): (number | null)[] {
  let json = parseJson(text, where);
  if (json && typeof json === 'object' && !Array.isArray(json) && Array.isArray((json as Record<string, unknown>).times))
    json = (json as Record<string, unknown>).times;
  if (!Array.isArray(json)) throw new Error(`${where} should be a list of seconds, one per problem`);
  return json.map((t) => (typeof t === 'number' && Number.isFinite(t) ? t : null));
}

interface RunData {
  model: string;
  lambda: number;
  run: number;
  outputs?: Map<number, RawOutput>;
  times?: (number | null)[];
  verdict?: RunVerdict;
}

/**
 * Reads results/<model>/<level>/result_<run>.jsonl and time_<run>.json, and results/<model>/statistics.json
 * (plus verdict files given apart). A run with outputs or times but no verdict counts as never verified, as
 * upstream leaves aborted runs out of statistics.json.
 */
export function readUpstreamResults(files: UpstreamFile[], options: UpstreamOptions = {}): UpstreamResults {
  const warnings: string[] = [];
  const ignored: string[] = [];
  const runs = new Map<string, RunData>();
  const get = (model: string, lambda: number, run: number): RunData => {
    const key = runKey(model, lambda, run);
    if (!runs.has(key)) runs.set(key, { model, lambda, run });
    return runs.get(key)!;
  };
  const applyStatistics = (json: unknown, model: string, pathLevel: string | null, where: string) => {
    for (const [level, list] of statisticsLevels(json, pathLevel, where)) {
      const lambda = levelLambda(level);
      if (lambda === null) {
        warnings.push(`${where}: level ${quoted(level)} is not original or obfuscated_K; skipped`);
        continue;
      }
      list.forEach((r, i) => {
        const { run, verdict } = readRun(r, i, `${where}, ${level}`);
        get(model, lambda, run).verdict = verdict;
      });
    }
  };
  const models = new Set<string>();
  for (const file of files) {
    const parts = file.path
      .replace(/\\/g, '/')
      .split('/')
      .filter((p) => p !== '' && p !== '.');
    const name = parts[parts.length - 1] ?? '';
    const parent = parts[parts.length - 2] ?? null;
    const output = /^result_(\d+)\.jsonl$/.exec(name);
    const timing = /^time_(\d+)\.json$/.exec(name);
    if (output || timing) {
      const lambda = parent === null ? null : levelLambda(parent);
      if (lambda === null) {
        warnings.push(`${file.path}: its folder ${quoted(parent ?? '')} is not a level (original, obfuscated_K); skipped`);
        continue;
      }
      const model = parts[parts.length - 3] ?? UNNAMED_MODEL;
      models.add(model);
      const data = get(model, lambda, Number((output ?? timing)![1]));
      if (output) data.outputs = readOutputs(file.text, file.path, warnings);
      else data.times = readTimes(file.text, file.path);
    } else if (/statistics\.json$/.test(name)) {
      const json = parseJson(file.text, file.path);
      const parentIsLevel = parent !== null && levelLambda(parent) !== null;
      const model =
        typeof (json as Record<string, unknown>)?.model === 'string'
          ? (json as Record<string, string>).model
          : ((parentIsLevel ? parts[parts.length - 3] : parent) ?? UNNAMED_MODEL);
      models.add(model);
      applyStatistics(json, model, parentIsLevel ? parent : null, file.path);
    } else ignored.push(file.path);
  }
  for (const v of options.verdicts ?? []) {
    const json = parseJson(v.text, v.path);
    const named = (json as Record<string, unknown>)?.model;
    let model: string;
    if (typeof named === 'string') model = named;
    else if (models.size === 1) model = [...models][0];
    else
      throw new Error(
        `${v.path}: say which model these verdicts belong to (add "model": "<name>"); ` +
          `${models.size === 0 ? 'no results are loaded' : `loaded: ${[...models].join(', ')}`}`,
      );
    if (!models.has(model) && models.size > 0) warnings.push(`${v.path}: model ${quoted(model)} has no raw outputs loaded`);
    models.add(model);
    const parts = v.path.replace(/\\/g, '/').split('/');
    const parent = parts[parts.length - 2] ?? null;
    applyStatistics(json, model, parent !== null && levelLambda(parent) !== null ? parent : null, v.path);
  }
  if (runs.size === 0)
    throw new Error(
      'no result_<run>.jsonl, time_<run>.json or statistics.json found (expected results/<model>/<level>/result_<run>.jsonl)',
    );

  const ordered = [...runs.values()].sort((a, b) =>
    a.model < b.model ? -1 : a.model > b.model ? 1 : a.lambda - b.lambda || a.run - b.run,
  );
  const rows: OutcomeRow[] = [];
  const prechecks: PrecheckRow[] = [];
  for (const data of ordered) {
    const { model, lambda, run, outputs, times, verdict } = data;
    const ids = new Set<number>();
    for (const id of outputs?.keys() ?? []) ids.add(id);
    times?.forEach((_t, i) => ids.add(i + 1));
    if (verdict) {
      for (let id = 1; id <= verdict.total; id++) ids.add(id);
      for (const id of [...verdict.errorIds, ...verdict.sorryIds, ...verdict.simpIds]) ids.add(id);
    }
    if (outputs && times && outputs.size !== times.length)
      warnings.push(`${model} λ=${lambda} run ${run}: ${outputs.size} raw outputs but ${times.length} times`);
    for (const id of [...ids].sort((a, b) => a - b)) {
      const out = outputs?.get(id);
      const error = verdict ? verdict.errorIds.has(id) : null;
      const sorry = verdict ? verdict.sorryIds.has(id) : null;
      const row: OutcomeRow = {
        model,
        lambda,
        run,
        problemId: id,
        verified: verdict ? true : null,
        correct: verdict ? !error && !sorry : null,
        containsSorry: sorry,
        usesSimp: verdict ? verdict.simpIds.has(id) : null,
        timeS: times?.[id - 1] ?? null,
        module: onngModuleOf(id),
        leanError: error,
        draftChars: out ? codePoints(out.draft) : null,
        codeChars: out ? codePoints(out.code) : null,
      };
      const problemName = options.problemNames?.[id];
      if (problemName !== undefined) row.problem = problemName;
      rows.push(row);
      if (out) prechecks.push({ model, lambda, run, problemId: id, verifiedSorry: sorry, ...precheckProof(out.code) });
    }
  }
  return { rows, prechecks, warnings, ignored };
}

/** Pre-check counts per model and λ (proofs read from raw outputs, not Lean's verdict). */
export interface PrecheckSummary {
  model: string;
  lambda: number;
  proofs: number;
  contains_sorry: number;
  contains_admit: number;
  uses_simp: number;
  /** Proofs using at least one tactic outside the prompt's allowed list. */
  outside_allowed: number;
  /** Tactics outside the allowed list → number of proofs using them, most used first. */
  outside_tactics: Record<string, number>;
  /** Proofs whose run was verified; of those, how many the verifier listed in sorry_ids. */
  verified: number;
  verified_sorry: number;
  /** Verified proofs where the pre-check's sorry flag and the verifier's sorry_ids disagree. */
  sorry_disagreements: number;
}

export function summarizePrechecks(prechecks: PrecheckRow[]): PrecheckSummary[] {
  const groups = new Map<string, PrecheckRow[]>();
  for (const p of prechecks) {
    const key = `${p.model}\u0000${p.lambda}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(p);
  }
  return [...groups.values()]
    .map((list) => {
      const tactics = new Map<string, number>();
      for (const p of list) for (const t of p.disallowedTactics) tactics.set(t, (tactics.get(t) ?? 0) + 1);
      const verified = list.filter((p) => p.verifiedSorry !== null);
      return {
        model: list[0].model,
        lambda: list[0].lambda,
        proofs: list.length,
        contains_sorry: list.filter((p) => p.containsSorry).length,
        contains_admit: list.filter((p) => p.containsAdmit).length,
        uses_simp: list.filter((p) => p.usesSimp).length,
        outside_allowed: list.filter((p) => p.disallowedTactics.length > 0).length,
        outside_tactics: Object.fromEntries([...tactics].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))),
        verified: verified.length,
        verified_sorry: verified.filter((p) => p.verifiedSorry).length,
        sorry_disagreements: verified.filter((p) => p.verifiedSorry !== p.containsSorry).length,
      };
    })
    .sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : a.lambda - b.lambda));
}
