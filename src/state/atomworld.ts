/**
 * The AtomWorld page's store: the loaded batch, its verdicts (filled in chunks by the worker), the case
 * on screen and the two-structure compare. All judging runs in workers/atomworld.worker.ts; cancelling
 * terminates that worker (the loaded files are kept here and re-sent to a fresh one when needed).
 */
import * as Comlink from 'comlink';
import { create } from 'zustand';
import { type AtomworldActionSummary, summariseAtomworld } from '../core/tasks/atomworld/batch.ts';
import type { CaseSortKey } from '../core/tasks/atomworld/lab/inputs.ts';
import { MATCHER_DEFAULTS } from '../core/match/defaults.ts';
import type { AtomworldWorkerApi, CaseRow, CaseView, CompareView, InputFile, LoadedBatch, MatcherTolerances, Result } from '../../workers/atomworld-api.ts';
import { readTextFile } from '../browser/read-file.ts';
import { errorText, WorkerClient } from './worker-client.ts';

export type AtomworldMode = 'cases' | 'compare';

export interface AtomworldState {
  mode: AtomworldMode;
  casesFile: InputFile | null;
  answersFile: InputFile | null;
  batch: LoadedBatch | null;
  rows: (CaseRow | undefined)[];
  summary: Record<string, AtomworldActionSummary> | null;
  done: number;
  selected: number | null;
  view: CaseView | null;
  sort: { key: CaseSortKey; descending: boolean };
  compareA: InputFile | null;
  compareB: InputFile | null;
  tolerances: MatcherTolerances;
  compare: CompareView | null;
  busy: string | null;
  progress: { done: number; total: number } | null;
  error: string | null;
  fitToken: number;
}

const { ltol, stol, angleTol, primitiveCell } = MATCHER_DEFAULTS;
/** pymatgen's StructureMatcher defaults. */
export const DEFAULT_TOLERANCES: MatcherTolerances = { ltol, stol, angleTol, primitiveCell };

export const useAtomworld = create<AtomworldState>(() => ({
  mode: 'cases',
  casesFile: null,
  answersFile: null,
  batch: null,
  rows: [],
  summary: null,
  done: 0,
  selected: null,
  view: null,
  sort: { key: 'index', descending: false },
  compareA: null,
  compareB: null,
  tolerances: DEFAULT_TOLERANCES,
  compare: null,
  busy: null,
  progress: null,
  error: null,
  fitToken: 0,
}));

/** Cases judged per worker message: small enough for a live progress bar, large enough to keep the worker busy. */
export const CASES_PER_MESSAGE = 4;

type Source = { kind: 'files'; cases: InputFile; answers: InputFile | null } | { kind: 'demo'; text: string; name: string };

// Vite needs the `new URL(..., import.meta.url)` inline to bundle the worker.
const client = new WorkerClient<AtomworldWorkerApi>(() => new Worker(new URL('../../workers/atomworld.worker.ts', import.meta.url), { type: 'module', name: 'structlab-atomworld' }));
/** What the current worker holds; a fresh worker (after cancel) is loaded with it again before use. */
let source: Source | null = null;
/** The worker (by the client's epoch) that holds `source`; -1 when none does. */
let sourceEpoch = -1;

const sendSource = (w: Comlink.Remote<AtomworldWorkerApi>, s: Source): Promise<Result<LoadedBatch>> =>
  s.kind === 'files' ? w.load(s.cases, s.answers) : w.loadDemo(s.text, s.name);

/** Runs `call` on the worker with the current batch loaded in it (a fresh worker, after a cancel or a job past
 * its time budget, is loaded again first); each call has its own budget, so in the batch it bounds a few cases. */
function runLoaded<T>(call: (w: Comlink.Remote<AtomworldWorkerApi>) => Promise<T>): Promise<T> {
  return client.run(async (w) => {
    if (sourceEpoch !== client.epoch && source) {
      const r = await sendSource(w, source);
      if (!r.ok) throw new Error(r.error);
      sourceEpoch = client.epoch;
    }
    return call(w);
  });
}

/** Bumped by every case selection, so a slow case view never replaces a later one. */
let viewGeneration = 0;

/** A picked file as the worker takes it, its size checked first (src/browser/read-file.ts). */
export async function readInputFile(file: File): Promise<InputFile> {
  return { path: file.name, text: await readTextFile(file) };
}

async function loadSource(next: Source, label: string): Promise<void> {
  const gen = ++client.generation;
  useAtomworld.setState({ busy: label, progress: null, error: null });
  try {
    const r = await client.run(async (w) => sendSource(w, next));
    if (gen !== client.generation) return;
    if (!r.ok) { useAtomworld.setState({ busy: null, error: r.error }); return; }
    source = next;
    sourceEpoch = client.epoch;
    useAtomworld.setState({ batch: r.value, rows: new Array(r.value.count), summary: null, done: 0, selected: null, view: null, busy: null, mode: 'cases' });
    await evaluateAll(gen);
  } catch (e) {
    if (gen === client.generation) useAtomworld.setState({ busy: null, error: errorText(e) });
  }
}

/** Judges the whole batch, CASES_PER_MESSAGE cases per worker call, updating the table as rows arrive. */
async function evaluateAll(gen: number): Promise<void> {
  const total = useAtomworld.getState().batch?.count ?? 0;
  useAtomworld.setState({ busy: 'judging the answers', progress: { done: 0, total } });
  for (let start = 0; start < total; start += CASES_PER_MESSAGE) {
    const r = await runLoaded(async (w) => w.evaluate(start, CASES_PER_MESSAGE));
    if (gen !== client.generation) return;
    if (!r.ok) { useAtomworld.setState({ busy: null, progress: null, error: r.error }); return; }
    useAtomworld.setState((s) => {
      const rows = [...s.rows];
      for (const row of r.value) rows[row.index] = row;
      const done = s.done + r.value.length;
      return { rows, done, progress: { done, total } };
    });
  }
  const rows = useAtomworld.getState().rows.filter((r): r is CaseRow => !!r);
  useAtomworld.setState({ summary: summariseAtomworld(rows), busy: null, progress: null });
  if (useAtomworld.getState().selected === null && rows.length) void selectCase(0);
}

/** A cases file (or combined records); an answers file chosen before it is used with it. */
export async function loadCasesFile(file: File): Promise<void> {
  try {
    const cases = await readInputFile(file);
    const { answersFile: answers } = useAtomworld.getState();
    useAtomworld.setState({ casesFile: cases });
    await loadSource({ kind: 'files', cases, answers }, `reading ${cases.path}`);
  } catch (e) {
    useAtomworld.setState({ error: errorText(e) });
  }
}

/** A new answers file for the loaded cases file. */
export async function setAnswersFile(file: File | null): Promise<void> {
  const { casesFile } = useAtomworld.getState();
  try {
    const answers = file ? await readInputFile(file) : null;
    useAtomworld.setState({ answersFile: answers });
    if (casesFile) await loadSource({ kind: 'files', cases: casesFile, answers }, `reading ${casesFile.path}`);
  } catch (e) {
    useAtomworld.setState({ error: errorText(e) });
  }
}

export async function loadDemo(text: string, name: string): Promise<void> {
  useAtomworld.setState({ casesFile: null, answersFile: null });
  await loadSource({ kind: 'demo', text, name }, `building the demo from ${name}`);
}

export async function selectCase(index: number): Promise<void> {
  const gen = ++viewGeneration;
  useAtomworld.setState({ selected: index });
  try {
    const r = await runLoaded(async (w) => w.caseView(index));
    if (gen !== viewGeneration) return;
    if (!r.ok) { useAtomworld.setState({ error: r.error, view: null }); return; }
    useAtomworld.setState((s) => ({ view: r.value, fitToken: s.fitToken + 1 }));
  } catch (e) {
    if (gen === viewGeneration) useAtomworld.setState({ error: errorText(e) });
  }
}

export async function setCompareFile(role: 'a' | 'b', file: File): Promise<void> {
  try {
    const input = await readInputFile(file);
    useAtomworld.setState(role === 'a' ? { compareA: input, mode: 'compare' } : { compareB: input, mode: 'compare' });
    await runCompare();
  } catch (e) {
    useAtomworld.setState({ error: errorText(e) });
  }
}

export async function setTolerances(t: Partial<MatcherTolerances>): Promise<void> {
  useAtomworld.setState((s) => ({ tolerances: { ...s.tolerances, ...t } }));
  await runCompare();
}

export async function runCompare(): Promise<void> {
  const { compareA, compareB, tolerances } = useAtomworld.getState();
  if (!compareA || !compareB) return;
  const gen = ++viewGeneration;
  useAtomworld.setState({ busy: `matching ${compareA.path} with ${compareB.path}`, error: null });
  try {
    const r = await client.run(async (w) => w.compare(compareA, compareB, tolerances));
    if (gen !== viewGeneration) return;
    if (!r.ok) { useAtomworld.setState({ busy: null, error: r.error, compare: null }); return; }
    useAtomworld.setState((s) => ({ busy: null, compare: r.value, fitToken: s.fitToken + 1 }));
  } catch (e) {
    if (gen === viewGeneration) useAtomworld.setState({ busy: null, error: errorText(e) });
  }
}

/** Stops whatever runs: the worker is terminated (the only way to stop a synchronous computation). */
export function cancel(): void {
  client.cancel();
  viewGeneration++;
  sourceEpoch = -1;
  const { done, batch } = useAtomworld.getState();
  const partial = batch && done < batch.count;
  useAtomworld.setState((s) => ({
    busy: null, progress: null,
    summary: partial ? summariseAtomworld(s.rows.filter((r): r is CaseRow => !!r)) : s.summary,
    error: partial ? `Cancelled after ${done} of ${batch!.count} cases; the table and summary cover those.` : 'Cancelled.',
  }));
}

export const setMode = (mode: AtomworldMode) => useAtomworld.setState((s) => ({ mode, fitToken: s.fitToken + 1 }));
export const setSort = (key: CaseSortKey) =>
  useAtomworld.setState((s) => ({ sort: { key, descending: s.sort.key === key ? !s.sort.descending : false } }));
