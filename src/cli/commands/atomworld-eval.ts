/**
 * `structlab atomworld eval CASES.jsonl ANSWERS.jsonl`: judges a batch of model answers in worker threads
 * and summarises per action. Each case has a time budget: a thread that overruns it is ended and replaced,
 * the case is reported as "Timeout" and the batch goes on. A junk line is reported and skipped.
 */
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runPool } from '../pool.ts';
import {
  type AtomworldCaseVerdict,
  type AtomworldJob,
  type AtomworldReadJob,
  duplicateCaseSentence,
  judgeAtomworldJob,
  readJobAhead,
  summariseAtomworld,
} from '../../core/tasks/atomworld/batch.ts';
import { lintAtomworldCase, type LintCase } from '../../core/tasks/atomworld/lint.ts';
import { LIMITS, quoted, groupedNumber } from '../../core/limits.ts';
import { numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { inputName, toStrictJson } from '../io.ts';
import { closeSync, openSync } from 'node:fs';
import { progressReporter } from '../progress.ts';
import { inShard, partialHead, shardOption, type Shard } from '../shard.ts';
import { readLineAt, readLinesSync, type InputLineAt } from '../stream.ts';

/** Cases judged per round of threads: bounds the cases held at once (their CIFs and answers), not the batch. */
const BLOCK_CASES = 4096;
/**
 * Cases whose CIFs this thread reads ahead of the judging threads (batch.ts, `readJobAhead`), and the slice of time it
 * reads in before it looks at the threads' messages again.
 */
const READ_AHEAD_CASES = 64;
const READ_AHEAD_SLICE_MS = 4;

/**
 * Characters of answer text an AnswerIndex holds from a file; beyond them it keeps only each line's place. Reading an
 * answer again costs a system call and a second parse (21 µs an answer on the oracle's 437 pairs, 2% of the main
 * thread's time), and 32 Mi characters hold most batches whole (the 437 pairs: 0.8 Mi).
 */
const ANSWER_TEXT_KEPT = 1 << 25;

export const ATOMWORLD_EVAL_HELP = `usage: structlab atomworld eval CASES.jsonl ANSWERS.jsonl [--workers N] [--case-timeout SECONDS] \
[--lint]
       [--shard I/N]

Judges raw model answers against the cases' targets as the benchmark does and
prints {"cases": [{id, action, correct, wrong_type, rmsd, max_dist}, ...], "by_action": {ACTION:
{n, success_rate, mean_max_dist, errors: {WrongType: k}}}} (mean_max_dist over successful cases).
  CASES.jsonl    rows with at least id, action and after_cif (the golden generated_cases.jsonl layout)
  ANSWERS.jsonl  rows with id and answer (the raw model text; the CIF between the last <cif>…</cif>)
  --workers N    worker threads (default: CPU count − 1, at most 8; 0 = in this thread, where no time
                 budget can apply: a case that runs for ever holds up the batch)
  --case-timeout SECONDS
                 time budget of one case (default ${LIMITS.caseMilliseconds / 1000}); a case past it is reported with
                 wrong_type "Timeout" (its thread is ended and replaced) and the batch goes on
  --lint         also run the prompt lint on cases that carry prompt, params and before_cif, adding
                 "lint": [codes] to each case and "lint_flagged": k to each action (off by default, so the
                 output keeps exactly the documented shape)
A case without an answer row counts as OutputFormatError; an evaluator exception (or a thread that runs out
of memory) as Unknown; an answer beyond the resource limits (e.g. a match of more than ${LIMITS.matchWork.toExponential(0)}
site-pair evaluations; structlab --help: --limit) as ResourceLimit. A case id given twice in CASES is refused (exit 2,
naming both lines): answers are paired with cases by id. A line that is not a JSON object with the needed fields is skipped
with a warning naming its file and line, and listed in "skipped": [{"file", "line", "error"}] (present only
when a line was skipped); the other lines are judged as usual. At most ${groupedNumber(LIMITS.batchRows)} lines per file.
Both files are streamed: CASES is judged in blocks of ${groupedNumber(BLOCK_CASES)} cases, and of ANSWERS the text of the first
${ANSWER_TEXT_KEPT / 2 ** 20} Mi characters is kept and only the place of each later line (standard input: the text), so memory grows
with the verdicts, not with the CIFs.
A progress line (rate) is shown on standard error when it is a terminal.
  --shard I/N    judge only cases k with k mod N = I (k counts the usable cases of CASES in order) and
                 print a partial report; structlab merge combines the N partial reports into this report
                 (docs/scale-out.md)
`;

/** Skipped lines named one by one on standard error before the rest are counted. */
const SKIP_WARNINGS_SHOWN = 20;

type Row = Record<string, unknown>;
export interface SkippedLine {
  file: string;
  line: number;
  error: string;
}

/** One JSON object per line, streamed; junk lines are recorded in `skipped`, not fatal. */
function* readJsonl(path: string, what: string, skipped: SkippedLine[]): Generator<{ row: Row; line: number; at: InputLineAt }> {
  const name = inputName(path);
  for (const at of readLinesSync(path)) {
    if (at.text.trim() === '') continue;
    let row: unknown;
    try {
      row = JSON.parse(at.text);
    } catch {
      skipped.push({ file: name, line: at.line, error: `not valid JSON (${what} must be one JSON object per line)` });
      continue;
    }
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      skipped.push({ file: name, line: at.line, error: 'expected a JSON object' });
      continue;
    }
    yield { row: row as Row, line: at.line, at };
  }
}

const idOf = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null);

/**
 * The answers by id. From a file the text of the first answers is kept, up to ANSWER_TEXT_KEPT characters, and of the
 * rest only each line's place (memory grows with the number of answers, not their text): such an answer is read
 * again when its case is judged. Standard input is held as text.
 */
export class AnswerIndex {
  private readonly places = new Map<string, { offset: number; bytes: number } | string>();
  private fd: number | null = null;
  private textKept = 0;

  constructor(
    private readonly path: string,
    skipped: SkippedLine[],
    textBudget = ANSWER_TEXT_KEPT,
  ) {
    const name = inputName(path);
    const skip = (line: number, error: string) => skipped.push({ file: name, line, error });
    for (const { row, line, at } of readJsonl(path, 'answers', skipped)) {
      const id = idOf(row.id);
      if (id === null) skip(line, 'the row has no "id" (a string or a number)');
      else if (typeof row.answer !== 'string') skip(line, `"answer" of id ${quoted(id)} must be the model's text as a string`);
      else if (this.places.has(id)) skip(line, `id ${quoted(id)} appears twice; the first row is used`);
      else if (path === '-' || this.textKept + row.answer.length <= textBudget) {
        this.places.set(id, row.answer);
        if (path !== '-') this.textKept += row.answer.length;
      } else this.places.set(id, { offset: at.offset, bytes: at.bytes });
    }
  }

  has = (id: string): boolean => this.places.has(id);
  ids = (): Iterable<string> => this.places.keys();

  get(id: string): string | null {
    const place = this.places.get(id);
    if (place === undefined) return null;
    if (typeof place === 'string') return place;
    this.fd ??= openSync(this.path, 'r');
    return (JSON.parse(readLineAt(this.fd, place)) as { answer: string }).answer;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

interface CaseRow {
  k: number;
  id: string;
  action: string;
  targetCif: string;
}

/**
 * The usable cases of CASES in order, streamed: k counts them (the shard partition), `seen` collects their ids.
 * A case that carries prompt, params and before_cif gets its lint codes when `lint` is given.
 */
function* readCases(
  casesPath: string,
  skipped: SkippedLine[],
  seen: Set<string>,
  lint: Map<string, string[] | null> | null,
  shard: Shard | undefined,
): Generator<CaseRow> {
  const casesName = inputName(casesPath);
  const skip = (line: number, error: string) => skipped.push({ file: casesName, line, error });
  let k = 0;
  const firstLine = new Map<string, number>();
  for (const { row, line } of readJsonl(casesPath, 'cases', skipped)) {
    const id = idOf(row.id);
    if (id === null) {
      skip(line, 'the case has no "id" (a string or a number)');
      continue;
    }
    // Answers are paired with cases by id: with two cases of one id, neither pairing can be trusted.
    const first = firstLine.get(id);
    if (first !== undefined) throw new CliError(duplicateCaseSentence(casesName, id, first, line));
    firstLine.set(id, line);
    if (typeof row.action !== 'string') {
      skip(line, `case ${quoted(id)} has no "action"`);
      continue;
    }
    if (typeof row.after_cif !== 'string') {
      skip(line, `case ${quoted(id)} has no "after_cif" (the target CIF)`);
      continue;
    }
    seen.add(id);
    const mine = inShard(shard, k);
    if (mine && lint) lint.set(id, lintCodes(row, id, row.action, row.after_cif));
    if (mine) yield { k, id, action: row.action, targetCif: row.after_cif };
    k++;
  }
}

/** The prompt-lint codes of a case that carries prompt, params and before_cif; null for one that does not. */
function lintCodes(row: Row, id: string, action: string, afterCif: string): string[] | null {
  if (
    !(typeof row.prompt === 'string' && row.params && typeof row.params === 'object' && !Array.isArray(row.params)) ||
    typeof row.before_cif !== 'string'
  )
    return null;
  const lc: LintCase = { id, action, params: row.params as Row, prompt: row.prompt, before_cif: row.before_cif, after_cif: afterCif };
  try {
    return lintAtomworldCase(lc).map((issue) => issue.code);
  } catch {
    return ['lint-failed'];
  }
}

/** A job as the judging threads get it: read ahead in this thread, wholly or in part (batch.ts, `readJobAhead`). */
type SentJob = AtomworldJob | AtomworldReadJob;

const failedVerdict = (job: SentJob, wrongType: string): AtomworldCaseVerdict => ({
  id: job.id,
  action: job.action,
  correct: false,
  wrong_type: wrongType,
  rmsd: null,
  max_dist: null,
});

/**
 * V8's interrupt budget for this process (its default, 67,584, times 8): a function is optimised by TurboFan after
 * eight times as much of its bytecode has run. A batch is a short process that runs each of hundreds of functions a
 * few hundred times, and TurboFan's background compiles of them took more CPU than they gave back. Paired rounds on
 * two cores: the oracle's 437 pairs took 0.81× the CPU time and 0.94× the wall time, 0.92× with the other core busy
 * (where CPU time is what counts, as on a cluster node running a shard per core); 2,500 generated cases 0.92× the CPU
 * and the same wall time (1.03× and 0.98× in two sets of rounds); 42 answers to 24–240-site supercells 0.91× the CPU
 * and 1.02× the wall time. Not for the CLI as a whole: `fem run`'s solvers are a few loops run very often, which want
 * TurboFan early (1.10× the wall time on a 1,015-element frame).
 */
const BATCH_INTERRUPT_BUDGET = 8 * 67_584;

/**
 * Whether this process may switch TurboFan off while a block's last cases are judged: not where node was started
 * with flags of its own on optimisation (`--no-opt`, `--jitless`...), which switching it back on would override.
 */
const mayPauseOptimiser = (): boolean =>
  ![...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) => /opt|turbofan|jit|maglev/i.test(a));

/**
 * TurboFan off (`on` false) once every case of a block is with a thread, on again when the block is judged. A function
 * that turns hot in the last few cases is compiled for nothing, and a thread that ends waits for its compiles in
 * flight before it is torn down: on the oracle's 437 pairs, 25–30 ms from the last verdict to the process's exit
 * went to that (three runs each way), and in 16 paired rounds the whole run took 0.983× the time and 0.974× the
 * CPU. Code already optimised stays optimised.
 */
function pauseOptimiser(on: boolean): void {
  setFlagsFromString(on ? '--turbofan' : '--no-turbofan');
}

export async function runAtomworldEval(argv: string[], warn: (line: string) => void): Promise<string> {
  // Process-wide, worker threads included: this process runs this command alone.
  setFlagsFromString(`--interrupt-budget=${BATCH_INTERRUPT_BUDGET}`);
  // Young-generation collections in the collecting thread alone: the batch keeps every core busy (the judging threads,
  // this thread reading ahead, TurboFan), so the helpers of a parallel scavenge waited for a core and each pause lasted
  // longer (3 ms on average in this thread). 0.976x the time on the oracle's 437 pairs (16 paired rounds), 0.982x with
  // the other core busy, 0.976x on 2,500 cases; 1.00x on 42 supercell answers.
  setFlagsFromString('--no-parallel-scavenge');
  // The young generation kept at its starting size (1 MiB a semi-space; V8 reads the factor each time it would grow it,
  // so it applies to this thread's heap, set up before, as to the threads'). Grown, it reached 16 MiB a semi-space,
  // and every new page was a page fault, which costs several microseconds in a virtual machine: 16,600 faults a run
  // against 12,200. On the oracle's 437 pairs 0.946x the time and 0.947x the CPU (14 paired rounds); 0.967x on
  // 2,500 generated cases and 0.982x on 42 supercell answers (5 rounds each).
  setFlagsFromString('--semi-space-growth-factor=1');
  const { positionals, options } = parseArgs(argv, [
    { name: 'workers', kind: 'string' },
    { name: 'lint', kind: 'flag' },
    { name: 'case-timeout', kind: 'string' },
    { name: 'shard', kind: 'string' },
  ]);
  const shard = shardOption(options.shard);
  if (positionals.length !== 2)
    throw new CliError('atomworld eval takes CASES.jsonl and ANSWERS.jsonl (see structlab atomworld eval --help)');
  if (positionals[0] === '-' && positionals[1] === '-') throw new CliError('only one of CASES and ANSWERS can be standard input');
  const defaultWorkers = Math.max(1, Math.min(8, availableParallelism() - 1));
  const requested = numberOption(options, 'workers', defaultWorkers, 0, 64);
  if (!Number.isInteger(requested)) throw new CliError(`--workers must be a whole number, got ${requested}`);
  const budgetSeconds = numberOption(options, 'case-timeout', LIMITS.caseMilliseconds / 1000, 0.001, 86_400);
  if (requested === 0 && options['case-timeout'] !== undefined)
    warn('warning: --workers 0 judges in this thread, where --case-timeout cannot apply');
  const skipped: SkippedLine[] = [];
  const casesName = inputName(positionals[0]),
    answersName = inputName(positionals[1]);
  let answers = null as AnswerIndex | null;
  const seen = new Set<string>();
  const lint = options.lint ? new Map<string, string[] | null>() : null;
  const cases: AtomworldCaseVerdict[] = [];
  const index: number[] = [];
  let missing = 0;
  const progress = progressReporter('atomworld eval', 'cases');
  const budgetMs = Math.round(budgetSeconds * 1000);
  const optimiserPausable = requested > 0 && mayPauseOptimiser();
  // In this thread, while threads judge; with --workers 0 this thread judges and reads as it goes.
  const readAhead = requested > 0;
  const readWhenTaken = requested === 1;
  let readingAhead: NodeJS.Immediate | null = null;
  try {
    const caseRows = readCases(positionals[0], skipped, seen, lint, shard);
    /** Cases read but not yet judged: a block's first few, read before its threads start to size the pool. */
    const ahead: CaseRow[] = [];
    const fillAhead = (n: number) => {
      while (ahead.length < n) {
        const r = caseRows.next();
        if (r.done) return;
        ahead.push(r.value);
      }
    };
    /** Why ANSWERS could not be indexed: raised by the first job, so that the threads already started are ended. */
    let answersError: unknown = null;
    const indexAnswers = (): AnswerIndex => {
      if (answersError !== null) throw answersError;
      return (answers ??= new AnswerIndex(positionals[1], skipped));
    };
    const jobOf = (c: CaseRow): AtomworldJob => ({ id: c.id, action: c.action, targetCif: c.targetCif, answer: indexAnswers().get(c.id) });
    /** The job of case `c` with its CIFs read here (batch.ts, `readJobAhead`), so that the judging thread need not. */
    const readJob = (c: CaseRow): SentJob => {
      const job = jobOf(c);
      try {
        return readJobAhead(job);
      } catch {
        // Never expected (readJobAhead leaves what fails to the judging thread); the job goes as it is.
        delete job.read;
        return job;
      }
    };
    /**
     * The jobs of the cases in `ahead` read already while the judging threads work: a few milliseconds at a time,
     * between the pool's messages. With one judging thread, a job the pool takes before its turn here is read when
     * taken: the thread that would otherwise read it warms up and compiles the CIF reader too (0.977x the time, 16
     * paired rounds on the oracle's 437 pairs). With more, each reads what this thread has not reached: this thread
     * alone could not read for many.
     */
    const readAheadJobs = new Map<CaseRow, SentJob>();
    const readSomeAhead = () => {
      readingAhead = null;
      const until = performance.now() + READ_AHEAD_SLICE_MS;
      for (const c of ahead) {
        if (readAheadJobs.has(c)) continue;
        if (performance.now() > until) {
          readingAhead = setImmediate(readSomeAhead);
          return;
        }
        let job: SentJob;
        try {
          job = readJob(c);
        } catch {
          return; // ANSWERS cannot be read: the pool's next job says why
        }
        readAheadJobs.set(c, job);
      }
    };
    const readAheadSoon = () => {
      if (readAhead && readingAhead === null && answers !== null) readingAhead = setImmediate(readSomeAhead);
    };
    /** One block of jobs, pulled by the pool as threads take them: CASES is read no further ahead than READ_AHEAD_CASES. */
    function* blockJobs(): Generator<SentJob> {
      for (let n = 0; n < BLOCK_CASES; n++) {
        fillAhead(readAhead ? READ_AHEAD_CASES : 1);
        const c = ahead.shift();
        if (!c) break;
        const job = readAheadJobs.get(c) ?? (readWhenTaken ? readJob(c) : jobOf(c));
        readAheadJobs.delete(c);
        readAheadSoon();
        if ('answer' in job && job.answer === null) missing++;
        index.push(c.k);
        yield job;
      }
      // Every case of the block is with a thread: nothing compiled from here on would pay back.
      if (optimiserPausable) pauseOptimiser(false);
    }
    for (;;) {
      fillAhead(Math.max(1, requested));
      if (ahead.length === 0) break;
      const start = cases.length;
      // A case past its budget, or whose thread dies under it, is a verdict of its own; the batch goes on.
      const pool = runPool<SentJob, AtomworldCaseVerdict>({
        entry: 'atomworld-eval-worker',
        workerData: null,
        tasks: blockJobs(),
        // No more threads than cases: a small batch starts only the threads it can use.
        threads: Math.min(requested, ahead.length),
        local: judgeAtomworldJob,
        onResult: (k, verdict) => {
          cases.push(verdict);
          progress.update(start + k + 1, null);
        },
        warn,
        reorderWindow: Infinity,
        isolate: {
          budgetMs,
          timedOut: (job) => failedVerdict(job, 'Timeout'),
          threadFailed: (job, why) => {
            warn(`warning: case ${quoted(job.id)}: the judging thread failed (${why}); counted as Unknown`);
            return failedVerdict(job, 'Unknown');
          },
          inThisThread: (why, threadsRan) =>
            threadsRan
              ? `warning: worker threads stopped starting (${why}); judging the remaining cases in this thread, without a time budget`
              : `warning: worker threads are unavailable (${why}); evaluating in this thread, without a time budget`,
        },
      });
      // runPool has started its threads before its first await: ANSWERS is indexed, and the first CIFs read, while they load.
      if (answers === null && answersError === null) {
        try {
          indexAnswers();
        } catch (e) {
          answersError = e;
        }
      }
      readAheadSoon();
      try {
        await pool;
      } finally {
        if (optimiserPausable) pauseOptimiser(true);
      }
    }
    // No case at all: ANSWERS is still read (its junk lines and ids are reported).
    indexAnswers();
  } finally {
    if (readingAhead !== null) clearImmediate(readingAhead);
    answers?.close();
    progress.end();
  }
  skipped.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file === casesName ? -1 : 1));
  if (seen.size === 0) {
    const first = skipped.find((s) => s.file === casesName);
    throw new CliError(
      first
        ? `${casesName} holds no usable case: every line was skipped (the first, line ${first.line}: ${first.error})`
        : `${casesName} holds no cases (one JSON object per line with id, action and after_cif)`,
    );
  }
  skipped.slice(0, SKIP_WARNINGS_SHOWN).forEach((s) => warn(`warning: ${s.file} line ${s.line}: ${s.error}; line skipped`));
  if (skipped.length > SKIP_WARNINGS_SHOWN)
    warn(`warning: ${skipped.length - SKIP_WARNINGS_SHOWN} more line(s) skipped (all are listed in "skipped")`);
  if (missing) warn(`warning: ${missing} case(s) have no answer in ${answersName}; counted as OutputFormatError`);
  let extra = 0;
  for (const id of answers!.ids()) if (!seen.has(id)) extra++;
  if (extra) warn(`warning: ${extra} answer(s) in ${answersName} match no case and were ignored`);
  const timeouts = cases.filter((c) => c.wrong_type === 'Timeout').length;
  if (timeouts)
    warn(`warning: ${timeouts} case(s) ran past the ${budgetSeconds} s budget and count as Timeout (raise it with --case-timeout)`);
  const linted = lint ? cases.map((c) => ({ ...c, lint: lint.get(c.id) ?? null })) : cases;
  if (shard) {
    // A partial report for structlab merge (docs/scale-out.md): this shard's verdicts with their case indices.
    return toStrictJson({
      partial: partialHead('atomworld eval', shard, { lint: !!options.lint }),
      total: seen.size,
      index,
      cases: linted,
      skipped,
    });
  }
  return atomworldEvalReport(linted, !!options.lint, skipped);
}

/** The report of an unsharded run; `structlab merge` builds it from partial reports with this same function. */
export function atomworldEvalReport(
  cases: (AtomworldCaseVerdict & { lint?: string[] | null })[],
  lint: boolean,
  skipped: SkippedLine[],
): string {
  const byAction = summariseAtomworld(cases);
  const extra = skipped.length ? { skipped } : {};
  if (!lint) return toStrictJson({ cases, by_action: byAction, ...extra });
  const flagged = new Map<string, number>();
  for (const c of cases) if (c.lint?.length) flagged.set(c.action, (flagged.get(c.action) ?? 0) + 1);
  const summary: typeof byAction = Object.create(null);
  for (const [a, s] of Object.entries(byAction)) summary[a] = { ...s, lint_flagged: flagged.get(a) ?? 0 } as (typeof byAction)[string];
  return toStrictJson({ cases, by_action: summary, ...extra });
}
