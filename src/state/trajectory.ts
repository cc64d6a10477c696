/**
 * Streamed trajectories: a big multi-frame file (over STREAM_BYTES) or several files opened as frames are handed to the
 * trajectory worker as File objects and indexed there; only the shown frame comes back, and it becomes the session's
 * one structure (the panels show it as any structure). Memory follows the frame, not the file. A streamed trajectory
 * is not kept across reloads (the session stores file texts; a 600 MB text does not belong in IndexedDB).
 *
 * A small multi-frame file plays from the session's structures, and the same worker gets a copy of them for the same
 * series (the per-frame metrics pass, space group per frame, the match against a reference): whatever the file's size,
 * the player offers the same values, none computed on the main thread.
 */
import { create } from 'zustand';
import { frameFormatFor, naturalCompare } from '../core/io/frame-index.ts';
import { archiveKind } from '../core/io/archive.ts';
import { checkLimit, formatBytes } from '../core/limits.ts';
import { droppedFiles, filesSizeProblem, openContainers, readTextFile } from '../browser/read-file.ts';
import type { PackedStructure } from '../core/structure/packed.ts';
import type { FrameSeries, SeriesRequest, TrajectoryInfo, TrajectoryStats, TrajectoryWorkerApi } from '../../workers/trajectory-api.ts';
import { errorText, type Status, WorkerClient } from './worker-client.ts';
import { afterFrame, displayOptions, isPtName, loadFiles, NO_SPACEGROUP_WHILE_PLAYING, useSession } from './session.ts';

/** Played frames slower than this each (the median of the last three), with bonds drawn, switch playing to lean. */
export const LEAN_AFTER_MS = 400;
/** How long the last played frames took, request to drawn. */
const playedMs: number[] = [];

/** Files above this size that the lab can index are streamed; smaller ones are read whole (every frame held). */
const STREAM_BYTES = 50 * 1024 * 1024;

export interface TrajectoryState {
  /**
   * Playing without bonds and polyhedra: set when played frames took over LEAN_AFTER_MS each with them (SwiftShader
   * takes seconds for 30,000 bonds); a paused frame always has them.
   */
  lean: boolean;
  /** The per-frame metrics pass of the open trajectory: its series replace the index scan's when 'done'. */
  metrics: 'pending' | 'done' | 'failed';
  /** The open streamed trajectory, or null (a small multi-frame file plays from the session's structures). */
  info: TrajectoryInfo | null;
  /** The session's structures (a small multi-frame file) whose series the worker computes, or null. */
  smallOf: readonly PackedStructure[] | null;
  /** Their per-frame metrics pass, once done (until then the player shows the values the frames carry). */
  smallSeries: FrameSeries[] | null;
  frame: number;
  /** A frame request in flight (the player waits for it before the next). */
  loading: boolean;
  /** Frames shown since the trajectory was opened (the bench's frame counter). */
  shown: number;
  stats: TrajectoryStats | null;
  /** Series asked for (space group per frame, the match against a reference), after the file's own. */
  extra: FrameSeries[];
  /** The per-frame metrics pass or an on-demand series in progress ("space group: frame 120 of 1000"), or null. */
  computing: string | null;
  /** Several picked or dropped files open as the frames of one trajectory. */
  asFrames: boolean;
  busy: string | null;
  error: string | null;
}

export const useTrajectory = create<TrajectoryState>(() => ({
  lean: false,
  metrics: 'done',
  info: null,
  smallOf: null,
  smallSeries: null,
  frame: 0,
  loading: false,
  shown: 0,
  stats: null,
  extra: [],
  computing: null,
  asFrames: false,
  busy: null,
  error: null,
}));

// Vite needs the `new URL(..., import.meta.url)` inline to bundle the worker.
const worker = new WorkerClient<TrajectoryWorkerApi>(
  () => new Worker(new URL('../../workers/trajectory.worker.ts', import.meta.url), { type: 'module', name: 'structlab-trajectory' }),
);
const setStatus = (patch: Status) => useTrajectory.setState(patch);
const setBusy = (busy: string) => useTrajectory.setState({ busy });

/** What was opened, to open it again in a fresh worker (after a cancel or a job past its budget). */
let opened: { files: File[]; single: boolean; epoch: number } | null = null;
/** The structures array this store put in the session: any other means the user loaded something else. */
let ours: unknown = null;

/** The size above which a file is streamed: STREAM_BYTES, or `?streamBytes=N` (tests stream small files). */
function streamBytes(): number {
  const v = typeof location === 'undefined' ? null : new URLSearchParams(location.search).get('streamBytes');
  return v !== null && Number.isFinite(Number(v)) && Number(v) >= 0 ? Number(v) : STREAM_BYTES;
}

/**
 * Opens picked or dropped files: with "open as frames", several files become one trajectory; a big multi-frame file
 * streams; everything else loads as before.
 */
export async function openPicked(picked: File[]): Promise<void> {
  // Loose files may merge into one trajectory; an archive's files never do: MatterGen's generated_trajectories.zip
  // holds one trajectory per sample (gen_i.extxyz), each already multi-frame. A .pt is a multi-structure file too.
  const loose: File[] = [];
  const archives: File[][] = [];
  try {
    for (const p of picked) {
      const files = await openContainers([p]); // x.cif.gz as x.cif; a .zip/.tar(.gz) as its files
      if (archiveKind(p.name) !== null) archives.push(files);
      else loose.push(...files);
    }
  } catch (e) {
    useSession.setState({ error: errorText(e) });
    return;
  }
  const asFrames = useTrajectory.getState().asFrames;
  const mergeable = loose.filter((f) => !isPtName(f.name));
  if (asFrames && mergeable.length > 1) {
    await openTrajectory(mergeable, false);
    for (const f of loose.filter((f) => isPtName(f.name))) await loadFiles([f]);
  } else for (const f of loose) await openOne(f);
  // With "open as frames" an archive's first trajectory (natural order of names) opens; without it, all its files.
  for (const files of archives)
    for (const f of asFrames ? [...files].sort((a, b) => naturalCompare(a.name, b.name)).slice(0, 1) : files) await openOne(f);
}

/** One file: a big multi-frame file streams, anything else loads into the session. */
async function openOne(f: File): Promise<void> {
  if (f.size > streamBytes() && frameFormatFor(f.name)) await openTrajectory([f], true);
  else await loadFiles([f]);
}

/** Opens a drop as openPicked does; a dropped folder is its files (src/browser/read-file.ts droppedFiles). */
export async function openDropped(data: DataTransfer): Promise<void> {
  let files: File[];
  try {
    files = await droppedFiles(data);
  } catch (e) {
    useSession.setState({ error: errorText(e) });
    return;
  }
  await openPicked(files);
}

async function openTrajectory(files: File[], single: boolean): Promise<boolean> {
  const name = single ? files[0].name : `${files.length} files`;
  try {
    if (single) checkLimit('trajectoryBytes', name, files[0].size, 'bytes');
    else {
      const problem = filesSizeProblem(files, 'the files opened as frames');
      if (problem) throw new Error(problem);
    }
  } catch (e) {
    useTrajectory.setState({ error: errorText(e) });
    return false;
  }
  const ticket = worker.begin('open');
  const r = await worker.request(
    (api, progress) => (single ? api.open(files[0], name, progress(setBusy)) : api.openFiles(files, progress(setBusy))),
    {
      ticket,
      status: setStatus,
      busy: `opening ${name}`,
      keepBusy: true,
    },
  );
  if (!r?.ok) return false;
  opened = { files, single, epoch: worker.epoch };
  sent = null;
  useTrajectory.setState({
    info: r.value,
    smallOf: null,
    smallSeries: null,
    frame: 0,
    shown: 0,
    stats: null,
    extra: [],
    metrics: 'pending',
    lean: false,
    // A small trajectory's pass, stopped by this open, may have reported that: this trajectory has no error.
    error: null,
    computing: null,
  });
  playedMs.length = 0;
  const shown = await showFrame(0, { refit: true, symmetry: true });
  if (shown) void computeMetrics(r.value);
  return shown;
}

const setComputing = (computing: string) => useTrajectory.setState({ computing });

/** The per-frame metrics pass, after the first frame is shown: its series replace the index scan's when it ends. */
async function computeMetrics(info: TrajectoryInfo): Promise<void> {
  const r = await worker.request((api, progress) => api.metrics(progress(setComputing)), {
    lane: 'series',
    error: (message) => `Per-frame metrics stopped: ${message}`,
  });
  if (useTrajectory.getState().info !== info) return;
  if (!r) {
    useTrajectory.setState({ metrics: 'failed' });
    return;
  }
  useTrajectory.setState(
    r.ok
      ? { info: { ...info, series: r.value }, computing: null, metrics: 'done' }
      : { computing: null, error: r.error, metrics: 'failed' },
  );
}

/** The small trajectory's structures the worker holds (they are sent again to a fresh worker), or null. */
let sent: { of: readonly PackedStructure[]; epoch: number } | null = null;

/** Hands the worker the small trajectory's frames unless it holds them already; false when that failed or was dropped. */
async function sendSmall(of: readonly PackedStructure[]): Promise<boolean> {
  if (sent?.of === of && sent.epoch === worker.epoch) return true;
  const r = await worker.request((api) => api.openStructures([...of], of[0]?.name ?? 'the frames'), {
    lane: 'series',
    error: (message) => `Could not compute the per-frame values: ${message}`,
  });
  if (!r || useTrajectory.getState().smallOf !== of) return false;
  if (!r.ok) {
    useTrajectory.setState({ computing: null, error: r.error, metrics: 'failed' });
    return false;
  }
  sent = { of, epoch: worker.epoch };
  return true;
}

/**
 * The player's small multi-frame file (the session's structures): its per-frame metrics pass in the worker, once per
 * structures array; its series replace the values the frames carry when it ends.
 */
export async function followSmall(structures: readonly PackedStructure[]): Promise<void> {
  if (useTrajectory.getState().smallOf === structures) return;
  useTrajectory.setState({ smallOf: structures, smallSeries: null, extra: [], metrics: 'pending', computing: null, error: null });
  if (!(await sendSmall(structures))) return;
  const r = await worker.request((api, progress) => api.metrics(progress(setComputing)), {
    lane: 'series',
    error: (message) => `Per-frame metrics stopped: ${message}`,
  });
  if (useTrajectory.getState().smallOf !== structures) return;
  if (!r) {
    useTrajectory.setState({ metrics: 'failed' });
    return;
  }
  useTrajectory.setState(
    r.ok ? { smallSeries: r.value, computing: null, metrics: 'done' } : { computing: null, error: r.error, metrics: 'failed' },
  );
}

/** Computes an on-demand series over every frame (space group at the page's symprec, or against a reference file). */
export async function requestSeries(request: SeriesRequest): Promise<void> {
  const { info, smallOf } = useTrajectory.getState();
  const owner = () => useTrajectory.getState().info ?? useTrajectory.getState().smallOf;
  const of = info ?? smallOf;
  if (!of) return;
  if (!info && smallOf && !(await sendSmall(smallOf))) return;
  const r = await worker.request((api, progress) => api.series(request, progress(setComputing)), {
    lane: 'series',
    error: (message) => `Could not compute the series: ${message}`,
  });
  if (!r || owner() !== of) return;
  if (!r.ok) {
    useTrajectory.setState({ computing: null, error: r.error });
    return;
  }
  const names = new Set(r.value.map((x) => x.name));
  useTrajectory.setState((st) => ({ computing: null, error: null, extra: [...st.extra.filter((x) => !names.has(x.name)), ...r.value] }));
}

/** A reference structure file for the RMSD / matcher series (read whole: it is one structure). */
export async function requestReferenceSeries(file: File): Promise<void> {
  let text: string;
  try {
    text = await readTextFile(file);
  } catch (e) {
    useTrajectory.setState({ error: errorText(e) });
    return;
  }
  await requestSeries({ kind: 'reference', name: file.name, text });
}

/**
 * Shows frame k: the worker reads it and builds its scene, and the session shows it as its one structure (the view is
 * kept unless `refit`). While playing, the space group is not searched per frame (`symmetry` false) and `next` names the
 * frame that follows, which the worker prepares while this one is drawn.
 */
export async function showFrame(k: number, { refit = false, symmetry = true, next = null as number | null } = {}): Promise<boolean> {
  const { info } = useTrajectory.getState();
  if (!info) return false;
  const frame = Math.max(0, Math.min(info.frames - 1, k));
  const ticket = worker.begin('frame');
  useTrajectory.setState({ loading: true });
  // A fresh worker (after a cancel) holds nothing: the same files are opened again first.
  if (opened && opened.epoch !== worker.epoch) {
    const o = opened;
    const again = await worker.request((api) => (o.single ? api.open(o.files[0], info.name) : api.openFiles(o.files)), {
      ticket,
      status: setStatus,
      busy: `opening ${info.name} again`,
      keepBusy: true,
    });
    if (!again?.ok) {
      if (ticket.current) useTrajectory.setState({ loading: false });
      return false;
    }
    opened = { ...o, epoch: worker.epoch };
  }
  const { settings } = useSession.getState();
  const started = performance.now();
  const playing = next !== null;
  const lean = playing && useTrajectory.getState().lean;
  const options = { ...displayOptions(settings, false), ...(lean ? { bonds: false, polyhedra: false } : {}) };
  const r = await worker.request((api) => api.frame(frame, options, symmetry ? settings.symprec : null, next), {
    ticket,
    status: setStatus,
    error: (message) => `Could not show frame ${frame + 1}: ${message}`,
  });
  if (!r) return false;
  if (!r.ok) {
    useTrajectory.setState({ loading: false });
    return false;
  }
  const { structure, formulas, display, stats } = r.value;
  // Without a search (playing), the last space group is not this frame's: none is shown, with a note why.
  const sym = r.value.symmetry ?? { spacegroup: null, note: NO_SPACEGROUP_WHILE_PLAYING };
  ours = [structure];
  useSession.setState((st) => ({
    structures: ours as (typeof st)['structures'],
    formulas: [formulas],
    activeStructure: 0,
    // No session file is this one: exports write the frame itself, and a reload does not try to restore it.
    activeFile: -1,
    format: info.format,
    warnings: [],
    synthetic: false,
    summary: { ...formulas, ...sym },
    display,
    busy: null,
    error: null,
    selection: [],
    fitToken: st.fitToken + (refit ? 1 : 0),
  }));
  useTrajectory.setState({ frame, stats, busy: null });
  // Done once the frame is drawn: the player asks for the next only then, so a slow frame lowers the rate and no frame
  // is skipped unseen (`shown` counts drawn frames: the bench's frame rate).
  await afterFrame();
  if (!ticket.current) return true;
  useTrajectory.setState((st) => ({ loading: false, shown: st.shown + 1 }));
  if (playing && !lean && (settings.showBonds || settings.showPolyhedra)) {
    playedMs.push(performance.now() - started);
    if (playedMs.length > 3) playedMs.shift();
    const sorted = [...playedMs].sort((a, b) => a - b);
    if (playedMs.length === 3 && sorted[1] > LEAN_AFTER_MS) useTrajectory.setState({ lean: true });
  }
  return true;
}

/** Stops what the worker is doing (terminating it); the next frame opens the trajectory again. */
export function cancelTrajectory(): void {
  worker.cancel();
  useTrajectory.setState({ busy: null, loading: false, computing: null, error: 'Cancelled.' });
}

export const setAsFrames = (asFrames: boolean) => useTrajectory.setState({ asFrames });

/** "600 MB streamed: frames read from the file as shown" — the player's note. */
export function streamedNote(info: TrajectoryInfo): string {
  return `${formatBytes(info.bytes)} streamed from the file, frame by frame; not kept across reloads (open it again).`;
}

// Anything else loaded into the session (a file, an example) closes the streamed trajectory.
useSession.subscribe((s, prev) => {
  if (s.structures === prev.structures || s.structures === ours) return;
  const st = useTrajectory.getState();
  if (st.error) useTrajectory.setState({ error: null });
  if (st.info) {
    ours = null;
    opened = null;
    worker.supersede();
    useTrajectory.setState({ info: null, frame: 0, shown: 0, stats: null, loading: false, extra: [], computing: null });
  }
  // A small trajectory's series end with it (the player follows the next multi-frame file); a pass still running for it
  // is stopped, not left to finish unseen.
  if (st.smallOf) {
    if (st.metrics === 'pending' || st.computing !== null) worker.cancel();
    sent = null;
    useTrajectory.setState({ smallOf: null, smallSeries: null, extra: [], computing: null, metrics: 'done' });
  }
});
