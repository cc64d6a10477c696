/**
 * The imperative side of the viewer (camera moves, export, projection), shared by the toolbar,
 * keyboard shortcuts, tests (`window.__structlab`) and the render benchmark. The r3f scene registers
 * itself here when it mounts.
 */
import * as THREE from 'three';
import { downloadBlob } from '../browser/download.ts';

/** What the viewer uses of its orbit controls (drei's OrbitControls, three-stdlib's implementation). */
export interface OrbitHandle {
  target: THREE.Vector3;
  object: THREE.Camera;
  update(): unknown;
}

export interface ViewerHandles {
  gl: THREE.WebGLRenderer;
  scene: THREE.Scene;
  getCamera: () => THREE.PerspectiveCamera | THREE.OrthographicCamera;
  controls: OrbitHandle;
  invalidate: () => void;
  /** Positions of drawn atoms (world = Cartesian Å). */
  getPositions: () => Float32Array | null;
  /** Bounding sphere of the scene, for fitting. */
  getBounds: () => { center: THREE.Vector3; radius: number };
  /** Unit-cell rows a, b, c or null. */
  getCell: () => THREE.Vector3[] | null;
}

/**
 * A camera as a link carries it: position, orbit target and up in Cartesian Å; `zoom` is the perspective camera's zoom,
 * or the orthographic half-height in Å (what fits the view, whatever the window's shape).
 */
export interface CameraView {
  position: [number, number, number];
  target: [number, number, number];
  up: [number, number, number];
  zoom: number;
}

type ViewCamera = THREE.PerspectiveCamera | THREE.OrthographicCamera;

/** An off-screen render target of fixed size (ViewerController.offscreen). */
export interface Offscreen {
  /** The scene through `camera`, RGBA rows top-down; the array is reused by the next render. */
  render(camera: THREE.Camera, background: string | null): Uint8Array;
  dispose(): void;
}

export interface FrameStats {
  frames: number;
  /** performance.now() (ms since navigation start) when the first frame was rendered. */
  firstFrameAt: number | null;
  lastFrameMs: number;
  /** When true every frame waits for the GPU (1-pixel readback) so lastFrameMs is the real cost. */
  syncFrames: boolean;
}

export const frameStats: FrameStats = { frames: 0, firstFrameAt: null, lastFrameMs: 0, syncFrames: false };

const FOV = 40;
export const PERSPECTIVE_FOV = FOV;

export function fitOrthographic(camera: THREE.OrthographicCamera, halfHeight: number): void {
  const aspect = (camera.right - camera.left) / Math.max(1e-9, camera.top - camera.bottom) || 1;
  camera.top = halfHeight;
  camera.bottom = -halfHeight;
  camera.left = -halfHeight * aspect;
  camera.right = halfHeight * aspect;
  camera.zoom = 1;
}

/** A PNG of RGBA rows (top-down), encoded by a 2D canvas. */
export function pngBlob(pixels: Uint8Array, width: number, height: number): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('No 2D canvas available to encode the PNG.');
  const image = ctx.createImageData(width, height);
  image.data.set(pixels);
  ctx.putImageData(image, 0, 0);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed.'))), 'image/png'));
}

/** Every controller by name (the test hooks and camera links find them here). */
const controllers = new Map<string, ViewerController>();

/**
 * One viewer's imperative side. Each StructureViewer is driven by one controller (the structure and
 * nanoparticle pages use `mainViewer`; the compare page has one per view); the r3f scene registers its
 * handles here when it mounts.
 */
export class ViewerController {
  private handles: ViewerHandles | null = null;
  private readonly cameraListeners = new Set<() => void>();
  /** Frames this viewer has rendered. */
  frames = 0;
  /** Atom meshes built (buffers made and uploaded) since the page loaded: a re-render with nothing new must not add one. */
  atomBuilds = 0;
  /** Label meshes built since the page loaded (src/viewer/Labels.tsx): only new atoms, texts or picks add one. */
  labelBuilds = 0;
  /** The label texts drawn and the drawn atoms they label, in the same order (tests read them). */
  labelTexts: readonly string[] = [];
  labelAtoms: Uint32Array = new Uint32Array(0);
  /** The radii and colours (3 per atom) of the last atom mesh built, kept only while the test hooks are on (tests read them). */
  atomRadii: Float32Array | null = null;
  atomColors: Float32Array | null = null;

  /** Keeps the atom buffers just built for the tests; a plain visit holds no second copy. */
  recordAtoms(radii: Float32Array, colors: Float32Array): void {
    if (!testHooksOn) return;
    this.atomRadii = radii;
    this.atomColors = colors;
  }

  constructor(readonly name: string) {
    controllers.set(name, this);
  }

  register(h: ViewerHandles | null): void {
    this.handles = h;
    if (!h) this.settleWaiters(); // an unmounted view draws nothing more: its waiters learn it from ready()
  }

  /** Resolved by the next drawn frame or displayed structure (the movie recorder's signals, src/viewer/recorder.ts). */
  private frameWaiters: (() => void)[] = [];
  private displayWaiters: (() => void)[] = [];

  private settleWaiters(): void {
    const waiters = [...this.frameWaiters, ...this.displayWaiters];
    this.frameWaiters = [];
    this.displayWaiters = [];
    for (const w of waiters) w();
  }

  /** The scene drew a frame (src/viewer/StructureViewer.tsx). */
  frameDrawn(): void {
    this.frames++;
    const waiters = this.frameWaiters;
    this.frameWaiters = [];
    for (const w of waiters) w();
  }

  /** The scene committed a new display (its atoms are in the scene graph). */
  displayCommitted(): void {
    const waiters = this.displayWaiters;
    this.displayWaiters = [];
    for (const w of waiters) w();
  }

  /** Asks for a frame and resolves once this view has drawn it (at once when the view is not mounted). */
  nextFrame(): Promise<void> {
    const h = this.handles;
    if (!h) return Promise.resolve();
    return new Promise((resolve) => {
      this.frameWaiters.push(resolve);
      h.invalidate();
    });
  }

  /** The positions of the display this view shows now: a new display brings a new array. */
  shownPositions(): Float32Array | null {
    return this.handles?.getPositions() ?? null;
  }

  /**
   * Resolves once this view shows a display other than the one whose positions were `before` (true), or with false
   * when `signal` aborts first or the view unmounts.
   */
  async displayChanged(before: Float32Array | null, signal: AbortSignal): Promise<boolean> {
    while (this.handles && this.shownPositions() === before) {
      if (signal.aborted) return false;
      await new Promise<void>((resolve) => {
        this.displayWaiters.push(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    }
    return this.handles !== null && !signal.aborted;
  }

  ready(): boolean {
    return this.handles !== null;
  }

  /** Set while the controller itself updates the controls: their 'change' event is then not news. */
  private quiet = false;

  /** Tells the linked views that this camera moved. */
  private cameraChanged(): void {
    for (const fn of this.cameraListeners) fn();
  }

  /** The scene's controls moved the camera (drag, wheel, projection switch, drei's per-frame update). */
  controlsChanged(): void {
    if (!this.quiet) this.cameraChanged();
  }

  /**
   * Brings the controls in line with a camera moved by program, without their 'change' event. The controls report a
   * change only against the camera they saw at their last update, so a program move must not rely on it: a camera
   * copied from a linked view and then fitted back to where its controls last saw it fires nothing, and the linked
   * views keep the copy (drei updates the controls every frame and mounts them one commit late, which made this common).
   */
  private syncControls(h: ViewerHandles): void {
    this.quiet = true;
    try {
      h.controls.update();
    } finally {
      this.quiet = false;
    }
  }

  onCameraChange(fn: () => void): () => void {
    this.cameraListeners.add(fn);
    return () => this.cameraListeners.delete(fn);
  }

  /** Copies another viewer's camera (position, orientation, target, zoom) onto this one. */
  copyCameraFrom(other: ViewerController): void {
    const from = other.handles,
      to = this.handles;
    if (!from || !to) return;
    const a = from.getCamera(),
      b = to.getCamera();
    b.position.copy(a.position);
    b.up.copy(a.up);
    b.near = a.near;
    b.far = a.far;
    if (a instanceof THREE.OrthographicCamera && b instanceof THREE.OrthographicCamera) {
      const aspect = (b.right - b.left) / Math.max(1e-9, b.top - b.bottom) || 1;
      b.top = a.top;
      b.bottom = a.bottom;
      b.left = -a.top * aspect;
      b.right = a.top * aspect;
      b.zoom = a.zoom;
    }
    to.controls.target.copy(from.controls.target);
    b.lookAt(to.controls.target);
    b.updateProjectionMatrix();
    this.syncControls(to); // else its next update reports the copy as a move of its own and echoes it to every view
    to.invalidate();
  }

  /** Places the camera looking along `-dir` (i.e. `dir` points at the viewer) at a distance that fits the scene. */
  private placeCamera(dir: THREE.Vector3, up: THREE.Vector3): void {
    const handles = this.handles;
    if (!handles) return;
    const { center, radius } = handles.getBounds();
    const camera = handles.getCamera();
    const d = dir.clone().normalize();
    // The bounding sphere must fit the narrower of the two directions: a portrait view is narrower across than high.
    const halfHeight = ((FOV / 2) * Math.PI) / 180;
    const aspect = camera instanceof THREE.PerspectiveCamera && camera.aspect > 0 ? camera.aspect : 1;
    const half = Math.min(halfHeight, Math.atan(aspect * Math.tan(halfHeight)));
    const dist = (radius * 1.05) / Math.sin(half);
    camera.position.copy(center).addScaledVector(d, dist);
    // Make `up` orthogonal to the view direction; fall back if parallel.
    let u = up.clone().addScaledVector(d, -up.dot(d));
    if (u.lengthSq() < 1e-8) u = new THREE.Vector3(0, 1, 0).addScaledVector(d, -d.y);
    if (u.lengthSq() < 1e-8) u = new THREE.Vector3(1, 0, 0).addScaledVector(d, -d.x);
    camera.up.copy(u.normalize());
    if (camera instanceof THREE.OrthographicCamera) {
      const orthoAspect = (camera.right - camera.left) / Math.max(1e-9, camera.top - camera.bottom) || 1;
      fitOrthographic(camera, (radius * 1.05) / Math.min(1, orthoAspect));
    }
    camera.near = Math.max(0.01, dist - radius * 3);
    camera.far = dist + radius * 3;
    camera.lookAt(center);
    camera.updateProjectionMatrix();
    handles.controls.target.copy(center);
    this.syncControls(handles);
    this.cameraChanged();
    handles.invalidate();
  }

  /** A camera from a link or session file, taken by the first fit of a shown structure instead of the default view. */
  pendingView: CameraView | null = null;

  resetView(): void {
    if (!this.handles) return;
    if (this.pendingView && this.handles.getPositions()) {
      const view = this.pendingView;
      this.pendingView = null;
      this.applyView(view);
      return;
    }
    const cell = this.handles.getCell();
    if (cell) {
      // A slightly tilted view down c with a up-ish, like most crystal viewers' default.
      const [a, b, c] = cell.map((v) => v.clone().normalize());
      this.placeCamera(c.clone().multiplyScalar(1).addScaledVector(a, 0.35).addScaledVector(b, 0.55), b);
    } else {
      this.placeCamera(new THREE.Vector3(0, 0, 1), new THREE.Vector3(0, 1, 0));
    }
  }

  /** View along [uvw] (direct-lattice direction u·a + v·b + w·c), or a Cartesian axis without a cell. */
  viewAlong(u: number, v: number, w: number): void {
    if (!this.handles) return;
    const cell = this.handles.getCell();
    const dir = cell
      ? cell[0].clone().multiplyScalar(u).addScaledVector(cell[1], v).addScaledVector(cell[2], w)
      : new THREE.Vector3(u, v, w);
    if (dir.lengthSq() === 0) return;
    // Up: c when looking along a or b, b when looking along c.
    const up = cell ? (Math.abs(w) > Math.max(Math.abs(u), Math.abs(v)) ? cell[1] : cell[2]) : new THREE.Vector3(0, 1, 0);
    this.placeCamera(dir, up.clone());
  }

  /** Rotates the camera about the target around the current up axis (benchmark hook). */
  orbit(degrees: number): void {
    const handles = this.handles;
    if (!handles) return;
    const camera = handles.getCamera();
    const target = handles.controls.target;
    const offset = camera.position.clone().sub(target);
    offset.applyAxisAngle(camera.up.clone().normalize(), (degrees * Math.PI) / 180);
    camera.position.copy(target).add(offset);
    camera.lookAt(target);
    this.syncControls(handles);
    this.cameraChanged();
    handles.invalidate();
  }

  invalidate(): void {
    this.handles?.invalidate();
  }

  natoms(): number {
    return (this.handles?.getPositions()?.length ?? 0) / 3;
  }

  /** Camera position and target (tests check that linked views follow each other). */
  cameraState(): { position: [number, number, number]; target: [number, number, number] } | null {
    if (!this.handles) return null;
    const p = this.handles.getCamera().position,
      t = this.handles.controls.target;
    return { position: [p.x, p.y, p.z], target: [t.x, t.y, t.z] };
  }

  /** Screen position (CSS pixels, page coordinates) and NDC depth of drawn atom i. */
  projectAtom(i: number): { x: number; y: number; depth: number } | null {
    const handles = this.handles;
    const p = handles?.getPositions();
    if (!handles || !p || 3 * i + 2 >= p.length) return null;
    const v = new THREE.Vector3(p[3 * i], p[3 * i + 1], p[3 * i + 2]).project(handles.getCamera());
    const rect = handles.gl.domElement.getBoundingClientRect();
    return { x: rect.left + ((v.x + 1) / 2) * rect.width, y: rect.top + ((1 - v.y) / 2) * rect.height, depth: v.z };
  }

  /** The canvas's size in CSS pixels, or null before the view is mounted. */
  canvasSize(): { width: number; height: number } | null {
    const rect = this.handles?.gl.domElement.getBoundingClientRect();
    return rect ? { width: Math.round(rect.width), height: Math.round(rect.height) } : null;
  }

  /**
   * A copy of this view's camera for an image of `width` × `height`: the same position, orientation and vertical extent,
   * the aspect made the image's. With it, the orbit target and the scene's bounding radius (Å).
   */
  cameraFor(width: number, height: number): { camera: ViewCamera; target: THREE.Vector3; radius: number } | null {
    const h = this.handles;
    if (!h) return null;
    const camera = h.getCamera().clone();
    // The vertical extent stays (the orthographic half-height `top`, zoom as it is); the width follows the aspect.
    if (camera instanceof THREE.OrthographicCamera) {
      camera.left = (-camera.top * width) / height;
      camera.right = (camera.top * width) / height;
    } else camera.aspect = width / height;
    camera.updateProjectionMatrix();
    return { camera, target: h.controls.target.clone(), radius: h.getBounds().radius };
  }

  /**
   * An off-screen target of `width` × `height` (4× MSAA) for renders of the scene through any camera, read back as RGBA
   * rows top-down; the on-screen canvas keeps its size, camera and background. `background`: a CSS colour, or null for
   * transparent. Dispose it when done.
   */
  offscreen(width: number, height: number): Offscreen {
    const handles = this.handles;
    if (!handles) throw new Error('The viewer is not ready.');
    const { gl, scene } = handles;
    const max = gl.capabilities.maxTextureSize;
    if (width > max || height > max) throw new Error(`This browser renders images up to ${max} × ${max} pixels, not ${width} × ${height}.`);
    const target = new THREE.WebGLRenderTarget(width, height, { samples: 4, type: THREE.UnsignedByteType, format: THREE.RGBAFormat });
    const pixels = new Uint8Array(width * height * 4);
    const row = new Uint8Array(width * 4);
    return {
      render: (camera, background) => {
        const previousClear = gl.getClearColor(new THREE.Color());
        const previousAlpha = gl.getClearAlpha();
        const previousBackground = scene.background;
        try {
          scene.background = null;
          gl.setRenderTarget(target);
          if (background === null) gl.setClearColor(0x000000, 0);
          else gl.setClearColor(new THREE.Color().setStyle(background, THREE.SRGBColorSpace), 1);
          gl.clear(true, true, true);
          gl.render(scene, camera);
          gl.readRenderTargetPixels(target, 0, 0, width, height, pixels);
        } finally {
          gl.setRenderTarget(null);
          gl.setClearColor(previousClear, previousAlpha);
          scene.background = previousBackground;
        }
        // WebGL rows run bottom-up; images run top-down.
        const stride = width * 4;
        for (let top = 0, bottom = height - 1; top < bottom; top++, bottom--) {
          row.set(pixels.subarray(top * stride, (top + 1) * stride));
          pixels.copyWithin(top * stride, bottom * stride, (bottom + 1) * stride);
          pixels.set(row, bottom * stride);
        }
        return pixels;
      },
      dispose: () => {
        target.dispose();
        handles.invalidate();
      },
    };
  }

  /**
   * Renders the scene at `scale`× the canvas CSS size (1–4) into an offscreen target and returns a PNG blob, its
   * background transparent or the CSS colour `background` (the on-screen canvas keeps its size and background).
   */
  async renderPng(scale = 2, background: string | null = null): Promise<Blob> {
    if (!Number.isInteger(scale) || scale < 1 || scale > 4) throw new Error(`The PNG scale must be 1, 2, 3 or 4, not ${scale}.`);
    const handles = this.handles;
    if (!handles) throw new Error('The viewer is not ready.');
    const rect = handles.gl.domElement.getBoundingClientRect();
    const width = Math.round(rect.width) * scale;
    const height = Math.round(rect.height) * scale;
    const target = this.offscreen(width, height);
    let pixels: Uint8Array;
    try {
      pixels = target.render(handles.getCamera(), background);
    } finally {
      target.dispose();
    }
    return pngBlob(pixels, width, height);
  }

  async downloadPng(fileName = 'structlab.png', scale = 2, background: string | null = null): Promise<void> {
    downloadBlob(fileName, await this.renderPng(scale, background));
  }

  /** Camera position, target, up and zoom, and the projection: what a shared link restores. */
  viewState(): CameraView | null {
    const h = this.handles;
    if (!h) return null;
    const c = h.getCamera();
    const t = h.controls.target;
    return {
      position: [c.position.x, c.position.y, c.position.z],
      target: [t.x, t.y, t.z],
      up: [c.up.x, c.up.y, c.up.z],
      zoom: c instanceof THREE.OrthographicCamera ? c.top / c.zoom : c.zoom,
    };
  }

  /** Puts the camera where `view` says (the projection is the caller's setting); false when the viewer is not ready. */
  applyView(view: CameraView): boolean {
    const h = this.handles;
    if (!h) return false;
    const c = h.getCamera();
    c.position.set(...view.position);
    c.up.set(...view.up).normalize();
    h.controls.target.set(...view.target);
    if (c instanceof THREE.OrthographicCamera) {
      fitOrthographic(c, view.zoom);
    } else c.zoom = view.zoom;
    const dist = c.position.distanceTo(h.controls.target);
    const { radius } = h.getBounds();
    c.near = Math.max(0.01, dist - radius * 3);
    c.far = dist + radius * 3;
    c.lookAt(h.controls.target);
    c.updateProjectionMatrix();
    this.syncControls(h);
    this.cameraChanged();
    h.invalidate();
    return true;
  }
}

/**
 * Keeps the cameras of several viewers in step: moving any of them moves the others (side-by-side compare
 * views). Returns the function that unlinks them.
 */
export function linkCameras(views: ViewerController[]): () => void {
  let syncing = false;
  const offs = views.map((source) =>
    source.onCameraChange(() => {
      if (syncing) return;
      syncing = true;
      try {
        for (const v of views) if (v !== source) v.copyCameraFrom(source);
      } finally {
        syncing = false;
      }
    }),
  );
  return () => offs.forEach((off) => off());
}

/** A tap moves less than this (CSS pixels) between down and up; more is a drag (rotate, pan). */
const TAP_SLOP = 6;
/** A touch held longer than this is a long press, not a tap (no pick). */
const TAP_MAX_MS = 500;
/** A second tap this soon and this near the first is a double tap. */
const DOUBLE_TAP_MS = 350;
const DOUBLE_TAP_SLOP = 30;

/**
 * Clicks and taps on `el`, told apart from the drags and pinches the orbit controls handle (three-stdlib's OrbitControls
 * turns one finger into rotation and two into zoom and pan): a press of one pointer released where it went down is a
 * tap (`onTap`); a touch that lasts past TAP_MAX_MS, or during which a second finger came down, is not; a touch tap
 * soon after another at the same place is a double tap (`onDoubleTap`, instead of a second tap). Returns the detach.
 */
export function tapGestures(
  el: HTMLElement,
  onTap: (e: PointerEvent) => void,
  onDoubleTap: (e: PointerEvent) => void,
  now: () => number = () => performance.now(),
): () => void {
  const down = new Map<number, { x: number; y: number; t: number }>();
  let multi = false;
  let lastTap: { x: number; y: number; t: number } | null = null;
  const onDown = (e: PointerEvent) => {
    if (down.size === 0) multi = false;
    down.set(e.pointerId, { x: e.clientX, y: e.clientY, t: now() });
    if (down.size > 1) multi = true;
  };
  const onUp = (e: PointerEvent) => {
    const start = down.get(e.pointerId);
    down.delete(e.pointerId);
    if (!start || multi || Math.hypot(e.clientX - start.x, e.clientY - start.y) > TAP_SLOP) return;
    const touch = e.pointerType !== 'mouse';
    const t = now();
    if (touch && t - start.t > TAP_MAX_MS) return;
    if (touch && lastTap && t - lastTap.t <= DOUBLE_TAP_MS && Math.hypot(e.clientX - lastTap.x, e.clientY - lastTap.y) <= DOUBLE_TAP_SLOP) {
      lastTap = null;
      onDoubleTap(e);
      return;
    }
    lastTap = touch ? { x: e.clientX, y: e.clientY, t } : null;
    onTap(e);
  };
  const onCancel = (e: PointerEvent) => {
    down.delete(e.pointerId);
  };
  el.addEventListener('pointerdown', onDown);
  el.addEventListener('pointerup', onUp);
  el.addEventListener('pointercancel', onCancel);
  return () => {
    el.removeEventListener('pointerdown', onDown);
    el.removeEventListener('pointerup', onUp);
    el.removeEventListener('pointercancel', onCancel);
  };
}

/** The viewer of the structure and nanoparticle pages (and the default of every StructureViewer). */
export const mainViewer = new ViewerController('main');

export const resetView = (): void => mainViewer.resetView();
export const viewAlong = (u: number, v: number, w: number): void => mainViewer.viewAlong(u, v, w);
export const downloadPng = (fileName?: string, scale?: number, background?: string | null): Promise<void> =>
  mainViewer.downloadPng(fileName, scale, background);

declare global {
  interface Window {
    __structlab?: {
      readonly frames: number;
      readonly firstFrameAt: number | null;
      readonly lastFrameMs: number;
      syncFrames: boolean;
      projectAtom: (i: number) => ReturnType<ViewerController['projectAtom']>;
      orbit: (degrees: number) => void;
      natoms: () => number;
      /** Every viewer by name (compare views: "truth", "pred", "overlay"). */
      viewers: () => Record<string, { frames: number; natoms: number; camera: ReturnType<ViewerController['cameraState']> }>;
      viewer: (name: string) => ViewerController | undefined;
    };
  }
}

let testHooksOn = false;

/**
 * Installs `window.__structlab` and turns on the per-frame `body[data-rendered]` counter: the handles the
 * end-to-end tests and the benchmarks drive the lab by. Only a visit that asks for them (`?testhooks`, which
 * tests/e2e/harness.ts and bench/render add) gets them; a plain visit leaves window and body untouched.
 */
export function installTestHooks(): void {
  testHooksOn = true;
  if (frameStats.frames > 0) markRendered(); // frames drawn before the hooks were asked for
  window.__structlab = {
    get frames() {
      return frameStats.frames;
    },
    get firstFrameAt() {
      return frameStats.firstFrameAt;
    },
    get lastFrameMs() {
      return frameStats.lastFrameMs;
    },
    get syncFrames() {
      return frameStats.syncFrames;
    },
    set syncFrames(v: boolean) {
      frameStats.syncFrames = v;
    },
    projectAtom: (i) => mainViewer.projectAtom(i),
    orbit: (degrees) => mainViewer.orbit(degrees),
    natoms: () => mainViewer.natoms(),
    viewers: () =>
      Object.fromEntries(
        [...controllers]
          .filter(([, c]) => c.ready())
          .map(([name, c]) => [name, { frames: c.frames, natoms: c.natoms(), camera: c.cameraState() }]),
      ),
    viewer: (name) => controllers.get(name),
  };
}

/** After each rendered frame: the frame count on `body[data-rendered]` for the tests, when the test hooks are on. */
export function markRendered(): void {
  if (testHooksOn) document.body.dataset.rendered = String(frameStats.frames);
}
