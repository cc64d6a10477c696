/**
 * `structlab c2np eval`: the C2NP metrics of a whole split, streamed through a pool of worker threads, with the
 * split's aggregates as the upstream evaluation computes them (src/core/tasks/c2np/batch-eval.ts).
 */
import { availableParallelism } from 'node:os';
import { basename, join, relative, resolve, sep } from 'node:path';
import { lstatSync, opendirSync } from 'node:fs';
import { LIMITS, limitSentence, groupedNumber } from '../../core/limits.ts';
import { pairFilesByName } from '../../core/tasks/c2np/batch.ts';
import { C2npSplitStats, type C2npSplitKind, type ForwardRow, type InverseRow } from '../../core/tasks/c2np/batch-eval.ts';
import { formatCsv } from '../../core/io/csv.ts';
import { numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { reason, toStrictJson } from '../io.ts';
import { progressReporter } from '../progress.ts';
import { inShard, partialHead, shardOption, type Shard } from '../shard.ts';
import { readLines, StreamedOutput } from '../stream.ts';
import { runPool } from '../pool.ts';
import { evaluateTask, type EvalItem, type EvalOptions, type EvalOutcome, type EvalTask } from './c2np-eval-task.ts';

export const C2NP_EVAL_HELP = `usage: structlab c2np eval (BATCH.jsonl | --pred DIR --truth DIR) [--rows FILE] [--radius R]
                       [--no-aligned] [--workers N] [--shard I/N] [--force]

Scores a whole C2NP split: one row per structure and the split's aggregates as C2NP's evaluation computes
them. Input, streamed (memory is bounded by the worker pool, not by the input):
  BATCH.jsonl      the compare page's JSONL ("-" = standard input): forward rows {"id"?, "pred", "truth",
                   "radius"?} (particles as XYZ text or {"symbols", "positions"}) or inverse rows {"id"?,
                   "pred_lattice", "pred_sg", "true_lattice", "true_sg"}; one kind per file
  --pred DIR --truth DIR
                   two folders of structure files, paired as the compare page pairs them: by path below the
                   folder, then by file name where it is unique on both sides
Prints {"kind", "aggregates", "unpaired"?, "skipped"?}. Forward aggregates: "drop_non_finite" (ADiT,
DiffCSP, MatterGen: NaN/inf values dropped) and "average_all" (CDVAE, FlowMM: null when a value is not
finite) of rmsd, hausdorff, delta_hull_volume, rdf_error and volume_ratio, with "counts" per metric
(averaged, non_finite, undefined: rmsd of unequal atom counts, volume_ratio without a radius), "rows",
"errors" (pairs that could not be scored) and "skipped_under_2_atoms". Inverse aggregates: lattice_rmse,
sg_accuracy, joint_accuracy, count. Means are exact sums divided by counts (order-independent).
  --rows FILE      also write every row (the compare page's table), in input order: JSONL, or CSV if FILE
                   ends in .csv; refused if FILE exists, unless --force
  --radius R       particle radius in Å for volume_ratio, where a row gives none
  --no-aligned     skip the aligned comparison (aligned_rmsd, max_displacement, matched_fraction: null);
                   the upstream metrics do not need it and it is the costly part
  --workers N      worker threads (default: CPU count − 1, at most 8; 0 = in this thread)
  --shard I/N      score only rows k with k mod N = I and print a partial report for structlab merge
                   (docs/scale-out.md); the rows file then holds this shard's rows
A JSONL line that is not a row is skipped and listed in "skipped" [{"file", "line", "error"}]; a pair
that cannot be scored (unreadable file, over a limit) is a row with "error" set. At most
${groupedNumber(LIMITS.batchRows)} lines or file pairs; each line at most the inputBytes limit.
A progress line (rate, ETA) is shown on standard error when it is a terminal.
`;

/** Rows per task: enough to amortise a message, few enough that the pool's memory stays small. */
const CHUNK_ROWS = 64;
/** Characters of JSONL per task at most (big particles travel alone). */
const CHUNK_CHARS = 4 << 20;
/** Skipped lines named on standard error before the rest are only counted. */
const SKIP_WARNINGS_SHOWN = 20;
/** Skipped lines listed in the report at most (the count is always exact). */
const SKIPPED_LISTED = 10_000;

export interface Skipped {
  file: string;
  line: number;
  error: string;
}

/** Every regular file below `dir` as "DIRNAME/relative/path" (the browser's webkitRelativePath), sorted. */
function listFolder(dir: string): { path: string; file: string }[] {
  const top = basename(resolve(dir));
  const out: { path: string; file: string }[] = [];
  const walk = (at: string) => {
    let handle;
    try {
      handle = opendirSync(at);
    } catch (e) {
      throw new CliError(`${at} cannot be read as a folder (${reason(e)})`);
    }
    try {
      for (let entry = handle.readSync(); entry; entry = handle.readSync()) {
        const full = join(at, entry.name);
        const isDir = entry.isDirectory() || (entry.isSymbolicLink() && lstatSafe(full));
        if (isDir) walk(full);
        else if (entry.isFile() || entry.isSymbolicLink()) {
          if (out.length >= LIMITS.batchRows)
            throw new CliError(`${dir}: ${limitSentence('the folder', null, LIMITS.batchRows, 'files', 'batchRows')}`);
          out.push({ path: [top, ...relative(dir, full).split(sep)].join('/'), file: full });
        }
      }
    } finally {
      handle.closeSync();
    }
  };
  walk(dir);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A symbolic link to a folder is not followed (it could loop); it is then no file either. */
function lstatSafe(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

async function* chunks<T extends EvalItem>(items: AsyncIterable<T> | Iterable<T>, options: EvalOptions): AsyncGenerator<EvalTask> {
  let batch: EvalItem[] = [];
  let chars = 0;
  for await (const item of items) {
    batch.push(item);
    chars += 'text' in item ? item.text.length : 0;
    if (batch.length >= CHUNK_ROWS || chars >= CHUNK_CHARS) {
      yield { items: batch, options };
      batch = [];
      chars = 0;
    }
  }
  if (batch.length) yield { items: batch, options };
}

async function* jsonlItems(path: string, shard: Shard | undefined): AsyncGenerator<EvalItem> {
  let k = 0;
  for await (const { text, line } of readLines(path)) {
    if (text.trim() === '') continue;
    if (inShard(shard, k)) yield { k, line, text };
    k++;
  }
}

const FORWARD_CSV = [
  'index',
  'id',
  'n_pred',
  'n_truth',
  'rmsd',
  'hausdorff',
  'delta_hull_volume',
  'rdf_error',
  'volume_ratio',
  'aligned_rmsd',
  'max_displacement',
  'matched_fraction',
  'error',
] as const;
const INVERSE_CSV = ['index', 'id', 'a', 'b', 'c', 'alpha', 'beta', 'gamma', 'sg', 'true_a', 'true_b', 'true_c', 'true_alpha'];
INVERSE_CSV.push('true_beta', 'true_gamma', 'true_sg', 'squared_error', 'max_error', 'sg_correct', 'joint_correct');

/** Writes rows as JSONL or CSV (the compare page's columns), as they come. */
class RowsFile {
  private header = false;
  private readonly csv: boolean;
  constructor(private readonly out: StreamedOutput) {
    this.csv = out.path.toLowerCase().endsWith('.csv');
  }

  add(kind: C2npSplitKind, k: number, row: ForwardRow | InverseRow): void {
    const record = kind === 'inverse' ? { index: k, ...(row as InverseRow) } : row;
    if (!this.csv) return this.out.write(`${toStrictJson(record)}\n`);
    const columns = kind === 'forward' ? [...FORWARD_CSV] : INVERSE_CSV;
    const values =
      kind === 'forward'
        ? FORWARD_CSV.map((c) => (row as ForwardRow)[c])
        : (() => {
            const r = row as InverseRow;
            return [
              k,
              r.id,
              ...r.pred,
              r.predSpacegroup,
              ...r.truth,
              r.trueSpacegroup,
              r.squaredError,
              r.maxError,
              r.spacegroupCorrect,
              r.jointCorrect,
            ];
          })();
    const text = formatCsv(columns, [values]);
    const headerChars = formatCsv(columns, []).length;
    this.out.write(this.header ? text.slice(headerChars) : text);
    this.header = true;
  }
}

/** The report of an unsharded run; `structlab merge` builds it from partial reports with this same function. */
export function c2npEvalReport(stats: C2npSplitStats, unpaired: string[], skipped: Skipped[], skippedCount: number): string {
  const report: Record<string, unknown> = { kind: stats.kind, aggregates: stats.aggregates() };
  if (unpaired.length) report.unpaired = unpaired;
  if (skippedCount) {
    report.skipped = skipped.slice(0, SKIPPED_LISTED);
    if (skippedCount > SKIPPED_LISTED) report.skipped_total = skippedCount;
  }
  return toStrictJson(report);
}

export async function runC2npEval(argv: string[], warn: (line: string) => void): Promise<string> {
  const { positionals, options } = parseArgs(argv, [
    { name: 'pred', kind: 'string' },
    { name: 'truth', kind: 'string' },
    { name: 'rows', kind: 'string' },
    { name: 'radius', kind: 'string' },
    { name: 'no-aligned', kind: 'flag' },
    { name: 'workers', kind: 'string' },
    { name: 'shard', kind: 'string' },
    { name: 'force', kind: 'flag' },
  ]);
  const folders = options.pred !== undefined || options.truth !== undefined;
  if (folders && (typeof options.pred !== 'string' || typeof options.truth !== 'string'))
    throw new CliError('c2np eval needs both --pred DIR and --truth DIR (or one BATCH.jsonl)');
  if (folders ? positionals.length !== 0 : positionals.length !== 1)
    throw new CliError('c2np eval takes one BATCH.jsonl or --pred DIR --truth DIR (see structlab c2np eval --help)');
  const radius = options.radius === undefined ? undefined : numberOption(options, 'radius', 0, 1e-6, 1e6);
  const defaultWorkers = Math.max(1, Math.min(8, availableParallelism() - 1));
  const workers = numberOption(options, 'workers', defaultWorkers, 0, 64);
  if (!Number.isInteger(workers)) throw new CliError(`--workers must be a whole number, got ${workers}`);
  const shard = shardOption(options.shard);
  const evalOptions: EvalOptions = { aligned: !options['no-aligned'], ...(radius !== undefined ? { radius } : {}) };
  const inputs = folders ? [] : [positionals[0]];
  const sources = folders ? [options.pred as string, options.truth as string] : [];
  const rowsOut = typeof options.rows === 'string' ? new StreamedOutput(options.rows, { force: !!options.force, inputs, sources }) : null;
  const rowsFile = rowsOut && new RowsFile(rowsOut);
  try {
    let unpaired: string[] | undefined;
    let total: number | null = null;
    let items: AsyncIterable<EvalItem> | Iterable<EvalItem>;
    const inputName = folders ? null : positionals[0] === '-' ? 'stdin' : positionals[0];
    if (folders) {
      const preds = listFolder(options.pred as string),
        truths = listFolder(options.truth as string);
      const paired = pairFilesByName(preds, truths);
      if (paired.pairs.length === 0)
        throw new CliError(
          `no prediction file has a ground-truth file of the same name (${preds.length} predictions, ${truths.length} truths)`,
        );
      unpaired = [...paired.unpairedPreds, ...paired.unpairedTruths].map((f) => f.path);
      if (unpaired.length) warn(`warning: ${unpaired.length} file(s) found no partner and are listed in "unpaired"`);
      const pairs = paired.pairs.map(([p, t], k) => ({ k, id: p.path, pred: p.file, truth: t.file })).filter((x) => inShard(shard, x.k));
      total = pairs.length;
      items = pairs;
    } else items = jsonlItems(positionals[0], shard);

    let kind: C2npSplitKind | null = null;
    const stats = { forward: new C2npSplitStats('forward'), inverse: new C2npSplitStats('inverse') };
    const skipped: Skipped[] = [];
    let skippedCount = 0;
    let done = 0;
    const progress = progressReporter('c2np eval', 'rows');
    const take = (o: EvalOutcome) => {
      if ('skip' in o || (kind !== null && o.kind !== kind)) {
        const line = 'skip' in o ? o.line : -1;
        const error = 'skip' in o ? o.skip : `a ${o.kind} row in a ${kind} batch (the first row decides; use one kind per file)`;
        skippedCount++;
        if (skipped.length < SKIPPED_LISTED)
          skipped.push({ file: inputName ?? '', line: line >= 0 ? line : (lineOf.get(o.k) ?? 0), error });
        if (skippedCount <= SKIP_WARNINGS_SHOWN) warn(`warning: ${inputName} line ${skipped.at(-1)!.line}: ${error}; line skipped`);
        return;
      }
      kind ??= o.kind;
      if (o.kind === 'forward') stats.forward.addForward(o.row);
      else stats.inverse.addInverse(o.row);
      rowsFile?.add(o.kind, o.k, o.row);
    };
    // Line numbers of rows in flight, for the rare row skipped for its kind (rows do not carry their line).
    const lineOf = new Map<number, number>();
    await runPool<EvalTask, EvalOutcome[]>({
      entry: 'c2np-eval-worker',
      workerData: null,
      tasks: (async function* () {
        for await (const task of chunks(items, evalOptions)) {
          for (const item of task.items) if ('line' in item) lineOf.set(item.k, item.line);
          yield task;
        }
      })(),
      threads: workers,
      local: evaluateTask,
      onResult: (_k, outcomes) => {
        for (const o of outcomes) {
          take(o);
          lineOf.delete(o.k);
        }
        done += outcomes.length;
        progress.update(done, total);
      },
      warn,
    });
    progress.end();
    if (skippedCount > SKIP_WARNINGS_SHOWN) warn(`warning: ${skippedCount - SKIP_WARNINGS_SHOWN} more line(s) skipped`);
    if (kind === null && !shard) {
      throw new CliError(
        skipped.length
          ? `${inputName} holds no usable row: every line was skipped (the first, line ${skipped[0].line}: ${skipped[0].error})`
          : `${inputName ?? 'the folders'} hold${inputName ? 's' : ''} no rows`,
      );
    }
    rowsOut?.commit();
    const finalKind: C2npSplitKind = kind ?? 'forward';
    if (!shard) return c2npEvalReport(stats[finalKind], unpaired ?? [], skipped, skippedCount);
    // A partial report: what merge needs (exact sums and counts), never means alone.
    return toStrictJson({
      partial: partialHead('c2np eval', shard, {
        aligned: evalOptions.aligned,
        radius: radius ?? null,
        input: folders ? 'folders' : 'jsonl',
      }),
      kind: kind,
      stats: stats[finalKind].toJSON(),
      unpaired: unpaired ?? [],
      skipped,
      skipped_total: skippedCount,
    });
  } catch (e) {
    rowsOut?.abort();
    throw e;
  }
}
