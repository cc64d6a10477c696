/**
 * The Generations page's store: the loaded sets (kept here as read, and re-sent to a fresh worker after a
 * cancel), the run options, the last run's document (as `structlab gen csp` / `gen eval` print it), the
 * table's sort, filter and page, and the selected sample's view. The metrics run in workers/generations.worker.ts.
 */
import type { PatternComparison } from '../core/analysis/xrd-compare.ts';
import * as Comlink from 'comlink';
import { create } from 'zustand';
import type { DisplayData } from '../core/analysis/display-scene.ts';
import { formatCsv } from '../core/io/csv.ts';
import type {
  CspRunOptions,
  CspSampleRow,
  DenovoRunOptions,
  DenovoSample,
  FormatId,
  GenerationsWorkerApi,
  GenMode,
  GenRun,
  HullInputKind,
  InputFile,
  LoadedSet,
  Result,
  SampleView,
  SetRole,
} from '../../workers/generations-api.ts';
import { downloadText } from '../browser/download.ts';
import { isContainerName } from '../core/io/archive.ts';
import { CSP_DEFAULT_TOLERANCES } from '../core/tasks/generations/tolerances.ts';
import { droppedFiles, filePath, readBytesFile, readTextFile, readTextFiles } from '../browser/read-file.ts';
import { CancelledError, errorText, type Status, WorkerClient } from './worker-client.ts';

export type GenRow = CspSampleRow | DenovoSample;

/** Why a sample failed, as the table filters them: validity reasons, CSP's match verdicts, de novo's duplicate / novelty / stability. */
export const FAILURE_REASONS = [
  'atoms_too_close',
  'volume_too_small',
  'charge_imbalance',
  'electronegativity',
  'oxidation_combinations_over_limit',
  'truth_invalid',
  'no_match',
  'matcher_error',
  'duplicate',
  'not_novel',
  'not_stable',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export interface GenerationsState {
  mode: GenMode;
  sets: Partial<Record<SetRole, LoadedSet>>;
  energies: { name: string; count: number } | null;
  /** Total energies and the hull's reference entries (`gen eval --energies E --hull-reference R`), as loaded. */
  hullInputs: Partial<Record<HullInputKind, { name: string; count: number }>>;
  csp: CspRunOptions;
  denovo: DenovoRunOptions;
  run: GenRun | null;
  selected: number | null;
  view: SampleView | null;
  /** The selected sample's powder pattern against its counterpart's, when asked for. */
  xrd: { index: number; comparison: PatternComparison } | null;
  sort: { key: string; descending: boolean };
  /** Only rows failing for this reason; null: all rows. */
  filter: FailureReason | null;
  /** The table's page (PAGE_ROWS rows each). */
  page: number;
  /** The samples as a table, as thumbnails grouped by reason, or on the fingerprint map (a de novo run with coverage). */
  tableView: 'table' | 'gallery' | 'map';
  busy: string | null;
  progress: { done: number; total: number } | null;
  error: string | null;
  fitToken: number;
  /** The format the sample detail downloads its structures in. */
  sampleFormat: FormatId;
}

export const PAGE_ROWS = 100;

export const useGenerations = create<GenerationsState>(() => ({
  mode: 'csp',
  sets: {},
  energies: null,
  hullInputs: {},
  csp: { convention: 'diffcsp', smact: 'legacy', nSamples: 1, tolerances: { ...CSP_DEFAULT_TOLERANCES }, spaceGroups: false },
  denovo: { convention: 'diffcsp', smact: 'legacy', matcher: 'disordered', stabilityThreshold: 0.1, spaceGroups: false, coverage: null },
  run: null,
  selected: null,
  view: null,
  xrd: null,
  sort: { key: 'index', descending: false },
  filter: null,
  page: 0,
  tableView: 'table',
  busy: null,
  progress: null,
  error: null,
  fitToken: 0,
  sampleFormat: 'cif',
}));

// Vite needs the `new URL(..., import.meta.url)` inline to bundle the worker.
const client = new WorkerClient<GenerationsWorkerApi>(
  () => new Worker(new URL('../../workers/generations.worker.ts', import.meta.url), { type: 'module', name: 'structlab-generations' }),
);

/** What the worker holds, as read: re-sent to a fresh worker (after a cancel or a job past its budget) before use. */
type SetInput = { files: InputFile[]; folder: string } | { zip: string; bytes: ArrayBuffer } | { demoOf: InputFile };
const inputs = new Map<SetRole, SetInput>();
let energiesFile: InputFile | null = null;
const hullFiles = new Map<HullInputKind, InputFile>();
/** The worker (by the client's epoch) that holds `inputs`; -1 when none does. */
let inputsEpoch = -1;

const setStatus = (patch: Status) => useGenerations.setState(patch);

async function loaded<T>(w: Comlink.Remote<GenerationsWorkerApi>, call: () => Promise<Result<T>>): Promise<Result<T>> {
  if (inputsEpoch !== client.epoch) {
    for (const [role, input] of inputs) {
      const r = await sendSet(w, role, input);
      if (!r.ok) throw new Error(r.error);
    }
    if (energiesFile) {
      const r = await w.loadEnergies(energiesFile);
      if (!r.ok) throw new Error(r.error);
    }
    for (const [kind, file] of hullFiles) {
      const r = await w.loadHullInput(kind, file);
      if (!r.ok) throw new Error(r.error);
    }
    inputsEpoch = client.epoch;
  }
  return call();
}

/** A copy of the bytes goes to the worker (transferred, not cloned): the store keeps its own for a fresh worker. */
const sendZip = (w: Comlink.Remote<GenerationsWorkerApi>, role: SetRole, name: string, bytes: ArrayBuffer) => {
  const copy = bytes.slice(0);
  return w.loadZip(role, name, Comlink.transfer(copy, [copy]));
};

const sendSet = (w: Comlink.Remote<GenerationsWorkerApi>, role: SetRole, input: SetInput): Promise<Result<LoadedSet | null>> =>
  'zip' in input
    ? sendZip(w, role, input.zip, input.bytes)
    : 'demoOf' in input
      ? w.loadDemoPredictions(input.demoOf.text, input.demoOf.path)
      : w.loadSet(role, input.files, input.folder);

/**
 * A single picked file read as bytes: an archive or gzipped file (.zip, .tar, .tar.gz/.tgz, .gz) or a CDVAE/DiffCSP
 * .pt result file; every other file as text.
 */
export const isZipName = (name: string): boolean => isContainerName(name) || /.\.pt$/i.test(name);

/** CSP needs truths: a truth set, or those the prediction file carries (a .pt's input_data_batch, Chemeleon's results.csv). */
const ready = (s: GenerationsState): boolean => !!s.sets.pred && (s.mode === 'denovo' || !!s.sets.truth || !!s.sets.pred.ownTruths);

/**
 * The sets being read, by role (and the demo), with their busy labels. Each role reads in its own lane, so picking
 * one set never drops another that is still being read; the label shown is that of a read still running, and when
 * the last one ends the page is idle (or runs the metrics): a refusal or a set that leaves the run incomplete never
 * leaves "reading …" on screen.
 */
const reading = new Map<string, { busy: string; token: object }>();

/** Starts tracking the read of `key`; returns the call that ends it (a no-op once a later read of `key` took over). */
function startReading(key: string, busy: string): () => void {
  const token = {};
  reading.set(key, { busy, token });
  return () => {
    if (reading.get(key)?.token === token) reading.delete(key);
  };
}

/** Shows the label of a read still running; false when none is. */
function stillReading(): boolean {
  const rest = [...reading.values()];
  if (rest.length) useGenerations.setState({ busy: rest[rest.length - 1].busy });
  return rest.length > 0;
}

/** Runs the metrics of the current mode when its sets are loaded (every change of set or option comes here). */
export async function evaluate(): Promise<void> {
  const s = useGenerations.getState();
  if (!ready(s)) {
    useGenerations.setState({ run: null, selected: null, view: null, ...(reading.size === 0 ? { busy: null, progress: null } : {}) });
    return;
  }
  useGenerations.setState({ progress: { done: 0, total: s.mode === 'csp' ? (s.sets.truth?.count ?? 0) : (s.sets.pred?.count ?? 0) } });
  const onProgress = (done: number, total: number) => useGenerations.setState({ progress: { done, total } });
  // Coverage needs the test set: without one the choice is kept for when it comes, and the run goes without.
  const denovo = s.sets.test ? s.denovo : { ...s.denovo, coverage: null };
  const r = await client.request(
    (w, progress) =>
      loaded(w, () => (s.mode === 'csp' ? w.runCsp(s.csp, progress(onProgress)) : w.runDenovo(denovo, progress(onProgress)))),
    {
      busy: s.mode === 'csp' ? `matching with the ${s.csp.convention} convention` : `evaluating with the ${s.denovo.convention} convention`,
      status: (patch) => useGenerations.setState(patch.busy === null ? { ...patch, progress: null } : patch),
    },
  );
  if (!r?.ok) {
    if (r) useGenerations.setState({ run: null, selected: null, view: null });
    return;
  }
  const { selected } = useGenerations.getState();
  useGenerations.setState({ run: r.value, view: null });
  if (selected !== null && selected < r.value.result.per_sample.length) void selectSample(selected);
  else useGenerations.setState({ selected: null });
}

/** The name of a picked folder (the first path component of its files). */
const folderName = (files: File[], fallback: string): string => filePath(files[0] ?? new File([], fallback)).split('/')[0] || fallback;

const ROLE_NAMES: Record<SetRole, string> = { pred: 'predictions', truth: 'truths', reference: 'reference set', test: 'test set' };

/** Files (several, a folder, one .extxyz/.jsonl/.csv, or one .zip) for one set; an empty list drops the set. Then the metrics run again. */
export async function loadSetFiles(role: SetRole, files: File[]): Promise<void> {
  const busy = files.length ? `reading the ${ROLE_NAMES[role]}` : `dropping the ${ROLE_NAMES[role]}`;
  const done = startReading(role, busy);
  try {
    const inFolder = files.some((f) => filePath(f).includes('/'));
    const single = files.length === 1 && !inFolder;
    const folder = inFolder ? folderName(files, ROLE_NAMES[role]) : ROLE_NAMES[role];
    useGenerations.setState({ busy, error: null });
    const input: SetInput =
      single && isZipName(files[0].name)
        ? { zip: files[0].name, bytes: await readBytesFile(files[0]) }
        : { files: single ? [{ path: files[0].name, text: await readTextFile(files[0]) }] : await readTextFiles(files, folder), folder };
    const r = await client.request((w) => loaded(w, () => sendSet(w, role, input)), {
      lane: `set-${role}`,
      status: setStatus,
      busy,
      keepBusy: true,
    });
    done();
    // Superseded by a later pick of this role (whose answer counts) or by Cancel (which shows its own word).
    if (!r) return;
    if (r.ok) {
      if (r.value) inputs.set(role, input);
      else inputs.delete(role);
      const samples = role === 'pred' ? r.value?.samples : undefined;
      useGenerations.setState((s) => {
        const sets = { ...s.sets };
        if (r.value) sets[role] = r.value;
        else delete sets[role];
        // A file with its own truths and K predictions each (Chemeleon's results.csv) is paired with K samples, as `gen csp`.
        return { sets, page: 0, selected: null, view: null, ...(samples ? { csp: { ...s.csp, nSamples: samples } } : {}) };
      });
    }
    // A refusal shows its sentence (set by the request) and leaves the page ready for the next pick.
    if (!stillReading() && r.ok) await evaluate();
  } catch (e) {
    done();
    useGenerations.setState({ error: errorText(e), busy: null });
    stillReading();
  }
}

/** A drop on a set's box: files, or folders walked to their files (with their paths), then as loadSetFiles. */
export async function loadDroppedSet(role: SetRole, data: DataTransfer): Promise<void> {
  let files: File[];
  try {
    files = await droppedFiles(data);
  } catch (e) {
    useGenerations.setState({ error: errorText(e) });
    return;
  }
  if (files.length > 0) await loadSetFiles(role, files);
}

/** The demo's truths (datasets/generations/README.md), bundled as text and loaded on demand. */
const DEMO_FILE = 'mp20-demo.csv';
const demoModules = import.meta.glob('../../datasets/generations/mp20-demo.csv', { query: '?raw', import: 'default' }) as Record<
  string,
  () => Promise<string>
>;

/** The demo: 16 MP-20 truths and predictions made from them by known failure modes (src/core/tasks/generations/demo.ts), as CSP. */
export async function loadDemo(): Promise<void> {
  const done = startReading('demo', 'building the demo');
  try {
    const load = Object.values(demoModules)[0];
    if (!load) throw new Error(`The demo truths (${DEMO_FILE}) are not bundled.`);
    const truth: SetInput = { files: [{ path: DEMO_FILE, text: await load() }], folder: ROLE_NAMES.truth };
    const pred: SetInput = { demoOf: truth.files[0] };
    const r = await client.request(
      (w) =>
        loaded(w, async (): Promise<Result<LoadedSet[]>> => {
          const t = await sendSet(w, 'truth', truth);
          if (!t.ok) return t;
          const p = await sendSet(w, 'pred', pred);
          return p.ok ? { ok: true, value: [t.value!, p.value!] } : p;
        }),
      { lane: 'set-demo', status: setStatus, busy: 'building the demo', keepBusy: true },
    );
    done();
    if (!r) return;
    if (!r.ok) {
      stillReading();
      return;
    }
    inputs.set('truth', truth);
    inputs.set('pred', pred);
    const [truthSet, predSet] = r.value;
    useGenerations.setState((s) => ({
      mode: 'csp',
      csp: { ...s.csp, nSamples: 1 },
      sets: { ...s.sets, truth: truthSet, pred: predSet },
      run: null,
      filter: null,
      sort: { key: 'index', descending: false },
      page: 0,
      selected: null,
      view: null,
    }));
    if (!stillReading()) await evaluate();
  } catch (e) {
    done();
    useGenerations.setState({ error: errorText(e), busy: null });
    stillReading();
  }
}

/** The energies above hull ({"id": eV/atom or null}, de novo S.U.N.); null drops them. */
export async function loadEnergiesFile(file: File | null): Promise<void> {
  try {
    const input = file ? { path: file.name, text: await readTextFile(file) } : null;
    const r = await client.request((w) => loaded(w, () => w.loadEnergies(input)), { status: setStatus, busy: 'reading the energies' });
    if (!r?.ok) return;
    energiesFile = input;
    useGenerations.setState({ energies: input ? { name: input.path, count: r.value } : null });
    await evaluate();
  } catch (e) {
    useGenerations.setState({ error: errorText(e), busy: null });
  }
}

const HULL_BUSY: Record<HullInputKind, string> = { energies: 'reading the total energies', reference: 'reading the hull reference' };

/** Total energies per prediction or the hull's reference entries (energies above hull computed in the worker); null drops them. */
export async function loadHullFile(kind: HullInputKind, file: File | null): Promise<void> {
  try {
    const input = file ? { path: file.name, text: await readTextFile(file) } : null;
    const r = await client.request((w) => loaded(w, () => w.loadHullInput(kind, input)), { status: setStatus, busy: HULL_BUSY[kind] });
    if (!r?.ok) return;
    if (input) hullFiles.set(kind, input);
    else hullFiles.delete(kind);
    useGenerations.setState((s) => {
      const hullInputs = { ...s.hullInputs };
      if (input) hullInputs[kind] = { name: input.path, count: r.value };
      else delete hullInputs[kind];
      return { hullInputs };
    });
    await evaluate();
  } catch (e) {
    useGenerations.setState({ error: errorText(e), busy: null });
  }
}

export function setMode(mode: GenMode): void {
  if (mode === useGenerations.getState().mode) return;
  useGenerations.setState({
    mode,
    run: null,
    selected: null,
    view: null,
    filter: null,
    page: 0,
    sort: { key: 'index', descending: false },
  });
  void evaluate();
}

export function setCspOptions(patch: Partial<CspRunOptions>): void {
  useGenerations.setState((s) => ({ csp: { ...s.csp, ...patch } }));
  void evaluate();
}

export function setDenovoOptions(patch: Partial<DenovoRunOptions>): void {
  useGenerations.setState((s) => ({ denovo: { ...s.denovo, ...patch } }));
  void evaluate();
}

/** A sample's view and the latest of them wins, without dropping a run in flight. */
export async function selectSample(index: number): Promise<void> {
  useGenerations.setState({ selected: index });
  const r = await client.request((w) => loaded(w, () => w.sampleView(index)), { lane: 'view' });
  if (!r) return;
  if (!r.ok) {
    useGenerations.setState({ error: r.error, view: null });
    return;
  }
  useGenerations.setState((s) => ({ view: r.value, fitToken: s.fitToken + 1 }));
}

export const setSampleFormat = (sampleFormat: FormatId) => useGenerations.setState({ sampleFormat });

/** Compares the selected sample's powder pattern with its counterpart's (truth, duplicate or reference match). */
export async function compareSampleXrd(): Promise<void> {
  const { selected } = useGenerations.getState();
  if (selected === null) return;
  const r = await client.request((w) => loaded(w, () => w.xrdCompare(selected)), { lane: 'xrd' });
  if (!r) return;
  if (!r.ok) {
    useGenerations.setState({ error: r.error });
    return;
  }
  if (useGenerations.getState().selected === selected) useGenerations.setState({ xrd: { index: selected, comparison: r.value } });
}

/** Downloads the selected sample's prediction or its counterpart, written by the worker in the chosen format. */
export async function downloadSample(side: 'prediction' | 'other'): Promise<void> {
  const { selected, sampleFormat } = useGenerations.getState();
  if (selected === null) return;
  const r = await client.request((w) => loaded(w, () => w.exportSample(selected, side, sampleFormat)), { lane: 'export' });
  if (!r) return;
  if (!r.ok) {
    useGenerations.setState({ error: r.error });
    return;
  }
  downloadText(r.value.fileName, r.value.text, sampleFormat === 'pymatgen-json' ? 'application/json' : 'text/plain');
}

/** The prediction of row `index` as drawn, for a gallery thumbnail (each in its own lane: thumbnails never supersede each other). */
export async function thumbnailDisplay(index: number): Promise<DisplayData> {
  const r = await client.request((w) => loaded(w, () => w.thumbnail(index)), { lane: `thumbnail-${index}` });
  if (!r) throw new CancelledError();
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

export const setView = (tableView: GenerationsState['tableView']) => useGenerations.setState({ tableView });

/** Stops whatever runs: the worker is terminated; the sets are re-sent to a fresh one with the next request. */
export function cancel(): void {
  client.cancel();
  reading.clear();
  inputsEpoch = -1;
  useGenerations.setState({ busy: null, progress: null, error: 'Cancelled.' });
}

export const setSort = (key: string) =>
  useGenerations.setState((s) => ({ sort: { key, descending: s.sort.key === key ? !s.sort.descending : false }, page: 0 }));
export const setFilter = (filter: FailureReason | null) => useGenerations.setState({ filter, page: 0 });
export const setPage = (page: number) => useGenerations.setState({ page });

// ---------------------------------------------------------------------------------------------------
// The table: pure helpers over the run's per_sample rows.

/** Every reason row `r` fails for (CSP: its one reason; de novo: its validity reasons, then duplicate, not novel, not stable). */
export function failureReasons(r: GenRow): FailureReason[] {
  if ('reason' in r) return r.reason ? [r.reason] : [];
  const out: FailureReason[] = [...r.reasons];
  if (!r.unique) out.push('duplicate');
  if (r.novel === false) out.push('not_novel');
  if (r.stable === false) out.push('not_stable');
  return out;
}

/** How many rows fail for each reason (reasons with none left out), in FAILURE_REASONS order. */
export function reasonCounts(rows: readonly GenRow[]): [FailureReason, number][] {
  const counts = new Map<FailureReason, number>();
  for (const r of rows) for (const reason of failureReasons(r)) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return FAILURE_REASONS.filter((r) => counts.has(r)).map((r) => [r, counts.get(r)!]);
}

/** Row indices after the filter, in the sort's order (nulls last either way; ties by index). */
export function tableOrder(rows: readonly GenRow[], sort: GenerationsState['sort'], filter: FailureReason | null): number[] {
  const indices: number[] = [];
  rows.forEach((r, i) => {
    if (!filter || failureReasons(r).includes(filter)) indices.push(i);
  });
  if (sort.key === 'index') return sort.descending ? indices.reverse() : indices;
  const value = (i: number): unknown => {
    const v = (rows[i] as unknown as Record<string, unknown>)[sort.key];
    return Array.isArray(v) ? v.join(' ') : isSpaceGroup(v) ? v.number : v;
  };
  const sign = sort.descending ? -1 : 1;
  return indices.sort((i, j) => {
    const a = value(i),
      b = value(j);
    const aMissing = a === null || a === undefined,
      bMissing = b === null || b === undefined;
    if (aMissing || bMissing) return aMissing === bMissing ? i - j : aMissing ? 1 : -1;
    const c = typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
    return c === 0 ? i - j : sign * c;
  });
}

/** The run as `structlab gen` prints it (JSON with non-finite numbers as null, as the CLI's toStrictJson writes them). */
export const runJson = (run: GenRun): string =>
  JSON.stringify(run.result, (_key, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v));

/** A row's space group ({number, symbol}, `--space-groups`): sorted by number, written as "P2_1/c (14)". */
const isSpaceGroup = (v: unknown): v is { number: number; symbol: string } =>
  typeof v === 'object' && v !== null && typeof (v as { number?: unknown }).number === 'number' && 'symbol' in v;

/** The per_sample rows as CSV: the JSON's keys as columns, in its order; lists joined by ";". */
export function rowsCsv(rows: readonly GenRow[]): string {
  if (rows.length === 0) return '';
  const header = Object.keys(rows[0]);
  return formatCsv(
    header,
    rows.map((r) =>
      header.map((k) => {
        const v = (r as unknown as Record<string, unknown>)[k];
        return Array.isArray(v) ? v.join(';') : isSpaceGroup(v) ? `${v.symbol} (${v.number})` : (v as string | number | boolean | null);
      }),
    ),
  );
}
