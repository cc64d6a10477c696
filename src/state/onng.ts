/**
 * The O-NNG page's store: the noise level and problem shown by the browser, the user's own O-NNG dataset
 * (when opened), and the results analysis computed by workers/onng.worker.ts.
 */
import * as Comlink from 'comlink';
import { create } from 'zustand';
import type { OnngAnalysis } from '../pages/onng/analysis.ts';
import { exactSetsFromFolder, type ExactSets } from '../pages/onng/problems.ts';
import type { OnngWorkerApi } from '../../workers/onng-api.ts';

export interface OnngState {
  /** 0…5: λ = 0.2·level. */
  level: number;
  /** The O-NNG problem id shown (1…68). */
  problemId: number;
  /** The exact upstream sets from the user's O-NNG folder, or null (then the shipped NNG4 statements are used). */
  exact: ExactSets | null;
  resultsFile: string | null;
  analysis: OnngAnalysis | null;
  heatModel: string | null;
  /** Leave problem 1 out of every statistic (its answer is in every prompt, o-nng.md §4). */
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
  analysis: null,
  heatModel: null,
  excludeFirst: false,
  busy: null,
  progress: null,
  error: null,
}));

let worker: Comlink.Remote<OnngWorkerApi> | null = null;
function api(): Comlink.Remote<OnngWorkerApi> {
  if (!worker) {
    // Vite needs the `new URL(..., import.meta.url)` inline to bundle the worker.
    const w = new Worker(new URL('../../workers/onng.worker.ts', import.meta.url), { type: 'module', name: 'structlab-onng' });
    worker = Comlink.wrap<OnngWorkerApi>(w);
  }
  return worker;
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export const setLevel = (level: number) => useOnng.setState({ level });
export const selectProblem = (problemId: number) => useOnng.setState({ problemId });
export const setHeatModel = (heatModel: string) => useOnng.setState({ heatModel });
export const dismissError = () => useOnng.setState({ error: null });

/** Reads the user's O-NNG dataset folder; levels it lacks are computed with the exact port (a second or two). */
export async function openDatasetFolder(files: File[]): Promise<void> {
  const wanted = files.filter((f) => /(?:^|\/)(?:original|obfuscated_[1-5])\/[^/]+\.jsonl?$/.test((f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name));
  useOnng.setState({ busy: 'reading the O-NNG dataset folder', progress: null, error: null });
  try {
    const texts = await Promise.all(wanted.map(async (f) => ({ path: (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name, text: await f.text() })));
    // Let the progress note paint before the (synchronous) obfuscation of the missing levels.
    await new Promise((r) => setTimeout(r, 30));
    const exact = exactSetsFromFolder(texts);
    useOnng.setState({ exact, busy: null });
  } catch (e) {
    useOnng.setState({ busy: null, error: `Could not open the O-NNG dataset: ${errorText(e)}` });
  }
}

export const closeDatasetFolder = () => useOnng.setState({ exact: null });

let resultsGeneration = 0;
/** The last good outcomes table, kept for re-analysis when an option changes. */
let loaded: { name: string; text: string } | null = null;

/** Analyses an outcomes CSV in the worker, with stage progress; a bad file leaves the last analysis in place. */
export async function loadResults(file: File): Promise<void> {
  if (file.size > 200_000_000) { useOnng.setState({ error: `${file.name} is ${(file.size / 1e6).toFixed(0)} MB; an outcomes table should be far smaller.` }); return; }
  let text: string;
  try { text = await file.text(); } catch (e) { useOnng.setState({ error: `Could not read ${file.name}: ${errorText(e)}` }); return; }
  await analyse(file.name, text);
}

export async function setExcludeFirst(excludeFirst: boolean): Promise<void> {
  useOnng.setState({ excludeFirst });
  if (loaded) await analyse(loaded.name, loaded.text);
}

async function analyse(name: string, text: string): Promise<void> {
  const gen = ++resultsGeneration;
  useOnng.setState({ busy: `analysing ${name}`, progress: null, error: null });
  try {
    let finished = false;
    const options = { excludeProblemIds: useOnng.getState().excludeFirst ? [1] : [] };
    const result = await api().analyse(text, name, options, Comlink.proxy((stage: string) => {
      if (gen === resultsGeneration && !finished) useOnng.setState({ progress: stage });
    }));
    finished = true;
    if (gen !== resultsGeneration) return;
    if (!result.ok) { useOnng.setState({ busy: null, progress: null, error: result.error }); return; }
    loaded = { name, text };
    const models = result.analysis.models.map((m) => m.model);
    const heatModel = useOnng.getState().heatModel;
    useOnng.setState({
      analysis: result.analysis, resultsFile: name, busy: null, progress: null,
      heatModel: heatModel && (models.includes(heatModel) || heatModel === '(all models)') ? heatModel : models[0] ?? null,
    });
  } catch (e) {
    if (gen === resultsGeneration) useOnng.setState({ busy: null, progress: null, error: `Could not analyse ${name}: ${errorText(e)}` });
  }
}
