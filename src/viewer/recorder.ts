/**
 * Movies of the view for slides: a 360° turn about the screen's vertical axis, a trajectory's frames, or a series of
 * structures a page hands over (a growth series), as WebM or as a .zip of numbered PNGs.
 *
 * Frames are stepped, never timed: frame k is placed (camera angle, shown structure), the viewer's signals say the
 * structure is in the scene and drawn, then the scene is rendered off-screen at the chosen size through a copy of the
 * user's camera and read back. Which frames a movie holds and when each starts (k/fps) never depend on the clock.
 * WebM goes through WebCodecs (VideoEncoder, VP9 or VP8) and src/core/io/webm.ts, which lays frame k at k·1000/fps ms;
 * where VideoEncoder is missing (older browsers; a page served over plain http on a LAN address, since WebCodecs needs
 * a secure context) MediaRecorder records the frames from a canvas stream instead, and its file is laid on the same
 * timeline again by readWebm + muxWebm. The user's camera is never moved and is put back if a page moved it.
 */
import * as THREE from 'three';
import { muxWebm, readWebm, type WebmCodec, type WebmFrame } from '../core/io/webm.ts';
import { writeZip } from '../core/io/zip-writer.ts';
import { LIMITS } from '../core/limits.ts';
import { pngBlob, type Offscreen, type ViewerController } from './controller.ts';

/**
 * A sequence of structures a page can show one after another for a movie (a growth series, a trajectory). The
 * Nanoparticle page's radius series and the Structure page's trajectory implement it (src/state/nanoparticle-movie.ts,
 * src/state/trajectory-movie.ts).
 */
export interface FrameProvider {
  /** Items in the sequence (0 … count − 1). */
  readonly count: number;
  /**
   * Shows item `index`: resolves once the page has handed the viewer that item's structure (a new display; the recorder
   * then waits for the viewer to commit and draw it). Throws an Error whose message is one sentence when it cannot.
   */
  show(index: number): Promise<void>;
  /** A radius (Å) about the view's target that every item fits in: the movie's camera backs off to show it all. */
  readonly extent?: number;
  /** Puts back what was shown before the movie; called once after the last frame, a cancel or an error. */
  finish?(): Promise<void>;
}

export type MovieKind = 'rotation' | 'trajectory' | 'growth';
export type MovieFormat = 'webm' | 'png';

export interface MovieOptions {
  kind: MovieKind;
  /** Frame size in pixels. */
  width: number;
  height: number;
  fps: number;
  /** rotation: the seconds one full turn takes. */
  seconds: number;
  /** trajectory: every k-th frame of the trajectory. */
  every: number;
  /** trajectory and growth: movie frames each item is held for (1 at 30 fps: 1/30 s each). */
  hold: number;
  format: MovieFormat;
  /** The CSS colour behind the structure; null: transparent (PNG sequences only). */
  background: string | null;
}

/**
 * The bounds of a movie: a larger side or more frames would hold too much memory in a tab. The sizes and frame counts
 * are the resource policy's (src/core/limits.ts).
 */
export const MOVIE_LIMITS = {
  minSide: 16,
  get maxSide() {
    return LIMITS.movieSide;
  },
  maxFps: 60,
  maxSeconds: 120,
  get maxFrames() {
    return LIMITS.movieFrames;
  },
  get maxPngFrames() {
    return LIMITS.moviePngFrames;
  },
};

/** One movie frame: the item shown (null: whatever is shown) and the turn (radians) about the screen's vertical axis. */
export interface MovieStep {
  item: number | null;
  angle: number;
}

/** The frames of a movie of `options` over a provider of `count` items (unused for a rotation). */
export function movieSteps(options: MovieOptions, count: number): MovieStep[] {
  if (options.kind === 'rotation') {
    // Frame N would be frame 0 again: the turn loops without a repeated frame.
    const n = Math.round(options.seconds * options.fps);
    return Array.from({ length: n }, (_, k) => ({ item: null, angle: (2 * Math.PI * k) / n }));
  }
  const every = options.kind === 'trajectory' ? options.every : 1;
  const steps: MovieStep[] = [];
  for (let item = 0; item < count; item += every) for (let h = 0; h < options.hold; h++) steps.push({ item, angle: 0 });
  return steps;
}

const isInt = (v: number, lo: number, hi: number) => Number.isInteger(v) && v >= lo && v <= hi;

/** Why `options` cannot be recorded over `count` items, as one sentence; null when they can. */
export function movieProblem(options: MovieOptions, count: number): string | null {
  const { width, height, fps, format, kind } = options;
  const L = MOVIE_LIMITS;
  if (!isInt(width, L.minSide, L.maxSide) || !isInt(height, L.minSide, L.maxSide))
    return `The frame size must be whole pixels from ${L.minSide} to ${L.maxSide} on each side, not ${width} × ${height}.`;
  if (format === 'webm' && (width % 2 || height % 2))
    return `A WebM frame needs an even width and height (VP8 and VP9 store colour at half resolution), not ${width} × ${height}.`;
  if (!isInt(fps, 1, L.maxFps)) return `The frame rate must be a whole number of frames per second from 1 to ${L.maxFps}, not ${fps}.`;
  if (format === 'webm' && options.background === null) return 'A WebM movie has no transparency: choose a background colour.';
  if (kind === 'rotation' && !(options.seconds >= 0.5 && options.seconds <= L.maxSeconds))
    return `A turn must take from 0.5 to ${L.maxSeconds} seconds, not ${options.seconds}.`;
  if (kind === 'trajectory' && count < 2) return 'There is no trajectory to record: open a file of several frames first.';
  if (kind === 'growth' && count < 1) return 'This page has no series of structures to record.';
  if (kind === 'trajectory' && !isInt(options.every, 1, Math.max(1, count - 1)))
    return `"Every k-th frame" must be a whole number from 1 to ${count - 1}, not ${options.every}.`;
  if (kind !== 'rotation' && !isInt(options.hold, 1, 10 * L.maxFps))
    return `Frames per structure must be a whole number from 1 to ${10 * L.maxFps}, not ${options.hold}.`;
  const frames = movieSteps(options, count).length;
  const max = format === 'png' ? L.maxPngFrames : L.maxFrames;
  if (frames > max)
    return (
      `That is ${frames} frames; a ${format === 'png' ? 'PNG sequence' : 'movie'} holds at most ${max}: ` +
      'lower the frame rate or the length.'
    );
  if (frames === 0) return 'That movie has no frames.';
  return null;
}

/**
 * Runs `steps` in order: shows each new item, captures each frame, reports progress and yields to the browser between
 * frames (the tab keeps answering). Returns false when `signal` aborted it (between frames), true when every frame
 * was captured.
 */
export async function runSteps(
  steps: readonly MovieStep[],
  run: {
    show: (item: number) => Promise<void>;
    capture: (k: number, step: MovieStep, showed: boolean) => Promise<void>;
    onProgress: (done: number, total: number) => void;
    signal: AbortSignal;
  },
): Promise<boolean> {
  let shown: number | null = null;
  for (let k = 0; k < steps.length; k++) {
    if (run.signal.aborted) return false;
    const { item } = steps[k];
    const showed = item !== null && item !== shown;
    if (showed) {
      await run.show(item);
      shown = item;
      if (run.signal.aborted) return false;
    }
    await run.capture(k, steps[k], showed);
    run.onProgress(k + 1, steps.length);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return !run.signal.aborted;
}

// ---- frame sinks: WebCodecs + our muxer, MediaRecorder + re-timing, PNGs in a zip ----

interface FrameSink {
  /** RGBA rows top-down of frame k (the array is reused after this resolves). */
  add(pixels: Uint8Array, k: number): Promise<void>;
  finish(): Promise<Blob>;
  /** Drops everything (a cancel or an error). */
  close(): void;
}

/** Enough bits for crisp edges on flat backgrounds (~0.1 bit per pixel and frame), within what encoders take. */
const bitrate = (width: number, height: number, fps: number) => Math.min(25e6, Math.max(5e5, Math.round(0.1 * width * height * fps)));

/** VP9 (profile 0, 8 bit, level 5.1: up to 4K) before VP8: what WebM players read. */
const CODECS: readonly [string, WebmCodec][] = [
  ['vp09.00.51.08', 'V_VP9'],
  ['vp8', 'V_VP8'],
];
const RECORDER_TYPES = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'];

/** The encoder `?movieEncoder=mediarecorder` asks for (the tests try the fallback in a browser that has both). */
const forcedRecorder = () =>
  typeof location !== 'undefined' && new URLSearchParams(location.search).get('movieEncoder') === 'mediarecorder';

async function webCodecsConfig(
  width: number,
  height: number,
  fps: number,
): Promise<{ config: VideoEncoderConfig; codec: WebmCodec } | null> {
  if (typeof VideoEncoder === 'undefined' || typeof VideoFrame === 'undefined' || forcedRecorder()) return null;
  for (const [codec, id] of CODECS) {
    const config: VideoEncoderConfig = { codec, width, height, bitrate: bitrate(width, height, fps), framerate: fps };
    const support = await VideoEncoder.isConfigSupported(config).catch(() => null);
    if (support?.supported) return { config, codec: id };
  }
  return null;
}

/** Whether this browser can write WebM movies of this size (WebCodecs or MediaRecorder), for the dialog's note. */
export async function webmSupported(width = 640, height = 480, fps = 30): Promise<boolean> {
  if (await webCodecsConfig(width, height, fps)) return true;
  return typeof MediaRecorder !== 'undefined' && RECORDER_TYPES.some((t) => MediaRecorder.isTypeSupported(t));
}

async function webCodecsSink(width: number, height: number, fps: number, total: number): Promise<FrameSink | null> {
  const chosen = await webCodecsConfig(width, height, fps);
  if (!chosen) return null;
  const frames: WebmFrame[] = [];
  let failure: Error | null = null;
  const encoder = new VideoEncoder({
    output: (chunk) => {
      const data = new Uint8Array(chunk.byteLength);
      chunk.copyTo(data);
      frames.push({ data, key: chunk.type === 'key' });
    },
    error: (e) => {
      failure = new Error(`The video encoder failed: ${e.message}`);
    },
  });
  encoder.configure(chosen.config);
  // A key frame every two seconds: players seek to it (a Cluster and a cue each, src/core/io/webm.ts).
  const keyEvery = 2 * fps;
  const check = () => {
    if (failure) throw failure;
  };
  return {
    async add(pixels, k) {
      check();
      const frame = new VideoFrame(pixels, {
        format: 'RGBA',
        codedWidth: width,
        codedHeight: height,
        timestamp: Math.round((k * 1e6) / fps),
        duration: Math.round(1e6 / fps),
      });
      encoder.encode(frame, { keyFrame: k % keyEvery === 0 });
      frame.close();
      // Back-pressure: a slow encoder is waited for instead of queueing every frame's pixels.
      while (encoder.encodeQueueSize > 2 && !failure) await new Promise((resolve) => setTimeout(resolve, 1));
      check();
    },
    async finish() {
      await encoder.flush();
      check();
      encoder.close();
      if (frames.length !== total) throw new Error(`The video encoder returned ${frames.length} of ${total} frames.`);
      return new Blob([muxWebm({ codec: chosen.codec, width, height, fps, frames }) as BlobPart], { type: 'video/webm' });
    },
    close() {
      if (encoder.state !== 'closed') encoder.close();
    },
  };
}

function mediaRecorderSink(width: number, height: number, fps: number): FrameSink | null {
  if (typeof MediaRecorder === 'undefined') return null;
  const mimeType = RECORDER_TYPES.find((t) => MediaRecorder.isTypeSupported(t));
  if (!mimeType) return null;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx || typeof canvas.captureStream !== 'function') return null;
  const stream = canvas.captureStream(0);
  const track = stream.getVideoTracks()[0] as CanvasCaptureMediaStreamTrack;
  const recorder = new MediaRecorder(stream, { mimeType, videoBitsPerSecond: bitrate(width, height, fps) });
  const parts: Blob[] = [];
  recorder.ondataavailable = (e) => parts.push(e.data);
  const stopped = new Promise<void>((resolve) => recorder.addEventListener('stop', () => resolve(), { once: true }));
  recorder.start();
  const image = ctx.createImageData(width, height);
  const stop = () => {
    if (recorder.state !== 'inactive') recorder.stop();
    track.stop();
  };
  return {
    async add(pixels) {
      image.data.set(pixels);
      ctx.putImageData(image, 0, 0);
      track.requestFrame();
      // MediaRecorder stamps frames by the clock: one frame interval apart keeps them distinct; finish() re-times them.
      await new Promise((resolve) => setTimeout(resolve, 1000 / fps));
    },
    async finish() {
      stop();
      await stopped;
      const recorded = new Uint8Array(await new Blob(parts).arrayBuffer());
      const video = readWebm(recorded, 'the browser’s recording');
      if ((video.codec !== 'V_VP8' && video.codec !== 'V_VP9') || !video.frames[0]?.key)
        return new Blob([recorded], { type: 'video/webm' });
      // Frame k at k·1000/fps ms again, and a Duration: what the recorder's clock stamped is dropped.
      const frames = video.frames.map(({ data, key }) => ({ data, key }));
      return new Blob([muxWebm({ codec: video.codec, width, height, fps, frames }) as BlobPart], { type: 'video/webm' });
    },
    close: stop,
  };
}

function pngSink(width: number, height: number, total: number): FrameSink {
  const digits = Math.max(4, String(total).length);
  const entries: { name: string; data: Uint8Array }[] = [];
  return {
    async add(pixels, k) {
      const png = await pngBlob(pixels, width, height);
      entries.push({ name: `frame-${String(k + 1).padStart(digits, '0')}.png`, data: new Uint8Array(await png.arrayBuffer()) });
    },
    async finish() {
      return new Blob([writeZip(entries) as BlobPart], { type: 'application/zip' });
    },
    close() {
      entries.length = 0;
    },
  };
}

async function openSink(options: MovieOptions, total: number): Promise<FrameSink> {
  const { width, height, fps } = options;
  if (options.format === 'png') return pngSink(width, height, total);
  const sink = (await webCodecsSink(width, height, fps, total)) ?? mediaRecorderSink(width, height, fps);
  if (!sink)
    throw new Error(
      `This browser cannot encode WebM video at ${width} × ${height} (neither WebCodecs nor MediaRecorder offers VP8 or VP9): ` +
        'record a PNG sequence instead.',
    );
  return sink;
}

// ---- the camera ----

type MovieCamera = THREE.PerspectiveCamera | THREE.OrthographicCamera;

/** Backs `camera` off from `target` (or widens its orthographic view) until a sphere of `extent` Å about the target fits. */
function fitExtent(camera: MovieCamera, target: THREE.Vector3, extent: number): void {
  const r = extent * 1.05;
  const offset = camera.position.clone().sub(target);
  if (camera instanceof THREE.PerspectiveCamera) {
    const halfV = ((camera.fov / 2) * Math.PI) / 180;
    const halfH = Math.atan(Math.tan(halfV) * camera.aspect);
    const dist = r / Math.sin(Math.min(halfV, halfH) / camera.zoom);
    if (dist > offset.length()) camera.position.copy(target).addScaledVector(offset.normalize(), dist);
  } else {
    const aspect = (camera.right - camera.left) / (camera.top - camera.bottom);
    const half = Math.max(r, r / aspect);
    if (half > camera.top / camera.zoom) {
      camera.zoom = 1;
      camera.top = half;
      camera.bottom = -half;
      camera.left = -half * aspect;
      camera.right = half * aspect;
    }
  }
  const dist = camera.position.distanceTo(target);
  camera.near = Math.max(0.01, dist - 3 * extent);
  camera.far = Math.max(camera.far, dist + 3 * extent);
  camera.updateProjectionMatrix();
}

/** `camera` set to `base` turned by `angle` about the screen's vertical axis through `target` (the structure turns left to right). */
function turn(camera: MovieCamera, base: MovieCamera, target: THREE.Vector3, angle: number): void {
  camera.position.copy(base.position);
  camera.quaternion.copy(base.quaternion);
  if (angle !== 0) {
    const axis = new THREE.Vector3(0, 1, 0).applyQuaternion(base.quaternion);
    const q = new THREE.Quaternion().setFromAxisAngle(axis, -angle);
    camera.position.sub(target).applyQuaternion(q).add(target);
    camera.quaternion.premultiply(q);
  }
  camera.updateMatrixWorld();
}

/** A view's structure must change within this after a provider showed an item; else the movie stops with a sentence. */
const SHOW_TIMEOUT_MS = 30_000;

/**
 * Records a movie of `controller`'s view: `provider` feeds trajectory and growth movies. Resolves to the file (WebM or
 * zip), or null when `signal` aborted it (nothing is kept). Throws an Error of one sentence when it cannot.
 */
export async function recordMovie(
  controller: ViewerController,
  options: MovieOptions,
  provider: FrameProvider | null,
  onProgress: (done: number, total: number) => void,
  signal: AbortSignal,
): Promise<Blob | null> {
  const count = provider?.count ?? 0;
  const problem = movieProblem(options, count);
  if (problem) throw new Error(problem);
  if (options.kind !== 'rotation' && !provider) throw new Error('This view has nothing to step through for that movie.');
  const { width, height, background } = options;
  const base = controller.cameraFor(width, height);
  if (!base) throw new Error('The viewer is not ready.');
  if (provider?.extent) fitExtent(base.camera, base.target, provider.extent);
  const view = controller.viewState();
  const steps = movieSteps(options, count);
  const camera = base.camera.clone();
  let sink: FrameSink | null = null;
  let target: Offscreen | null = null;
  try {
    sink = await openSink(options, steps.length);
    target = controller.offscreen(width, height);
    const done = await runSteps(steps, {
      show: async (item) => {
        const before = controller.shownPositions();
        await provider!.show(item);
        // Cancel, or the guard against a page that never shows the item (the guard decides no frame's content).
        const wait = new AbortController();
        const stopWaiting = () => wait.abort();
        signal.addEventListener('abort', stopWaiting, { once: true });
        const guard = setTimeout(stopWaiting, SHOW_TIMEOUT_MS);
        const changed = await controller.displayChanged(before, wait.signal);
        clearTimeout(guard);
        signal.removeEventListener('abort', stopWaiting);
        if (!changed && !signal.aborted)
          throw new Error(
            controller.ready() ? `The view did not show item ${item + 1} within ${SHOW_TIMEOUT_MS / 1000} s.` : 'The view closed.',
          );
      },
      capture: async (k, step, showed) => {
        // A new structure is drawn on screen first (the rendered signal), so the view shows where the movie is.
        if (showed) await controller.nextFrame();
        turn(camera, base.camera, base.target, step.angle);
        await sink!.add(target!.render(camera, background), k);
      },
      onProgress,
      signal,
    });
    if (!done) return null;
    return await sink.finish();
  } finally {
    sink?.close();
    target?.dispose();
    if (provider?.finish) await provider.finish().catch(() => undefined);
    const now = controller.viewState();
    if (view && now && JSON.stringify(now) !== JSON.stringify(view)) controller.applyView(view);
  }
}

/** The file name of a movie of `options`: `<base>-<kind>.webm` or `.zip`. */
export const movieFileName = (base: string, options: Pick<MovieOptions, 'kind' | 'format'>): string =>
  `${base}-${options.kind}.${options.format === 'png' ? 'zip' : 'webm'}`;
