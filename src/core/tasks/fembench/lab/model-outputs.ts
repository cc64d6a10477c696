/**
 * A model's outputs for a task against the reference, case by case: the benchmark verdict (compare.ts, as
 * `structlab fem check`) and, for display, every numeric entry's difference (a heat map for matrices).
 * Accepts the `fem run` layout {"results": [...]} and the fembench_models layout {task_id, model,
 * benchmark_verdict, results}; cases use the golden layout {"cases": [{"inputs", "input_types"?, "output_types"?}]}.
 */
import { decodeFemInputs, type FemTypeDescriptor } from '../codec.ts';
import { compareResults, HARNESS_ATOL, HARNESS_RTOL, type CaseVerdict } from '../compare.ts';
import { alternativeSolutionCheck } from '../equivalence.ts';
import { femTask } from '../registry.ts';
import { runFemCases } from '../runner.ts';
import type { FemValue } from '../types.ts';
import { errorText } from '../../../errors.ts';

export interface CaseRecord {
  inputs: Record<string, unknown>;
  input_types?: Record<string, FemTypeDescriptor>;
  output_types?: FemTypeDescriptor;
  source?: string;
}
export interface OutputsDoc {
  taskId: string | null;
  model: string | null;
  benchmarkVerdict: boolean | null;
  results: unknown[];
}

export function parseCasesDoc(text: string, name: string): { taskId: string | null; cases: CaseRecord[] } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new Error(`${name} is not valid JSON (${errorText(e)}).`, { cause: e });
  }
  const d = doc as { cases?: unknown; task_id?: unknown } | null;
  if (!d || typeof d !== 'object' || !Array.isArray(d.cases))
    throw new Error(`${name} has no "cases" list (expected the golden layout {"cases": [{"inputs": {...}}]}).`);
  const cases = d.cases.map((c, k) => {
    const rec = c as CaseRecord | null;
    if (!rec || typeof rec !== 'object' || !rec.inputs || typeof rec.inputs !== 'object' || Array.isArray(rec.inputs))
      throw new Error(`${name}: case ${k + 1} has no "inputs" object.`);
    return rec;
  });
  return { taskId: typeof d.task_id === 'string' ? d.task_id : null, cases };
}

export function parseOutputsDoc(text: string, name: string): OutputsDoc {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new Error(`${name} is not valid JSON (${errorText(e)}).`, { cause: e });
  }
  const d = doc as { results?: unknown; task_id?: unknown; model?: unknown; benchmark_verdict?: unknown } | null;
  if (!d || typeof d !== 'object' || !Array.isArray(d.results))
    throw new Error(`${name} has no "results" list (expected the layout \`structlab fem run\` prints).`);
  return {
    taskId: typeof d.task_id === 'string' ? d.task_id : null,
    model: typeof d.model === 'string' ? d.model : null,
    benchmarkVerdict: typeof d.benchmark_verdict === 'boolean' ? d.benchmark_verdict : null,
    results: d.results,
  };
}

/** One numeric entry compared: path like "[1][3]", |Δ|, and whether it passes isclose (atol 1e-8, rtol 1e-5 of the candidate). */
export interface EntryDiff {
  path: string;
  ref: number;
  gen: number | null;
  diff: number;
  ok: boolean;
}
/** A numeric matrix (2D array) of the reference with its per-entry |Δ| for the heat map. */
export interface MatrixDiff {
  path: string;
  rows: number;
  cols: number;
  diff: number[];
  ok: boolean[];
}

const asNumber = (v: unknown): number | null => {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  return null;
};

function closeEnough(ref: number, gen: number): boolean {
  if (Number.isNaN(ref) && Number.isNaN(gen)) return true;
  if (!Number.isFinite(ref) || !Number.isFinite(gen)) return ref === gen;
  return Math.abs(ref - gen) <= HARNESS_ATOL + HARNESS_RTOL * Math.abs(gen);
}

const isMatrix = (v: unknown): v is number[][] =>
  Array.isArray(v) &&
  v.length > 1 &&
  v.every((r) => Array.isArray(r) && r.length === (v[0] as unknown[]).length && r.length > 1 && r.every((x) => asNumber(x) !== null));

/** Walks reference and candidate side by side, collecting numeric entries (shapes that differ give gen = null). */
export function entryDiffs(ref: unknown, gen: unknown, path = ''): { entries: EntryDiff[]; matrices: MatrixDiff[] } {
  const entries: EntryDiff[] = [];
  const matrices: MatrixDiff[] = [];
  const walk = (r: unknown, g: unknown, p: string) => {
    const rn = asNumber(r);
    if (rn !== null) {
      const gn = asNumber(Array.isArray(g) && g.length === 1 ? g[0] : g);
      entries.push({
        path: p || '$',
        ref: rn,
        gen: gn,
        diff: gn === null ? Infinity : Math.abs(rn - gn),
        ok: gn !== null && closeEnough(rn, gn),
      });
      return;
    }
    if (Array.isArray(r)) {
      const start = entries.length;
      r.forEach((x, i) => walk(x, Array.isArray(g) ? g[i] : undefined, `${p}[${i}]`));
      if (isMatrix(r)) {
        const mine = entries.slice(start);
        matrices.push({ path: p || '$', rows: r.length, cols: r[0].length, diff: mine.map((e) => e.diff), ok: mine.map((e) => e.ok) });
      }
      return;
    }
    if (r && typeof r === 'object') {
      const go = g && typeof g === 'object' && !Array.isArray(g) ? (g as Record<string, unknown>) : {};
      for (const [k, v] of Object.entries(r)) walk(v, go[k], `${p}.${k}`);
    }
  };
  walk(ref, gen, path);
  return { entries, matrices };
}

export interface CaseReport {
  index: number;
  source: string | null;
  verdict: CaseVerdict;
  referenceError: string | null;
  candidateError: string | null;
  entries: number;
  differing: EntryDiff[];
  maxDiff: number;
  matrices: MatrixDiff[];
}

export interface OutputsReport {
  taskId: string;
  passed: boolean;
  benchmarkVerdict: boolean | null;
  model: string | null;
  cases: CaseReport[];
}

/** The whole comparison; `differing` keeps at most `maxListed` entries per case, largest |Δ| first. */
export function compareOutputs(taskId: string, cases: CaseRecord[], outputs: OutputsDoc, maxListed = 50): OutputsReport {
  const task = femTask(taskId);
  if (!task) throw new Error(`Unknown FEM-Bench task "${taskId}".`);
  if (outputs.taskId && outputs.taskId !== taskId) throw new Error(`The outputs are for ${outputs.taskId}, not ${taskId}.`);
  const references = runFemCases(task, cases);
  const same = alternativeSolutionCheck(task);
  const alternatives = cases.map((c) =>
    same ? (ref: FemValue, cand: unknown) => same(decodeFemInputs(c.inputs, c.input_types), ref, cand) : undefined,
  );
  const { passed, cases: verdicts } = compareResults(
    taskId,
    references,
    outputs.results,
    cases.map((c) => c.output_types),
    alternatives,
  );
  const reports = verdicts.map((verdict, k): CaseReport => {
    const ref = references[k];
    const raw = outputs.results[k];
    const cand =
      raw !== null && typeof raw === 'object' && !Array.isArray(raw)
        ? (raw as { output?: unknown; error?: { type?: string; message?: string } })
        : undefined;
    const referenceError = 'error' in ref ? `${ref.error.type}: ${ref.error.message}` : null;
    const candidateError =
      cand && Object.hasOwn(cand, 'error') && cand.error
        ? `${String(cand.error.type ?? 'error')}: ${String(cand.error.message ?? '')}`
        : raw === undefined
          ? 'no result'
          : cand === undefined
            ? 'not a result object'
            : null;
    const diffs =
      'output' in ref && cand && Object.hasOwn(cand, 'output') ? entryDiffs(ref.output, cand.output) : { entries: [], matrices: [] };
    const differing = diffs.entries.filter((e) => !e.ok).sort((a, b) => b.diff - a.diff);
    return {
      index: k,
      source: cases[k].source ?? null,
      verdict,
      referenceError,
      candidateError,
      entries: diffs.entries.length,
      differing: differing.slice(0, maxListed),
      maxDiff: diffs.entries.reduce((m, e) => Math.max(m, e.diff), 0),
      matrices: diffs.matrices,
    };
  });
  return { taskId, passed, benchmarkVerdict: outputs.benchmarkVerdict, model: outputs.model, cases: reports };
}
