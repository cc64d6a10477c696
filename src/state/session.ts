/**
 * The session store: loaded files, the chosen structure, its summary and display buffers, view
 * settings, selection. Files and settings persist in IndexedDB so a reload restores the session.
 */
import { del, get, set } from 'idb-keyval';
import { create } from 'zustand';
import type { PackedStructure } from '../core/structure/packed.ts';
import { syntheticFcc } from '../core/structure/packed.ts';
import { buildDisplay, type DisplayData, type DisplayOptions } from '../core/analysis/display-scene.ts';
import type { ParsedFile, StructureSummary } from '../../workers/io-api.ts';
import { CancelledError, IoClient, progressCallback } from './io-client.ts';
import { DEFAULT_SETTINGS, sanitizeSettings, type ViewSettings } from './settings.ts';

export interface LoadedFile {
  name: string;
  text: string;
}

export interface SessionState {
  files: LoadedFile[];
  activeFile: number;
  activeStructure: number;
  settings: ViewSettings;
  /** Structures of the active file. */
  structures: PackedStructure[];
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
const io = new IoClient();
/** Bumped by every load/select; results of an older generation are dropped. */
let generation = 0;

const displayOptions = (s: ViewSettings, synthetic: boolean): Partial<DisplayOptions> => ({
  supercell: [s.supercellA, s.supercellB, s.supercellC],
  boundaryImages: s.boundaryImages && !synthetic,
  bonds: s.showBonds,
  bondTolerance: s.bondTolerance,
  bondCutoffs: s.bondCutoffs,
  polyhedra: s.showPolyhedra,
});

const displayKeys: (keyof ViewSettings)[] = ['supercellA', 'supercellB', 'supercellC', 'boundaryImages', 'showBonds', 'bondTolerance', 'bondCutoffs', 'showPolyhedra'];

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
    const files = useSession.getState().files.filter((f) => f.name !== name);
    files.push({ name, text });
    while (files.length > MAX_FILES) files.shift();
    useSession.setState({
      files, activeFile: files.length - 1, structures: parsed.structures, format: parsed.format,
      warnings: parsed.warnings, synthetic: false,
    });
    const k = activeStructure < parsed.structures.length ? activeStructure : 0;
    return await selectStructure(k, gen);
  } catch (e) {
    if (gen === generation) useSession.setState({ busy: null, error: e instanceof CancelledError ? 'Loading cancelled.' : `Could not read ${name}: ${errorText(e)}` });
    return false;
  }
}

/** Makes structure k of the active file the shown one (symmetry, formula and scene come from the worker). */
export async function selectStructure(k: number, gen = ++generation): Promise<boolean> {
  const { structures, settings } = useSession.getState();
  const p = structures[k];
  if (!p) return false;
  try {
    const summary = await io.run((api) => api.summarize(p, settings.symprec, progressCallback(setBusy)));
    if (gen !== generation) return false;
    const display = await io.run((api) => api.display(p, displayOptions(settings, false), progressCallback(setBusy)));
    if (gen !== generation) return false;
    useSession.setState((st) => ({ activeStructure: k, summary, display, busy: null, error: null, selection: [], fitToken: st.fitToken + 1 }));
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
  if (synthetic) {
    useSession.setState((st) => ({ display: buildDisplay(p, displayOptions(settings, true)), selection: [], fitToken: st.fitToken + (refit ? 1 : 0) }));
    return;
  }
  const gen = ++generation;
  try {
    const display = await io.run((api) => api.display(p, displayOptions(settings, false), progressCallback(setBusy)));
    if (gen === generation) useSession.setState((st) => ({ display, busy: null, selection: [], fitToken: st.fitToken + (refit ? 1 : 0) }));
  } catch (e) {
    if (gen === generation) useSession.setState({ busy: null, error: e instanceof CancelledError ? 'Cancelled.' : `Could not build the scene: ${errorText(e)}` });
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
  const { structures, activeStructure, settings, synthetic } = useSession.getState();
  const p = structures[activeStructure];
  if (!p || synthetic) return;
  try {
    const summary = await io.run((api) => api.summarize(p, settings.symprec));
    useSession.setState({ summary });
  } catch { /* cancelled or failed: keep the previous summary */ }
}

/** Stops the worker (terminating it) and keeps whatever was shown before. */
export function cancelWork(): void {
  generation++;
  io.cancel();
  useSession.setState({ busy: null, error: 'Cancelled; the previous structure is still shown.' });
}

/** An FCC block of n atoms straight into typed arrays (benchmarks: `?synthetic=N`). */
export function loadSynthetic(n: number): void {
  generation++;
  const p = syntheticFcc(n);
  const settings = { ...useSession.getState().settings, showBonds: false, showPolyhedra: false };
  const display = buildDisplay(p, displayOptions(settings, true));
  useSession.setState({
    synthetic: true, structures: [p], activeStructure: 0, settings, format: 'synthetic', warnings: [],
    summary: { formula: `Cu${p.natoms}`, reducedFormula: 'Cu', spacegroup: null }, display, busy: null, error: null, selection: [],
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
