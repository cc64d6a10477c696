/**
 * "Record…": a movie of a viewer for slides (src/viewer/recorder.ts). A rotation of what is shown, the page's trajectory
 * or growth series (FrameProviders made by the page when the dialog opens); the size (the view's, 1280×720, 1920×1080
 * or typed), the frame rate, WebM or a zip of PNGs. A progress bar and Cancel while it records; errors as a sentence.
 */
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { downloadBlob } from '../browser/download.ts';
import type { ViewerController } from '../viewer/controller.ts';
import {
  type FrameProvider,
  type MovieFormat,
  type MovieKind,
  type MovieOptions,
  movieFileName,
  movieProblem,
  movieSteps,
  recordMovie,
  webmSupported,
} from '../viewer/recorder.ts';
import { Progress } from './Progress.tsx';
import './record-dialog.css';

/** The theme's solid image background (styles.css `--png-background`, as the PNG export uses). */
const viewBackground = (): string => getComputedStyle(document.documentElement).getPropertyValue('--png-background').trim() || '#ffffff';

const PRESETS = [
  { id: 'view', label: 'the view’s size' },
  { id: '1280x720', label: '1280 × 720 (720p)' },
  { id: '1920x1080', label: '1920 × 1080 (1080p)' },
  { id: 'custom', label: 'other…' },
] as const;
type Preset = (typeof PRESETS)[number]['id'];

const KIND_LABELS: Record<MovieKind, string> = { rotation: 'rotation (360°)', trajectory: 'trajectory', growth: 'growth series' };

/** The view's size in CSS pixels, rounded down to even numbers (WebM frames need them). */
function viewSize(controller: ViewerController): [number, number] {
  const size = controller.canvasSize() ?? { width: 640, height: 480 };
  return [Math.max(16, size.width - (size.width % 2)), Math.max(16, size.height - (size.height % 2))];
}

export interface RecordSources {
  /** The loaded trajectory's frames, when there is one. */
  trajectory?: () => FrameProvider | null;
  /** A series of structures the page shows one by one (the Nanoparticle page's radius series). */
  growth?: () => FrameProvider | null;
}

/** The button that opens the dialog; `fileBase` starts the file's name ("structlab" → structlab-rotation.webm). */
export function RecordButton({
  controller,
  sources = {},
  fileBase = 'structlab',
  className,
  disabled,
}: {
  controller: ViewerController;
  sources?: RecordSources;
  fileBase?: string;
  className?: string;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={className}
        data-testid="record-open"
        disabled={disabled}
        title="A movie (WebM) or PNG sequence of a rotation, trajectory or series, for slides"
        onClick={() => setOpen(true)}
      >
        Record…
      </button>
      {open && <RecordDialog controller={controller} sources={sources} fileBase={fileBase} onClose={() => setOpen(false)} />}
    </>
  );
}

function RecordDialog({
  controller,
  sources,
  fileBase,
  onClose,
}: {
  controller: ViewerController;
  sources: RecordSources;
  fileBase: string;
  onClose: () => void;
}) {
  // The providers are made once, as the dialog opens: they remember what the page shows, to put it back after.
  const [providers] = useState(() => ({ trajectory: sources.trajectory?.() ?? null, growth: sources.growth?.() ?? null }));
  const kinds = (['rotation', 'trajectory', 'growth'] as const).filter((k) => k === 'rotation' || providers[k]);
  const [kind, setKind] = useState<MovieKind>(providers.trajectory ? 'trajectory' : 'rotation');
  const [seconds, setSeconds] = useState(6);
  const [every, setEvery] = useState(1);
  const [hold, setHold] = useState<Record<MovieKind, number>>({ rotation: 1, trajectory: 1, growth: 15 });
  const [preset, setPreset] = useState<Preset>('view');
  const [custom, setCustom] = useState(() => viewSize(controller));
  const [fps, setFps] = useState(30);
  const [format, setFormat] = useState<MovieFormat>('webm');
  const [transparent, setTransparent] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [noWebm, setNoWebm] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const dialog = useRef<HTMLDivElement>(null);

  const [width, height] =
    preset === 'view' ? viewSize(controller) : preset === 'custom' ? custom : (preset.split('x').map(Number) as [number, number]);
  const provider = kind === 'rotation' ? null : providers[kind];
  const options: MovieOptions = {
    kind,
    width,
    height,
    fps,
    seconds,
    every,
    hold: hold[kind],
    format,
    background: format === 'png' && transparent ? null : viewBackground(),
  };
  const problem = movieProblem(options, provider?.count ?? 0);
  const frames = problem ? 0 : movieSteps(options, provider?.count ?? 0).length;
  const recording = progress !== null;

  useEffect(() => {
    let live = true;
    void webmSupported().then((ok) => live && setNoWebm(!ok));
    dialog.current?.querySelector<HTMLElement>('select, input, button')?.focus();
    return () => {
      live = false;
      abort.current?.abort(); // closing the page mid-movie stops it
    };
  }, []);

  const start = () => {
    const control = new AbortController();
    abort.current = control;
    setError(null);
    setSaved(null);
    setProgress({ done: 0, total: frames });
    recordMovie(controller, options, provider, (done, total) => setProgress({ done, total }), control.signal)
      .then((blob) => {
        if (!blob || control.signal.aborted) return;
        const name = movieFileName(fileBase, options);
        downloadBlob(name, blob);
        setSaved(`Saved ${name}: ${frames} frames, ${(frames / fps).toFixed(2)} s.`);
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
      .finally(() => {
        if (abort.current === control) abort.current = null;
        setProgress(null);
      });
  };
  const cancel = () => abort.current?.abort();

  const num = (value: number, set: (v: number) => void, testId: string, label: string, step = 1, min = 1) => (
    <label>
      {label}
      <input
        type="number"
        data-testid={testId}
        min={min}
        step={step}
        value={Number.isFinite(value) ? value : ''}
        disabled={recording}
        onChange={(e) => set(e.target.valueAsNumber)}
      />
    </label>
  );

  // On the page's body: a viewer's toolbar or panel must not clip or stack the modal under the page.
  return createPortal(
    <div className="overlay" onClick={() => !recording && onClose()}>
      <div
        ref={dialog}
        className="overlay-box record-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="record-title"
        data-testid="record-dialog"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') (recording ? cancel : onClose)();
        }}
      >
        <h2 id="record-title">Record a movie</h2>
        <label>
          Movie of
          <select data-testid="record-kind" value={kind} disabled={recording} onChange={(e) => setKind(e.target.value as MovieKind)}>
            {kinds.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </label>
        {kind === 'rotation' && num(seconds, setSeconds, 'record-seconds', 'one turn takes (s)', 0.5, 0.5)}
        {kind === 'trajectory' && num(every, setEvery, 'record-every', `every k-th of ${providers.trajectory!.count} frames, k =`)}
        {kind !== 'rotation' &&
          num(hold[kind], (v) => setHold({ ...hold, [kind]: v }), 'record-hold', `frames per ${kind === 'growth' ? 'structure' : 'step'}`)}
        <label>
          Size
          <select data-testid="record-size" value={preset} disabled={recording} onChange={(e) => setPreset(e.target.value as Preset)}>
            {PRESETS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.id === 'view' ? `${p.label} (${viewSize(controller).join(' × ')})` : p.label}
              </option>
            ))}
          </select>
        </label>
        {preset === 'custom' && (
          <div className="row">
            {num(custom[0], (v) => setCustom([v, custom[1]]), 'record-width', 'width (px)', 2, 16)}
            {num(custom[1], (v) => setCustom([custom[0], v]), 'record-height', 'height (px)', 2, 16)}
          </div>
        )}
        {num(fps, setFps, 'record-fps', 'frames per second')}
        <label>
          Format
          <select
            data-testid="record-format"
            value={format}
            disabled={recording}
            onChange={(e) => setFormat(e.target.value as MovieFormat)}
          >
            <option value="webm">WebM video</option>
            <option value="png">PNG sequence (.zip)</option>
          </select>
        </label>
        {format === 'png' && (
          <label className="check">
            <input
              type="checkbox"
              data-testid="record-transparent"
              checked={transparent}
              disabled={recording}
              onChange={(e) => setTransparent(e.target.checked)}
            />
            transparent background
          </label>
        )}
        {format === 'webm' && noWebm && (
          <p className="hint" data-testid="record-no-webm">
            This browser cannot encode WebM video (no VP8 or VP9 in WebCodecs or MediaRecorder): record a PNG sequence instead.
          </p>
        )}
        <p className="hint" data-testid="record-summary">
          {problem ?? `${frames} frames of ${width} × ${height}, ${(frames / fps).toFixed(2)} s.`}
        </p>
        {recording && (
          <Progress
            testId="record-progress"
            className="record-progress"
            spinner={false}
            bar={progress}
            onCancel={cancel}
            cancelTestId="record-cancel"
          >
            recording
          </Progress>
        )}
        {error && (
          <p className="error" role="alert" data-testid="record-error">
            {error}
          </p>
        )}
        {saved && (
          <p className="hint" role="status" data-testid="record-done">
            {saved}
          </p>
        )}
        <div className="row">
          <button type="button" data-testid="record-start" disabled={recording || problem !== null} onClick={start}>
            Record
          </button>
          <button type="button" data-testid="record-close" disabled={recording} onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
