/**
 * The O-NNG page's store: the noise level and problem shown by the browser, the user's own O-NNG dataset
 * (when opened), and the results analysis computed by workers/onng.worker.ts.
 */
import { create } from 'zustand';
import levelsJson from '../../datasets/onng/nng4_levels.json';
import type { UpstreamFile } from '../core/tasks/onng/upstream.ts';
import type { OnngAnalysis } from '../core/tasks/onng/lab/analysis.ts';
import { exactSetsFromFolder, type ExactSets } from '../core/tasks/onng/lab/problems.ts';
import type { OnngWorkerApi } from '../../workers/onng-api.ts';
import { filePath, readTextFile, readTextFiles } from '../browser/read-file.ts';
import { errorText, WorkerClient } from './worker-client.ts';

export interface OnngState {
  /** 0…5: λ = 0.2·level. */
  level: number;
  /** The O-NNG problem id shown (1…68). */
  problemId: number;
  /** The exact upstream sets from the user's O-NNG folder, or null (then the shipped NNG4 statements are used). */
  exact: ExactSets | null;
  resultsFile: string | null;
  /** Where the analysed results came from: the per-problem CSV, or a results folder in the upstream layout. */
  resultsKind: 'csv' | 'upstream' | null;
  /** Names of the verdict files applied to the loaded results folder. */
  verdictFiles: string[];
  analysis: OnngAnalysis | null;
  heatModel: string | null;
  /** Leave problem 1 (zero_add) out of every statistic: its answer is in every prompt. */
  excludeFirst: boolean;
  busy: string | null;
  progress: string | null;
  error: string | null;
}

export const useOnng = create<OnngState>(() => ({
  level: 0,
  problemId: 1,
  exact: null,
  resultsFile: null,
  resultsKind: null,
  verdictFiles: [],
  analysis: null,
  heatModel: null,
  excludeFirst: false,
  busy: null,
  progress: null,
  error: null,
}));

// Vite needs the `new URL(..., import.meta.url)` inline to bundle the worker.
const client = new WorkerClient<OnngWorkerApi>(
  () => new Worker(new URL('../../workers/onng.worker.ts', import.meta.url), { type: 'module', name: 'structlab-onng' }),
);

export const setLevel = (level: number) => useOnng.setState({ level });
export const selectProblem = (problemId: number) => useOnng.setState({ problemId });
export const setHeatModel = (heatModel: string) => useOnng.setState({ heatModel });
export const dismissError = () => useOnng.setState({ error: null });

/** Reads the user's O-NNG dataset folder; levels it lacks are computed with the exact port (a second or two). */
export async function openDatasetFolder(files: File[]): Promise<void> {
  const wanted = files.filter((f) =>
    /(?:^|\/)(?:original|obfuscated_[1-5])\/[^/]+\.jsonl?$/.test(
      (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name,
    ),
  );
  useOnng.setState({ busy: 'reading the O-NNG dataset folder', progress: null, error: null });
  try {
    const texts = await readTextFiles(wanted, folderOf(files, 'the O-NNG dataset folder'));
    // Let the progress note paint before the (synchronous) obfuscation of the missing levels.
    await new Promise((r) => setTimeout(r, 30));
    const exact = exactSetsFromFolder(texts);
    useOnng.setState({ exact, busy: null });
  } catch (e) {
    useOnng.setState({ busy: null, error: `Could not open the O-NNG dataset: ${errorText(e)}` });
  }
}

export const closeDatasetFolder = () => useOnng.setState({ exact: null });

type Loaded =
  { kind: 'csv'; name: string; text: string } | { kind: 'upstream'; name: string; files: UpstreamFile[]; verdicts: UpstreamFile[] };
/** The last good results, kept for re-analysis when an option changes or a verdict file arrives. */
let loaded: Loaded | null = null;

/** Analyses an outcomes CSV in the worker, with stage progress; a bad file leaves the last analysis in place. */
export async function loadResults(file: File): Promise<void> {
  let text: string;
  try {
    text = await readTextFile(file);
  } catch (e) {
    useOnng.setState({ error: errorText(e) });
    return;
  }
  await analyse({ kind: 'csv', name: file.name, text });
}

/** The name of a picked folder (the first path component of its files). */
const folderOf = (files: File[], fallback: string): string => filePath(files[0] ?? new File([], fallback)).split('/')[0] || fallback;

/** Reads a results folder in the upstream layout (only its .json/.jsonl files) and analyses it in the worker. */
export async function loadResultsFolder(files: File[]): Promise<void> {
  const wanted = files.filter((f) => /\.jsonl?$/.test(f.name));
  const folder = folderOf(files, 'results');
  if (wanted.length === 0) {
    useOnng.setState({
      error: `${folder}: no .json or .jsonl file in the folder (expected <model>/<level>/result_<run>.jsonl and time_<run>.json).`,
    });
    return;
  }
  useOnng.setState({ busy: `reading ${folder}`, progress: `${wanted.length} files`, error: null });
  let texts: UpstreamFile[];
  try {
    // The folder is one input: its JSON files are held to the size limit together.
    texts = await readTextFiles(wanted, folder);
  } catch (e) {
    useOnng.setState({ busy: null, progress: null, error: errorText(e) });
    return;
  }
  await analyse({ kind: 'upstream', name: folder, files: texts, verdicts: [] });
}

/** Applies a statistics.json-like verdict file to the loaded results folder (it fills or overrides verification). */
export async function loadVerdictFile(file: File): Promise<void> {
  if (!loaded || loaded.kind !== 'upstream') {
    useOnng.setState({ error: `${file.name}: open a results folder first; a verdict file fills the verification of its raw outputs.` });
    return;
  }
  let text: string;
  try {
    text = await readTextFile(file);
  } catch (e) {
    useOnng.setState({ error: errorText(e) });
    return;
  }
  await analyse({ ...loaded, verdicts: [...loaded.verdicts, { path: file.name, text }] }, file.name);
}

export async function setExcludeFirst(excludeFirst: boolean): Promise<void> {
  useOnng.setState({ excludeFirst });
  if (loaded) await analyse(loaded);
}

const NNG4_NAMES: Record<number, string> = Object.fromEntries(
  (levelsJson as { onng_id: number | null; statement_name: string | null }[])
    .filter((l) => l.onng_id !== null && l.statement_name)
    .map((l) => [l.onng_id, l.statement_name]),
);

/** Problem names for a results folder (it carries none): the open O-NNG dataset's, else NNG4's where they agree. */
function problemNames(): Record<number, string> {
  const exact = useOnng.getState().exact;
  if (exact) return Object.fromEntries(exact.levels[0].dataset.problems.map((p) => [p.id, p.name]));
  return NNG4_NAMES;
}

async function analyse(source: Loaded, errorName = source.name): Promise<void> {
  useOnng.setState({ progress: null });
  const options = { excludeProblemIds: useOnng.getState().excludeFirst ? [1] : [] };
  // Each stage report renews the worker's time budget (src/state/worker-client.ts).
  const result = await client.request(
    (w, progress) => {
      const onProgress = progress((stage: string) => useOnng.setState({ progress: stage }));
      return source.kind === 'csv'
        ? w.analyse(source.text, source.name, options, onProgress)
        : w.analyseUpstream(source.files, source.verdicts, source.name, options, problemNames(), onProgress);
    },
    {
      busy: `analysing ${source.name}`,
      status: (patch) => useOnng.setState(patch.busy === null ? { ...patch, progress: null } : patch),
      error: (message, thrown) =>
        thrown !== undefined
          ? `Could not analyse ${errorName}: ${message}`
          : source.kind === 'upstream' && errorName !== source.name
            ? `${errorName}: ${message}`
            : message,
    },
  );
  if (!result?.ok) return;
  loaded = source;
  const models = result.value.models.map((m) => m.model);
  const heatModel = useOnng.getState().heatModel;
  useOnng.setState({
    analysis: result.value,
    resultsFile: source.name,
    resultsKind: source.kind,
    verdictFiles: source.kind === 'upstream' ? source.verdicts.map((v) => v.path) : [],
    heatModel: heatModel && (models.includes(heatModel) || heatModel === '(all models)') ? heatModel : (models[0] ?? null),
  });
}
