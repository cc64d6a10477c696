/**
 * The work of `structlab gen csp` and `gen eval` cut into independent tasks, run by gen-worker.ts in worker threads
 * or here (the same functions, so the result is the same bits wherever a task runs). CSP: a range of truths, each
 * scored alone. Eval: a range of rows (validity), one reduced formula's greedy uniqueness (formulas never meet), a
 * range of predictions' novelty (each against the reference alone). Uniqueness inside one formula stays sequential:
 * the greedy rule is the definition (src/core/tasks/generations/README.md).
 */
import { reducedFormula } from '../../core/structure/composition.ts';
import { Lattice } from '../../core/structure/lattice.ts';
import type { Structure } from '../../core/structure/structure.ts';
import { type CspConvention, type CspGroupRows, cspGroupRows } from '../../core/tasks/generations/csp.ts';
import type { CspTolerances } from '../../core/tasks/generations/tolerances.ts';
import {
  type DenovoConvention,
  type DenovoOptions,
  type DenovoSample,
  denovoRow,
  referenceByFormula,
  referenceMatch,
  uniqueWithinFormula,
} from '../../core/tasks/generations/denovo.ts';
import { type CoverageFingerprint, coverageFingerprint } from '../../core/tasks/generations/fingerprints.ts';
import type { CspGroup, GenItem } from '../../core/tasks/generations/inputs.ts';
import type { GenMatcherName } from '../../core/tasks/generations/mattergen-matcher.ts';
import type { SmactTable } from '../../core/tasks/generations/smact.ts';
import { availableParallelism } from 'node:os';
import { errorText } from '../../core/errors.ts';
import { CliError } from '../errors.ts';
import { quoted } from '../../core/limits.ts';

/** A structure as a thread receives it: structured cloning keeps data, not the Lattice class. */
interface WireItem {
  id: string;
  where: string;
  name: string;
  matrix: number[][];
  sites: Structure['sites'];
  properties?: Structure['properties'];
}

const toWire = (it: GenItem): WireItem => ({
  id: it.id,
  where: it.where,
  name: it.structure.name,
  matrix: it.structure.lattice!.matrix,
  sites: it.structure.sites,
  properties: it.structure.properties,
});
const fromWire = (w: WireItem): GenItem => ({
  id: w.id,
  where: w.where,
  structure: { name: w.name, lattice: new Lattice(w.matrix), sites: w.sites, ...(w.properties ? { properties: w.properties } : {}) },
});

/** A matcher failure inside a task, told to the command's callback afterwards in the order one thread would meet it. */
export interface TaskMatcherError {
  /** Sort key: [truth or prediction index, stage (0 uniqueness, 1 novelty), order within]. */
  at: [number, number, number];
  id: string;
  other: string | number;
  message: string;
}

export interface CspWork {
  kind: 'csp';
  groups: { truth: WireItem; samples: { k: number; pred: WireItem }[] }[];
  nSamples: number;
  convention: CspConvention;
  smact: SmactTable;
  tolerances: CspTolerances;
  spaceGroups: boolean;
}
export interface EvalWork {
  kind: 'eval';
  predictions: WireItem[];
  reference: WireItem[] | null;
  /** With coverage: the truths, whose fingerprints are tasks too. */
  truth: WireItem[] | null;
  convention: DenovoConvention;
  smact: SmactTable;
  matcher: GenMatcherName;
  spaceGroups: boolean;
}
export type GenWork = CspWork | EvalWork;

export type CspTask = [from: number, to: number];
export type EvalTask =
  | { rows: [number, number] }
  | { unique: number[] }
  | { novel: [number, number] }
  | { fingerprints: [number, number]; of: 'predictions' | 'truth' };
export interface CspTaskResult {
  rows: CspGroupRows[];
  errors: TaskMatcherError[];
}
export type EvalTaskResult =
  | { rows: DenovoSample[] }
  | { duplicates: (string | null)[]; errors: TaskMatcherError[] }
  | { matches: (string | null)[]; errors: TaskMatcherError[] }
  | { fingerprints: CoverageFingerprint[] };

export const cspWork = (
  groups: readonly CspGroup[],
  nSamples: number,
  o: { convention: CspConvention; smact: SmactTable; tolerances: CspTolerances; spaceGroups: boolean },
): CspWork => ({
  kind: 'csp',
  groups: groups.map((g) => ({ truth: toWire(g.truth), samples: g.samples.map((s) => ({ k: s.k, pred: toWire(s.pred) })) })),
  nSamples,
  convention: o.convention,
  smact: o.smact,
  tolerances: o.tolerances,
  spaceGroups: o.spaceGroups,
});

export const evalWork = (
  predictions: readonly GenItem[],
  reference: readonly GenItem[] | undefined,
  truth: readonly GenItem[] | undefined,
  o: { convention: DenovoConvention; smact: SmactTable; matcher: GenMatcherName; spaceGroups?: boolean },
): EvalWork => ({
  kind: 'eval',
  predictions: predictions.map(toWire),
  reference: reference ? reference.map(toWire) : null,
  truth: truth ? truth.map(toWire) : null,
  convention: o.convention,
  smact: o.smact,
  matcher: o.matcher,
  spaceGroups: o.spaceGroups === true,
});

/** The task runner of one work description (built once per thread: structures rebuilt, the reference grouped). */
export function genTaskRunner(work: GenWork): (task: unknown) => unknown {
  if (work.kind === 'csp') {
    const groups: CspGroup[] = work.groups.map((g) => ({
      truth: fromWire(g.truth),
      samples: g.samples.map((s) => ({ k: s.k, pred: fromWire(s.pred) })),
    }));
    return (task) => cspTask(groups, work, task as CspTask);
  }
  const preds = work.predictions.map(fromWire);
  const references = work.reference ? referenceByFormula(work.reference.map(fromWire)) : null;
  const truth = work.truth ? work.truth.map(fromWire) : [];
  return (task) => evalTask(preds, references, truth, work, task as EvalTask);
}

/** Runs a task on items this thread already holds (no rebuilding), for the command's own thread. */
export function localCspRunner(groups: readonly CspGroup[], work: CspWork): (task: CspTask) => CspTaskResult {
  return (task) => cspTask(groups, work, task);
}

export function localEvalRunner(
  preds: readonly GenItem[],
  reference: readonly GenItem[] | undefined,
  truth: readonly GenItem[] | undefined,
  work: EvalWork,
) {
  const references = reference ? referenceByFormula(reference) : null;
  return (task: EvalTask): EvalTaskResult => evalTask(preds, references, truth ?? [], work, task);
}

function cspTask(groups: readonly CspGroup[], work: CspWork, [from, to]: CspTask): CspTaskResult {
  const errors: TaskMatcherError[] = [];
  const rows: CspGroupRows[] = [];
  for (let i = from; i < to; i++) {
    let seq = 0;
    const onMatcherError = (e: unknown, id: string, sample: number) => {
      errors.push({ at: [i, 0, seq++], id, other: sample, message: errorText(e) });
    };
    const { convention, smact, tolerances, spaceGroups } = work;
    rows.push(cspGroupRows(groups[i], work.nSamples, { convention, smact, tolerances, spaceGroups, onMatcherError }));
  }
  return { rows, errors };
}

function evalTask(
  preds: readonly GenItem[],
  references: Map<string, GenItem[]> | null,
  truth: readonly GenItem[],
  work: EvalWork,
  task: EvalTask,
): EvalTaskResult {
  if ('fingerprints' in task) {
    const items = task.of === 'predictions' ? preds : truth;
    return { fingerprints: items.slice(task.fingerprints[0], task.fingerprints[1]).map((it) => coverageFingerprint(it.structure)) };
  }
  const errors: TaskMatcherError[] = [];
  const index = new Map<string, number>();
  const options = (stage: number): DenovoOptions => {
    const seqs = new Map<string, number>();
    return {
      convention: work.convention,
      smact: work.smact,
      matcher: work.matcher,
      spaceGroups: work.spaceGroups,
      stabilityThreshold: 0,
      onMatcherError: (e, id, other) => {
        const seq = seqs.get(id) ?? 0;
        seqs.set(id, seq + 1);
        errors.push({ at: [index.get(id)!, stage, seq], id, other, message: errorText(e) });
      },
    };
  };
  if ('rows' in task) {
    const o = options(0);
    return { rows: preds.slice(task.rows[0], task.rows[1]).map((p) => denovoRow(p, o)) };
  }
  if ('unique' in task) {
    const members = task.unique.map((i) => preds[i]);
    task.unique.forEach((i) => index.set(preds[i].id, i));
    return { duplicates: uniqueWithinFormula(members, options(0)), errors };
  }
  const o = options(1);
  const matches: (string | null)[] = [];
  for (let i = task.novel[0]; i < task.novel[1]; i++) {
    index.set(preds[i].id, i);
    matches.push(referenceMatch(preds[i], references?.get(reducedFormula(preds[i].structure)) ?? [], o));
  }
  return { matches, errors };
}

/** Matcher errors of all tasks in the order the single-thread run meets them. */
export function orderedErrors(errors: readonly TaskMatcherError[]): TaskMatcherError[] {
  return [...errors].sort((a, b) => a.at[0] - b.at[0] || a.at[1] - b.at[1] || a.at[2] - b.at[2]);
}

/**
 * Items a thread must have to pay for its start: loading the bundle and warming V8's compiler cost a thread
 * about half a second, the time of some 500 pairs in a warm one. Measured on the visible CSP set (203 pairs,
 * 2 cores): 1.6 s in this thread, 3.1 s with two workers.
 */
const ITEMS_PER_THREAD = 500;

/** The default thread count for `items` pairs or predictions: one per ITEMS_PER_THREAD, up to the CPU count (at most 8). */
export const defaultGenWorkers = (items: number): number => Math.min(8, availableParallelism(), Math.floor(items / ITEMS_PER_THREAD));

/** `--workers N` of the gen commands (0 or 1 = this thread); null when absent (then defaultGenWorkers once the size is known). */
export function genWorkers(raw: unknown): number | null {
  if (raw === undefined) return null;
  const n = Number(raw);
  if (typeof raw !== 'string' || !/^\s*\d+\s*$/.test(raw) || !Number.isSafeInteger(n) || n > 64)
    throw new CliError(`--workers must be a whole number from 0 to 64, got ${quoted(String(raw))}`);
  return n;
}

/** Tasks of `n` items for `threads` threads: small enough to balance and to show progress, large enough to cost no round trips. */
export function taskRanges(n: number, threads: number): [number, number][] {
  const size = Math.max(1, Math.min(32, Math.ceil(n / (threads * 8))));
  const out: [number, number][] = [];
  for (let from = 0; from < n; from += size) out.push([from, Math.min(n, from + size)]);
  return out;
}
