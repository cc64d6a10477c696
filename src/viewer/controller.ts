/**
 * The imperative side of the viewer (camera moves, export, projection), shared by the toolbar,
 * keyboard shortcuts, tests (`window.__structlab`) and the render benchmark. The r3f scene registers
 * itself here when it mounts.
 */
import * as THREE from 'three';
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

export interface ViewerHandles {
  gl: THREE.WebGLRenderer;
  scene: THREE.Scene;
  getCamera: () => THREE.PerspectiveCamera | THREE.OrthographicCamera;
  controls: OrbitControls;
  invalidate: () => void;
  /** Positions of drawn atoms (world = Cartesian Å). */
  getPositions: () => Float32Array | null;
  /** Bounding sphere of the scene, for fitting. */
  getBounds: () => { center: THREE.Vector3; radius: number };
  /** Unit-cell rows a, b, c or null. */
  getCell: () => THREE.Vector3[] | null;
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

let handles: ViewerHandles | null = null;
export const registerViewer = (h: ViewerHandles | null) => { handles = h; };
export const viewerReady = () => handles !== null;

const FOV = 40;
export const PERSPECTIVE_FOV = FOV;

/** Places the camera looking along `-dir` (i.e. `dir` points at the viewer) at a distance that fits the scene. */
function placeCamera(dir: THREE.Vector3, up: THREE.Vector3): void {
  if (!handles) return;
  const { center, radius } = handles.getBounds();
  const camera = handles.getCamera();
  const d = dir.clone().normalize();
  const dist = (radius * 1.05) / Math.sin(((FOV / 2) * Math.PI) / 180);
  camera.position.copy(center).addScaledVector(d, dist);
  // Make `up` orthogonal to the view direction; fall back if parallel.
  let u = up.clone().addScaledVector(d, -up.dot(d));
  if (u.lengthSq() < 1e-8) u = new THREE.Vector3(0, 1, 0).addScaledVector(d, -d.y);
  if (u.lengthSq() < 1e-8) u = new THREE.Vector3(1, 0, 0).addScaledVector(d, -d.x);
  camera.up.copy(u.normalize());
  if (camera instanceof THREE.OrthographicCamera) {
    fitOrthographic(camera, radius * 1.05);
  }
  camera.near = Math.max(0.01, dist - radius * 3);
  camera.far = dist + radius * 3;
  camera.lookAt(center);
  camera.updateProjectionMatrix();
  handles.controls.target.copy(center);
  handles.controls.update();
  handles.invalidate();
}

export function fitOrthographic(camera: THREE.OrthographicCamera, halfHeight: number): void {
  const aspect = (camera.right - camera.left) / Math.max(1e-9, camera.top - camera.bottom) || 1;
  camera.top = halfHeight;
  camera.bottom = -halfHeight;
  camera.left = -halfHeight * aspect;
  camera.right = halfHeight * aspect;
  camera.zoom = 1;
}

export function resetView(): void {
  if (!handles) return;
  const cell = handles.getCell();
  if (cell) {
    // A slightly tilted view down c with a up-ish, like most crystal viewers' default.
    const [a, b, c] = cell.map((v) => v.clone().normalize());
    placeCamera(c.clone().multiplyScalar(1).addScaledVector(a, 0.35).addScaledVector(b, 0.55), b);
  } else {
    placeCamera(new THREE.Vector3(0, 0, 1), new THREE.Vector3(0, 1, 0));
  }
}

/** View along [uvw] (direct-lattice direction u·a + v·b + w·c), or a Cartesian axis without a cell. */
export function viewAlong(u: number, v: number, w: number): void {
  if (!handles) return;
  const cell = handles.getCell();
  const dir = cell
    ? cell[0].clone().multiplyScalar(u).addScaledVector(cell[1], v).addScaledVector(cell[2], w)
    : new THREE.Vector3(u, v, w);
  if (dir.lengthSq() === 0) return;
  // Up: c when looking along a or b, b when looking along c.
  const up = cell ? (Math.abs(w) > Math.max(Math.abs(u), Math.abs(v)) ? cell[1] : cell[2]) : new THREE.Vector3(0, 1, 0);
  placeCamera(dir, up.clone());
}

/** Rotates the camera about the target around the current up axis (benchmark hook). */
export function orbit(degrees: number): void {
  if (!handles) return;
  const camera = handles.getCamera();
  const target = handles.controls.target;
  const offset = camera.position.clone().sub(target);
  offset.applyAxisAngle(camera.up.clone().normalize(), (degrees * Math.PI) / 180);
  camera.position.copy(target).add(offset);
  camera.lookAt(target);
  handles.controls.update();
  handles.invalidate();
}

export function invalidate(): void {
  handles?.invalidate();
}

/** Screen position (CSS pixels, page coordinates) and NDC depth of drawn atom i. */
export function projectAtom(i: number): { x: number; y: number; depth: number } | null {
  const p = handles?.getPositions();
  if (!handles || !p || 3 * i + 2 >= p.length) return null;
  const v = new THREE.Vector3(p[3 * i], p[3 * i + 1], p[3 * i + 2]).project(handles.getCamera());
  const rect = handles.gl.domElement.getBoundingClientRect();
  return { x: rect.left + ((v.x + 1) / 2) * rect.width, y: rect.top + ((1 - v.y) / 2) * rect.height, depth: v.z };
}

/**
 * Renders the scene at 2× the canvas CSS size into an offscreen target with a transparent
 * background and returns a PNG blob (the on-screen canvas keeps its size and background).
 */
export async function renderPng(scale = 2): Promise<Blob> {
  if (!handles) throw new Error('The viewer is not ready.');
  const { gl, scene } = handles;
  const camera = handles.getCamera();
  const rect = gl.domElement.getBoundingClientRect();
  const width = Math.round(rect.width) * scale;
  const height = Math.round(rect.height) * scale;
  const target = new THREE.WebGLRenderTarget(width, height, { samples: 4, type: THREE.UnsignedByteType, format: THREE.RGBAFormat });
  const previousClear = gl.getClearColor(new THREE.Color());
  const previousAlpha = gl.getClearAlpha();
  const previousBackground = scene.background;
  const pixels = new Uint8Array(width * height * 4);
  try {
    scene.background = null;
    gl.setRenderTarget(target);
    gl.setClearColor(0x000000, 0);
    gl.clear(true, true, true);
    gl.render(scene, camera);
    gl.readRenderTargetPixels(target, 0, 0, width, height, pixels);
  } finally {
    gl.setRenderTarget(null);
    gl.setClearColor(previousClear, previousAlpha);
    scene.background = previousBackground;
    target.dispose();
    handles.invalidate();
  }
  // WebGL rows run bottom-up; the PNG is top-down.
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('No 2D canvas available to encode the PNG.');
  const image = ctx.createImageData(width, height);
  const row = width * 4;
  for (let y = 0; y < height; y++) image.data.set(pixels.subarray((height - 1 - y) * row, (height - y) * row), y * row);
  ctx.putImageData(image, 0, 0);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed.'))), 'image/png'));
}

export async function downloadPng(fileName = 'structlab.png'): Promise<void> {
  const blob = await renderPng(2);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

declare global {
  interface Window {
    __structlab?: {
      readonly frames: number;
      readonly firstFrameAt: number | null;
      readonly lastFrameMs: number;
      syncFrames: boolean;
      projectAtom: typeof projectAtom;
      orbit: typeof orbit;
      natoms: () => number;
    };
  }
}

export function installTestHooks(): void {
  window.__structlab = {
    get frames() { return frameStats.frames; },
    get firstFrameAt() { return frameStats.firstFrameAt; },
    get lastFrameMs() { return frameStats.lastFrameMs; },
    get syncFrames() { return frameStats.syncFrames; },
    set syncFrames(v: boolean) { frameStats.syncFrames = v; },
    projectAtom,
    orbit,
    natoms: () => (handles?.getPositions()?.length ?? 0) / 3,
  };
}
