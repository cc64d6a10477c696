/**
 * `structlab fem check TASK --cases FILE --outputs-dir DIR [--shard I/N]`: many answer files (models, samples)
 * checked against one run of the reference; a file that cannot be read is an entry with "error", not a failure
 * of the batch. Sharded by file (the k-th .json file of DIR, sorted by name, goes to shard k mod N).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS, limitSentence } from '../../core/limits.ts';
import { runFemCases } from '../../core/tasks/fembench/runner.ts';
import type { FemTask } from '../../core/tasks/fembench/types.ts';
import { CliError, inputFailure } from '../errors.ts';
import { reason, toStrictJson } from '../io.ts';
import { progressReporter } from '../progress.ts';
import { inShard, partialHead, type Shard } from '../shard.ts';

export type FemFileVerdict = { file: string; passed: boolean; cases: unknown[] } | { file: string; error: string };

/** The report of a run over all files; `structlab merge` builds it from partial reports with this same function. */
export function femCheckReport(task: string, files: FemFileVerdict[]): string {
  const passed = files.filter((f) => 'passed' in f && f.passed).length;
  return toStrictJson({ task, files, passed, total: files.length });
}

export function checkFemOutputsDir<C>(
  task: FemTask,
  cases: C[],
  casesPath: string,
  dir: string,
  shard: Shard | undefined,
  deps: {
    readCandidateResults: (path: string) => unknown[];
    checkOutputs: (task: FemTask, cases: C[], references: ReturnType<typeof runFemCases>, candidates: unknown[]) => unknown;
  },
): string {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.json'))
      .map((e) => e.name)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch (e) {
    throw new CliError(`${dir} cannot be read as a folder (${reason(e)})`);
  }
  if (names.length === 0) throw new CliError(`${dir} holds no .json answer files (the layout fem run prints)`);
  if (names.length > LIMITS.batchRows)
    throw new CliError(`${dir}: ${limitSentence('the folder', names.length, LIMITS.batchRows, 'files', 'batchRows')}`);
  const mine = names.map((name, k) => ({ name, k })).filter(({ k }) => inShard(shard, k));
  // One reference run for every file (only when this shard has files).
  const references = mine.length ? runFemCases(task, cases as never) : [];
  const progress = progressReporter('fem check', 'files');
  const files: FemFileVerdict[] = mine.map(({ name }, j) => {
    let verdict: FemFileVerdict;
    try {
      const candidates = deps.readCandidateResults(join(dir, name));
      if (candidates.length !== cases.length)
        throw new CliError(`${candidates.length} result(s) for the ${cases.length} case(s) of ${casesPath}`);
      verdict = { file: name, ...(deps.checkOutputs(task, cases, references, candidates) as { passed: boolean; cases: unknown[] }) };
    } catch (e) {
      const known = inputFailure(e);
      if (!known) throw e;
      verdict = { file: name, error: known.message.replace(`${join(dir, name)}: `, '').replace(`${join(dir, name)} `, '') };
    }
    progress.update(j + 1, mine.length);
    return verdict;
  });
  progress.end();
  if (!shard) return femCheckReport(task.id, files);
  return toStrictJson({
    partial: partialHead('fem check', shard, { task: task.id }),
    total: names.length,
    index: mine.map(({ k }) => k),
    files,
  });
}
