/**
 * The AtomWorld page's input files and exports, DOM-free (used by the worker and unit-tested in Node).
 *
 * Accepted layouts (one JSON object per line, or one JSON array):
 * - cases file (as `structlab atomworld eval` reads it): id, action, params, prompt, before_cif, after_cif — plus an
 *   answers file: id, answer (the model's raw text, the CIF between the last <cif>…</cif>);
 * - combined records that carry both the case and a model's answer: the golden
 *   real_samples_icml_fullprec rows (model_generated_cif, official verdict in `evaluator`) and the
 *   eval_oracle rows (case_id, target_cif, candidate_cif, `expected`). A bare generated CIF is wrapped
 *   in <cif> tags, as the benchmark's answer extraction found it.
 */
import { formatCsv } from '../../../io/csv.ts';
import { printable } from '../../../limits.ts';
import { type AtomworldActionSummary, type AtomworldCaseVerdict, duplicateCaseSentence } from '../batch.ts';

export interface InputFile {
  path: string;
  text: string;
}

/** A verdict as the benchmark's evaluator reported it (shipped with some records). */
export interface OfficialVerdict {
  correct: boolean;
  wrong_type: string | null;
  rmsd: number | null;
  max_dist: number | null;
}

export interface AtomworldCase {
  id: string;
  action: string;
  params: Record<string, unknown> | null;
  prompt: string;
  beforeCif: string | null;
  targetCif: string;
  /** The raw model answer; null when no answer was given for the case. */
  answer: string | null;
  official: OfficialVerdict | null;
  model: string | null;
}

export class InputFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputFormatError';
  }
}

type Row = { row: Record<string, unknown>; line: number };

/** A line left out of a batch: its file, 1-based line and why (as `structlab atomworld eval` reports it). */
export interface SkippedLine {
  file: string;
  line: number;
  error: string;
}

/**
 * JSONL (or a JSON array) → objects with their 1-based line numbers. A line that is not a JSON object is
 * recorded in `skipped` and left out: one junk line must not cost the rest of a batch. An empty file, or a
 * JSON array that does not parse, is an error.
 */
export function parseJsonRows(file: InputFile, what: string, skipped: SkippedLine[]): Row[] {
  const trimmed = file.text.trim();
  if (trimmed === '') throw new InputFormatError(`${file.path} is empty; expected ${what} as one JSON object per line.`);
  const rows: Row[] = [];
  const check = (row: unknown, line: number) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row))
      skipped.push({ file: file.path, line, error: `expected a JSON object (${what})` });
    else rows.push({ row: row as Record<string, unknown>, line });
  };
  if (trimmed.startsWith('[')) {
    let all: unknown;
    try {
      all = JSON.parse(trimmed);
    } catch (e) {
      throw new InputFormatError(`${file.path}: not valid JSON (${(e as Error).message}).`);
    }
    (all as unknown[]).forEach((row, k) => check(row, k + 1));
    return rows;
  }
  file.text.split('\n').forEach((raw, k) => {
    if (raw.trim() === '') return;
    let row: unknown;
    try {
      row = JSON.parse(raw);
    } catch {
      skipped.push({ file: file.path, line: k + 1, error: `not valid JSON (${what} must be one JSON object per line)` });
      return;
    }
    check(row, k + 1);
  });
  return rows;
}

/** Warnings shown for skipped lines: the first few in full, then a count. */
const SKIPPED_SHOWN = 20;

function skippedWarnings(skipped: readonly SkippedLine[]): string[] {
  const shown = skipped.slice(0, SKIPPED_SHOWN).map((s) => `${s.file} line ${s.line}: ${s.error}; the line was skipped.`);
  if (skipped.length > SKIPPED_SHOWN) shown.push(`… and ${skipped.length - SKIPPED_SHOWN} more skipped line(s).`);
  return shown;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const wrapCif = (cif: string) => `<cif>\n${cif}\n</cif>`;

function officialOf(row: Record<string, unknown>): OfficialVerdict | null {
  const v = (row.evaluator ?? row.expected) as Record<string, unknown> | undefined;
  if (!v || typeof v !== 'object' || typeof v.correct !== 'boolean') return null;
  return { correct: v.correct, wrong_type: str(v.wrong_type), rmsd: num(v.rmsd), max_dist: num(v.max_dist) };
}

/** The answer a combined record carries: raw text, or a bare generated CIF wrapped in tags. */
function embeddedAnswer(row: Record<string, unknown>): string | null {
  if (typeof row.answer === 'string') return row.answer;
  const cif = str(row.model_generated_cif) ?? str(row.candidate_cif);
  return cif === null ? null : wrapCif(cif);
}

/**
 * The cases (with answers from the answers file, or the ones the records carry), warnings and the lines left
 * out (junk, a row without the needed fields, a repeated id), each named by file and line.
 */
export function readAtomworldInputs(
  casesFile: InputFile,
  answersFile: InputFile | null,
): { cases: AtomworldCase[]; warnings: string[]; skipped: SkippedLine[] } {
  const warnings: string[] = [];
  const skipped: SkippedLine[] = [];
  const skip = (file: InputFile, line: number, error: string) => {
    skipped.push({ file: file.path, line, error });
  };
  const answerById = new Map<string, string>();
  if (answersFile) {
    for (const { row, line } of parseJsonRows(answersFile, 'answers', skipped)) {
      if (typeof row.id !== 'string' && typeof row.id !== 'number') {
        skip(answersFile, line, 'the row has no "id"');
        continue;
      }
      if (typeof row.answer !== 'string') {
        skip(answersFile, line, '"answer" must be the model\'s text as a string');
        continue;
      }
      const id = String(row.id);
      if (answerById.has(id)) {
        skip(answersFile, line, `id "${printable(id)}" appears twice`);
        continue;
      }
      answerById.set(id, row.answer);
    }
  }
  const seen = new Set<string>();
  const firstLine = new Map<string, number>();
  const cases: AtomworldCase[] = [];
  for (const { row, line } of parseJsonRows(casesFile, 'cases', skipped)) {
    const rawId = row.id ?? row.case_id;
    if (typeof rawId !== 'string' && typeof rawId !== 'number') {
      skip(casesFile, line, 'the case has no "id"');
      continue;
    }
    // eval_oracle rows judge several candidates per case: the candidate's name keeps their ids apart.
    const id = typeof row.candidate === 'string' && !answersFile ? `${rawId}:${row.candidate}` : String(rawId);
    // Answers are paired with cases by id: with two cases of one id, neither pairing can be trusted.
    const first = firstLine.get(id);
    if (first !== undefined) throw new InputFormatError(`${duplicateCaseSentence(casesFile.path, id, first, line)}.`);
    firstLine.set(id, line);
    if (typeof row.action !== 'string') {
      skip(casesFile, line, `case "${printable(id)}" has no "action"`);
      continue;
    }
    const targetCif = str(row.after_cif) ?? str(row.target_cif);
    if (targetCif === null) {
      skip(casesFile, line, `case "${printable(id)}" has no "after_cif" (the target CIF)`);
      continue;
    }
    seen.add(id);
    const params =
      row.params && typeof row.params === 'object' && !Array.isArray(row.params) ? (row.params as Record<string, unknown>) : null;
    const answer = answersFile ? (answerById.get(id) ?? null) : embeddedAnswer(row);
    cases.push({
      id,
      action: row.action,
      params,
      prompt: str(row.prompt) ?? '',
      beforeCif: str(row.before_cif),
      targetCif,
      answer,
      official: officialOf(row),
      model: str(row.model),
    });
  }
  skipped.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file === casesFile.path ? -1 : 1));
  if (cases.length === 0) {
    const first = skipped[0];
    throw new InputFormatError(
      `${casesFile.path} holds no usable case${first ? ` (${first.file} line ${first.line}: ${first.error})` : ''}; expected one ` +
        'JSON object per line with id, action and after_cif.',
    );
  }
  warnings.push(...skippedWarnings(skipped));
  const missing = cases.filter((c) => c.answer === null).length;
  if (missing) {
    warnings.push(
      answersFile
        ? `${missing} case(s) have no answer in ${answersFile.path}; they count as OutputFormatError, as in the benchmark.`
        : `${missing} case(s) carry no answer; load an answers file (rows {id, answer}) to judge them. Until then they count as ` +
            'OutputFormatError.',
    );
  }
  const extra = [...answerById.keys()].filter((id) => !seen.has(id)).length;
  if (extra) warnings.push(`${extra} answer(s) in ${answersFile!.path} match no case and were ignored.`);
  return { cases, warnings, skipped };
}

/** One row of the case list: the verdict, its lint codes and the official verdict when the file has one. */
export interface CaseRow extends AtomworldCaseVerdict {
  index: number;
  lint: string[];
  official: OfficialVerdict | null;
}

export type CaseSortKey = 'index' | 'id' | 'action' | 'correct' | 'wrong_type' | 'rmsd' | 'max_dist' | 'lint';

const sortValue = (r: CaseRow, key: CaseSortKey): string | number | null => {
  switch (key) {
    case 'lint':
      return r.lint.length;
    case 'correct':
      return r.correct ? 1 : 0;
    default:
      return r[key];
  }
};

/** Sorted copy: ascending or descending, missing values always last, ties in file order. */
export function sortCaseRows(rows: readonly CaseRow[], key: CaseSortKey, descending: boolean): CaseRow[] {
  return [...rows].sort((x, y) => {
    const a = sortValue(x, key),
      b = sortValue(y, key);
    if (a === null) return b === null ? x.index - y.index : 1;
    if (b === null) return -1;
    const c = typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
    return (descending ? -c : c) || x.index - y.index;
  });
}

/** The error classes in a fixed order (then any others alphabetically), for table columns and bars. */
export const ERROR_ORDER = [
  'OutputFormatError',
  'CIFParsingError',
  'AtomCountMismatch',
  'StructureMismatch',
  'Unknown',
  'ResourceLimit',
  'Timeout',
];

export function errorTypesOf(summary: Record<string, AtomworldActionSummary>): string[] {
  const present = new Set(Object.values(summary).flatMap((s) => Object.keys(s.errors)));
  return [...ERROR_ORDER.filter((t) => present.has(t)), ...[...present].filter((t) => !ERROR_ORDER.includes(t)).sort()];
}

export function casesCsv(rows: readonly CaseRow[]): string {
  const header = ['id', 'action', 'correct', 'wrong_type', 'rmsd', 'max_dist', 'lint', 'official_correct', 'official_wrong_type'];
  return formatCsv(
    header,
    rows.map((r) => [
      r.id,
      r.action,
      r.correct,
      r.wrong_type,
      r.rmsd,
      r.max_dist,
      r.lint.join(' '),
      r.official ? r.official.correct : null,
      r.official?.wrong_type ?? null,
    ]),
  );
}

export function actionsCsv(summary: Record<string, AtomworldActionSummary>): string {
  const types = errorTypesOf(summary);
  return formatCsv(
    ['action', 'n', 'success_rate', 'mean_max_dist', ...types],
    Object.entries(summary).map(([action, s]) => [action, s.n, s.success_rate, s.mean_max_dist, ...types.map((t) => s.errors[t] ?? 0)]),
  );
}

/** The CLI's `atomworld eval` JSON ({cases, by_action}), each case with its lint codes added. */
export function resultsJson(rows: readonly CaseRow[], summary: Record<string, AtomworldActionSummary>): string {
  const cases = rows.map((r) => ({
    id: r.id,
    action: r.action,
    correct: r.correct,
    wrong_type: r.wrong_type,
    rmsd: r.rmsd,
    max_dist: r.max_dist,
    lint: r.lint,
  }));
  return JSON.stringify({ cases, by_action: summary }, null, 1);
}
