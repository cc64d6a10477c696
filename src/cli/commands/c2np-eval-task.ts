/**
 * One task of `structlab c2np eval` (a chunk of JSONL lines or of file pairs), scored the same way in a
 * worker thread (c2np-eval-worker.ts) and in this thread: each item becomes a row or a skipped line.
 */
import { errorText } from '../../core/errors.ts';
import { parseC2npBatchLine, particleFromFile } from '../../core/tasks/c2np/batch.ts';
import { errorRow, forwardBatchRow, inverseBatchRow, type ForwardRow, type InverseRow } from '../../core/tasks/c2np/batch-eval.ts';
import { inputFailure } from '../errors.ts';
import { readInputText } from '../io.ts';

export interface EvalOptions {
  /** The aligned comparison (the costly part; the upstream metrics do not need it). */
  aligned: boolean;
  /** Radius for volume_ratio where a row gives none, Å. */
  radius?: number;
}

export type EvalItem = { k: number; line: number; text: string } | { k: number; id: string; pred: string; truth: string };

export type EvalOutcome =
  | { k: number; kind: 'forward'; row: ForwardRow }
  | { k: number; kind: 'inverse'; row: InverseRow }
  | { k: number; line: number; skip: string };

export interface EvalTask {
  items: EvalItem[];
  options: EvalOptions;
}

/** An error's sentence: input errors as they are, anything else named as an internal error of that row. */
const rowError = (e: unknown): string => inputFailure(e)?.message ?? `internal error: ${errorText(e)}`;

export function evaluateTask(task: EvalTask): EvalOutcome[] {
  const { aligned, radius } = task.options;
  return task.items.map((item): EvalOutcome => {
    if ('text' in item) {
      let parsed: ReturnType<typeof parseC2npBatchLine>;
      try {
        parsed = parseC2npBatchLine(item.text, item.line, item.k + 1);
      } catch (e) {
        return { k: item.k, line: item.line, skip: errorText(e).replace(/^line \d+: /, '') };
      }
      if (parsed.kind === 'inverse') return { k: item.k, kind: 'inverse', row: inverseBatchRow(parsed.row) };
      const r = parsed.row.radius === undefined && radius !== undefined ? { ...parsed.row, radius } : parsed.row;
      return { k: item.k, kind: 'forward', row: forwardBatchRow(item.k, r, rowError, { aligned }) };
    }
    let pred, truth;
    try {
      pred = particleFromFile(readInputText(item.pred), item.pred);
      truth = particleFromFile(readInputText(item.truth), item.truth);
    } catch (e) {
      return { k: item.k, kind: 'forward', row: errorRow(item.k, item.id, pred?.symbols.length ?? null, null, rowError(e)) };
    }
    return { k: item.k, kind: 'forward', row: forwardBatchRow(item.k, { id: item.id, pred, truth, radius }, rowError, { aligned }) };
  });
}
