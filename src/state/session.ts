/**
 * The session store: loaded files, the chosen structure, its summary and display buffers, view
 * settings, selection. Files and settings persist in IndexedDB so a reload restores the session.
 */
import { del, get, set } from 'idb-keyval';
import { create } from 'zustand';
import type { PackedStructure } from '../core/structure/packed.ts';
import { syntheticFcc } from '../core/structure/packed.ts';
import { buildDisplay, type DisplayData, type DisplayOptions } from '../core/analysis/display-scene.ts';
import type { Formulas, ParsedFile, StructureSummary } from '../../workers/io-api.ts';
import type { IoWorkerApi } from '../../workers/io-api.ts';
import { CancelledError, progressCallback, WorkerClient } from './worker-client.ts';
import { DEFAULT_SETTINGS, SETTINGS_SCHEMA, sanitizeSettings, type ViewSettings } from './settings.ts';

export interface LoadedFile {
  name: string;
  text: string;
}

export interface SessionState {
  files: LoadedFile[];
  activeFile: number;
  activeStructure: number;
  settings: ViewSettings;
  /** Structures of the active file, and their formulas (computed before packing, oxidation states kept). */
  structures: PackedStructure[];
  formulas: Formulas[];
  format: string | null;
  warnings: string[];
  summary: StructureSummary | null;
  display: DisplayData | null;
  /** What the worker is doing now (shown with a Cancel button), or null when idle. */
  busy: string | null;
  error: string | null;
  /** Picked atoms (indices into display arrays); the last one is shown in the info panel. */
  selection: number[];
  measureMode: boolean;
  /** Elements switched off in the legend (not drawn, not picked, no bonds). */
  hiddenElements: string[];
  synthetic: boolean;
  /** Bumped when a new structure (or supercell) is shown, so the view refits once its scene exists. */
  fitToken: number;
}

export const useSession = create<SessionState>(() => ({
  files: [],
  activeFile: -1,
  activeStructure: 0,
  settings: { ...DEFAULT_SETTINGS },
  structures: [],
  formulas: [],
  format: null,
  warnings: [],
  summary: null,
  display: null,
  busy: null,
  error: null,
  selection: [],
  measureMode: false,
  hiddenElements: [],
  synthetic: false,
  fitToken: 0,
}));

const SESSION_KEY = 'structlab/session/v1';
const MAX_FILES = 8;
// Vite needs the `new URL(..., import.meta.url)` inline to bundle the worker.
const io = new WorkerClient<IoWorkerApi>(() => new Worker(new URL('../../workers/io.worker.ts', import.meta.url), { type: 'module', name: 'structlab-io' }));
/** Bumped by every load/select; results of an older load are dropped. */
let generation = 0;
/** Bumped by every scene rebuild (settings changes), separately, so a rebuild never cancels a load. */
let sceneGeneration = 0;

const displayOptions = (s: ViewSettings, synthetic: boolean): Partial<DisplayOptions> => ({
  supercell: [s.supercellA, s.supercellB, s.supercellC],
  boundaryImages: s.boundaryImages && !synthetic,
  bonds: s.showBonds,
  bondTolerance: s.bondTolerance,
  bondCutoffs: s.bondCutoffs,
  polyhedra: s.showPolyhedra,
});

const displayKeys: (keyof ViewSettings)[] = SETTINGS_SCHEMA.filter((spec) => spec.scene).map((spec) => spec.key);

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

const setBusy = (stage: string | null) => useSession.setState({ busy: stage });

let saveTimer: ReturnType<typeof setTimeout> | undefined;
function persistSoon(): void {
  const { synthetic } = useSession.getState();
  if (synthetic) return;
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    const { files, activeFile, activeStructure, settings } = useSession.getState();
    set(SESSION_KEY, { files, activeFile, activeStructure, settings }).catch((e) => console.warn('session not saved:', e));
  }, 200);
}

/** Parses `text` in the worker; on success it becomes the active file, on failure the error shows and the old structure stays. */
export async function loadText(name: string, text: string, activeStructure = 0): Promise<boolean> {
  const gen = ++generation;
  useSession.setState({ busy: `reading ${name}`, error: null });
  try {
    const parsed = await io.run((api) => api.parse(text, name, progressCallback(setBusy)) as Promise<ParsedFile>);
    if (gen !== generation) return false;
    if (!parsed.ok) {
      const where = parsed.line ? `${name} line ${parsed.line}` : name;
      useSession.setState({ busy: null, error: `Could not read ${where}: ${parsed.error}` });
      return false;
    }
    const k = activeStructure < parsed.structures.length ? activeStructure : 0;
    // The file, its structures and the scene are committed together once everything is ready.
    return await showStructure({ name, text, parsed }, k, gen);
  } catch (e) {
    if (gen === generation) useSession.setState({ busy: null, error: e instanceof CancelledError ? 'Loading cancelled.' : `Could not read ${name}: ${errorText(e)}` });
    return false;
  }
}

interface PendingFile {
  name: string;
  text: string;
  parsed: Extract<ParsedFile, { ok: true }>;
}

/** Makes structure k of the active file the shown one (symmetry, formula and scene come from the worker). */
export function selectStructure(k: number): Promise<boolean> {
  return showStructure(null, k, ++generation);
}

/**
 * Computes symmetry and scene for structure k of `pending` (a freshly parsed file) or of the active
 * file, then commits file, structures, summary and scene in one update; on failure nothing changes.
 */
async function showStructure(pending: PendingFile | null, k: number, gen: number): Promise<boolean> {
  const state = useSession.getState();
  const structures = pending ? pending.parsed.structures : state.structures;
  const formulas = pending ? pending.parsed.formulas : state.formulas;
  const p = structures[k];
  if (!p) return false;
  const { settings } = state;
  try {
    const symmetry = await io.run((api) => api.symmetry(p, settings.symprec, progressCallback(setBusy)));
    if (gen !== generation) return false;
    const display = await io.run((api) => api.display(p, displayOptions(settings, false), progressCallback(setBusy)));
    if (gen !== generation) return false;
    const fileUpdate: Partial<SessionState> = {};
    if (pending) {
      const files = useSession.getState().files.filter((f) => f.name !== pending.name);
      files.push({ name: pending.name, text: pending.text });
      while (files.length > MAX_FILES) files.shift();
      Object.assign(fileUpdate, {
        files, activeFile: files.length - 1, structures, formulas, format: pending.parsed.format,
        warnings: pending.parsed.warnings, synthetic: false,
      });
    }
    useSession.setState((st) => ({
      ...fileUpdate, activeStructure: k, summary: { ...formulas[k], ...symmetry }, display,
      busy: null, error: null, selection: [], fitToken: st.fitToken + 1,
    }));
    persistSoon();
    return true;
  } catch (e) {
    if (gen === generation) useSession.setState({ busy: null, error: e instanceof CancelledError ? 'Cancelled.' : `Could not show ${p.name}: ${errorText(e)}` });
    return false;
  }
}

async function rebuildDisplay(refit: boolean): Promise<void> {
  const { structures, activeStructure, settings, synthetic } = useSession.getState();
  const p = structures[activeStructure];
  if (!p) return;
  const gen = ++sceneGeneration;
  const stillShown = () => gen === sceneGeneration && useSession.getState().structures[useSession.getState().activeStructure] === p;
  try {
    const display = synthetic
      ? buildDisplay(p, displayOptions(settings, true))
      : await io.run((api) => api.display(p, displayOptions(settings, false), progressCallback(setBusy)));
    if (stillShown()) useSession.setState((st) => ({ display, busy: null, error: null, selection: [], fitToken: st.fitToken + (refit ? 1 : 0) }));
  } catch (e) {
    if (stillShown()) useSession.setState({ busy: null, error: e instanceof CancelledError ? 'Cancelled.' : `Could not build the scene: ${errorText(e)}` });
  }
}

export function setSetting<K extends keyof ViewSettings>(key: K, value: ViewSettings[K]): void {
  const settings = sanitizeSettings({ ...useSession.getState().settings, [key]: value });
  useSession.setState({ settings });
  persistSoon();
  if (displayKeys.includes(key)) void rebuildDisplay(key.startsWith('supercell'));
  if (key === 'symprec') void refreshSummary();
}

async function refreshSummary(): Promise<void> {
  const { structures, formulas, activeStructure, settings, synthetic } = useSession.getState();
  const p = structures[activeStructure];
  if (!p || synthetic) return;
  try {
    const symmetry = await io.run((api) => api.symmetry(p, settings.symprec, progressCallback(setBusy)));
    if (useSession.getState().structures[useSession.getState().activeStructure] !== p) return;
    useSession.setState({ summary: { ...formulas[activeStructure], ...symmetry }, busy: null });
  } catch (e) {
    // Cancelled or failed: the previous summary stays.
    if (!(e instanceof CancelledError)) useSession.setState({ busy: null, error: `Could not find the space group: ${errorText(e)}` });
  }
}

/** Stops the worker (terminating it) and keeps whatever was shown before. */
export function cancelWork(): void {
  generation++;
  sceneGeneration++;
  io.cancel();
  useSession.setState({ busy: null, error: 'Cancelled; the previous structure is still shown.' });
}

/** An FCC block of n atoms straight into typed arrays (benchmarks: `?synthetic=N`). */
export function loadSynthetic(n: number): void {
  generation++;
  sceneGeneration++;
  const p = syntheticFcc(n);
  const settings = { ...useSession.getState().settings, showBonds: false, showPolyhedra: false };
  let display: DisplayData;
  try {
    display = buildDisplay(p, displayOptions(settings, true));
  } catch (e) {
    useSession.setState({ error: `Could not build the synthetic scene: ${errorText(e)}` });
    return;
  }
  const formulas = [{ formula: `Cu${p.natoms}`, reducedFormula: 'Cu' }];
  useSession.setState({
    synthetic: true, structures: [p], formulas, activeStructure: 0, settings, format: 'synthetic', warnings: [],
    summary: { ...formulas[0], spacegroup: null, note: null }, display, busy: null, error: null, selection: [],
  });
  useSession.setState((st) => ({ fitToken: st.fitToken + 1 }));
}

/** Restores the saved session; returns false when there was none (the caller then loads the default). */
export async function restoreSession(): Promise<boolean> {
  let saved: unknown;
  try {
    saved = await get(SESSION_KEY);
  } catch {
    return false;
  }
  if (!saved || typeof saved !== 'object') return false;
  const s = saved as { files?: unknown; activeFile?: unknown; activeStructure?: unknown; settings?: unknown };
  const files = Array.isArray(s.files)
    ? s.files.filter((f): f is LoadedFile => !!f && typeof f.name === 'string' && typeof f.text === 'string')
    : [];
  useSession.setState({ settings: sanitizeSettings(s.settings), files });
  if (files.length === 0) return false;
  const active = typeof s.activeFile === 'number' && files[s.activeFile] ? s.activeFile : files.length - 1;
  const f = files[active];
  return loadText(f.name, f.text, typeof s.activeStructure === 'number' ? s.activeStructure : 0);
}

export async function resetSession(loadDefault: () => Promise<unknown>): Promise<void> {
  clearTimeout(saveTimer);
  await del(SESSION_KEY).catch(() => undefined);
  useSession.setState({ files: [], activeFile: -1, settings: { ...DEFAULT_SETTINGS }, selection: [], measureMode: false, error: null });
  await loadDefault();
}

/** Switches to another file already in the session. */
export async function openSessionFile(index: number): Promise<void> {
  const f = useSession.getState().files[index];
  if (f) await loadText(f.name, f.text);
}

export function pickAtom(index: number | null): void {
  const { measureMode, selection } = useSession.getState();
  if (index === null) return;
  if (!measureMode) useSession.setState({ selection: [index] });
  else useSession.setState({ selection: selection.length >= 3 ? [index] : [...selection, index] });
}

export function toggleElement(symbol: string): void {
  const hidden = useSession.getState().hiddenElements;
  useSession.setState({ hiddenElements: hidden.includes(symbol) ? hidden.filter((e) => e !== symbol) : [...hidden, symbol], selection: [] });
}

export const clearSelection = () => useSession.setState({ selection: [] });
export const setMeasureMode = (on: boolean) => useSession.setState({ measureMode: on, selection: [] });
