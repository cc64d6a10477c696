/**
 * The compare page's store: the pair on screen (prediction vs ground truth), how it is drawn, and the batch
 * table. All scoring runs in workers/compare.worker.ts; cancelling terminates that worker.
 */
import * as Comlink from 'comlink';
import { create } from 'zustand';
import type { BatchInfo, CompareWorkerApi, ForwardRow, InputFile, PairView, Result } from '../../workers/compare-api.ts';
import { filePath, openContainersInOrder, openOneContainer, readTextFile, readTextFiles } from '../browser/read-file.ts';
import { errorText, type Status, WorkerClient, WorkerTimeoutError } from './worker-client.ts';

/** paired: the files' own frame, row i against row i (what the benchmark scores); aligned: after the best assignment and rigid motion. */
export type DisplacementMode = 'paired' | 'aligned';
export type CompareLayout = 'overlay' | 'side-by-side';
export type SortKey = keyof Omit<ForwardRow, 'error'>;

export interface CompareState {
  pair: PairView | null;
  truthFile: InputFile | null;
  predFile: InputFile | null;
  /** Radius for volume_ratio (Å); empty = none. */
  radius: number | null;
  mode: DisplacementMode;
  layout: CompareLayout;
  showTruth: boolean;
  showHausdorff: boolean;
  showMissing: boolean;
  batch: BatchInfo | null;
  rows: ForwardRow[] | null;
  selectedRow: number | null;
  sort: { key: SortKey; descending: boolean };
  busy: string | null;
  progress: string | null;
  error: string | null;
  fitToken: number;
}

export const useCompare = create<CompareState>(() => ({
  pair: null,
  truthFile: null,
  predFile: null,
  radius: null,
  mode: 'paired',
  layout: 'overlay',
  showTruth: true,
  showHausdorff: true,
  showMissing: true,
  batch: null,
  rows: null,
  selectedRow: null,
  sort: { key: 'index', descending: false },
  busy: null,
  progress: null,
  error: null,
  fitToken: 0,
}));

// Vite needs the `new URL(..., import.meta.url)` inline to bundle the worker.
const client = new WorkerClient<CompareWorkerApi>(
  () => new Worker(new URL('../../workers/compare.worker.ts', import.meta.url), { type: 'module', name: 'structlab-compare' }),
);
const setStatus = (patch: Status) => useCompare.setState(patch);
const request = async <T>(busy: string, call: (w: Comlink.Remote<CompareWorkerApi>) => Promise<Result<T>>, done: (value: T) => void) => {
  const r = await client.request(call, { status: setStatus, busy });
  if (r?.ok) done(r.value);
};

/** The paired view only makes sense for equal counts; otherwise start in the aligned view. */
const modeFor = (pair: PairView, mode: DisplacementMode): DisplacementMode => (pair.pairedDisplacement ? mode : 'aligned');

function showPair(pair: PairView): void {
  useCompare.setState((s) => ({ pair, mode: modeFor(pair, s.mode), fitToken: s.fitToken + 1 }));
}

/** A picked file as the worker takes it, its size checked first (src/browser/read-file.ts). */
export async function readInputFile(file: File): Promise<InputFile> {
  return { path: filePath(file), text: await readTextFile(file) };
}

/** The name of a picked folder (the first path component of its files). */
const folderName = (files: File[], fallback: string): string => filePath(files[0] ?? new File([], fallback)).split('/')[0] || fallback;

async function comparePair(): Promise<void> {
  const { truthFile, predFile, radius } = useCompare.getState();
  if (!truthFile || !predFile) return;
  await request(`comparing ${predFile.path} with ${truthFile.path}`, (w) => w.comparePair(predFile, truthFile, radius), showPair);
}

export async function setPairFile(role: 'truth' | 'pred', file: File): Promise<void> {
  try {
    const input = await readInputFile(await openOneContainer(file)); // x.cif.gz as x.cif; an archive of one file as that file
    useCompare.setState(role === 'truth' ? { truthFile: input, selectedRow: null } : { predFile: input, selectedRow: null });
    await comparePair();
  } catch (e) {
    useCompare.setState({ error: errorText(e) });
  }
}

export function setRadius(radius: number | null): void {
  if (radius !== null && !(Number.isFinite(radius) && radius > 0 && radius <= 1000)) {
    useCompare.setState({ error: 'The radius must be a positive number of Å (at most 1000).' });
    return;
  }
  useCompare.setState({ radius });
  void comparePair();
}

export async function loadDemo(cellText: string, cellName: string, radius = 8): Promise<void> {
  useCompare.setState({ truthFile: null, predFile: null, selectedRow: null, radius });
  await request('building the demo pair', (w) => w.demoPair(cellText, cellName, radius), showPair);
}

export async function loadBatchJsonl(file: File): Promise<void> {
  try {
    const input = await readInputFile(file);
    await request(
      `reading ${input.path}`,
      (w) => w.loadBatchJsonl(input),
      (batch) => {
        useCompare.setState({ batch, rows: null, selectedRow: null });
        if (batch.kind === 'forward') void runBatch();
      },
    );
  } catch (e) {
    useCompare.setState({ error: errorText(e) });
  }
}

const pending: { preds: File[] | null; truths: File[] | null } = { preds: null, truths: null };

/** A folder (or several files) of predictions or of truths; once both are chosen they are paired by name and scored. */
export async function setBatchFolder(role: 'preds' | 'truths', files: File[]): Promise<void> {
  pending[role] = files;
  if (!pending.preds || !pending.truths) {
    useCompare.setState({
      error: null,
      busy: null,
      progress:
        `${files.length} ${role === 'preds' ? 'prediction' : 'ground-truth'} files chosen; now choose the ` +
        `${role === 'preds' ? 'ground truths' : 'predictions'}`,
    });
    return;
  }
  try {
    // Each folder is one input: its files are held to the size limit together.
    // Containers opened first (x.cif.gz as x.cif, an archive as its files in natural order); plain files pass unchanged.
    const [predFiles, truthFiles] = await Promise.all([openContainersInOrder(pending.preds), openContainersInOrder(pending.truths)]);
    const [preds, truths] = await Promise.all([
      readTextFiles(predFiles, folderName(predFiles, 'predictions')),
      readTextFiles(truthFiles, folderName(truthFiles, 'ground truths')),
    ]);
    pending.preds = pending.truths = null;
    useCompare.setState({ progress: null });
    await request(
      `pairing ${preds.length} predictions with ${truths.length} truths`,
      (w) => w.loadBatchFiles(preds, truths),
      (batch) => {
        useCompare.setState({ batch, rows: null, selectedRow: null });
        void runBatch();
      },
    );
  } catch (e) {
    useCompare.setState({ error: errorText(e) });
  }
}

export async function runBatch(): Promise<void> {
  const total = useCompare.getState().batch?.count ?? 0;
  useCompare.setState({ progress: `0 / ${total}` });
  // Each scored pair renews the worker's time budget: the budget bounds one pair, not the batch.
  const result = await client.request(
    (w, progress) => w.runBatch(progress((done: number, n: number) => useCompare.setState({ progress: `${done} / ${n}` }))),
    {
      busy: 'scoring the batch',
      status: (patch) => useCompare.setState(patch.busy === null ? { ...patch, progress: null } : patch),
      error: (message, thrown) => {
        if (!(thrown instanceof WorkerTimeoutError)) return message;
        // A pair past its time budget ended the worker, and the batch lived in it.
        useCompare.setState({ batch: null, rows: null });
        return `${message} The batch was dropped; load it again without the pair that stalled.`;
      },
    },
  );
  if (!result?.ok) return;
  useCompare.setState({ rows: result.value });
  if (result.value.length) void selectRow(0);
}

export async function selectRow(index: number): Promise<void> {
  useCompare.setState({ selectedRow: index });
  await request(`comparing pair ${index + 1}`, (w) => w.batchPair(index), showPair);
}

/** Stops whatever runs: the worker is terminated (the only way to stop a synchronous computation). */
export function cancel(): void {
  client.cancel();
  const { batch } = useCompare.getState();
  useCompare.setState({
    busy: null,
    progress: null,
    // The batch lived in the terminated worker.
    batch: batch?.kind === 'inverse' ? batch : null,
    error: batch?.kind === 'forward' ? 'Cancelled. The batch was dropped; load it again to score it.' : 'Cancelled.',
  });
}

export const setMode = (mode: DisplacementMode) =>
  useCompare.setState((s) => ({ mode: s.pair && !s.pair.pairedDisplacement ? 'aligned' : mode }));
export const setLayout = (layout: CompareLayout) => useCompare.setState((s) => ({ layout, fitToken: s.fitToken + 1 }));
export const setSort = (key: SortKey) =>
  useCompare.setState((s) => ({ sort: { key, descending: s.sort.key === key ? !s.sort.descending : false } }));
