/**
 * `structlab atomworld eval CASES.jsonl ANSWERS.jsonl`: judges a batch of model answers in worker
 * threads and summarises per action. The command contract is synchronous, so the main thread blocks
 * on a shared array (Atomics.wait) and collects the verdicts with receiveMessageOnPort.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort, type Worker, receiveMessageOnPort } from 'node:worker_threads';
import { startCliWorker } from '../threads.ts';
import { type AtomworldCaseVerdict, type AtomworldJob, judgeAtomworldJob, summariseAtomworld } from '../../core/tasks/atomworld/batch.ts';
import { lintAtomworldCase, type LintCase } from '../../core/tasks/atomworld/lint.ts';
import { numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { readInputText, toStrictJson } from '../io.ts';
import type { EvalWorkerData } from './atomworld-eval-worker.ts';

export const ATOMWORLD_EVAL_HELP = `usage: structlab atomworld eval CASES.jsonl ANSWERS.jsonl [--workers N]

Judges raw model answers against the cases' targets as the benchmark does (atomworld.md §6) and
prints {"cases": [{id, action, correct, wrong_type, rmsd, max_dist}, ...], "by_action": {ACTION:
{n, success_rate, mean_max_dist, errors: {WrongType: k}}}} (mean_max_dist over successful cases).
  CASES.jsonl    rows with at least id, action and after_cif (the golden generated_cases.jsonl layout)
  ANSWERS.jsonl  rows with id and answer (the raw model text; the CIF between the last <cif>…</cif>)
  --workers N    worker threads (default: CPU count − 1, at most 8; 0 = in this thread)
  --lint         also run the prompt lint on cases that carry prompt, params and before_cif, adding
                 "lint": [codes] to each case and "lint_flagged": k to each action (off by default, so the
                 output keeps exactly the cli.md shape)
A case without an answer row counts as OutputFormatError; an evaluator exception as Unknown.
A progress line is shown on standard error when it is a terminal.
`;

/** A worker that has not started this long after launch is taken as unable to run here. */
const WORKER_START_TIMEOUT_MS = 30_000;

function readJsonl(path: string, what: string): { row: Record<string, unknown>; line: number }[] {
  const text = readInputText(path);
  const rows: { row: Record<string, unknown>; line: number }[] = [];
  text.split('\n').forEach((raw, k) => {
    if (raw.trim() === '') return;
    let row: unknown;
    try {
      row = JSON.parse(raw);
    } catch {
      throw new CliError(`${path} line ${k + 1}: not valid JSON (${what} must be one JSON object per line)`);
    }
    if (typeof row !== 'object' || row === null || Array.isArray(row)) throw new CliError(`${path} line ${k + 1}: expected a JSON object`);
    rows.push({ row: row as Record<string, unknown>, line: k + 1 });
  });
  return rows;
}

function buildJobs(casesPath: string, answersPath: string, warn: (line: string) => void): { jobs: AtomworldJob[]; lintCases: Map<string, LintCase> } {
  const cases = readJsonl(casesPath, 'cases');
  const answers = readJsonl(answersPath, 'answers');
  const answerById = new Map<string, string>();
  for (const { row, line } of answers) {
    if (typeof row.id !== 'string' && typeof row.id !== 'number') throw new CliError(`${answersPath} line ${line}: the row has no "id"`);
    if (typeof row.answer !== 'string') throw new CliError(`${answersPath} line ${line}: "answer" must be the model's text as a string`);
    const id = String(row.id);
    if (answerById.has(id)) throw new CliError(`${answersPath} line ${line}: id "${id}" appears twice`);
    answerById.set(id, row.answer);
  }
  const seen = new Set<string>();
  const jobs: AtomworldJob[] = [];
  const lintCases = new Map<string, LintCase>();
  for (const { row, line } of cases) {
    if (typeof row.id !== 'string' && typeof row.id !== 'number') throw new CliError(`${casesPath} line ${line}: the case has no "id"`);
    const id = String(row.id);
    if (seen.has(id)) throw new CliError(`${casesPath} line ${line}: id "${id}" appears twice`);
    seen.add(id);
    if (typeof row.action !== 'string') throw new CliError(`${casesPath} line ${line}: case "${id}" has no "action"`);
    if (typeof row.after_cif !== 'string') throw new CliError(`${casesPath} line ${line}: case "${id}" has no "after_cif" (the target CIF)`);
    jobs.push({ id, action: row.action, targetCif: row.after_cif, answer: answerById.get(id) ?? null });
    if (typeof row.prompt === 'string' && row.params && typeof row.params === 'object' && typeof row.before_cif === 'string') {
      lintCases.set(id, { id, action: row.action, params: row.params as Record<string, unknown>, prompt: row.prompt, before_cif: row.before_cif, after_cif: row.after_cif });
    }
  }
  if (jobs.length === 0) throw new CliError(`${casesPath} holds no cases (one JSON object per line with id, action and after_cif)`);
  const missing = jobs.filter((j) => j.answer === null).length;
  if (missing) warn(`warning: ${missing} case(s) have no answer in ${answersPath}; counted as OutputFormatError`);
  const extra = [...answerById.keys()].filter((id) => !seen.has(id)).length;
  if (extra) warn(`warning: ${extra} answer(s) in ${answersPath} match no case and were ignored`);
  return { jobs, lintCases };
}

function progressLine(done: number, total: number): void {
  if (process.stderr.isTTY) process.stderr.write(`\ratomworld eval: ${done}/${total} cases`);
}

/** Runs the jobs in `workers` threads; null when the threads could not run (the caller falls back). */
function runInWorkers(jobs: AtomworldJob[], workers: number, warn: (line: string) => void): AtomworldCaseVerdict[] | null {
  const shared = new SharedArrayBuffer(4 * (1 + 2 * workers));
  const flags = new Int32Array(shared);
  const threads: Worker[] = [];
  const ports: MessagePort[] = [];
  const chunks: AtomworldJob[][] = Array.from({ length: workers }, () => []);
  // Interleaved so that each thread gets a mix of actions (super_cell cases are the slow ones).
  jobs.forEach((job, k) => chunks[k % workers].push(job));
  const stopAll = () => { for (const t of threads) void t.terminate(); };
  try {
    for (let slot = 0; slot < workers; slot++) {
      const { port1, port2 } = new MessageChannel();
      const data: EvalWorkerData = { jobs: chunks[slot], shared, slot, workers, port: port2 };
      const thread = startCliWorker('atomworld-eval-worker', data, [port2]);
      thread.unref();
      threads.push(thread);
      ports.push(port1);
    }
  } catch (e) {
    stopAll();
    warn(`warning: worker threads are unavailable (${e instanceof Error ? e.message : String(e)}); evaluating in this thread`);
    return null;
  }
  const started = Date.now();
  const finished = () => { for (let s = 0; s < workers; s++) if (Atomics.load(flags, 1 + workers + s) !== 1) return false; return true; };
  const allStarted = () => { for (let s = 0; s < workers; s++) if (Atomics.load(flags, 1 + s) !== 1) return false; return true; };
  let lastDone = -1;
  while (!finished()) {
    const done = Atomics.load(flags, 0);
    if (done !== lastDone) { progressLine(done, jobs.length); lastDone = done; }
    if (!allStarted() && Date.now() - started > WORKER_START_TIMEOUT_MS) {
      stopAll();
      warn(`warning: worker threads did not start within ${WORKER_START_TIMEOUT_MS / 1000} s; evaluating in this thread`);
      return null;
    }
    Atomics.wait(flags, 0, done, 200);
  }
  progressLine(jobs.length, jobs.length);
  if (process.stderr.isTTY) process.stderr.write('\n');
  const byId = new Map<string, AtomworldCaseVerdict>();
  for (let slot = 0; slot < workers; slot++) {
    const msg = receiveMessageOnPort(ports[slot]);
    ports[slot].close();
    const result = msg?.message as AtomworldCaseVerdict[] | { error: string } | undefined;
    if (!result || !Array.isArray(result)) {
      stopAll();
      warn(`warning: a worker thread failed (${result && 'error' in result ? result.error : 'no result'}); evaluating in this thread`);
      return null;
    }
    for (const v of result) byId.set(v.id, v);
  }
  stopAll();
  return jobs.map((j) => byId.get(j.id)!);
}

function runInProcess(jobs: AtomworldJob[]): AtomworldCaseVerdict[] {
  return jobs.map((job, k) => {
    const verdict = judgeAtomworldJob(job);
    if (k % 5 === 4 || k === jobs.length - 1) progressLine(k + 1, jobs.length);
    return verdict;
  });
}

export function runAtomworldEval(argv: string[], warn: (line: string) => void): string {
  const { positionals, options } = parseArgs(argv, [{ name: 'workers', kind: 'string' }, { name: 'lint', kind: 'flag' }]);
  if (positionals.length !== 2) throw new CliError('atomworld eval takes CASES.jsonl and ANSWERS.jsonl (see structlab atomworld eval --help)');
  const defaultWorkers = Math.max(1, Math.min(8, availableParallelism() - 1));
  const requested = numberOption(options, 'workers', defaultWorkers, 0, 64);
  if (!Number.isInteger(requested)) throw new CliError(`--workers must be a whole number, got ${requested}`);
  const { jobs, lintCases } = buildJobs(positionals[0], positionals[1], warn);
  const workers = Math.min(requested, jobs.length);
  let cases: AtomworldCaseVerdict[] | null = null;
  if (workers >= 1 && jobs.length > 1) cases = runInWorkers(jobs, workers, warn);
  if (!cases) {
    cases = runInProcess(jobs);
    if (process.stderr.isTTY && jobs.length) process.stderr.write('\n');
  }
  const byAction = summariseAtomworld(cases);
  if (!options.lint) return toStrictJson({ cases, by_action: byAction });
  const linted = cases.map((c) => {
    const lc = lintCases.get(c.id);
    let lint: string[] | null = null;
    if (lc) {
      try { lint = lintAtomworldCase(lc).map((issue) => issue.code); } catch { lint = ['lint-failed']; }
    }
    return { ...c, lint };
  });
  const flagged: Record<string, number> = {};
  for (const c of linted) if (c.lint?.length) flagged[c.action] = (flagged[c.action] ?? 0) + 1;
  const summary = Object.fromEntries(Object.entries(byAction).map(([a, s]) => [a, { ...s, lint_flagged: flagged[a] ?? 0 }]));
  return toStrictJson({ cases: linted, by_action: summary });
}
