/**
 * The Structure page's crystallography panels (symmetry and cell choice, powder XRD, lattice planes): computed in
 * their own worker for the structure the session shows, on demand (a panel computes once it is opened), and
 * dropped when another structure is shown. The chosen cell's scene replaces the session's scene in the viewer.
 */
import type { PatternComparison } from '../core/analysis/xrd-compare.ts';
import { readTextFile } from '../browser/read-file.ts';
import { errorText } from '../core/errors.ts';
import type * as Comlink from 'comlink';
import { create } from 'zustand';
import type { DisplayData } from '../core/analysis/display-scene.ts';
import type { LatticePlane } from '../core/analysis/planes.ts';
import { XRD_WAVELENGTHS, type XrdPattern } from '../core/analysis/xrd.ts';
import type { Vec3 } from '../core/math/mat3.ts';
import type { PackedStructure } from '../core/structure/packed.ts';
import type { CellChoice, EnvironmentMethod, EnvironmentView, WyckoffTable } from '../core/tasks/crystallography/lab.ts';
import type { CrystallographyWorkerApi, SourceText, SymmetryPanelData } from '../../workers/crystallography-api.ts';
import type { Result } from '../../workers/result.ts';
import { downloadText } from '../browser/download.ts';
import { displayOptions, setPolyhedronNeighbors, setSetting, useSession } from './session.ts';
import { WorkerClient } from './worker-client.ts';

export type { CellChoice, EnvironmentMethod };

export type Panel = 'symmetry' | 'xrd' | 'planes' | 'env';

/** The broadened profile's grid step (°), as `structlab xrd-compare`'s default. */
const PROFILE_STEP = 0.02;
const TWO_THETA: [number, number] = [0, 90];
/** At most this many planes at once, as `structlab planes`. */
const MAX_PLANES = 100;
const MAX_INDEX = 1000;

export interface CrystallographyState {
  /** The structure the data below belongs to. */
  structure: PackedStructure | null;
  open: Record<Panel, boolean>;
  /** Per panel: what it is computing, and its last failure. */
  busy: Partial<Record<Panel, string>>;
  error: Partial<Record<Panel, string>>;
  symmetry: SymmetryPanelData | null;
  cell: CellChoice;
  /** The scene of the chosen cell; null while the cell as read is shown. */
  cellDisplay: DisplayData | null;
  /** The Wyckoff-table row under the pointer (its orbit is highlighted in 3D). */
  hoverRow: number | null;
  /** 'CuKa', 'MoKa' or a wavelength in Å as typed. */
  wavelength: string;
  fwhm: number;
  pattern: XrdPattern | null;
  /** The broadened profile on TWO_THETA with PROFILE_STEP. */
  profile: Float64Array | null;
  hklText: string;
  planes: LatticePlane[] | null;
  /** How the Local environment panel finds neighbours: CrystalNN, or every atom within `cutoff` Å; and its data. */
  envMethod: EnvironmentMethod;
  cutoff: number;
  environment: EnvironmentView | null;
  /** The view's polyhedra are drawn from the panel's neighbours (while the view's Polyhedra setting is on). */
  envPolyhedra: boolean;
  /** A second structure's environment by the same method, overlaid in the panel's plots (a file the user picked). */
  environment2: { name: string; text: string; view: EnvironmentView } | null;
  /** Colour the atoms by coordination number instead of element (off until asked for: opening the panel to read the
   * numbers leaves the atoms in the element colours the view's legend names). */
  colorByCn: boolean;
  /** The shown structure's powder pattern against a second structure's (a file the user picked). */
  xrdComparison: { name: string; comparison: PatternComparison } | null;
}

export const useCrystallography = create<CrystallographyState>(() => ({
  structure: shown(),
  open: { symmetry: false, xrd: false, planes: false, env: false },
  busy: {},
  error: {},
  symmetry: null,
  cell: 'read',
  cellDisplay: null,
  hoverRow: null,
  wavelength: 'CuKa',
  fwhm: 0.1,
  pattern: null,
  profile: null,
  hklText: '1 1 1',
  planes: null,
  envMethod: 'crystalnn',
  cutoff: 3.5,
  environment: null,
  envPolyhedra: false,
  environment2: null,
  colorByCn: false,
  xrdComparison: null,
}));

const worker = new WorkerClient<CrystallographyWorkerApi>(
  () =>
    new Worker(new URL('../../workers/crystallography.worker.ts', import.meta.url), { type: 'module', name: 'structlab-crystallography' }),
);

/** The periodic structure the session shows (null: none, finite, or the synthetic block). */
function shown(): PackedStructure | null {
  const s = useSession.getState();
  const p = s.synthetic ? undefined : s.structures[s.activeStructure];
  return p?.lattice ? p : null;
}

function setPanel(panel: Panel, busy: string | null, error: string | null): void {
  useCrystallography.setState((st) => {
    const b = { ...st.busy };
    const e = { ...st.error };
    if (busy) b[panel] = busy;
    else delete b[panel];
    if (error) e[panel] = error;
    else delete e[panel];
    return { busy: b, error: e };
  });
}

/** Runs one panel request for the shown structure; its answer, or undefined when it failed (shown) or is stale. */
async function ask<T>(
  panel: Panel,
  lane: string,
  busy: string,
  call: (api: Comlink.Remote<CrystallographyWorkerApi>, p: PackedStructure) => Promise<Result<T>>,
): Promise<T | undefined> {
  const p = useCrystallography.getState().structure;
  if (!p) return undefined;
  const r = await worker.request((api) => call(api, p), {
    lane,
    status: ({ busy: b, error }) => setPanel(panel, b, error),
    busy,
  });
  if (!r?.ok || useCrystallography.getState().structure !== p) return undefined;
  return r.value;
}

async function computeSymmetry(): Promise<void> {
  const { symprec } = useSession.getState().settings;
  const value = await ask('symmetry', 'symmetry', 'finding the symmetry', (api, p) => api.symmetry(p, symprec));
  if (!value) return;
  useCrystallography.setState({ symmetry: value, hoverRow: null });
  if (useCrystallography.getState().cell !== 'read') void showCell();
}

/** The viewer fits the camera to the scene it shows now. */
const refit = () => useSession.setState((s) => ({ fitToken: s.fitToken + 1 }));

/**
 * Builds the chosen cell's scene with the session's display settings (the cell as read: the session's own scene);
 * `fit`: the camera is refitted once that scene is shown (a refit before it arrives would fit the previous cell).
 */
async function showCell(fit = false): Promise<void> {
  const { cell, symmetry } = useCrystallography.getState();
  if (cell === 'read' || !symmetry) {
    useCrystallography.setState({ cellDisplay: null });
    if (fit) refit();
    return;
  }
  const options = displayOptions(useSession.getState().settings, false);
  const display = await ask('symmetry', 'cell', `building the ${cell} cell`, (api) => api.display(symmetry.cells[cell], options));
  if (!display || useCrystallography.getState().cell !== cell) return;
  useCrystallography.setState({ cellDisplay: display });
  if (fit) refit();
}

export function setCell(cell: CellChoice): void {
  useCrystallography.setState({ cell, hoverRow: null });
  // Picks are sites of the cell shown; the viewer refits to the new cell once its scene replaces the current one.
  useSession.setState({ selection: [] });
  void showCell(true).then(() => void computePlanes());
}

/** The Wyckoff table of the cell shown (null before the symmetry is known, or where the search on that cell failed). */
export function shownWyckoffTable(st: Pick<CrystallographyState, 'cell' | 'symmetry'>): WyckoffTable | null {
  if (!st.symmetry) return null;
  return st.cell === 'read' ? st.symmetry : st.symmetry.cellTables[st.cell];
}

export const setHoverRow = (row: number | null) => {
  if (useCrystallography.getState().hoverRow !== row) useCrystallography.setState({ hoverRow: row });
};

/** The wavelength in Å of a choice: a name of pymatgen's table or a positive number up to 100 Å. */
function wavelengthAngstrom(choice: string): number | null {
  const named = XRD_WAVELENGTHS.get(choice);
  if (named !== undefined) return named;
  const v = Number(choice.trim());
  return choice.trim() !== '' && Number.isFinite(v) && v > 0 && v <= 100 ? v : null;
}

async function computeXrd(): Promise<void> {
  const { wavelength } = useCrystallography.getState();
  const lambda = wavelengthAngstrom(wavelength);
  if (lambda === null) {
    setPanel('xrd', null, `The wavelength must be CuKa, MoKa or a number of Å in (0, 100], not "${wavelength}".`);
    return;
  }
  const pattern = await ask('xrd', 'xrd', 'computing the pattern', (api, p) => api.xrd(p, lambda, TWO_THETA));
  if (!pattern || useCrystallography.getState().wavelength !== wavelength) return;
  useCrystallography.setState({ pattern, profile: null });
  await computeProfile();
}

async function computeProfile(): Promise<void> {
  const { pattern, fwhm } = useCrystallography.getState();
  if (!pattern) return;
  const profile = await ask('xrd', 'profile', 'broadening', (api) => api.profile(pattern.peaks, fwhm, PROFILE_STEP, TWO_THETA));
  if (profile && useCrystallography.getState().pattern === pattern) useCrystallography.setState({ profile });
}

/** Compares the shown structure's powder pattern with that of the structure in `file` (at the panel's λ and FWHM). */
export async function compareXrdWith(file: File): Promise<void> {
  const { wavelength, fwhm } = useCrystallography.getState();
  const lambda = wavelengthAngstrom(wavelength);
  if (lambda === null) return;
  let text: string;
  try {
    text = await readTextFile(file);
  } catch (e) {
    setPanel('xrd', null, errorText(e));
    return;
  }
  const comparison = await ask('xrd', 'xrd-compare', `comparing with ${file.name}`, (api, p) =>
    api.xrdCompare(p, { text, name: file.name, index: 0 }, lambda, fwhm),
  );
  if (comparison) useCrystallography.setState({ xrdComparison: { name: file.name, comparison } });
}

export function setWavelength(wavelength: string): void {
  useCrystallography.setState({ wavelength });
  void computeXrd();
}

export function setFwhm(fwhm: number): void {
  if (!(fwhm > 0 && fwhm <= 5)) return;
  useCrystallography.setState({ fwhm });
  void computeProfile();
}

/** The 2θ of profile point m. */
export const profileTwoTheta = (m: number): number => TWO_THETA[0] + m * PROFILE_STEP;

/** "h k l; h k l" (spaces or commas inside a triple, ';' between): the triples, or the sentence saying what is wrong. */
function parseHklList(text: string): Vec3[] | string {
  const items = text.split(';').filter((x) => x.trim() !== '');
  if (items.length === 0) return 'Enter at least one plane, e.g. "1 1 1" or "1 0 0; 1 1 1".';
  if (items.length > MAX_PLANES) return `At most ${MAX_PLANES} planes at once, not ${items.length}.`;
  const out: Vec3[] = [];
  for (const item of items) {
    const parts = item
      .trim()
      .replace(/[()]/g, '')
      .split(/[\s,]+/);
    const v = parts.map((x) => (/^[+-]?\d+$/.test(x) ? Number(x) : NaN));
    if (v.length !== 3 || v.some((x) => !Number.isSafeInteger(x) || Math.abs(x) > MAX_INDEX) || v.every((x) => x === 0))
      return `"${item.trim().slice(0, 40)}" is not three whole numbers h k l (|index| ≤ ${MAX_INDEX}, not all zero).`;
    out.push(v as Vec3);
  }
  return out;
}

/** The structure whose cell the planes cut: the chosen cell, or the structure as read. */
function planesCell(): PackedStructure | null {
  const { cell, symmetry, structure } = useCrystallography.getState();
  return cell !== 'read' && symmetry ? symmetry.cells[cell] : structure;
}

async function computePlanes(): Promise<void> {
  const { hklText, open } = useCrystallography.getState();
  if (!open.planes) return;
  const hkls = parseHklList(hklText);
  if (typeof hkls === 'string') {
    useCrystallography.setState({ planes: null });
    setPanel('planes', null, hkls);
    return;
  }
  const cell = planesCell();
  if (!cell) return;
  const planes = await ask('planes', 'planes', 'cutting the planes', (api) => api.planes(cell, hkls));
  if (planes && useCrystallography.getState().hklText === hklText && planesCell() === cell) useCrystallography.setState({ planes });
}

export function setHklText(hklText: string): void {
  useCrystallography.setState({ hklText });
  void computePlanes();
}

/** The shown structure's file, read again in the worker (oxidation states survive there; packing drops them). */
function shownSource(): SourceText | null {
  const { files, activeFile, activeStructure } = useSession.getState();
  const file = files[activeFile];
  return file ? { name: file.name, text: file.text, index: activeStructure } : null;
}

async function computeEnvironment(): Promise<void> {
  const { envMethod, cutoff, environment2 } = useCrystallography.getState();
  const same = () => useCrystallography.getState().envMethod === envMethod && useCrystallography.getState().cutoff === cutoff;
  const source = envMethod === 'crystalnn' ? shownSource() : null;
  const environment = await ask('env', 'env', 'finding the neighbours', (api, p) => api.environment(p, envMethod, cutoff, source));
  if (environment && same()) {
    useCrystallography.setState({ environment });
    syncPolyhedra();
  }
  if (environment2) await computeSecondEnvironment(environment2.name, environment2.text);
}

async function computeSecondEnvironment(name: string, text: string): Promise<void> {
  const { envMethod, cutoff } = useCrystallography.getState();
  const view = await ask('env', 'env2', `finding the neighbours in ${name}`, (api) =>
    api.environmentOfFile({ name, text, index: 0 }, envMethod, cutoff),
  );
  const st = useCrystallography.getState();
  if (view && st.envMethod === envMethod && st.cutoff === cutoff) useCrystallography.setState({ environment2: { name, text, view } });
}

/** Overlays the environment of the structure in `file` on the shown one's (same method and cutoff). */
export async function overlayEnvironmentOf(file: File): Promise<void> {
  let text: string;
  try {
    text = await readTextFile(file);
  } catch (e) {
    setPanel('env', null, errorText(e));
    return;
  }
  await computeSecondEnvironment(file.name, text);
}

export function setCutoff(cutoff: number): void {
  if (!(cutoff >= 0.1 && cutoff <= 20)) {
    setPanel('env', null, `The cutoff must be between 0.1 and 20 Å, not ${cutoff}.`);
    return;
  }
  useCrystallography.setState({ cutoff });
  void computeEnvironment();
}

export function setEnvMethod(envMethod: EnvironmentMethod): void {
  if (useCrystallography.getState().envMethod === envMethod) return;
  useCrystallography.setState({ envMethod });
  void computeEnvironment();
}

/** Whether the panel's checkbox switched the view's Polyhedra setting on (unchecking it switches the setting off again). */
let polyhedraSwitchedOn = false;

/** The session draws its polyhedra from the panel's neighbours while asked to and they belong to the shown structure. */
function syncPolyhedra(): void {
  const { envPolyhedra, environment, structure } = useCrystallography.getState();
  const shownNow = shown();
  if (shownNow) setPolyhedronNeighbors(shownNow, envPolyhedra && environment && structure === shownNow ? environment.polyhedra : null);
}

/** Polyhedra from the panel's neighbours on or off; each way the scene is rebuilt once (the lists first, then the setting). */
export function setEnvPolyhedra(on: boolean): void {
  const showing = useSession.getState().settings.showPolyhedra;
  useCrystallography.setState({ envPolyhedra: on });
  if (on) {
    syncPolyhedra();
    if (!showing) {
      polyhedraSwitchedOn = true;
      setSetting('showPolyhedra', true);
    }
    return;
  }
  if (showing && polyhedraSwitchedOn) setSetting('showPolyhedra', false);
  polyhedraSwitchedOn = false;
  syncPolyhedra();
}

export const setColorByCn = (colorByCn: boolean) => useCrystallography.setState({ colorByCn });

/** What an open panel shows while a trajectory plays: each played frame would otherwise recompute every open panel. */
export const WAITING_FOR_PAUSE = 'computed when playback pauses';

/** The open panels (or `only`) compute what they lack for the shown structure; while playing they wait for the pause. */
function computeMissing(only?: Panel): void {
  const st = useCrystallography.getState();
  const panels = (['symmetry', 'xrd', 'planes', 'env'] as const).filter((p) => st.open[p] && (only === undefined || p === only));
  if (useSession.getState().playing) {
    for (const panel of panels) setPanel(panel, WAITING_FOR_PAUSE, null);
    return;
  }
  for (const panel of panels) if (st.busy[panel] === WAITING_FOR_PAUSE) setPanel(panel, null, null);
  if (panels.includes('symmetry') && !st.symmetry) void computeSymmetry();
  if (panels.includes('xrd') && !st.pattern) void computeXrd();
  if (panels.includes('planes') && !st.planes) void computePlanes();
  if (panels.includes('env') && !st.environment) void computeEnvironment();
}

/** Opens or closes a panel; an opened panel computes what it lacks for the shown structure. */
export function setPanelOpen(panel: Panel, on: boolean): void {
  useCrystallography.setState((st) => ({ open: { ...st.open, [panel]: on } }));
  if (on) computeMissing(panel);
}

/** Downloads the symmetrized CIF (`structlab convert IN OUT.cif --symmetrize` at the display options' symprec). */
export async function downloadSymmetrizedCif(): Promise<void> {
  const { files, activeFile, activeStructure, settings } = useSession.getState();
  const file = files[activeFile];
  const source = file ? { name: file.name, text: file.text, index: activeStructure } : null;
  const r = await ask('symmetry', 'cif', 'writing the symmetrized CIF', (api, p) => api.symmetrizedCif(p, source, settings.symprec));
  if (r) downloadText(r.fileName, r.text, 'chemical/x-cif');
}

// Another structure shown: everything is dropped and the open panels compute again; a new symprec redoes the symmetry;
// a rebuilt scene (display settings) rebuilds the chosen cell's scene with them.
useSession.subscribe((s, prev) => {
  const p = shown();
  const st = useCrystallography.getState();
  if (p !== st.structure) {
    worker.supersede();
    const had = st.cell !== 'read';
    useCrystallography.setState({
      structure: p,
      busy: {},
      error: {},
      symmetry: null,
      cell: 'read',
      cellDisplay: null,
      hoverRow: null,
      pattern: null,
      profile: null,
      planes: null,
      environment: null,
      environment2: null,
      xrdComparison: null,
    });
    if (had) refit();
    syncPolyhedra();
    if (p) computeMissing();
    return;
  }
  if (!p) return;
  if (prev.playing && !s.playing) return computeMissing();
  if (s.settings.symprec !== prev.settings.symprec && (st.open.symmetry || st.symmetry)) void computeSymmetry();
  else if (s.display !== prev.display && st.cell !== 'read') void showCell();
});
