/**
 * The Structure page's view as a link and as a session file. A link (`#/structure?dataset=…&structure=…&camera=…&set.…=…`)
 * names an embedded dataset, the camera and the display settings that differ from the defaults; files the user
 * opened cannot travel in a link, so a session file (JSON) carries their text and the same view. Both are read as
 * hostile: only known keys are looked at (never through an object's prototype), every value is checked, and a bad
 * one is refused with one sentence.
 */
import { LIMITS, formatBytes, printable, groupedNumber } from '../core/limits.ts';
import type { CameraView } from '../viewer/controller.ts';
import { DEFAULT_SETTINGS, SETTINGS_SCHEMA, type ViewSettings } from '../viewer/view-settings.ts';
import { sanitizeSettings } from './settings.ts';
import { datasetText, isDataset } from './datasets.ts';
import { type LoadedFile, loadText, useSession } from './session.ts';

/** What a link or a session file restores. */
export interface SharedView {
  settings: ViewSettings;
  camera: CameraView | null;
  activeStructure: number;
}

export interface LinkView extends SharedView {
  dataset: string;
}

export interface SessionFile extends SharedView {
  files: LoadedFile[];
  activeFile: number;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const SESSION_FORMAT = 'structlab-session';
const SESSION_VERSION = 1;
/** Files a session holds (the lab keeps at most this many loaded). */
export const SESSION_MAX_FILES = 8;
const MAX_NAME = 255;
/** Structures of one file, as LIMITS.fileStructures bounds them. */
const maxStructureIndex = () => LIMITS.fileStructures - 1;

const own = (o: object, key: string): unknown => (Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : undefined);

/** `position,target,up,zoom` as 10 numbers; each written with full precision (String round-trips a double exactly). */
export const cameraText = (c: CameraView): string => [...c.position, ...c.target, ...c.up, c.zoom].map(String).join(',');

function readCamera(value: unknown): Parsed<CameraView> {
  const numbers = typeof value === 'string' ? value.split(',').map((t) => (t.trim() === '' ? NaN : Number(t))) : value;
  const bad = (why: string): Parsed<CameraView> => ({ ok: false, error: `The camera in the link or session ${why}.` });
  if (!Array.isArray(numbers) || numbers.length !== 10) return bad('must be 10 numbers: position, target, up and zoom');
  if (!numbers.every((x) => typeof x === 'number' && Number.isFinite(x))) return bad('holds a value that is not a finite number');
  const v = numbers as number[];
  if (v.some((x) => Math.abs(x) > LIMITS.coordinateAbs)) return bad(`holds a value beyond ±${groupedNumber(LIMITS.coordinateAbs)}`);
  const [px, py, pz, tx, ty, tz, ux, uy, uz, zoom] = v;
  if (Math.hypot(px - tx, py - ty, pz - tz) < 1e-9) return bad('puts the camera on its target');
  if (Math.hypot(ux, uy, uz) < 1e-9) return bad('has no up direction');
  if (!(zoom > 0)) return bad('has a zoom that is not positive');
  return { ok: true, value: { position: [px, py, pz], target: [tx, ty, tz], up: [ux, uy, uz], zoom } };
}

function readIndex(value: unknown, what: string): Parsed<number> {
  const n = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > maxStructureIndex())
    return { ok: false, error: `The ${what} in the link or session must be a whole number from 0 to ${maxStructureIndex()}.` };
  return { ok: true, value: n };
}

/** The settings of a link (`set.KEY=value`), each checked against SETTINGS_SCHEMA; an unknown key or bad value is refused. */
function readLinkSettings(params: URLSearchParams): Parsed<ViewSettings> {
  const raw: Record<string, unknown> = Object.create(null);
  for (const [key, text] of params) {
    if (!key.startsWith('set.')) continue;
    const name = key.slice(4);
    const spec = SETTINGS_SCHEMA.find((s) => s.key === name);
    if (!spec) return { ok: false, error: `The link names an unknown display setting "${printable(name, 40)}".` };
    let value: unknown = text;
    if (spec.kind === 'boolean') value = text === 'true' ? true : text === 'false' ? false : undefined;
    if (spec.kind === 'number') value = text.trim() === '' ? NaN : Number(text);
    const checked = sanitizeSettings({ [spec.key]: value })[spec.key];
    const inRange = spec.kind !== 'number' || (typeof value === 'number' && value >= spec.min && value <= spec.max);
    if (value === undefined || !inRange || (spec.kind !== 'number' && checked !== value))
      return { ok: false, error: `The link's display setting ${spec.key} has a value it cannot take: "${printable(text, 40)}".` };
    raw[spec.key] = value;
  }
  return { ok: true, value: sanitizeSettings(raw) };
}

/** The hash of a link to `view` on the Structure page. Only settings that differ from the defaults are written. */
export function viewLinkHash(view: LinkView): string {
  const params = new URLSearchParams();
  params.set('dataset', view.dataset);
  if (view.activeStructure) params.set('structure', String(view.activeStructure));
  if (view.camera) params.set('camera', cameraText(view.camera));
  for (const spec of SETTINGS_SCHEMA) {
    const v = view.settings[spec.key];
    if (v !== DEFAULT_SETTINGS[spec.key]) params.set(`set.${spec.key}`, String(v));
  }
  return `#/structure?${params.toString()}`;
}

/**
 * The view a location hash asks for: null when it carries none (a plain `#/structure` or another page), else the view
 * or the sentence refusing it. `isDataset` says whether a name is an embedded dataset.
 */
export function readViewLink(hash: string, isDataset: (name: string) => boolean): Parsed<LinkView> | null {
  const m = /^#\/structure\?(.*)$/s.exec(hash);
  if (!m) return null;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(m[1]);
  } catch {
    return { ok: false, error: 'The link could not be read.' };
  }
  const dataset = params.get('dataset');
  if (dataset === null) return { ok: false, error: 'The link names no dataset to show.' };
  if (!isDataset(dataset))
    return { ok: false, error: `The link names "${printable(dataset, 60)}", which is not one of the lab's embedded structures.` };
  const settings = readLinkSettings(params);
  if (!settings.ok) return settings;
  const index = readIndex(params.get('structure') ?? '0', 'structure number');
  if (!index.ok) return index;
  const cameraParam = params.get('camera');
  const camera = cameraParam === null ? null : readCamera(cameraParam);
  if (camera && !camera.ok) return camera;
  return { ok: true, value: { dataset, settings: settings.value, activeStructure: index.value, camera: camera ? camera.value : null } };
}

/** The session file's JSON text. */
export function sessionFileText(session: SessionFile): string {
  return `${JSON.stringify(
    {
      format: SESSION_FORMAT,
      version: SESSION_VERSION,
      files: session.files.map((f) => ({ name: f.name, text: f.text })),
      activeFile: session.activeFile,
      activeStructure: session.activeStructure,
      settings: session.settings,
      camera: session.camera && [...session.camera.position, ...session.camera.target, ...session.camera.up, session.camera.zoom],
    },
    null,
    1,
  )}\n`;
}

/** A session file read back, or the sentence refusing it (`name` is the file's name, for the sentence). */
export function readSessionFile(text: string, name: string): Parsed<SessionFile> {
  const bad = (why: string): Parsed<SessionFile> => ({
    ok: false,
    error: `${printable(name, 80)} is not a StructLab session file: ${why}.`,
  });
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return bad('it is not valid JSON');
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return bad('it is not a JSON object');
  if (own(doc, 'format') !== SESSION_FORMAT) return bad(`its "format" is not "${SESSION_FORMAT}"`);
  if (own(doc, 'version') !== SESSION_VERSION) return bad(`its "version" is not ${SESSION_VERSION}`);
  const rawFiles = own(doc, 'files');
  if (!Array.isArray(rawFiles) || rawFiles.length === 0) return bad('it holds no files');
  if (rawFiles.length > SESSION_MAX_FILES) return bad(`it holds ${rawFiles.length} files; a session keeps at most ${SESSION_MAX_FILES}`);
  const files: LoadedFile[] = [];
  let bytes = 0;
  for (const [i, f] of rawFiles.entries()) {
    const fileName = f && typeof f === 'object' ? own(f, 'name') : undefined;
    const fileText = f && typeof f === 'object' ? own(f, 'text') : undefined;
    if (typeof fileName !== 'string' || typeof fileText !== 'string' || fileName.length === 0 || fileName.length > MAX_NAME)
      return bad(`file ${i + 1} needs a "name" (1 to ${MAX_NAME} characters) and a "text"`);
    bytes += fileText.length;
    if (bytes > LIMITS.inputBytes) return bad(`its files hold more than ${formatBytes(LIMITS.inputBytes)} of text together`);
    files.push({ name: fileName, text: fileText });
  }
  const activeFile = own(doc, 'activeFile') ?? files.length - 1;
  if (typeof activeFile !== 'number' || !Number.isInteger(activeFile) || activeFile < 0 || activeFile >= files.length)
    return bad(`"activeFile" must be a whole number from 0 to ${files.length - 1}`);
  const index = readIndex(own(doc, 'activeStructure') ?? 0, 'structure number');
  if (!index.ok) return { ok: false, error: index.error };
  const rawSettings = own(doc, 'settings');
  if (rawSettings !== undefined && (!rawSettings || typeof rawSettings !== 'object')) return bad('"settings" is not an object');
  const rawCamera = own(doc, 'camera');
  const camera = rawCamera === undefined || rawCamera === null ? null : readCamera(rawCamera);
  if (camera && !camera.ok) return { ok: false, error: camera.error };
  // Unknown keys and out-of-range values in settings fall back to the defaults (sanitizeSettings reads only the schema's keys).
  const settings = sanitizeSettings(rawSettings && Object.assign(Object.create(null), rawSettings));
  return { ok: true, value: { files, activeFile, activeStructure: index.value, settings, camera: camera ? camera.value : null } };
}

// The viewer ranks below the stores, so this import is allowed; it stays dynamic so that three loads with the first 3D
// page, not with the store (and the link tests in Node import this module without it).
const viewer = () => import('../viewer/controller.ts').then((m) => m.mainViewer);

/** Shows `file` with `view`'s settings and, once its scene is fitted, its camera; `others` (a session's) replace the file list. */
async function showShared(file: LoadedFile, others: LoadedFile[] | null, view: SharedView): Promise<boolean> {
  const main = await viewer();
  main.pendingView = view.camera;
  useSession.setState({ settings: view.settings, selection: [], ...(others ? { files: others } : {}) });
  const shown = await loadText(file.name, file.text, view.activeStructure);
  if (!shown) main.pendingView = null;
  return shown;
}

/**
 * Opens the view a link (the location hash) asks for. Returns null when the hash asks for none, true when it was shown,
 * false when it was refused or failed (the sentence is then the session's error; the caller shows the default).
 */
export async function restoreFromLink(hash: string): Promise<boolean | null> {
  const link = readViewLink(hash, isDataset);
  if (!link) return null;
  if (!link.ok) {
    useSession.setState({ error: link.error });
    return false;
  }
  const text = await datasetText(link.value.dataset);
  const shown = await showShared({ name: link.value.dataset, text }, null, link.value);
  const { error } = useSession.getState();
  if (!shown) useSession.setState({ error: `The link's view could not be shown: ${error ?? 'the structure did not load'}` });
  return shown;
}

/**
 * A link to the current view, or why there is none: only the embedded datasets (by name and exact text) can travel in
 * a link; a file the user opened needs the session file.
 */
export async function currentViewLink(base: string): Promise<Parsed<string>> {
  const { files, activeFile, activeStructure, settings, synthetic } = useSession.getState();
  const file = files[activeFile];
  const embedded = !synthetic && file && isDataset(file.name) && (await datasetText(file.name)) === file.text;
  if (!embedded)
    return {
      ok: false,
      error: 'Files you opened yourself cannot travel in a link (they never leave this browser); save a session file instead.',
    };
  const camera = (await viewer()).viewState();
  const url = new URL(base);
  url.hash = viewLinkHash({ dataset: file.name, activeStructure, settings, camera });
  return { ok: true, value: url.href };
}

/** The loaded files, the shown one and the view, as a session file's text. */
export async function currentSessionText(): Promise<string> {
  const { files, activeFile, activeStructure, settings } = useSession.getState();
  const camera = (await viewer()).viewState();
  return sessionFileText({ files, activeFile: Math.max(0, activeFile), activeStructure, settings, camera });
}

/** Opens a session file's text; a refusal or failure becomes the session's error sentence. */
export async function openSession(text: string, name: string): Promise<boolean> {
  const session = readSessionFile(text, name);
  if (!session.ok) {
    useSession.setState({ error: session.error });
    return false;
  }
  const { files, activeFile } = session.value;
  // The session's other files make the list; loading the shown one adds it last.
  return showShared(
    files[activeFile],
    files.filter((_, i) => i !== activeFile),
    session.value,
  );
}
