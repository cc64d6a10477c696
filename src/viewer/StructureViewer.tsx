/**
 * The 3D view: renders the display buffers only (no per-atom React components, one draw call per layer),
 * on demand. Camera, picking and the render loop live here; state changes come in as props.
 */
import { OrbitControls } from '@react-three/drei';
import { Canvas, useFrame, useThree } from '@react-three/fiber';
import { type ReactNode, useCallback, useEffect, useEffectEvent, useLayoutEffect, useMemo, useRef, useState } from 'react';
import * as THREE from 'three';
// Before the first Canvas: drops three's Clock deprecation warning, which every Canvas of @react-three/fiber 9 causes.
import './three-console.ts';
import type { DisplayData } from '../core/analysis/display-scene.ts';
import { labelMode, type ViewSettings } from './view-settings.ts';
import { covalentRadius, elementColor, type Rgb } from './colors.ts';
import {
  PERSPECTIVE_FOV,
  fitOrthographic,
  frameStats,
  mainViewer,
  markRendered,
  type OrbitHandle,
  tapGestures,
  type ViewerController,
} from './controller.ts';
import { AtomLabels } from './Labels.tsx';
import { LABELS_ALL_MAX, atomLabelText, labelledAtoms } from './label-layout.ts';
import { makeSphereMesh, makeTubeMesh } from './impostors.ts';
import { useDisposable } from './use-disposable.ts';
import { pickSphere } from './picking.ts';
import { CELL_EDGE_COLORS, CELL_EDGES } from './cell-edges.ts';
import { shownTheme, watchShownTheme } from '../browser/shown-theme.ts';

export interface ViewerProps {
  display: DisplayData | null;
  settings: ViewSettings;
  /** Selected atom indices; none by default. Pass a stable array (a new one each render rebuilds the selection). */
  selection?: readonly number[];
  /** The camera refits when this value changes (a new structure), not on every rebuild. */
  fitKey: unknown;
  /** Called with the atom clicked (null: empty space); clicks are ignored without it. */
  onPick?: (index: number | null) => void;
  /**
   * Element symbols not drawn (toggled in the legend); their bonds go too. None by default. It feeds the atom radii and
   * so the atom mesh: pass a stable array (a fresh `[]` on every parent render rebuilds and re-uploads the atom buffers).
   */
  hiddenElements?: readonly string[];
  /** Optional per-atom colours (3 per atom, same space as the element palette) replacing the element colours. */
  atomColors?: Float32Array | null;
  /** Optional per-atom factors on the drawn radius (size by a property); picking, halos and labels follow them. */
  radiusFactors?: Float32Array | null;
  /** Called with the atom under the pointer (null: none) and the pointer's client position, when not dragging. */
  onHover?: (index: number | null, x: number, y: number) => void;
  /**
   * Per-site label texts (display.site maps drawn atoms to sites) for the label modes the display alone cannot answer:
   * site labels, Wyckoff letters, a property's values. Pass a stable array: a new one rebuilds the labels.
   */
  siteLabels?: readonly string[] | null;
  /** Optional extra three objects drawn in the scene (e.g. a carving sphere or a hull mesh). */
  children?: ReactNode;
  /** The controller this view registers with (camera moves, projection, export); `mainViewer` by default. */
  controller?: ViewerController;
  /** data-testid of the canvas ("viewer" by default). */
  testId?: string;
  /** What the camera fits when there are no atoms to fit (e.g. a frame of beams drawn as children). */
  fitBounds?: { center: [number, number, number]; radius: number };
  /** The canvas's accessible name (screen readers); "3D structure view" by default. */
  label?: string;
  /** id of the element holding a text summary of what the view shows (aria-describedby). */
  describedBy?: string;
}

/** The stable defaults of the optional array props (one identity for the life of the page). */
const NO_INDICES: readonly number[] = Object.freeze([]);
const NO_ELEMENTS: readonly string[] = Object.freeze([]);

/** Above this many atoms the canvas is created without MSAA (measured ~25% faster frames at 100k on SwiftShader). */
const MSAA_MAX_ATOMS = 20_000;

export function StructureViewer(props: ViewerProps) {
  const antialias = (props.display?.natoms ?? 0) <= MSAA_MAX_ATOMS;
  // Antialiasing is fixed when the WebGL context is created, so switching it remounts the canvas.
  return <ViewerCanvas key={antialias ? 'msaa' : 'fast'} antialias={antialias} {...props} />;
}

function ViewerCanvas({ antialias, ...props }: ViewerProps & { antialias: boolean }) {
  return (
    <Canvas
      frameloop="demand"
      dpr={[1, 2]}
      gl={{ antialias, alpha: true, premultipliedAlpha: false }}
      data-testid={props.testId ?? 'viewer'}
      style={{ position: 'absolute', inset: 0, touchAction: 'none' }}
      onCreated={({ gl }) => {
        // Touches drive the view (rotate, pinch, pan), never the page's scrolling or zoom; a long press selects no text
        // and opens no callout.
        gl.domElement.style.touchAction = 'none';
        gl.domElement.style.userSelect = 'none';
        gl.domElement.style.setProperty('-webkit-touch-callout', 'none');
        // The canvas itself is what a screen reader meets: an image with a name and, where given, a description.
        gl.domElement.setAttribute('role', 'img');
        gl.domElement.setAttribute('aria-label', props.label ?? '3D structure view');
        if (props.describedBy) gl.domElement.setAttribute('aria-describedby', props.describedBy);
      }}
    >
      <ambientLight intensity={1.6} />
      <directionalLight position={[5, 8, 10]} intensity={1.8} />
      <Scene {...props} />
    </Canvas>
  );
}

/** Drawn radius of every atom for the current style. */
export function atomRadii(display: DisplayData, settings: ViewSettings, hidden: readonly string[] = NO_ELEMENTS): Float32Array {
  const perElement = display.elements.map((el) => {
    if (hidden.includes(el)) return 0; // a zero radius is never drawn nor picked
    const r = covalentRadius(el);
    return (settings.style === 'space-filling' ? r : 0.35 * r + 0.1) * settings.atomScale;
  });
  const radii = new Float32Array(display.natoms);
  for (let i = 0; i < display.natoms; i++) radii[i] = perElement[display.element[i]];
  return radii;
}

function elementColors(display: DisplayData, settings: ViewSettings): Rgb[] {
  return display.elements.map((el) => elementColor(el, settings.colorScheme));
}

function cellVectors(display: DisplayData | null): THREE.Vector3[] | null {
  const m = display?.cell;
  return m ? [new THREE.Vector3(m[0], m[1], m[2]), new THREE.Vector3(m[3], m[4], m[5]), new THREE.Vector3(m[6], m[7], m[8])] : null;
}

function sceneBounds(display: DisplayData | null): { center: THREE.Vector3; radius: number } {
  if (!display || display.natoms === 0) return { center: new THREE.Vector3(), radius: 5 };
  const p = display.positions;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const v = p[i + k];
      if (v < min[k]) min[k] = v;
      if (v > max[k]) max[k] = v;
    }
  }
  // Bonds to periodic images stick out of the cell; keep their ends in view.
  for (const ends of [display.bondStart, display.bondEnd]) {
    for (let i = 0; i < ends.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        const v = ends[i + k];
        if (v < min[k]) min[k] = v;
        if (v > max[k]) max[k] = v;
      }
    }
  }
  const cell = cellVectors(display);
  if (cell) {
    // Include the (super)cell corners so the box is in view even when atoms don't fill it.
    const [na, nb, nc] = display.supercell;
    for (let x = 0; x <= 1; x++)
      for (let y = 0; y <= 1; y++)
        for (let z = 0; z <= 1; z++) {
          const c = cell[0]
            .clone()
            .multiplyScalar(x * na)
            .addScaledVector(cell[1], y * nb)
            .addScaledVector(cell[2], z * nc);
          for (let k = 0; k < 3; k++) {
            const v = c.getComponent(k);
            if (v < min[k]) min[k] = v;
            if (v > max[k]) max[k] = v;
          }
        }
  }
  const center = new THREE.Vector3((min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2);
  // Tighter than the box's half-diagonal: the farthest atom or bond end from the box centre.
  let r2 = 0;
  for (const buf of [p, display.bondStart, display.bondEnd]) {
    for (let i = 0; i < buf.length; i += 3) {
      const d2 = (buf[i] - center.x) ** 2 + (buf[i + 1] - center.y) ** 2 + (buf[i + 2] - center.z) ** 2;
      if (d2 > r2) r2 = d2;
    }
  }
  const radius = Math.max(2, Math.sqrt(r2) + 1);
  return { center, radius };
}

type ViewCamera = THREE.PerspectiveCamera | THREE.OrthographicCamera;
/** A ref the scene's handles and listeners read after the render that set it. */
interface Latest<T> {
  readonly current: T;
}

/**
 * The view's cameras. Setup: a perspective and an orthographic camera built once and sized by us. Fit: a resize keeps
 * the aspect and the orthographic half-height. Restore: switching projection keeps the same view.
 */
function useViewCamera(orthographic: boolean) {
  const size = useThree((s) => s.size);
  const set = useThree((s) => s.set);
  const invalidate = useThree((s) => s.invalidate);
  const cameras = useMemo(() => {
    const persp = new THREE.PerspectiveCamera(PERSPECTIVE_FOV, 1, 0.1, 2000);
    const ortho = new THREE.OrthographicCamera(-10, 10, 10, -10, 0.1, 2000);
    // We size both cameras ourselves (r3f would set the orthographic frustum in pixels).
    (persp as unknown as { manual: boolean }).manual = true;
    (ortho as unknown as { manual: boolean }).manual = true;
    persp.position.set(0, 0, 20);
    ortho.position.set(0, 0, 20);
    // One up vector for both: three-stdlib's OrbitControls takes its orbit axis from the `up` of the camera it was
    // built with (the perspective one), also while it drives the orthographic one.
    ortho.up = persp.up;
    return { persp, ortho };
  }, []);
  const cameraRef = useRef<ViewCamera>(cameras.persp);
  // drei's <OrbitControls> (in Scene) owns the controls; they are bound to the perspective camera once and handed
  // the orthographic one by `controls.object` (a new camera prop would make drei build new controls and lose the target).
  const [controls, setControls] = useState<OrbitHandle | null>(null);

  // Resize: keep aspect and the orthographic half-height.
  useLayoutEffect(() => {
    const aspect = size.width / Math.max(1, size.height);
    cameras.persp.aspect = aspect;
    cameras.persp.updateProjectionMatrix();
    const half = cameras.ortho.top;
    cameras.ortho.left = -half * aspect;
    cameras.ortho.right = half * aspect;
    cameras.ortho.updateProjectionMatrix();
    invalidate();
  }, [size.width, size.height, cameras, invalidate]);

  // Perspective ⇄ orthographic with the same view: the orthographic half-height equals the
  // perspective frustum's half-height at the target distance.
  useLayoutEffect(() => {
    const from = cameraRef.current;
    const to = orthographic ? cameras.ortho : cameras.persp;
    // Before drei's controls mount (the first commit) the target is where they start: the origin.
    const target = controls?.target ?? new THREE.Vector3();
    const tanHalf = Math.tan(((PERSPECTIVE_FOV / 2) * Math.PI) / 180);
    if (from !== to) {
      to.position.copy(from.position);
      to.up.copy(from.up);
      to.near = from.near;
      to.far = from.far;
      if (to instanceof THREE.OrthographicCamera) {
        fitOrthographic(to, from.position.distanceTo(target) * tanHalf);
      } else if (from instanceof THREE.OrthographicCamera) {
        const dist = from.top / from.zoom / tanHalf;
        const dir = from.position.clone().sub(target).normalize();
        to.position.copy(target).addScaledVector(dir, dist);
      }
      to.lookAt(target);
      to.updateProjectionMatrix();
    }
    cameraRef.current = to;
    if (controls) {
      controls.object = to;
      controls.update();
    }
    set({ camera: to });
    invalidate();
  }, [orthographic, cameras, controls, set, invalidate]);

  return { cameras, cameraRef: cameraRef as Latest<ViewCamera>, controls, setControls };
}

/**
 * Hands the controller this scene's handles once drei's controls exist, and refits the view when the fit key changes
 * (declared after the registration, so a refit in the same commit already uses this scene).
 */
function useControllerRegistration({
  controller,
  controls,
  cameraRef,
  displayRef,
  fitBoundsRef,
  fitKey,
}: {
  controller: ViewerController;
  controls: OrbitHandle | null;
  cameraRef: Latest<ViewCamera>;
  displayRef: Latest<DisplayData | null>;
  fitBoundsRef: Latest<ViewerProps['fitBounds']>;
  fitKey: unknown;
}) {
  const gl = useThree((s) => s.gl);
  const scene = useThree((s) => s.scene);
  const invalidate = useThree((s) => s.invalidate);
  useEffect(() => {
    if (!controls) return;
    controller.register({
      gl,
      scene,
      controls,
      invalidate,
      getCamera: () => cameraRef.current,
      getPositions: () => displayRef.current?.positions ?? null,
      getBounds: () => {
        const b = fitBoundsRef.current;
        return b && !displayRef.current?.natoms
          ? { center: new THREE.Vector3(...b.center), radius: b.radius }
          : sceneBounds(displayRef.current);
      },
      getCell: () => cellVectors(displayRef.current),
    });
    return () => controller.register(null);
    // The refs are stable (one object each for the life of the scene): listing them adds no re-registration.
  }, [gl, scene, controls, invalidate, controller, cameraRef, displayRef, fitBoundsRef]);

  useEffect(() => {
    if (controls) controller.resetView();
  }, [fitKey, controller, controls]);
}

/**
 * Pointer picking: a click or tap picks the nearest atom along the ray, a double tap refits the view, and a still
 * pointer reports the atom under it.
 */
function usePointerPicking({
  display,
  radii,
  cameraRef,
  onPick,
  onHover,
  controller,
}: {
  display: DisplayData | null;
  radii: Float32Array | null;
  cameraRef: Latest<ViewCamera>;
  onPick: ViewerProps['onPick'];
  onHover: ViewerProps['onHover'];
  controller: ViewerController;
}) {
  const gl = useThree((s) => s.gl);
  // An effect event reads the latest props at click time, so an inline onPick does not re-attach the pointer listeners
  // on every render.
  const atomAt = useEffectEvent((x: number, y: number, el: HTMLCanvasElement): number | null => {
    if (!display || !radii) return null;
    const rect = el.getBoundingClientRect();
    const ndc = new THREE.Vector2(((x - rect.left) / rect.width) * 2 - 1, -((y - rect.top) / rect.height) * 2 + 1);
    const ray = new THREE.Raycaster();
    ray.setFromCamera(ndc, cameraRef.current);
    const o = ray.ray.origin;
    const dir = ray.ray.direction;
    return pickSphere([o.x, o.y, o.z], [dir.x, dir.y, dir.z], display.positions, radii);
  });
  const pickAt = useEffectEvent((e: PointerEvent, el: HTMLCanvasElement) => {
    if (onPick) onPick(atomAt(e.clientX, e.clientY, el));
  });
  // Hover: the atom under a still (not dragging) pointer, at most once per animation frame (a scan of the radii).
  const hoverAt = useEffectEvent((x: number, y: number, el: HTMLCanvasElement) => {
    if (onHover) onHover(Number.isFinite(x) ? atomAt(x, y, el) : null, x, y);
  });
  const hovers = !!onHover;
  useEffect(() => {
    if (!hovers) return;
    const el = gl.domElement;
    let raf = 0;
    let last: PointerEvent | null = null;
    const move = (e: PointerEvent) => {
      if (e.buttons !== 0 || e.pointerType === 'touch') return hoverAt(NaN, NaN, el);
      last = e;
      if (!raf)
        raf = requestAnimationFrame(() => {
          raf = 0;
          if (last) hoverAt(last.clientX, last.clientY, el);
        });
    };
    const leave = () => {
      cancelAnimationFrame(raf);
      raf = 0;
      last = null;
      hoverAt(NaN, NaN, el);
    };
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerleave', leave);
    return () => {
      leave();
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerleave', leave);
    };
  }, [gl, hovers]);
  // A tap picks like a click; a double tap refits the view (tablets have no r key).
  useEffect(() => {
    const el = gl.domElement;
    return tapGestures(
      el,
      (e) => pickAt(e, el),
      () => controller.resetView(),
    );
  }, [gl, controller]);
}

/** Draws each frame (r3f's own render is off at priority 1) and records its time in frameStats and the controller. */
function useFrameStats(controller: ViewerController, displayRef: Latest<DisplayData | null>) {
  useFrame((state) => {
    const t0 = performance.now();
    state.gl.render(state.scene, state.camera);
    if (frameStats.syncFrames) {
      const ctx = state.gl.getContext();
      ctx.readPixels(0, 0, 1, 1, ctx.RGBA, ctx.UNSIGNED_BYTE, new Uint8Array(4));
    }
    frameStats.lastFrameMs = performance.now() - t0;
    frameStats.frames++;
    controller.frameDrawn();
    // The first frame that shows atoms (benchmarks: time to first rendered structure).
    if (frameStats.firstFrameAt === null && displayRef.current) frameStats.firstFrameAt = performance.now();
    markRendered();
  }, 1);
}

function Scene({
  display,
  settings,
  selection = NO_INDICES,
  fitKey,
  onPick,
  hiddenElements = NO_ELEMENTS,
  atomColors,
  radiusFactors = null,
  onHover,
  children,
  controller = mainViewer,
  fitBounds,
  label,
  describedBy,
  siteLabels = null,
}: ViewerProps) {
  const gl = useThree((s) => s.gl);
  useEffect(() => {
    gl.domElement.setAttribute('aria-label', label ?? '3D structure view');
    if (describedBy) gl.domElement.setAttribute('aria-describedby', describedBy);
  }, [gl, label, describedBy]);

  // The committed display and fit bounds, for the handles the controller calls at any time and the frame loop.
  // Declared before the camera hook: this layout effect ran first before the split.
  const displayRef = useRef(display);
  const fitBoundsRef = useRef(fitBounds);
  useLayoutEffect(() => {
    displayRef.current = display;
    fitBoundsRef.current = fitBounds;
    controller.displayCommitted(); // its atoms are in the scene graph now (children commit before this effect runs)
  }, [display, fitBounds, controller]);

  const { cameras, cameraRef, controls, setControls } = useViewCamera(settings.orthographic);
  const onControlsChange = useCallback(() => controller.controlsChanged(), [controller]);

  // Only the settings that size atoms: a colour or bond setting must not rebuild the atom buffers.
  const radii = useMemo(
    () => {
      if (!display) return null;
      const r = atomRadii(display, settings, hiddenElements);
      if (radiusFactors && radiusFactors.length === r.length) for (let i = 0; i < r.length; i++) r[i] *= radiusFactors[i];
      return r;
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [display, settings.style, settings.atomScale, hiddenElements, radiusFactors],
  );

  useControllerRegistration({ controller, controls, cameraRef, displayRef, fitBoundsRef, fitKey });

  // Labels: every drawn atom in a small scene; in a large one the picks and the atoms nearest the last pick, so the
  // selection is a dependency only there.
  const labels = labelMode(settings.labels);
  const labelSelection = display && display.natoms > LABELS_ALL_MAX ? selection : NO_INDICES;
  const labelAtoms = useMemo(
    () => (display && radii && labels.kind !== 'none' ? labelledAtoms(display.positions, radii, labelSelection) : null),
    [display, radii, labels.kind, labelSelection],
  );
  const labelTexts = useMemo(
    () => (display && labelAtoms ? Array.from(labelAtoms, (i) => atomLabelText(labelMode(settings.labels), i, display, siteLabels)) : null),
    [display, labelAtoms, settings.labels, siteLabels],
  );

  usePointerPicking({ display, radii, cameraRef, onPick, onHover, controller });
  useFrameStats(controller, displayRef);

  return (
    <>
      <OrbitControls
        ref={setControls}
        camera={cameras.persp}
        domElement={gl.domElement}
        enableDamping={false}
        zoomSpeed={1.2}
        onChange={onControlsChange}
      />
      {display && radii && (
        <Atoms display={display} radii={radii} settings={settings} atomColors={atomColors ?? null} controller={controller} />
      )}
      {display && settings.showBonds && settings.style === 'ball-and-stick' && display.nbonds > 0 && (
        <Bonds display={display} settings={settings} hiddenElements={hiddenElements} />
      )}
      {display && settings.showCell && display.cell && <CellBox display={display} />}
      {display && settings.showPolyhedra && display.polyElement.length > 0 && <Polyhedra display={display} settings={settings} />}
      {display && radii && selection.length > 0 && <Selection display={display} radii={radii} selection={selection} />}
      {display && radii && labelAtoms && labelTexts && labelAtoms.length > 0 && (
        <AtomLabels positions={display.positions} radii={radii} atoms={labelAtoms} texts={labelTexts} controller={controller} />
      )}
      {children}
    </>
  );
}

function Atoms({
  display,
  radii,
  settings,
  atomColors,
  controller,
}: {
  display: DisplayData;
  radii: Float32Array;
  settings: ViewSettings;
  atomColors: Float32Array | null;
  controller: ViewerController;
}) {
  const mesh = useDisposable(() => {
    controller.atomBuilds++;
    let colors: Float32Array;
    if (atomColors && atomColors.length === 3 * display.natoms) colors = atomColors.slice();
    else {
      const palette = elementColors(display, settings);
      colors = new Float32Array(3 * display.natoms);
      for (let i = 0; i < display.natoms; i++) colors.set(palette[display.element[i]], 3 * i);
    }
    controller.recordAtoms(radii, colors);
    return makeSphereMesh({ centers: display.positions, radii, colors, count: display.natoms });
  }, [display, radii, settings.colorScheme, atomColors, controller]);
  return <primitive object={mesh} />;
}

function Bonds({ display, settings, hiddenElements }: { display: DisplayData; settings: ViewSettings; hiddenElements: readonly string[] }) {
  const mesh = useDisposable(() => {
    const palette = elementColors(display, settings);
    const hidden = display.elements.map((el) => hiddenElements.includes(el));
    const kept: number[] = [];
    for (let b = 0; b < display.nbonds; b++)
      if (!hidden[display.bondElements[2 * b]] && !hidden[display.bondElements[2 * b + 1]]) kept.push(b);
    const n = kept.length;
    const starts = new Float32Array(6 * n);
    const ends = new Float32Array(6 * n);
    const colors = new Float32Array(6 * n);
    const s = display.bondStart;
    const e = display.bondEnd;
    for (let k = 0; k < n; k++) {
      const b = kept[k];
      const mid = [(s[3 * b] + e[3 * b]) / 2, (s[3 * b + 1] + e[3 * b + 1]) / 2, (s[3 * b + 2] + e[3 * b + 2]) / 2];
      starts.set(s.subarray(3 * b, 3 * b + 3), 6 * k);
      ends.set(mid, 6 * k);
      colors.set(palette[display.bondElements[2 * b]], 6 * k);
      starts.set(mid, 6 * k + 3);
      ends.set(e.subarray(3 * b, 3 * b + 3), 6 * k + 3);
      colors.set(palette[display.bondElements[2 * b + 1]], 6 * k + 3);
    }
    return makeTubeMesh({ starts, ends, colors, count: 2 * n }, settings.bondRadius);
  }, [display, settings.colorScheme, settings.bondRadius, hiddenElements]);
  return <primitive object={mesh} />;
}

/** A canvas-texture label in the WebGL scene: drei's <Html> labels are DOM, and the PNG export renders the WebGL scene only. */
function labelSprite(text: string, color: string, size: number): THREE.Sprite {
  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 64;
  const ctx = canvas.getContext('2d')!;
  ctx.font = 'italic bold 48px sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.lineWidth = 6;
  ctx.strokeStyle = 'rgba(255,255,255,0.85)';
  ctx.strokeText(text, 32, 34);
  ctx.fillStyle = color;
  ctx.fillText(text, 32, 34);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: texture, depthTest: false, transparent: true }));
  sprite.scale.set(size, size, 1);
  sprite.renderOrder = 10;
  return sprite;
}

function CellBox({ display }: { display: DisplayData }) {
  // Rebuilt when the cell or the supercell changes, not with every scene: a fixed-cell trajectory keeps its box and labels.
  const cellKey = `${display.cell?.join(' ')}|${display.supercell.join(' ')}`;
  const group = useDisposable(() => {
    const [a, b, c] = cellVectors(display)!;
    const [na, nb, nc] = display.supercell;
    const A = a.clone().multiplyScalar(na);
    const B = b.clone().multiplyScalar(nb);
    const C = c.clone().multiplyScalar(nc);
    const O = new THREE.Vector3();
    const corners = (x: number, y: number, z: number) => O.clone().addScaledVector(A, x).addScaledVector(B, y).addScaledVector(C, z);
    const points: THREE.Vector3[] = [];
    for (const [p, q] of CELL_EDGES) points.push(corners(p[0], p[1], p[2]), corners(q[0], q[1], q[2]));
    const group = new THREE.Group();
    const edges = new THREE.LineSegments(
      new THREE.BufferGeometry().setFromPoints(points),
      new THREE.LineBasicMaterial({ color: CELL_EDGE_COLORS[shownTheme()] }),
    );
    edges.name = 'cell-edges';
    group.add(edges);
    // Axis colours a/b/c = red/green/blue along the first unit cell's edges, labelled at their tips.
    const size = Math.max(0.8, 0.1 * Math.max(A.length(), B.length(), C.length()), 0.12 * Math.max(a.length(), b.length(), c.length()));
    [
      [a, '#d62728'],
      [b, '#2ca02c'],
      [c, '#1f5fd6'],
    ].forEach(([v, color], k) => {
      const vec = v as THREE.Vector3;
      const axis = new THREE.Line(
        new THREE.BufferGeometry().setFromPoints([O, vec]),
        new THREE.LineBasicMaterial({ color: color as string }),
      );
      axis.renderOrder = 5;
      group.add(axis);
      const sprite = labelSprite('abc'[k], color as string, size);
      sprite.position.copy(vec).addScaledVector(vec.clone().normalize(), size * 0.6);
      group.add(sprite);
    });
    return group;
  }, [cellKey]);
  const invalidate = useThree((s) => s.invalidate);
  // The theme switch recolours the edges, no rebuild.
  useEffect(
    () =>
      watchShownTheme((theme) => {
        const edges = group.getObjectByName('cell-edges') as THREE.LineSegments<THREE.BufferGeometry, THREE.LineBasicMaterial>;
        edges.material.color.set(CELL_EDGE_COLORS[theme]);
        invalidate();
      }),
    [group, invalidate],
  );
  return <primitive object={group} />;
}

function Polyhedra({ display, settings }: { display: DisplayData; settings: ViewSettings }) {
  const mesh = useDisposable(() => {
    const palette = elementColors(display, settings);
    const ntri = display.polyElement.length;
    const colors = new Float32Array(9 * ntri);
    const c = new THREE.Color();
    for (let t = 0; t < ntri; t++) {
      const [r, g, b] = palette[display.polyElement[t]];
      c.setRGB(r, g, b, THREE.SRGBColorSpace);
      for (let v = 0; v < 3; v++) colors.set([c.r, c.g, c.b], 9 * t + 3 * v);
    }
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(display.polyTriangles, 3));
    geometry.setAttribute('color', new THREE.BufferAttribute(colors, 3));
    geometry.computeVertexNormals();
    const material = new THREE.MeshLambertMaterial({
      vertexColors: true,
      transparent: true,
      opacity: 0.45,
      side: THREE.DoubleSide,
      depthWrite: false,
    });
    const mesh = new THREE.Mesh(geometry, material);
    mesh.renderOrder = 2;
    return mesh;
  }, [display, settings.colorScheme]);
  return <primitive object={mesh} />;
}

function Selection({ display, radii, selection }: { display: DisplayData; radii: Float32Array; selection: readonly number[] }) {
  const group = useDisposable(() => {
    const valid = selection.filter((i) => i < display.natoms);
    const centers = new Float32Array(3 * valid.length);
    const r = new Float32Array(valid.length);
    const colors = new Float32Array(3 * valid.length);
    valid.forEach((i, k) => {
      centers.set(display.positions.subarray(3 * i, 3 * i + 3), 3 * k);
      r[k] = radii[i] * 1.3 + 0.05;
      colors.set([1, 0.85, 0.1], 3 * k);
    });
    const group = new THREE.Group();
    const halo = makeSphereMesh({ centers, radii: r, colors, count: valid.length }, 0.45);
    halo.renderOrder = 3;
    group.add(halo);
    if (valid.length > 1) {
      const pts = valid.map((i) => new THREE.Vector3(display.positions[3 * i], display.positions[3 * i + 1], display.positions[3 * i + 2]));
      const line = new THREE.Line(
        new THREE.BufferGeometry().setFromPoints(pts),
        new THREE.LineDashedMaterial({ color: 0xe0a000, dashSize: 0.2, gapSize: 0.12, depthTest: false }),
      );
      line.computeLineDistances();
      line.renderOrder = 4;
      group.add(line);
    }
    return group;
  }, [display, radii, selection]);
  return <primitive object={group} />;
}
