/**
 * The session store: loaded files, the chosen structure, its summary and display buffers, view
 * settings, selection. Files and settings persist in IndexedDB so a reload restores the session.
 */
import { del, get, set } from 'idb-keyval';
import { create } from 'zustand';
import type { PackedStructure } from '../core/structure/packed.ts';
import { syntheticFcc } from '../core/structure/packed.ts';
import { buildDisplay, type DisplayData, type DisplayOptions, type PolyhedronNeighbors } from '../core/analysis/display-scene.ts';
import type { Formulas, IoWorkerApi, ParsedFile, StructureSummary } from '../../workers/io-api.ts';
import { pastedTextProblem, readBytesFile, readTextFile } from '../browser/read-file.ts';
import { downloadText } from '../browser/download.ts';
import { angle, dihedral, distance } from '../core/math/measure.ts';
import type { FormatId } from '../core/io/types.ts';
import { errorText, type Status, type Ticket, WorkerClient } from './worker-client.ts';
import { DEFAULT_SETTINGS, SETTINGS_SCHEMA, type ViewSettings } from '../viewer/view-settings.ts';
import { sanitizeSettings } from './settings.ts';

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
  /** Measurements taken in measure mode (each completed pick of 2, 3 or 4 atoms adds one), until cleared. */
  measurements: MeasurementRow[];
  /** Elements switched off in the legend (not drawn, not picked, no bonds). */
  hiddenElements: string[];
  synthetic: boolean;
  /** Bumped when a new structure (or supercell) is shown, so the view refits once its scene exists. */
  fitToken: number;
  /** A trajectory is playing (set by its player): work done per shown structure waits for the pause. */
  playing: boolean;
  /** A file whose last load failed or never finished (the tab froze or died): offered for a retry, not re-parsed on start. */
  retry: RetryOffer | null;
  /** Neighbour lists the polyhedra of `structure`'s scene are drawn from (the Local environment panel's), or null: bonds. */
  polyhedronNeighbors: { structure: PackedStructure; neighbors: PolyhedronNeighbors } | null;
}

/** The outcome of the last load, kept in IndexedDB: 'pending' from before parsing until it ends. */
export interface LastLoad {
  name: string;
  text: string;
  activeStructure: number;
  status: 'pending' | 'failed';
  error: string | null;
}

export interface MeasurementRow {
  kind: 'distance' | 'angle' | 'dihedral';
  /** Atom labels (element#index) in pick order. */
  atoms: string[];
  value: number;
  unit: 'Å' | '°';
}

export interface RetryOffer {
  name: string;
  /** 'failed': it ended with `error`; 'unfinished': still pending at start, so the tab froze or died during it. */
  reason: 'failed' | 'unfinished';
  error: string | null;
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
  measurements: [],
  hiddenElements: [],
  synthetic: false,
  fitToken: 0,
  playing: false,
  retry: null,
  polyhedronNeighbors: null,
}));

export const setPlaying = (playing: boolean) => useSession.setState({ playing });

const SESSION_KEY = 'structlab/session/v1';
/** The load in progress or the last one that failed (absent after a load that succeeded). */
const LAST_LOAD_KEY = 'structlab/session/last-load/v1';
const MAX_FILES = 8;
// Vite needs the `new URL(..., import.meta.url)` inline to bundle the worker.
const io = new WorkerClient<IoWorkerApi>(
  () => new Worker(new URL('../../workers/io.worker.ts', import.meta.url), { type: 'module', name: 'structlab-io' }),
);
/** Loads and selections supersede each other; scene rebuilds (settings changes) and space-group refreshes each have
 * their own lane, so a rebuild never drops a load. */
const LOAD = 'load';
const SCENE = 'scene';
const SUMMARY = 'summary';

export const displayOptions = (s: ViewSettings, synthetic: boolean): Partial<DisplayOptions> => ({
  supercell: [s.supercellA, s.supercellB, s.supercellC],
  boundaryImages: s.boundaryImages && !synthetic,
  bonds: s.showBonds,
  bondTolerance: s.bondTolerance,
  bondCutoffs: s.bondCutoffs,
  polyhedra: s.showPolyhedra,
});

/** The scene options of structure `p`: the settings', with the polyhedra's neighbour lists where some are set for `p`. */
function sceneOptions(p: PackedStructure, settings: ViewSettings): Partial<DisplayOptions> {
  const lists = useSession.getState().polyhedronNeighbors;
  return { ...displayOptions(settings, false), ...(lists?.structure === p ? { polyhedronNeighbors: lists.neighbors } : {}) };
}

/**
 * Draws the polyhedra of `structure` from `neighbors` (null: from the bonds again; lists kept for another structure are
 * dropped), rebuilding its scene if shown and its polyhedra change.
 */
export function setPolyhedronNeighbors(structure: PackedStructure, neighbors: PolyhedronNeighbors | null): void {
  const { polyhedronNeighbors: now, structures, activeStructure, settings } = useSession.getState();
  if (now?.structure === structure && now.neighbors === neighbors) return;
  if (!now && !neighbors) return;
  useSession.setState({ polyhedronNeighbors: neighbors && { structure, neighbors } });
  const changes = neighbors !== null || now?.structure === structure;
  if (changes && settings.showPolyhedra && structures[activeStructure] === structure) void rebuildDisplay(false);
}

const displayKeys: (keyof ViewSettings)[] = SETTINGS_SCHEMA.filter((spec) => spec.scene).map((spec) => spec.key);

const setBusy = (stage: string | null) => useSession.setState({ busy: stage });
const setStatus = (patch: Status) => useSession.setState(patch);

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

/** Resolves after the next drawn frame (or 2 s, for a hidden tab, which draws none); never while the thread is frozen. */
export function afterFrame(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
    setTimeout(resolve, 2000);
  });
}

/** Records the outcome of the current load; a storage failure only costs the retry offer. */
function recordLoad(record: LastLoad | null): Promise<void> {
  return (record ? set(LAST_LOAD_KEY, record) : del(LAST_LOAD_KEY)).catch((e) => console.warn('load outcome not saved:', e));
}

/** Parses `text` in the worker; on success it becomes the active file, on failure the error shows and the old structure stays. */
export async function loadText(name: string, text: string, activeStructure = 0): Promise<boolean> {
  const ticket = io.begin(LOAD);
  useSession.setState({ busy: `reading ${name}`, error: null });
  // Marked before the worker sees it: if the tab freezes or dies, the next start finds it still pending.
  await recordLoad({ name, text, activeStructure, status: 'pending', error: null });
  if (!ticket.current) return false;
  // A file that cannot be read answers its own "Could not read …" sentence; a job that failed gets the same start.
  const parsed = await io.request((api, progress) => api.parse(text, name, progress(setBusy)), {
    ticket,
    error: (message, thrown) => (thrown === undefined ? message : `Could not read ${name}: ${message}`),
  });
  // Superseded or cancelled (cancelWork has cleared the record and says so).
  if (!parsed) return false;
  if (!parsed.ok) {
    useSession.setState({ busy: null, error: parsed.error });
    void recordLoad({ name, text, activeStructure, status: 'failed', error: parsed.error });
    return false;
  }
  const k = activeStructure < parsed.value.structures.length ? activeStructure : 0;
  // The file, its structures and the scene are committed together once everything is ready.
  const shown = await showStructure({ name, text, parsed: parsed.value }, k, ticket);
  if (!ticket.current) return shown;
  if (shown) {
    if (useSession.getState().retry?.name === name) dismissOffer();
    // Cleared once a frame of the new scene is drawn: a scene that freezes the tab leaves the load pending.
    void afterFrame().then(() => {
      if (ticket.current) void recordLoad(null);
    });
  } else void recordLoad({ name, text, activeStructure, status: 'failed', error: useSession.getState().error });
  return shown;
}

/** A CDVAE/DiffCSP result file, read as bytes and turned into a multi-structure file by the io worker. */
export const isPtName = (name: string): boolean => /\.pt$/i.test(name);

/**
 * Loads files the user picked or dropped, one after another, each size-checked before it is read. A `.pt` becomes
 * `<name>.extxyz`, its crystals as frames (io worker `ptAsText`), listed as a multi-structure file is.
 */
export async function loadFiles(files: File[]): Promise<void> {
  for (const f of files) {
    let text: string;
    let name = f.name;
    try {
      if (isPtName(f.name)) {
        const bytes = new Uint8Array(await readBytesFile(f));
        const r = await io.request((api, progress) => api.ptAsText(bytes, f.name, progress(setBusy)), { ticket: io.begin(LOAD) });
        if (!r) continue;
        if (!r.ok) throw new Error(r.error);
        ({ name, text } = r.value);
      } else text = await readTextFile(f);
    } catch (e) {
      useSession.setState({ busy: null, error: errorText(e) });
      continue;
    }
    await loadText(name, text);
  }
}

/** Loads pasted text, held to the same size limit as a file. */
export function loadPasted(text: string): Promise<boolean> {
  const problem = pastedTextProblem('the pasted text', text);
  if (problem) {
    useSession.setState({ error: problem });
    return Promise.resolve(false);
  }
  return loadText('pasted', text);
}

interface PendingFile {
  name: string;
  text: string;
  parsed: ParsedFile;
}

/** Shown in place of the space group of a trajectory frame played without a search (the player's frames). */
export const NO_SPACEGROUP_WHILE_PLAYING = 'No space group while playing: pause to find it.';

/**
 * Shows structure k of the active file; `refit` frames the camera on it (a trajectory's frames keep the view).
 * `symmetry` false (a playing trajectory) skips the space-group search, as streamed frames do while playing: it costs
 * tens of milliseconds to seconds a frame, which the frame rate cannot spare.
 */
export function selectStructure(k: number, refit = true, symmetry = true): Promise<boolean> {
  return showStructure(null, k, io.begin(LOAD), refit, symmetry);
}

/**
 * Computes symmetry and scene for structure k of `pending` (a freshly parsed file) or of the active
 * file, then commits file, structures, summary and scene in one update; on failure nothing changes.
 */
async function showStructure(pending: PendingFile | null, k: number, ticket: Ticket, refit = true, search = true): Promise<boolean> {
  const state = useSession.getState();
  const structures = pending ? pending.parsed.structures : state.structures;
  const formulas = pending ? pending.parsed.formulas : state.formulas;
  const p = structures[k];
  if (!p) return false;
  const { settings } = state;
  const options = { ticket, status: setStatus, error: (message: string) => `Could not show ${p.name}: ${message}`, keepBusy: true };
  const symmetry = search
    ? await io.request((api, progress) => api.symmetry(p, settings.symprec, progress(setBusy)), options)
    : ({ ok: true, value: { spacegroup: null, note: NO_SPACEGROUP_WHILE_PLAYING } } as const);
  if (!symmetry?.ok) return false;
  const display = await io.request((api, progress) => api.display(p, sceneOptions(p, settings), progress(setBusy)), options);
  if (!display?.ok) return false;
  const fileUpdate: Partial<SessionState> = {};
  if (pending) {
    const files = useSession.getState().files.filter((f) => f.name !== pending.name);
    files.push({ name: pending.name, text: pending.text });
    while (files.length > MAX_FILES) files.shift();
    Object.assign(fileUpdate, {
      files,
      activeFile: files.length - 1,
      structures,
      formulas,
      format: pending.parsed.format,
      warnings: pending.parsed.warnings,
      synthetic: false,
    });
  }
  useSession.setState((st) => ({
    ...fileUpdate,
    activeStructure: k,
    summary: { ...formulas[k], ...symmetry.value },
    display: display.value,
    busy: null,
    error: null,
    selection: [],
    fitToken: st.fitToken + (refit ? 1 : 0),
  }));
  persistSoon();
  return true;
}

async function rebuildDisplay(refit: boolean): Promise<void> {
  const { structures, activeStructure, settings, synthetic } = useSession.getState();
  const p = structures[activeStructure];
  if (!p) return;
  const ticket = io.begin(SCENE);
  const stillShown = () => ticket.current && useSession.getState().structures[useSession.getState().activeStructure] === p;
  let display: DisplayData;
  if (synthetic) {
    try {
      display = buildDisplay(p, displayOptions(settings, true));
    } catch (e) {
      if (stillShown()) useSession.setState({ busy: null, error: `Could not build the scene: ${errorText(e)}` });
      return;
    }
  } else {
    const r = await io.request((api, progress) => api.display(p, sceneOptions(p, settings), progress(setBusy)), { ticket });
    if (!r || !stillShown()) return;
    if (!r.ok) {
      useSession.setState({ busy: null, error: `Could not build the scene: ${r.error}` });
      return;
    }
    display = r.value;
  }
  if (stillShown())
    useSession.setState((st) => ({ display, busy: null, error: null, selection: [], fitToken: st.fitToken + (refit ? 1 : 0) }));
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
  const r = await io.request((api, progress) => api.symmetry(p, settings.symprec, progress(setBusy)), { lane: SUMMARY });
  // Cancelled, or another structure shown since: nothing changes. Failed: the previous summary stays.
  if (!r || useSession.getState().structures[useSession.getState().activeStructure] !== p) return;
  if (!r.ok) {
    useSession.setState({ busy: null, error: `Could not find the space group: ${r.error}` });
    return;
  }
  useSession.setState({ summary: { ...formulas[activeStructure], ...r.value }, busy: null });
}

/** Stops the worker (terminating it) and keeps whatever was shown before. */
export function cancelWork(): void {
  io.cancel();
  // A cancelled load is not one to warn about on the next start.
  void recordLoad(null);
  useSession.setState({ busy: null, error: 'Cancelled; the previous structure is still shown.' });
}

/** An FCC block of n atoms straight into typed arrays (benchmarks: `?synthetic=N`). */
export function loadSynthetic(n: number): void {
  io.supersede();
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
    synthetic: true,
    structures: [p],
    formulas,
    activeStructure: 0,
    settings,
    format: 'synthetic',
    warnings: [],
    summary: { ...formulas[0], spacegroup: null, note: null },
    display,
    busy: null,
    error: null,
    selection: [],
  });
  useSession.setState((st) => ({ fitToken: st.fitToken + 1 }));
}

/** A stored last-load record, or null when it is absent or malformed. */
export function readLastLoad(value: unknown): LastLoad | null {
  if (!value || typeof value !== 'object') return null;
  const r = value as Record<string, unknown>;
  if (typeof r.name !== 'string' || typeof r.text !== 'string' || (r.status !== 'pending' && r.status !== 'failed')) return null;
  return {
    name: r.name,
    text: r.text,
    status: r.status,
    activeStructure:
      typeof r.activeStructure === 'number' && Number.isInteger(r.activeStructure) && r.activeStructure >= 0 ? r.activeStructure : 0,
    error: typeof r.error === 'string' ? r.error : null,
  };
}

export interface RestorePlan {
  files: LoadedFile[];
  /** The file to load now (with its structure index), or null: the caller loads the default. */
  load: { file: LoadedFile; activeStructure: number } | null;
  retry: RetryOffer | null;
}

/**
 * What the next start does with a saved session and the last load's record (pure, for the unit test): the
 * active file is loaded again unless it is the one whose last load failed or never finished; that one is
 * offered for a retry instead, so a file that froze the tab cannot freeze every start after it.
 */
export function planRestore(saved: unknown, lastLoad: LastLoad | null): RestorePlan {
  const s = (saved && typeof saved === 'object' ? saved : {}) as { files?: unknown; activeFile?: unknown; activeStructure?: unknown };
  const files = Array.isArray(s.files)
    ? s.files.filter((f): f is LoadedFile => !!f && typeof f.name === 'string' && typeof f.text === 'string')
    : [];
  const retry: RetryOffer | null = lastLoad
    ? { name: lastLoad.name, reason: lastLoad.status === 'pending' ? 'unfinished' : 'failed', error: lastLoad.error }
    : null;
  if (files.length === 0) return { files, load: null, retry };
  const active = typeof s.activeFile === 'number' && files[s.activeFile] ? s.activeFile : files.length - 1;
  const file = files[active];
  if (lastLoad && lastLoad.name === file.name && lastLoad.text === file.text) return { files, load: null, retry };
  const activeStructure =
    typeof s.activeStructure === 'number' && Number.isInteger(s.activeStructure) && s.activeStructure >= 0 ? s.activeStructure : 0;
  return { files, load: { file, activeStructure }, retry };
}

/** The file offered for a retry (its text stays here, not in the store). */
let retryFile: LastLoad | null = null;

/** Restores the saved session; returns false when nothing was loaded (the caller then loads the default). */
export async function restoreSession(): Promise<boolean> {
  let saved: unknown;
  let last: unknown;
  try {
    [saved, last] = await Promise.all([get(SESSION_KEY), get(LAST_LOAD_KEY)]);
  } catch {
    return false;
  }
  const lastLoad = readLastLoad(last);
  const plan = planRestore(saved, lastLoad);
  retryFile = plan.retry ? lastLoad : null;
  const settings = saved && typeof saved === 'object' ? (saved as { settings?: unknown }).settings : undefined;
  useSession.setState({ settings: sanitizeSettings(settings), files: plan.files, retry: plan.retry });
  return plan.load ? loadText(plan.load.file.name, plan.load.file.text, plan.load.activeStructure) : false;
}

function dismissOffer(): void {
  retryFile = null;
  useSession.setState({ retry: null });
}

/** Loads the offered file again (the user chose to). */
export async function retryLastLoad(): Promise<boolean> {
  const f = retryFile;
  dismissOffer();
  return f ? loadText(f.name, f.text, f.activeStructure) : false;
}

/** Drops the retry offer (its record is replaced by the next load's). */
export const dismissRetry = dismissOffer;

export async function resetSession(loadDefault: () => Promise<unknown>): Promise<void> {
  clearTimeout(saveTimer);
  await del(SESSION_KEY).catch(() => undefined);
  await recordLoad(null);
  retryFile = null;
  useSession.setState({
    files: [],
    activeFile: -1,
    settings: { ...DEFAULT_SETTINGS },
    selection: [],
    measureMode: false,
    error: null,
    retry: null,
  });
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
  if (!measureMode) {
    useSession.setState({ selection: [index] });
    return;
  }
  const next = selection.length >= 4 ? [index] : [...selection, index];
  const row = measurementOf(next);
  useSession.setState((st) => ({ selection: next, measurements: row ? [...st.measurements, row] : st.measurements }));
}

/** The measurement a pick of 2 (distance), 3 (angle at the middle atom) or 4 atoms (dihedral) completes. */
function measurementOf(atoms: number[]): MeasurementRow | null {
  const d = useSession.getState().display;
  if (!d || atoms.length < 2 || atoms.some((i) => i >= d.natoms)) return null;
  const p = d.positions;
  const labels = atoms.map((i) => `${d.elements[d.element[i]]}#${i}`);
  const [a, b, c, e] = atoms;
  if (atoms.length === 2) return { kind: 'distance', atoms: labels, value: distance(p, a, b), unit: 'Å' };
  if (atoms.length === 3) return { kind: 'angle', atoms: labels, value: angle(p, a, b, c), unit: '°' };
  return { kind: 'dihedral', atoms: labels, value: dihedral(p, a, b, c, e), unit: '°' };
}

export const clearMeasurements = () => useSession.setState({ measurements: [] });

export function toggleElement(symbol: string): void {
  const hidden = useSession.getState().hiddenElements;
  useSession.setState({
    hiddenElements: hidden.includes(symbol) ? hidden.filter((e) => e !== symbol) : [...hidden, symbol],
    selection: [],
  });
}

/**
 * Downloads the shown structure in `format`, written in the worker by the CLI's writers: as read ("original") or as drawn
 * (wrapped into the cell, the supercell of the settings). Returns false (the error shown) when it cannot be written.
 */
export async function downloadStructure(format: FormatId, asShown: boolean): Promise<boolean> {
  const { structures, activeStructure, files, activeFile, synthetic, settings } = useSession.getState();
  const p = structures[activeStructure];
  if (!p) return false;
  const file = synthetic ? undefined : files[activeFile];
  const source = file ? { name: file.name, text: file.text, index: activeStructure } : null;
  const supercell: [number, number, number] | null = asShown ? [settings.supercellA, settings.supercellB, settings.supercellC] : null;
  const r = await io.request((api) => api.exportStructure(p, source, format, supercell), {
    lane: 'export',
    status: setStatus,
    busy: `writing ${format}`,
    error: (message) => `Could not write ${p.name || 'the structure'} as ${format}: ${message}`,
  });
  if (!r?.ok) return false;
  // Chromium appends a MIME type's own extension to a name that has none (net/base/filename_util.cc,
  // GenerateSafeFileName): an XDATCAR-style name left as text/plain would save as "…_XDATCAR.txt".
  // application/octet-stream has no extension to append.
  const type =
    format === 'pymatgen-json' ? 'application/json' : /\.\w+$/.test(r.value.fileName) ? 'text/plain' : 'application/octet-stream';
  downloadText(r.value.fileName, r.value.text, type);
  return true;
}

export const clearSelection = () => useSession.setState({ selection: [] });
export const setMeasureMode = (on: boolean) => useSession.setState({ measureMode: on, selection: [] });
