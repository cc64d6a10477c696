/**
 * The AtomWorld page's store: the loaded batch, its verdicts (filled in chunks by the worker), the case
 * on screen and the two-structure compare. All judging runs in workers/atomworld.worker.ts; cancelling
 * terminates that worker (the loaded files are kept here and re-sent to a fresh one when needed).
 */
import type { PatternComparison } from '../core/analysis/xrd-compare.ts';
import * as Comlink from 'comlink';
import { create } from 'zustand';
import { type AtomworldActionSummary, summariseAtomworld } from '../core/tasks/atomworld/batch.ts';
import type { CaseSortKey } from '../core/tasks/atomworld/lab/inputs.ts';
import { MATCHER_DEFAULTS } from '../core/match/defaults.ts';
import type {
  AtomworldWorkerApi,
  CaseRow,
  CaseView,
  CompareView,
  InputFile,
  LoadedBatch,
  MatcherTolerances,
  Result,
} from '../../workers/atomworld-api.ts';
import { openOneContainer, readTextFile } from '../browser/read-file.ts';
import { errorText, type Status, type Ticket, WorkerClient } from './worker-client.ts';

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
  /** The selected case's answer powder pattern against its target's, when asked for. */
  xrd: { index: number; comparison: PatternComparison } | null;
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
  xrd: null,
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
const client = new WorkerClient<AtomworldWorkerApi>(
  () => new Worker(new URL('../../workers/atomworld.worker.ts', import.meta.url), { type: 'module', name: 'structlab-atomworld' }),
);
/** What the current worker holds; a fresh worker (after cancel) is loaded with it again before use. */
let source: Source | null = null;
/** The worker (by the client's epoch) that holds `source`; -1 when none does. */
let sourceEpoch = -1;

const sendSource = (w: Comlink.Remote<AtomworldWorkerApi>, s: Source): Promise<Result<LoadedBatch>> =>
  s.kind === 'files' ? w.load(s.cases, s.answers) : w.loadDemo(s.text, s.name);

const setStatus = (patch: Status) => useAtomworld.setState(patch);

/** Loads the current batch into a fresh worker (after a cancel or a job past its time budget) before `call`. */
async function loaded<T>(w: Comlink.Remote<AtomworldWorkerApi>, call: () => Promise<Result<T>>): Promise<Result<T>> {
  if (sourceEpoch !== client.epoch && source) {
    const r = await sendSource(w, source);
    if (!r.ok) throw new Error(r.error);
    sourceEpoch = client.epoch;
  }
  return call();
}

/** A picked file as the worker takes it, its size checked first (src/browser/read-file.ts). */
export async function readInputFile(file: File): Promise<InputFile> {
  return { path: file.name, text: await readTextFile(file) };
}

async function loadSource(next: Source, label: string): Promise<void> {
  const ticket = client.begin();
  useAtomworld.setState({ progress: null });
  const r = await client.request(async (w) => sendSource(w, next), { ticket, status: setStatus, busy: label, keepBusy: true });
  if (!r?.ok) return;
  source = next;
  sourceEpoch = client.epoch;
  useAtomworld.setState({
    batch: r.value,
    rows: new Array(r.value.count),
    summary: null,
    done: 0,
    selected: null,
    view: null,
    xrd: null,
    mode: 'cases',
  });
  await evaluateAll(ticket);
}

/** Judges the whole batch, CASES_PER_MESSAGE cases per worker call (each with its own time budget), updating
 * the table as rows arrive. */
async function evaluateAll(ticket: Ticket): Promise<void> {
  const total = useAtomworld.getState().batch?.count ?? 0;
  useAtomworld.setState({ busy: 'judging the answers', progress: { done: 0, total } });
  const status = (patch: Status) => useAtomworld.setState(patch.busy === null ? { ...patch, progress: null } : patch);
  for (let start = 0; start < total; start += CASES_PER_MESSAGE) {
    const r = await client.request((w) => loaded(w, () => w.evaluate(start, CASES_PER_MESSAGE)), { ticket, status, keepBusy: true });
    if (!r?.ok) return;
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

/** A case selection or a compare: the latest of them wins, and neither drops the batch being judged. */
const VIEW_LANE = 'view';

export async function selectCase(index: number): Promise<void> {
  useAtomworld.setState({ selected: index });
  const r = await client.request((w) => loaded(w, () => w.caseView(index)), { lane: VIEW_LANE });
  if (!r) return;
  if (!r.ok) {
    useAtomworld.setState({ error: r.error, view: null });
    return;
  }
  useAtomworld.setState((s) => ({ view: r.value, fitToken: s.fitToken + 1 }));
}

/** Compares the selected case's answer powder pattern with its target's. */
export async function compareCaseXrd(): Promise<void> {
  const { selected } = useAtomworld.getState();
  if (selected === null) return;
  const r = await client.request((w) => loaded(w, () => w.xrdCompare(selected)), { lane: 'xrd' });
  if (!r) return;
  if (!r.ok) {
    useAtomworld.setState({ error: r.error });
    return;
  }
  if (useAtomworld.getState().selected === selected) useAtomworld.setState({ xrd: { index: selected, comparison: r.value } });
}

export async function setCompareFile(role: 'a' | 'b', file: File): Promise<void> {
  try {
    const input = await readInputFile(await openOneContainer(file)); // x.cif.gz as x.cif; an archive of one file as that file
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
  const r = await client.request((w) => w.compare(compareA, compareB, tolerances), {
    lane: VIEW_LANE,
    status: setStatus,
    busy: `matching ${compareA.path} with ${compareB.path}`,
  });
  if (!r) return;
  if (!r.ok) {
    useAtomworld.setState({ compare: null });
    return;
  }
  useAtomworld.setState((s) => ({ compare: r.value, fitToken: s.fitToken + 1 }));
}

/** Stops whatever runs: the worker is terminated (the only way to stop a synchronous computation). */
export function cancel(): void {
  client.cancel();
  sourceEpoch = -1;
  const { done, batch } = useAtomworld.getState();
  const partial = batch && done < batch.count;
  useAtomworld.setState((s) => ({
    busy: null,
    progress: null,
    summary: partial ? summariseAtomworld(s.rows.filter((r): r is CaseRow => !!r)) : s.summary,
    error: partial ? `Cancelled after ${done} of ${batch!.count} cases; the table and summary cover those.` : 'Cancelled.',
  }));
}

export const setMode = (mode: AtomworldMode) => useAtomworld.setState((s) => ({ mode, fitToken: s.fitToken + 1 }));
export const setSort = (key: CaseSortKey) =>
  useAtomworld.setState((s) => ({ sort: { key, descending: s.sort.key === key ? !s.sort.descending : false } }));
